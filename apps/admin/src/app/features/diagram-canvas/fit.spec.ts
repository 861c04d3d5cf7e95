import { fitViewport, fitZoomLimits } from './fit';

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

describe('readable fit', () => {
  const view = { width: 1100, height: 560 };
  const corner = { width: 220, height: 150 };
  /** Screen size of the canvas's smallest text (12 px) at a zoom. */
  const smallestText = (zoom: number) => 12 * zoom;

  it('keeps text at 9 px or more up to 150 nodes, showing the drawing’s top-left corner when it does not fit', () => {
    // A 150-node drawing far larger than the view: fitting it whole would draw 12 px text at about 2 px.
    const drawing = { width: 6000, height: 3000 };
    const { x, y, zoom } = fitViewport(drawing, view, corner, 0.04, fitZoomLimits(150, 0.02));
    expect(smallestText(zoom)).toBeGreaterThanOrEqual(9);
    expect(x).toBe(16);
    expect(y).toBe(16);
  });

  it('centres along an axis where the drawing fits at the readable zoom, and starts at the top-left along the other', () => {
    const drawing = { width: 800, height: 3000 };
    const { x, y, zoom } = fitViewport(drawing, view, corner, 0.04, fitZoomLimits(60, 0.02));
    expect(zoom).toBeCloseTo(0.75);
    expect(y).toBe(16);
    // Beside the minimap (the larger zoom for a tall drawing): centred in the width left of it.
    expect(x + (drawing.width * zoom) / 2).toBeCloseTo((view.width - corner.width) / 2, 0);
  });

  it('never zooms a tiny diagram above 1.25×', () => {
    expect(fitViewport({ width: 300, height: 80 }, view, corner, 0.04, fitZoomLimits(2, 0.02)).zoom).toBe(1.25);
  });

  it('shows a diagram of more than 150 nodes whole, however small', () => {
    const drawing = { width: 20000, height: 8000 };
    const { x, y, zoom } = fitViewport(drawing, view, corner, 0.04, fitZoomLimits(1000, 0.02));
    expect(zoom).toBeLessThan(0.1);
    expect(x + drawing.width * zoom).toBeLessThanOrEqual(view.width);
    expect(y + drawing.height * zoom).toBeLessThanOrEqual(view.height);
  });
});
