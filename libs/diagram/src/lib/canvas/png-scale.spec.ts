import { PNG_MAX_PIXELS, PNG_MIN_SCALE, fitPngScale, pngSize } from './png-scale';

describe('fitPngScale: the PNG scale within the pixel limit', () => {
  it('keeps the scale asked for when the bitmap fits', () => {
    expect(fitPngScale(800, 600, 2)).toEqual({ ok: true, scale: 2, reduced: false, width: 1600, height: 1200 });
  });

  it('reduces a drawing too large for the scale asked for to the largest scale in hundredths that fits', () => {
    // The benchmark's 1,000-node diagram with its context: 33,334 × 13,714 units, 1.8 gigapixels at scale 2.
    const fit = fitPngScale(33_334, 13_714, 2);
    expect(fit).toMatchObject({ ok: true, reduced: true, scale: 0.29 });
    if (!fit.ok) return;
    expect(fit.width * fit.height).toBeLessThanOrEqual(PNG_MAX_PIXELS);
    // One hundredth more would not fit.
    const larger = pngSize(33_334, 13_714, fit.scale + 0.01);
    expect(larger.width * larger.height).toBeGreaterThan(PNG_MAX_PIXELS);
    expect([fit.width, fit.height]).toEqual([9_667, 3_977]);
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
    expect(fitPngScale(30_000, 30_000, 1)).toEqual({ ok: false, width: 30_000 * PNG_MIN_SCALE, height: 30_000 * PNG_MIN_SCALE });
    // Just within the limit at the minimum scale still renders.
    expect(fitPngScale(25_300, 25_280, 4)).toMatchObject({ ok: true, scale: 0.25 });
  });

  it('takes a smaller limit', () => {
    expect(fitPngScale(1_000, 1_000, 2, 1_000_000)).toEqual({ ok: true, scale: 1, reduced: true, width: 1_000, height: 1_000 });
  });
});
