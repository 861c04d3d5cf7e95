import { MCP_MAX_ANSWER_BYTES } from '@sc/contracts';

/** One page of a long answer: the text, and where the next page starts (null on the last). */
export interface TextPage {
  text: string;
  total: number;
  nextOffset: number | null;
}

/**
 * The page of `text` that starts at character `offset` and holds at most `maxBytes` UTF-8 bytes, ending after a whole
 * line when one fits (JSON written by `linesJson` then pages element by element), and never inside a surrogate pair.
 * An offset past the end is the caller's mistake, told in words.
 */
export function pageOf(text: string, offset = 0, maxBytes = MCP_MAX_ANSWER_BYTES): TextPage {
  if (offset > text.length) throw new RangeError(`offset ${offset} is past the end of this answer (${text.length} characters).`);
  const rest = text.slice(offset);
  if (Buffer.byteLength(rest) <= maxBytes) return { text: rest, total: text.length, nextOffset: null };
  // At most maxBytes characters can fit; shrink until their UTF-8 bytes do.
  let cut = Math.min(rest.length, maxBytes);
  while (Buffer.byteLength(rest.slice(0, cut)) > maxBytes) cut = Math.floor(cut * 0.9);
  const lineEnd = rest.lastIndexOf('\n', cut - 1);
  if (lineEnd > 0) cut = lineEnd + 1;
  else if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut -= 1;
  return { text: rest.slice(0, cut), total: text.length, nextOffset: offset + cut };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * JSON with every element of an array on a line of its own (objects' keys too, down to `depth`), so a graph of
 * thousands of nodes pages at element boundaries and each line parses on its own.
 */
export function linesJson(value: unknown, depth = 2, indent = ''): string {
  if (depth === 0 || value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${JSON.stringify(item) ?? 'null'}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${linesJson(item, depth - 1, inner)}`).join(',\n')}\n${indent}}`;
}
