import { PNG_MAX_PIXELS, PNG_MIN_SCALE, fitPngScale, pngSize } from './png-scale';

describe('fitPngScale: the PNG scale within the pixel limit', () => {
  it('keeps the scale asked for when the bitmap fits', () => {
    expect(fitPngScale(800, 600, 2)).toEqual({ ok: true, scale: 2, reduced: false, width: 1600, height: 1200 });
  });

  it('reduces a drawing too large for the scale asked for to the largest scale in hundredths that fits', () => {
    // About the benchmark's 1,000-node diagram: 457 megapixels at scale 2.
    const fit = fitPngScale(21_000, 5_440, 2);
    expect(fit).toMatchObject({ ok: true, reduced: true, scale: 0.59 });
    if (!fit.ok) return;
    expect(fit.width * fit.height).toBeLessThanOrEqual(PNG_MAX_PIXELS);
    // One hundredth more would not fit.
    const larger = pngSize(21_000, 5_440, fit.scale + 0.01);
    expect(larger.width * larger.height).toBeGreaterThan(PNG_MAX_PIXELS);
    expect([fit.width, fit.height]).toEqual([12_390, 3_210]);
  });

  it('counts the pixels as resvg rounds them, so the bitmap never passes the limit', () => {
    for (const [width, height] of [[10_001, 7_999], [6_325, 6_325], [99_999, 401], [4_473, 4_473]]) {
      for (const scale of [1, 2, 3, 4]) {
        const fit = fitPngScale(width, height, scale);
        if (fit.ok) expect([width, height, scale, fit.width * fit.height <= PNG_MAX_PIXELS]).toEqual([width, height, scale, true]);
      }
    }
  });

  it('refuses only when even the minimum scale would not fit, with the size it would have at that scale', () => {
    expect(fitPngScale(20_000, 20_000, 1)).toEqual({ ok: false, width: 20_000 * PNG_MIN_SCALE, height: 20_000 * PNG_MIN_SCALE });
    // Exactly the limit at the minimum scale still renders.
    expect(fitPngScale(12_650, 12_640, 4)).toMatchObject({ ok: true, scale: 0.5 });
  });

  it('takes a smaller limit', () => {
    expect(fitPngScale(1_000, 1_000, 2, 1_000_000)).toEqual({ ok: true, scale: 1, reduced: true, width: 1_000, height: 1_000 });
  });
});
