/**
 * The scale a diagram's PNG is rendered at, shared by the server's image.png and `service-cli render` so both write
 * the same pixels for the same drawing.
 *
 * A PNG's bitmap costs 4 bytes a pixel while it is rendered and encoded, so it is held to PNG_MAX_PIXELS. A drawing
 * too large for the scale asked for is not refused: it is rendered at the largest scale (in hundredths) whose bitmap
 * fits. Only when even PNG_MIN_SCALE does not fit is it refused (the SVG, which has no pixel size, is the image to
 * use then). The minimum is a quarter: there the 12–14 px labels are 3–3.5 px, so such a PNG is an overview (groups,
 * boxes, the flow of the edges; the benchmark's 1,000-node diagram fits at 0.29) rather than a picture to read, and
 * anything smaller would show boxes too small to tell apart.
 */

/** Pixels (width × height) a PNG may have: 40 megapixels, 160 MB of bitmap. */
export const PNG_MAX_PIXELS = 40_000_000;
/** The smallest scale a PNG is reduced to before it is refused: a quarter, an overview of the drawing (see above). */
export const PNG_MIN_SCALE = 0.25;

/** The bitmap size of a drawing of `width` × `height` SVG units at `scale`, rounded as resvg rounds it. */
export function pngSize(width: number, height: number, scale: number): { width: number; height: number } {
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

export type PngScale =
  /** `scale` is what to render at: the one asked for, or less (`reduced`) to fit the pixel limit. */
  | { ok: true; scale: number; reduced: boolean; width: number; height: number }
  /** Not even PNG_MIN_SCALE fits: the size it would have at that scale. */
  | { ok: false; width: number; height: number };

/** The scale to render a `width` × `height` drawing at, asked for at `requested`, within `maxPixels`. */
export function fitPngScale(width: number, height: number, requested: number, maxPixels = PNG_MAX_PIXELS): PngScale {
  const fits = (scale: number) => {
    const size = pngSize(width, height, scale);
    return size.width * size.height <= maxPixels;
  };
  if (fits(requested)) return { ok: true, scale: requested, reduced: false, ...pngSize(width, height, requested) };
  // The largest scale in hundredths that fits: from the exact root down, as rounding may add a row or a column.
  let scale = Math.floor(Math.sqrt(maxPixels / Math.max(1, width * height)) * 100) / 100;
  while (scale >= PNG_MIN_SCALE && !fits(scale)) scale = Math.round(scale * 100 - 1) / 100;
  if (scale < PNG_MIN_SCALE) return { ok: false, ...pngSize(width, height, PNG_MIN_SCALE) };
  return { ok: true, scale, reduced: true, ...pngSize(width, height, scale) };
}
