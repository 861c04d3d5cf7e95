import { ValidateIf } from 'class-validator';

/**
 * `@IsOptional()` skips every validator for null as well as for a missing property, so `{"role": null}` would
 * pass and reach the database. Fields whose type has no `| null` use this instead: a property left out is
 * skipped, null is validated like any other value and refused by the field's own validators, naming the field.
 */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
