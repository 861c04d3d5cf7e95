/**
 * Text measurement for sizing nodes to their content before layout. Labels are wrapped between words only (a word
 * longer than the line makes the node wider, it is never split), and each line is drawn as measured with
 * `white-space: pre`, so the browser never re-wraps it.
 */

/** The app's font stacks (styles.scss): nodes are measured in the fonts they are drawn in. */
export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
export const MONO_FAMILY = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";

export interface Font {
  size: number;
  weight?: number;
  mono?: boolean;
}

const cssFont = (font: Font) => `${font.weight ?? 400} ${font.size}px ${font.mono ? MONO_FAMILY : FONT_FAMILY}`;

let context: OffscreenCanvasRenderingContext2D | null | undefined;
const cache = new Map<string, number>();

function measureContext(): OffscreenCanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  // An offscreen canvas needs no document; where there is none (jsdom), widths are estimated from the length.
  context = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  return context;
}

/** Width in CSS pixels of one line of text. */
export function textWidth(text: string, font: Font): number {
  const key = `${cssFont(font)}\u0000${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const ctx = measureContext();
  let width: number;
  if (ctx) {
    ctx.font = cssFont(font);
    width = ctx.measureText(text).width;
  } else {
    width = text.length * font.size * (font.mono ? 0.6 : 0.55);
  }
  if (cache.size > 20000) cache.clear();
  cache.set(key, width);
  return width;
}

/** Lines of at most `maxWidth` pixels, broken between words only; existing line breaks are kept. */
export function wrapWords(text: string, maxWidth: number, font: Font): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    let line = '';
    for (const word of words) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && textWidth(candidate, font) > maxWidth) {
        lines.push(line);
        line = word;
      } else {
        line = candidate;
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
