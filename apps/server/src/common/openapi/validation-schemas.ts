import { getMetadataStorage } from 'class-validator';
import type { OpenAPIObject } from '@nestjs/swagger';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
/** OpenAPI schema objects, kept to the members written here (swagger does not export its spec types). */
interface SchemaObject {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  uniqueItems?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
}
interface ReferenceObject {
  $ref: string;
}
type Schema = SchemaObject | ReferenceObject;
type Constructor = abstract new (...args: never[]) => unknown;

/**
 * The request classes live in libs/contracts, which may not import Nest (so no @ApiProperty). Swagger
 * still names them in requestBody; this fills those empty schemas from the class-validator rules the
 * server enforces, so the documentation and the validation cannot drift apart.
 */
export function describeRequestSchemas(document: OpenAPIObject, classes: Constructor[]): void {
  const schemas = ((document.components ??= {}).schemas ??= {});
  const pending = [...classes];
  const seen = new Set<Constructor>();
  while (pending.length > 0) {
    const type = pending.pop() as Constructor;
    if (seen.has(type)) continue;
    seen.add(type);
    const schema = schemaOf(type, (nested) => {
      pending.push(nested);
      return { $ref: `#/components/schemas/${nested.name}` };
    });
    const existing = schemas[type.name] as SchemaObject | undefined;
    // Classes documented with @ApiProperty keep their own schema.
    if (schema && (!existing || Object.keys(existing.properties ?? {}).length === 0)) schemas[type.name] = schema;
  }
}

function schemaOf(type: Constructor, refer: (nested: Constructor) => ReferenceObject): SchemaObject | undefined {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  if (metadata.length === 0) return undefined;
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const entry of metadata) byProperty.set(entry.propertyName, [...(byProperty.get(entry.propertyName) ?? []), entry]);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    const optional = rules.some((rule) => rule.type === 'conditionalValidation');
    if (!optional) required.push(property);
    if (rules.some((rule) => rule.type === 'nestedValidation')) {
      const nested = Reflect.getMetadata('design:type', type.prototype as object, property) as Constructor | undefined;
      // Arrays of nested objects lose their element class at runtime (design:type is Array).
      properties[property] = nested === Array ? { type: 'array', items: { type: 'object' } } : nested && nested !== Object ? refer(nested) : { type: 'object' };
      continue;
    }
    properties[property] = propertySchema(rules);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** What a class-validator rule says of a value (of every element, for an `each` rule), from its constraints. */
const VALUE_SCHEMA: Partial<Record<string, (first: unknown, second: unknown) => SchemaObject>> = {
  isString: () => ({ type: 'string' }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  isBoolean: () => ({ type: 'boolean' }),
  isDateString: () => ({ type: 'string', format: 'date-time' }),
  isISO8601: () => ({ type: 'string', format: 'date-time' }),
  matches: (pattern) => ({ type: 'string', pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  isIn: (values) => ({ enum: [...(values as unknown[])] }),
  isLength: (min, max) => ({ minLength: min as number, ...(max !== undefined ? { maxLength: max as number } : {}) }),
  maxLength: (max) => ({ maxLength: max as number }),
  minLength: (min) => ({ minLength: min as number }),
  isUrl: () => ({ type: 'string', format: 'uri' }),
  isUuid: () => ({ type: 'string', format: 'uuid' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  min: (minimum) => ({ minimum: minimum as number }),
  max: (maximum) => ({ maximum: maximum as number }),
};

/** Rules about the array itself: the property is an array of values described by VALUE_SCHEMA. */
const ARRAY_SCHEMA: Partial<Record<string, (first: unknown) => SchemaObject>> = {
  isArray: () => ({}),
  arrayMinSize: (min) => ({ minItems: min as number }),
  arrayUnique: () => ({ uniqueItems: true }),
};

function propertySchema(rules: ValidationMetadata[]): SchemaObject {
  const item: SchemaObject = {};
  const array: SchemaObject = { type: 'array' };
  let isArray = false;
  for (const rule of rules) {
    const [first, second] = rule.constraints ?? [];
    const name = rule.name ?? '';
    const arrayRule = ARRAY_SCHEMA[name];
    if (arrayRule) {
      isArray = true;
      Object.assign(array, arrayRule(first));
    } else {
      Object.assign(item, VALUE_SCHEMA[name]?.(first, second));
    }
  }
  if (isArray || rules.some((rule) => rule.each)) return { ...array, items: item };
  return item;
}

const SCHEMA_REF = '#/components/schemas/';

/**
 * The request classes the document's request bodies name, looked up among `exported` (the module namespace of
 * @sc/contracts, where every request class lives). Swagger already found the `@Body()` types through Nest's
 * public API and referenced them by class name, so no Nest internals are needed here.
 */
export function requestBodyClasses(document: OpenAPIObject, exported: Record<string, unknown>): Constructor[] {
  const classes = new Set<Constructor>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, { requestBody?: { content?: Record<string, { schema?: Partial<ReferenceObject> }> } }>)) {
      for (const media of Object.values(operation?.requestBody?.content ?? {})) {
        const ref = media.schema?.$ref;
        if (!ref?.startsWith(SCHEMA_REF)) continue;
        const type = exported[ref.slice(SCHEMA_REF.length)];
        if (typeof type === 'function') classes.add(type as Constructor);
      }
    }
  }
  return [...classes];
}
