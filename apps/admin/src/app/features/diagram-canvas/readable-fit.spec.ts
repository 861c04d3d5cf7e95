import { FIT_MAX_ZOOM, READABLE_TEXT, fitZoomLimits } from './fit';
import { readableFit } from './readable-fit';

/** The canvas's smallest text at zoom 1 (fit.ts). */
const SMALLEST_TEXT = 12;

describe('a fit at a readable zoom', () => {
  const view = { width: 1000, height: 600 };
  const noCorner = { width: 0, height: 0 };
  const floor = 0.1;

  it('never blows a small drawing up beyond 1.25×', () => {
    // Three unconnected nodes laid out left to right: ngx-vflow's own fit drew them at about 270 %.
    const { zoom } = readableFit({ x: 0, y: 0, width: 300, height: 60 }, view, noCorner, 0.1, 3, floor);
    expect(zoom).toBe(FIT_MAX_ZOOM);
  });

  it('keeps text at 9 px or more for up to 150 nodes, showing the top-left corner of what does not fit', () => {
    const drawing = { x: 200, y: 100, width: 6000, height: 3000 };
    const { x, y, zoom } = readableFit(drawing, view, noCorner, 0.04, 150, floor);
    expect(zoom * SMALLEST_TEXT).toBeCloseTo(READABLE_TEXT);
    // The drawing's top-left corner is on screen, near the view's.
    const left = drawing.x * zoom + x;
    const top = drawing.y * zoom + y;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThan(50);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(50);
  });

  it('fits larger diagrams whole, down to the canvas’s floor', () => {
    expect(fitZoomLimits(151, floor).min).toBe(floor);
    expect(readableFit({ x: 0, y: 0, width: 6000, height: 3000 }, view, noCorner, 0, 400, floor).zoom).toBeCloseTo(1000 / 6000);
  });

  it('centres a drawing that fits, wherever its box starts', () => {
    const drawing = { x: -400, y: 300, width: 800, height: 400 };
    const { x, y, zoom } = readableFit(drawing, view, noCorner, 0, 10, floor);
    expect(zoom).toBe(1.25);
    expect(drawing.x * zoom + x + (drawing.width * zoom) / 2).toBeCloseTo(view.width / 2);
    expect(drawing.y * zoom + y + (drawing.height * zoom) / 2).toBeCloseTo(view.height / 2);
  });
});
