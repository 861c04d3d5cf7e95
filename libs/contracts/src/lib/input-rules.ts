/**
 * Deepest nesting of objects and arrays in any JSON the service reads: request bodies, the sync bundle, context
 * files and JSON database schemas. Real input nests a handful of levels; the limit keeps recursive code (request
 * validation, JSON.stringify of what is stored or served) far from the stack limit whatever a client sends.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Text the service stores must fit PostgreSQL and be Unicode. PostgreSQL `text` and `jsonb` cannot hold U+0000 at
 * all, and an unpaired UTF-16 surrogate (only a JSON `\uD800` escape can produce one) is not a character: `jsonb`
 * refuses it and `text` would silently store U+FFFD instead. The server refuses both in every request and bundle;
 * the CLI runs the same check on the files it is about to send.
 */

export interface UnstorableCharacter {
  /** UTF-16 index of the character in the text. */
  index: number;
  /** What was found, for messages: "the NUL character (U+0000)". */
  description: string;
}

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. Without the
// `u` flag the pattern sees UTF-16 code units, which is exactly what an unpaired surrogate is. Linear time.
// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character of `text` that cannot be stored, or undefined when there is none. */
export function findUnstorableCharacter(text: string): UnstorableCharacter | undefined {
  const match = UNSTORABLE.exec(text);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return { index: match.index, description: code === 0 ? 'the NUL character (U+0000)' : `an unpaired UTF-16 surrogate (U+${hex}, not valid Unicode)` };
}

/** "contains the NUL character (U+0000), which cannot be stored", for any string a request or file carries. */
export function unstorableCharacterMessage(found: UnstorableCharacter): string {
  return `contains ${found.description}, which cannot be stored`;
}

/** Limits of the free-text service fields, in UTF-16 characters (`.service.yaml` and the sync bundle alike). */
export const SERVICE_TEXT_LIMITS = {
  description: 2000,
  repositoryUrl: 2048,
} as const;

/** Why a free-text field cannot be stored (too long, or an unstorable character), or undefined when it can. */
export function textFieldProblem(text: string, maxLength: number): { code: 'text_too_long' | 'unstorable_character'; message: string } | undefined {
  if (text.length > maxLength) return { code: 'text_too_long', message: `It is ${text.length} characters long; at most ${maxLength} are allowed.` };
  const found = findUnstorableCharacter(text);
  if (found) return { code: 'unstorable_character', message: `It ${unstorableCharacterMessage(found)} (character ${found.index + 1}).` };
  return undefined;
}
