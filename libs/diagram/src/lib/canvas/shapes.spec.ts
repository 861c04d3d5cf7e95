import type { Point } from './layout';
import { distanceToOutline } from '../../testing/outline-distance';
import { onOutline, outlinePolygon, type DrawnShape } from './shapes';

describe('outlinePolygon and onOutline', () => {
  it('carries a line reaching the box border on to a diamond’s side, along the line', () => {
    const diamond = outlinePolygon('diamond', 100, 60) ?? [];
    // From the right at y = 15: the box's border is at x = 100, the diamond's upper-right side at x = 75.
    expect(onOutline({ x: 200, y: 15 }, { x: 100, y: 15 }, diamond)).toEqual({ x: 75, y: 15 });
    // From above at x = 25: the upper-left side is at y = 15.
    expect(onOutline({ x: 25, y: -50 }, { x: 25, y: 0 }, diamond)).toEqual({ x: 25, y: 15 });
    // An end on the outline already stays (the same route may pass twice: an arranged drawing moves a finished one).
    expect(onOutline({ x: 200, y: 15 }, { x: 75, y: 15 }, diamond)).toEqual({ x: 75, y: 15 });
    // A line that misses the outline keeps its end.
    expect(onOutline({ x: 200, y: -10 }, { x: 100, y: -10 }, diamond)).toEqual({ x: 100, y: -10 });
  });

  it.each<[DrawnShape, Point, Point]>([
    ['ellipse', { x: 300, y: 10 }, { x: 160, y: 10 }],
    ['cylinder', { x: 30, y: -40 }, { x: 30, y: 0 }],
    ['terminator', { x: 10, y: -40 }, { x: 10, y: 0 }],
    ['hexagon', { x: -40, y: 12 }, { x: 0, y: 12 }],
    ['triangle', { x: 300, y: 40 }, { x: 160, y: 40 }],
    ['document', { x: 30, y: 200 }, { x: 30, y: 80 }],
    ['delay', { x: 300, y: 8 }, { x: 160, y: 8 }],
  ])('ends a line on the outline of a %s, inside its box', (shape, from, end) => {
    const polygon = outlinePolygon(shape, 160, 80) ?? [];
    const point = onOutline(from, end, polygon);
    expect(distanceToOutline(point, polygon)).toBeLessThan(0.01);
    expect(point).not.toEqual(end);
    expect([point.x >= 0 && point.x <= 160, point.y >= 0 && point.y <= 80]).toEqual([true, true]);
  });

  it.each<DrawnShape>(['or', 'summing-junction'])('ends a line reaching a %s symbol’s box on its circle', (shape) => {
    // The layout gives a symbol's lines the circle's 40 px at the top of its box (its label is drawn under it).
    const polygon = outlinePolygon(shape, 128, 40) ?? [];
    const circle = (point: Point) => Math.hypot(point.x - 64, point.y - 20) - 20;
    // From the left, 10 px below the circle's middle: the line reached the box 46 px short of the circle.
    const side = onOutline({ x: -100, y: 30 }, { x: 0, y: 30 }, polygon);
    expect([Math.abs(circle(side)) < 0.5, side.x < 64]).toEqual([true, true]);
    const top = onOutline({ x: 64, y: -100 }, { x: 64, y: 0 }, polygon);
    expect(Math.abs(circle(top))).toBeLessThan(0.5);
    // From below, at the circle's foot: it stays there.
    expect(onOutline({ x: 64, y: 200 }, { x: 64, y: 40 }, polygon)).toEqual({ x: 64, y: 40 });
  });

  it('ends lines on the front sheet of stacked documents, and on the sheets behind it only where they show', () => {
    const polygon = outlinePolygon('multiple-documents', 168, 88) ?? [];
    // From the left, below the back sheets: the front sheet's left side is the box's border.
    expect(onOutline({ x: -40, y: 40 }, { x: 0, y: 40 }, polygon)).toEqual({ x: 0, y: 40 });
    // From the left, 6 px from the top: the front sheet starts at y = 8; the middle sheet at x = 4 is the outline.
    expect(onOutline({ x: -40, y: 6 }, { x: 0, y: 6 }, polygon)).toEqual({ x: 4, y: 6 });
    // From below, in the middle: the front sheet's wave, above the box's bottom.
    const bottom = onOutline({ x: 84, y: 200 }, { x: 84, y: 88 }, polygon);
    expect([distanceToOutline(bottom, polygon) < 0.01, bottom.y < 88, bottom.y > 70]).toEqual([true, true, true]);
    // From below, 2 px from the right: only the back sheet reaches there, and its bottom is higher still.
    const right = onOutline({ x: 166, y: 200 }, { x: 166, y: 88 }, polygon);
    expect(right.y).toBeLessThan(bottom.y);
  });

  it('has no polygon for outlines that are their box', () => {
    expect(['rectangle', 'rounded-rect', 'subroutine', 'internal-storage'].map((shape) => outlinePolygon(shape as DrawnShape, 160, 80))).toEqual([undefined, undefined, undefined, undefined]);
  });
});
