import ELK from 'elkjs/lib/elk.bundled.js';
import type { ArrangementLists } from '@sc/contracts';
import { ElkArrangedDrawing } from './elk-arranged-drawing';
import { LayoutCache, layoutDiagram, type LayoutInput } from '@sc/diagram';

describe('ElkArrangedDrawing', () => {
  const elk = new ELK();
  // Top-down: `new` points to the kept `a`, so ELK puts it above a (the free-spot search alone puts it below).
  const input: LayoutInput = {
    direction: 'DOWN',
    nodes: [
      { id: 'a', width: 120, height: 48 },
      { id: 'new', width: 120, height: 48 },
    ],
    groups: [],
    edges: [{ key: 'new->a#0', source: 'new', target: 'a' }],
  };
  const arrangement: ArrangementLists = { nodes: [{ id: 'a', x: 400, y: 400 }], groups: [], edges: [] };

  it('draws at once, asks ELK in the background, and draws with its proposal once it is there', async () => {
    const auto = await layoutDiagram(elk, input, new LayoutCache());
    const drawing = new ElkArrangedDrawing(elk);
    const arrived = new Promise<void>((resolve) => {
      const first = drawing.drawing(() => input, auto, arrangement, resolve);
      expect(first.placed).toEqual(['new']);
      expect(first.layout.boxes['new'].y).toBeGreaterThan(400);
    });
    await arrived;
    const second = drawing.drawing(() => input, auto, arrangement, () => undefined);
    expect(second.placed).toEqual(['new']);
    expect(second.layout.boxes['a']).toMatchObject({ x: 400, y: 400 });
    expect(second.layout.boxes['new'].y + 48).toBeLessThanOrEqual(400);
  });

  it('draws the automatic layout itself without an arrangement, and ignores an answer for an arrangement replaced meanwhile', async () => {
    const auto = await layoutDiagram(elk, input, new LayoutCache());
    const drawing = new ElkArrangedDrawing(elk);
    expect(drawing.drawing(() => input, auto, null, () => undefined).layout).toBe(auto);
    const calls: string[] = [];
    drawing.drawing(() => input, auto, arrangement, () => calls.push('old'));
    const replaced = { ...arrangement, nodes: [{ id: 'a', x: 100, y: 100 }] };
    await new Promise<void>((resolve) => drawing.drawing(() => input, auto, replaced, resolve));
    expect(calls).toEqual([]);
    expect(drawing.drawing(() => input, auto, replaced, () => undefined).layout.boxes['new'].y + 48).toBeLessThanOrEqual(100);
  });
});
