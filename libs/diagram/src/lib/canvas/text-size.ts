import { BOLD_WIDTHS, FIRST_RANGE, MONO_WIDTH, REGULAR_WIDTHS, SECOND_RANGE } from './font-widths';

/**
 * Text widths for sizing diagram nodes to their content before layout, estimated from a table of advance widths
 * (font-widths.ts) rather than measured in the browser: the server lays out a diagram's default view with exactly
 * the sizes the dashboard gives its nodes, so the same graph gives the same ELK layout on both sides. The table holds
 * the widest of the fonts the dashboard draws in, so a line is never wider on screen than estimated here. Labels are
 * wrapped between words only (a word longer than the line makes the node wider, it is never split), and each line
 * is drawn as estimated with `white-space: pre`, so the browser never re-wraps it.
 */

/** The app's font stacks (styles.scss): what the canvas draws in, and what the width table was measured in. */
export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
export const MONO_FAMILY = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";

export interface Font {
  size: number;
  weight?: number;
  mono?: boolean;
}

/** Characters outside the table: a full em (CJK ideographs and most symbols are at most that wide). */
const OTHER_WIDTH = 1000;
/** Characters beyond the Basic Multilingual Plane, emoji mostly: drawn wider than an em by colour-emoji fonts. */
const ASTRAL_WIDTH = 1300;

/** Width in thousandths of an em of one character (a code point) in the regular or bold table. */
function advance(codePoint: number, widths: readonly number[]): number {
  if (codePoint >= FIRST_RANGE.from && codePoint <= FIRST_RANGE.to) return widths[codePoint - FIRST_RANGE.from];
  if (codePoint >= SECOND_RANGE.from && codePoint <= SECOND_RANGE.to) return widths[FIRST_RANGE.to - FIRST_RANGE.from + 1 + codePoint - SECOND_RANGE.from];
  // Combining marks and zero-width characters take no room of their own.
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200d) || codePoint === 0xfeff) return 0;
  if (codePoint === 0x09) return widths[0] * 4;
  return codePoint > 0xffff ? ASTRAL_WIDTH : OTHER_WIDTH;
}

/** Width of a text in thousandths of an em: whole numbers, so sums are exact and the same on every machine. */
function units(text: string, font: Font): number {
  if (font.mono) return [...text].length * MONO_WIDTH;
  const widths = (font.weight ?? 400) >= 600 ? BOLD_WIDTHS : REGULAR_WIDTHS;
  let total = 0;
  for (const character of text) total += advance(character.codePointAt(0) ?? 0, widths);
  return total;
}

/** Width in CSS pixels of one line of text: the sum of its characters' advances (no kerning, which only narrows). */
export function textWidth(text: string, font: Font): number {
  return (units(text, font) * font.size) / 1000;
}

/** Lines of at most `maxWidth` pixels, broken between words only; existing line breaks are kept. */
export function wrapWords(text: string, maxWidth: number, font: Font): string[] {
  const lines: string[] = [];
  const limit = (maxWidth * 1000) / font.size;
  const space = units(' ', font);
  for (const paragraph of text.split(/\r?\n/)) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    let line = '';
    let width = 0;
    for (const word of words) {
      // Widths add up (no kerning), so a line's width grows with it instead of being measured again per word.
      const wordWidth = units(word, font);
      if (line && width + space + wordWidth > limit) {
        lines.push(line);
        line = word;
        width = wordWidth;
      } else {
        width = line ? width + space + wordWidth : wordWidth;
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
  }
  return lines.length > 0 ? lines : [''];
}

/** The widest of the lines, rounded up, plus a pixel per side so fonts that differ slightly still fit. */
export function linesWidth(lines: readonly string[], font: Font): number {
  return Math.ceil(Math.max(0, ...lines.map((line) => textWidth(line, font)))) + 2;
}
