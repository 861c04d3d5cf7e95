/**
 * Nested request objects must become class instances for @ValidateNested. class-transformer's @Type
 * would do it but calls Reflect.getMetadata when the class is declared, which breaks every consumer
 * without reflect-metadata (the browser); `@Transform(({ value }) => asInstance(Type, value))` has no such need.
 * Anything but a plain object is returned as is, so the validators report it as the wrong type.
 */
export function asInstance<T extends object>(type: new () => T, value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.assign(new type(), value) : value;
}
