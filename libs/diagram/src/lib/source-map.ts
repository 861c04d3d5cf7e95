/**
 * Mermaid parses a cleaned copy of the source: CRLF normalized, frontmatter cut off,
 * `%%{…}%%` directives and `%%` comment lines removed, leading whitespace trimmed; then it
 * rewrites entity codes (`#quot;`) into placeholders, and the flowchart parser collapses the
 * whitespace after every `}`. Its parse errors therefore count lines and columns in that copy.
 * This module repeats the same steps while remembering where every kept character came from,
 * so an error can point at the author's own line and column.
 */

import type { DiagramKind } from './model';

/** Mermaid's directive pattern (diagram-api/regexes). */
const DIRECTIVE = /%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?/gi;
/** Mermaid's comment-line pattern (diagram-api/comments). */
const COMMENT_LINE = /^\s*%%(?!{)[^\n]+\n?/gm;

/** A run of characters that sit next to each other in the original source too. */
interface Segment {
  /** Offset of the run in the cleaned text. */
  at: number;
  /** Offset of the run in the original source. */
  origin: number;
  length: number;
}

export interface MappedText {
  text: string;
  segments: Segment[];
}

/** Offset in the original source of the character at `index` of the cleaned text. */
export function originOf(mapped: MappedText, index: number): number | undefined {
  let low = 0;
  let high = mapped.segments.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const segment = mapped.segments[mid];
    if (index < segment.at) high = mid - 1;
    else if (index >= segment.at + segment.length) low = mid + 1;
    else return segment.origin + (index - segment.at);
  }
  return undefined;
}

/**
 * Copies slices of `input` (given in increasing order) into a new mapped text. The segment
 * cursor only moves forward, so a whole pass is linear in text and segments. `insert` adds
 * text that stands for the input character at `index` (every inserted character maps there).
 */
function slicer(input: MappedText) {
  const out: MappedText = { text: '', segments: [] };
  let cursor = 0;
  const nextAt = () => {
    const previous = out.segments[out.segments.length - 1];
    return previous ? previous.at + previous.length : 0;
  };
  const keep = (start: number, end: number) => {
    if (end <= start) return;
    out.text += input.text.slice(start, end);
    while (cursor < input.segments.length && input.segments[cursor].at + input.segments[cursor].length <= start) cursor++;
    for (let k = cursor; k < input.segments.length && input.segments[k].at < end; k++) {
      const segment = input.segments[k];
      const from = Math.max(start, segment.at);
      const to = Math.min(end, segment.at + segment.length);
      out.segments.push({ at: nextAt(), origin: segment.origin + (from - segment.at), length: to - from });
    }
  };
  const insert = (text: string, index: number) => {
    const origin = originOf(input, index) ?? 0;
    for (const character of text) {
      out.text += character;
      out.segments.push({ at: nextAt(), origin, length: character.length });
    }
  };
  return { out, keep, insert };
}

/** A piece of a rewritten match: a slice of it kept as is, or new text standing for one of its characters. */
type Piece = { keep: [number, number] } | { insert: string; for: number };

/** Replaces every match of `pattern` by the pieces `rewrite` gives (offsets relative to the match). */
function rewriteMatches(input: MappedText, pattern: RegExp, rewrite: (match: string) => Piece[]): MappedText {
  const { out, keep, insert } = slicer(input);
  let last = 0;
  pattern.lastIndex = 0;
  for (const match of input.text.matchAll(pattern)) {
    const start = match.index ?? 0;
    keep(last, start);
    for (const piece of rewrite(match[0])) {
      if ('keep' in piece) keep(start + piece.keep[0], start + piece.keep[1]);
      else insert(piece.insert, start + piece.for);
    }
    last = start + match[0].length;
  }
  keep(last, input.text.length);
  return out;
}

function removeMatches(input: MappedText, pattern: RegExp): MappedText {
  const { out, keep } = slicer(input);
  let last = 0;
  pattern.lastIndex = 0;
  for (const match of input.text.matchAll(pattern)) {
    const start = match.index ?? 0;
    keep(last, start);
    last = start + match[0].length;
  }
  keep(last, input.text.length);
  return out;
}

/** The text after Mermaid's preprocessing (frontmatter, directives, comment lines, leading whitespace removed), with where each of its characters came from. */
export function cleanLikeMermaid(source: string): MappedText {
  // \r\n and lone \r become \n, exactly as Mermaid's cleanupText does. A lone \r keeps its
  // offset (it is replaced in place); a \r before \n is dropped.
  const text = source.replace(/\r(?!\n)/g, '\n');
  const { out: normalized, keep } = slicer({ text, segments: [{ at: 0, origin: 0, length: text.length }] });
  let last = 0;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    keep(last, i);
    last = i + 1;
  }
  keep(last, text.length);
  let mapped: MappedText = normalized;
  const frontMatter = frontMatterOf(mapped.text);
  if (frontMatter) {
    const { out, keep: keepAfter } = slicer(mapped);
    keepAfter(frontMatter.length, mapped.text.length);
    mapped = out;
  }
  mapped = removeMatches(mapped, DIRECTIVE);
  mapped = removeMatches(mapped, COMMENT_LINE);
  const leading = mapped.text.length - mapped.text.trimStart().length;
  return leading === 0 ? mapped : removeMatches(mapped, /^\s+/g);
}

/**
 * The text a diagram kind's jison parser reads: the preprocessed text after Mermaid's encodeEntities (a `;` ending
 * a `style`/`classDef` line with a colour is dropped; `#name;` / `#123;` become longer placeholders) and, for
 * flowcharts, the parser's own `}\s*\n` → `}\n` (blank lines after a `}` disappear).
 */
export function parsedTextLikeMermaid(source: string, kind: DiagramKind): MappedText {
  let mapped = cleanLikeMermaid(source);
  const dropLast = (match: string): Piece[] => [{ keep: [0, match.length - 1] }];
  mapped = rewriteMatches(mapped, /style.*:\S*#.*;/g, dropLast);
  mapped = rewriteMatches(mapped, /classDef.*:\S*#.*;/g, dropLast);
  mapped = rewriteMatches(mapped, /#\w+;/g, (match) => [
    { insert: /^#\+?\d+;$/.test(match) ? '\uFB02\u00B0\u00B0' : '\uFB02\u00B0', for: 0 },
    { keep: [1, match.length - 1] },
    { insert: '\u00B6\u00DF', for: match.length - 1 },
  ]);
  if (kind === 'flowchart') mapped = rewriteMatches(mapped, /}\s*\n/g, (match) => [{ keep: [0, 1] }, { insert: '\n', for: match.length - 1 }]);
  return mapped;
}

/** Is the character a line break for Mermaid's frontmatter scan? */
const isLineBreak = (character: string | undefined) => character === '\n' || character === '\r';
const isWhitespace = (character: string | undefined) => character !== undefined && /\s/.test(character);

/**
 * Mermaid 12's frontmatter (diagram-api/regexes matchFrontMatter), on normalized text: an optionally indented
 * `---` line, the body, and a closing `---` with the same indent followed by a line break. `bodyStart` is where
 * the YAML starts (after any blank lines following the opening fence), `length` how much Mermaid cuts off
 * (including the whitespace after the closing fence up to its last line break).
 */
export function frontMatterOf(text: string): { bodyStart: number; length: number } | undefined {
  let cursor = 0;
  while (cursor < text.length && isWhitespace(text[cursor]) && !isLineBreak(text[cursor])) cursor++;
  const indent = text.slice(0, cursor);
  if (!text.startsWith('---', cursor)) return undefined;
  const openingEnds: number[] = [];
  for (let i = cursor + 3; i < text.length && isWhitespace(text[i]); i++) if (isLineBreak(text[i])) openingEnds.push(i);
  if (openingEnds.length === 0) return undefined;
  const closingFence = `${indent}---`;
  const lastLineBreakInWhitespaceRun = (from: number) => {
    let index = -1;
    for (let i = from; i < text.length && isWhitespace(text[i]); i++) if (isLineBreak(text[i])) index = i;
    return index;
  };
  const closingEnd = (i: number) => (isLineBreak(text[i]) && text.startsWith(closingFence, i + 1) ? lastLineBreakInWhitespaceRun(i + 1 + closingFence.length) : -1);
  let lastClosingFence = -1;
  for (let i = openingEnds[0] + 1; i < text.length; i++) if (closingEnd(i) !== -1) lastClosingFence = i;
  if (lastClosingFence === -1) return undefined;
  let openingEnd = openingEnds[0];
  for (const candidate of openingEnds) if (candidate < lastClosingFence) openingEnd = candidate;
  const bodyStart = openingEnd + 1;
  for (let i = bodyStart; i <= lastClosingFence; i++) {
    const end = closingEnd(i);
    if (end !== -1) return { bodyStart, length: end + 1 };
  }
  return undefined;
}

/** 1-based line and column of an offset in `source`; \n, \r\n and a lone \r each end a line. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  return positionsIn(source)(offset);
}

/**
 * positionOf for many offsets of one text: the line starts are found once, then each lookup is a binary search.
 * (Scanning from the start for every offset made the context parser quadratic in the file's size.)
 */
export function positionsIn(source: string): (offset: number) => { line: number; column: number } {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\n' || (c === '\r' && source[i + 1] !== '\n')) lineStarts.push(i + 1);
  }
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
}

/**
 * Maps a 1-based line and 0-based column of the cleaned text back to the original source.
 * Falls back to the end of the source when the position lies past the end of the text
 * (Mermaid reports unexpected end of input there).
 */
export function originalPosition(source: string, cleaned: MappedText, line: number, column: number): { line: number; column: number } {
  let offset = 0;
  for (let current = 1; current < line && offset < cleaned.text.length; offset++) {
    if (cleaned.text[offset] === '\n') current++;
  }
  const index = Math.min(offset + Math.max(column, 0), cleaned.text.length - 1);
  if (index < 0) return positionOf(source, source.length);
  return positionOf(source, originOf(cleaned, index) ?? source.length);
}
