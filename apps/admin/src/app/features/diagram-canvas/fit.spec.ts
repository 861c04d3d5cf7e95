import { fitViewport } from './fit';

describe('fitting the drawing to the view', () => {
  const view = { width: 1400, height: 800 };
  const corner = { width: 220, height: 150 };
  const limits = { min: 0.02, max: 3 };
  const minimap = { left: view.width - corner.width, top: view.height - corner.height };

  it.each([
    ['about as wide as tall as the view', { width: 1400, height: 800 }],
    ['wide', { width: 4000, height: 600 }],
    ['tall', { width: 500, height: 3000 }],
  ])('keeps a drawing %s clear of the minimap’s corner and inside the view', (_, drawing) => {
    const { x, y, zoom } = fitViewport(drawing, view, corner, 0.04, limits);
    const right = x + drawing.width * zoom;
    const bottom = y + drawing.height * zoom;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(view.width);
    expect(bottom).toBeLessThanOrEqual(view.height);
    expect(right <= minimap.left || bottom <= minimap.top).toBe(true);
  });

  it('picks the larger of the zooms above and beside the minimap', () => {
    // A wide drawing keeps the full width: it only gives up the height under it.
    expect(fitViewport({ width: 4000, height: 600 }, view, corner, 0, limits).zoom).toBeCloseTo(1400 / 4000);
    // A tall one keeps the full height and gives up the width beside it.
    expect(fitViewport({ width: 500, height: 3000 }, view, corner, 0, limits).zoom).toBeCloseTo(800 / 3000);
  });

  it('keeps the zoom within its limits', () => {
    expect(fitViewport({ width: 10, height: 10 }, view, corner, 0.04, limits).zoom).toBe(3);
    expect(fitViewport({ width: 1e6, height: 1e6 }, view, corner, 0.04, limits).zoom).toBe(0.02);
  });
});
