import type { ValidationError } from 'class-validator';
import { CommonErrorCode, type ErrorDetail } from '@sc/contracts';
import { errorFactoryFor } from './error-status';

export { CommonErrorCode };

export const commonError = errorFactoryFor<CommonErrorCode>();

/** Flattens class-validator errors (nested objects and arrays included) into one detail per failed field. */
export function validationDetails(errors: ValidationError[], parentPath = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const path = parentPath ? (/^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : `${parentPath}.${error.property}`) : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      path,
      // class-validator prefixes messages with the bare property name; show the full path instead.
      message: message.startsWith(`${error.property} `) ? `${path}${message.slice(error.property.length)}` : message,
    }));
    return [...own, ...validationDetails(error.children ?? [], path)];
  });
}

export function validationFailed(errors: ValidationError[]) {
  const details = validationDetails(errors);
  const summary = details.length === 1 ? details[0].message : `${details.length} fields are invalid`;
  return commonError(CommonErrorCode.ValidationFailed, `The request is invalid: ${summary}.`, details);
}
