/**
 * Names of services and artifacts appear in read-API URLs (`/services/:service/diagrams/:name`), so they are
 * restricted to URL-safe characters. The server re-validates bundle names with the same function.
 */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const NAME_MAX_LENGTH = 100;

/** Returns why `name` is not a valid service or artifact name, or undefined when it is. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'The name is empty.';
  if (name.length > NAME_MAX_LENGTH) return `The name is ${name.length} characters long; at most ${NAME_MAX_LENGTH} are allowed.`;
  if (!NAME_PATTERN.test(name)) {
    return `"${name}" is not a valid name: use letters, digits, ".", "_" and "-", starting with a letter or digit.`;
  }
  return undefined;
}
