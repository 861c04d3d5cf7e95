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

export interface MappedText {
  text: string;
  /** For each character of `text`, its offset in the original source. */
  origin: number[];
}

function removeMatches(input: MappedText, pattern: RegExp): MappedText {
  let text = '';
  const origin: number[] = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (const match of input.text.matchAll(pattern)) {
    const start = match.index ?? 0;
    text += input.text.slice(last, start);
    origin.push(...input.origin.slice(last, start));
    last = start + match[0].length;
  }
  text += input.text.slice(last);
  origin.push(...input.origin.slice(last));
  return { text, origin };
}

/** The text Mermaid's parser sees, with the original offset of each character. */
export function cleanLikeMermaid(source: string): MappedText {
  const origin: number[] = [];
  let text = '';
  for (let i = 0; i < source.length; i++) {
    // \r\n and lone \r become \n, exactly as Mermaid's cleanupText does.
    if (source[i] === '\r') {
      if (source[i + 1] !== '\n') {
        text += '\n';
        origin.push(i);
      }
      continue;
    }
    text += source[i];
    origin.push(i);
  }
  let mapped: MappedText = { text, origin };
  mapped = removeMatches(mapped, FRONTMATTER);
  mapped = removeMatches(mapped, DIRECTIVE);
  mapped = removeMatches(mapped, COMMENT_LINE);
  const leading = mapped.text.length - mapped.text.trimStart().length;
  return { text: mapped.text.slice(leading), origin: mapped.origin.slice(leading) };
}

/** 1-based line and column of an offset in `source`. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
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
  return positionOf(source, cleaned.origin[index] ?? source.length);
}
