/**
 * A strict JSON parser that says what is wrong in the words a person uses: a trailing comma,
 * a comment, an unquoted key, a single-quoted string. JSON.parse only reports an offset and
 * an engine-specific message. It also records where every value starts so later validation
 * errors can carry a line and column next to their JSON path.
 */
import { findUnstorableCharacter, MAX_JSON_DEPTH } from '@sc/contracts/core';
import { positionsIn } from '../source-map';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
  /** JSON path of the value being read, when the error is about one (nesting too deep). */
  path?: string;
}

/** A string (value or property name) holding a character no database can store, with where it starts. */
export interface UnstorableString {
  path: string;
  line: number;
  column: number;
  description: string;
}

export interface StrictJsonResult {
  value?: JsonValue;
  error?: JsonSyntaxError;
  /** Position of the value at each JSON path ($, $.nodes, $.nodes.api ...). */
  positions: Map<string, { line: number; column: number }>;
  duplicateKeys: { path: string; line: number; column: number }[];
  /** Strings that decode to a NUL or an unpaired surrogate (`\u0000`, `\ud800`): valid JSON, but not storable text. */
  unstorableStrings: UnstorableString[];
}

export function jsonPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** Sticky, so a number is matched where the parser stands without copying the rest of the text. */
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Failure extends Error {
  constructor(
    readonly at: number,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export function parseStrictJson(text: string): StrictJsonResult {
  const positions = new Map<string, { line: number; column: number }>();
  const duplicateKeys: StrictJsonResult['duplicateKeys'] = [];
  const unstorableStrings: UnstorableString[] = [];
  let i = 0;

  const position = positionsIn(text);
  const fail = (message: string, at = i, path?: string): never => {
    throw new Failure(at, message, path);
  };
  const skipWhitespace = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) fail('Comments are not allowed in JSON; remove the comment.');
      else if (c === '#') fail('Comments are not allowed in JSON; remove the comment.');
      else break;
    }
  };
  const describe = (c: string | undefined) => (c === undefined ? 'the end of the file' : `"${c}"`);
  const noteUnstorable = (text: string, path: string, start: number) => {
    const found = findUnstorableCharacter(text);
    if (found) unstorableStrings.push({ path, ...position(start), description: found.description });
  };

  const parseString = (): string => {
    const quote = text[i];
    if (quote === "'") fail('Strings must use double quotes, not single quotes.');
    i++;
    let out = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\n') fail('Unterminated string: a line break inside a string must be written as \\n.');
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail(`Invalid escape sequence "\\${e ?? ''}" in a string.`);
      } else {
        out += c;
        i++;
      }
    }
    return fail('Unterminated string: the closing double quote is missing.');
  };

  const parseNumber = (): number => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) return fail(`Unexpected ${describe(text[i])}: expected a value.`);
    i += match[0].length;
    return Number(match[0]);
  };

  const parseValue = (path: string, depth: number): JsonValue => {
    skipWhitespace();
    positions.set(path, position(i));
    const c = text[i];
    if ((c === '{' || c === '[') && depth >= MAX_JSON_DEPTH) {
      fail(`Objects and arrays are nested more than ${MAX_JSON_DEPTH} levels deep at ${path}; flatten the structure.`, i, path);
    }
    if (c === '{') return parseObject(path, depth + 1);
    if (c === '[') return parseArray(path, depth + 1);
    if (c === '"' || c === "'") {
      const start = i;
      const value = parseString();
      noteUnstorable(value, path, start);
      return value;
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return parseNumber();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    if (c === undefined) return fail('Unexpected end of the file: expected a value.');
    return fail(`Unexpected ${describe(c)}: expected a value (string in double quotes, number, true, false, null, object or array).`);
  };

  /** Where the last "," stood: a trailing comma is reported there. */
  let lastComma = 0;
  /** Consumes the closing bracket if it comes next. */
  const closes = (close: '}' | ']'): boolean => {
    skipWhitespace();
    if (text[i] !== close) return false;
    i++;
    return true;
  };
  /** After a property or element: true at "," (another follows), false at the closing bracket (consumed). */
  const continues = (close: '}' | ']', after: string): boolean => {
    skipWhitespace();
    if (text[i] === ',') {
      lastComma = i;
      i++;
      return true;
    }
    if (closes(close)) return false;
    return fail(`Unexpected ${describe(text[i])}: expected "," or "${close}" after ${after}.`);
  };

  const parseObject = (path: string, depth: number): JsonValue => {
    i++;
    const out: { [key: string]: JsonValue } = {};
    if (closes('}')) return out;
    do {
      skipWhitespace();
      const keyStart = i;
      if (text[i] === '}') fail('Trailing comma before "}": remove the comma after the last property.', lastComma);
      if (text[i] !== '"') {
        if (text[i] === "'") fail('Property names must use double quotes, not single quotes.');
        if (/[A-Za-z_$]/.test(text[i] ?? '')) fail('Unquoted property name: property names must be in double quotes.');
        fail(`Unexpected ${describe(text[i])}: expected a property name in double quotes.`);
      }
      const key = parseString();
      skipWhitespace();
      if (text[i] !== ':') fail(`Unexpected ${describe(text[i])}: expected ":" after the property name.`);
      i++;
      const childPath = jsonPath(path, key);
      noteUnstorable(key, childPath, keyStart);
      if (Object.prototype.hasOwnProperty.call(out, key)) duplicateKeys.push({ path: childPath, ...position(keyStart) });
      const child = parseValue(childPath, depth);
      // Assigning "__proto__" would set the object's prototype and lose the key; it is a valid node id.
      if (key === '__proto__') Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
      else out[key] = child;
    } while (continues('}', 'a property value'));
    return out;
  };

  const parseArray = (path: string, depth: number): JsonValue => {
    i++;
    const out: JsonValue[] = [];
    if (closes(']')) return out;
    do {
      skipWhitespace();
      if (text[i] === ']') fail('Trailing comma before "]": remove the comma after the last element.', lastComma);
      out.push(parseValue(jsonPath(path, out.length), depth));
    } while (continues(']', 'an array element'));
    return out;
  };

  try {
    // A UTF-8 byte order mark is tolerated: editors on Windows add it.
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    const value = parseValue('$', 0);
    skipWhitespace();
    if (i < text.length) fail(`Unexpected ${describe(text[i])} after the end of the JSON document.`);
    return { value, positions, duplicateKeys, unstorableStrings };
  } catch (error) {
    if (error instanceof Failure) {
      return { error: { message: error.message, ...position(error.at), ...(error.path ? { path: error.path } : {}) }, positions, duplicateKeys, unstorableStrings };
    }
    throw error;
  }
}
