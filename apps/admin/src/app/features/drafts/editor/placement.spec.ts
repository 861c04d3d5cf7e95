import { freeSpot } from './placement';

describe('freeSpot: where a node added from the palette goes', () => {
  const size = { width: 160, height: 60 };
  const view = { x: 0, y: 0, width: 1000, height: 600 };
  const options = { gap: 16, step: 16 };
  const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const inView = (a: { x: number; y: number; width: number; height: number }) => a.x >= view.x && a.y >= view.y && a.x + a.width <= view.x + view.width && a.y + a.height <= view.y + view.height;

  it('puts the first node in the middle of an empty view, on the grid', () => {
    const at = freeSpot(size, view, [], options);
    expect(Math.abs(at.x + size.width / 2 - 500)).toBeLessThanOrEqual(8);
    expect(Math.abs(at.y + size.height / 2 - 300)).toBeLessThanOrEqual(8);
    expect(at.x % 16).toBe(0);
    expect(at.y % 16).toBe(0);
  });

  it('puts each of several nodes in free space inside the view, none on another', () => {
    const placed: { x: number; y: number; width: number; height: number }[] = [];
    for (let i = 0; i < 12; i++) placed.push({ ...freeSpot(size, view, placed, options), ...size });
    for (const [i, box] of placed.entries()) {
      expect(inView(box)).toBe(true);
      for (const other of placed.slice(i + 1)) expect(overlap(box, other)).toBe(false);
    }
    // Near the middle: the second node is next to the first, not across the view.
    const [first, second] = placed;
    expect(Math.hypot(second.x - first.x, second.y - first.y)).toBeLessThan(200);
  });

  it('keeps clear of nodes already there, with the gap between', () => {
    const occupied = [{ x: 400, y: 250, width: 200, height: 100 }];
    const at = freeSpot(size, view, occupied, options);
    const box = { ...at, ...size };
    expect(overlap({ x: box.x - 16, y: box.y - 16, width: box.width + 32, height: box.height + 32 }, occupied[0])).toBe(false);
    expect(inView(box)).toBe(true);
  });

  it('takes the nearest free spot outside a full view', () => {
    const full = [{ x: -20, y: -20, width: 1040, height: 640 }];
    const at = freeSpot(size, view, full, options);
    expect(overlap({ ...at, ...size }, full[0])).toBe(false);
    // Just past the full area, above or below it (the nearer sides of a wide view), not far away.
    expect(at.y + size.height <= -20 - 16 || at.y >= 620 + 16).toBe(true);
    expect(Math.abs(at.x + size.width / 2 - 500)).toBeLessThanOrEqual(16);
  });

  it('searches a view zoomed far out on a coarser grid, still on the grid', () => {
    const wide = { x: 0, y: 0, width: 20000, height: 12000 };
    const middle = { x: 9000, y: 5000, width: 2000, height: 2000 };
    const at = freeSpot(size, wide, [middle], options);
    expect(at.x % 16).toBe(0);
    expect(at.y % 16).toBe(0);
    expect(overlap({ ...at, ...size }, middle)).toBe(false);
    expect(at.x >= 0 && at.y >= 0 && at.x + size.width <= wide.width && at.y + size.height <= wide.height).toBe(true);
  });
});
