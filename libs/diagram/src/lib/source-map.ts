/**
 * Mermaid parses a cleaned copy of the source: CRLF normalized, frontmatter cut off,
 * `%%{…}%%` directives and `%%` comment lines removed, leading whitespace trimmed. Its parse
 * errors therefore count lines in that copy. This module repeats the same removals while
 * remembering where every kept character came from, so an error can point at the author's
 * own line and column.
 */

/** Mermaid's directive pattern (diagram-api/regexes). */
const DIRECTIVE = /%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?/gi;
/** Mermaid's comment-line pattern (diagram-api/comments). */
const COMMENT_LINE = /^\s*%%(?!{)[^\n]+\n?/gm;
/** A YAML frontmatter block at the very start: an opening and a closing `---` fence on lines of their own. */
const FRONTMATTER = /^[ \t]*---[ \t]*\n[\s\S]*?\n[ \t]*---[ \t]*(?:\n|$)/g;

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
 * cursor only moves forward, so a whole pass is linear in text and segments.
 */
function slicer(input: MappedText) {
  const out: MappedText = { text: '', segments: [] };
  let cursor = 0;
  const keep = (start: number, end: number) => {
    if (end <= start) return;
    out.text += input.text.slice(start, end);
    while (cursor < input.segments.length && input.segments[cursor].at + input.segments[cursor].length <= start) cursor++;
    for (let k = cursor; k < input.segments.length && input.segments[k].at < end; k++) {
      const segment = input.segments[k];
      const from = Math.max(start, segment.at);
      const to = Math.min(end, segment.at + segment.length);
      const previous = out.segments[out.segments.length - 1];
      const at = previous ? previous.at + previous.length : 0;
      out.segments.push({ at, origin: segment.origin + (from - segment.at), length: to - from });
    }
  };
  return { out, keep };
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

/** The text Mermaid's parser sees, with where each of its characters came from. */
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
  mapped = removeMatches(mapped, FRONTMATTER);
  mapped = removeMatches(mapped, DIRECTIVE);
  mapped = removeMatches(mapped, COMMENT_LINE);
  const leading = mapped.text.length - mapped.text.trimStart().length;
  return leading === 0 ? mapped : removeMatches(mapped, /^\s+/g);
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
