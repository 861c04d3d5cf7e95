import { addNode, emptyGraph, group, move, parentOf, type EditorDoc } from './editor-doc';
import { absoluteBoxes, editorModel } from './editor-model';
import { dragged, frameAt, freeSpot } from './placement';

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

/** An outer group holding an inner one (holding `inner`), a node `outer` beside it, and a node `free` outside both. */
function nested(): EditorDoc {
  let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
  doc = addNode(doc, 'shape', { x: 0, y: 0 }).doc;
  doc = addNode(doc, 'shape', { x: 400, y: 0 }).doc;
  doc = addNode(doc, 'shape', { x: 1200, y: 0 }).doc;
  const inner = group(doc, ['shape1']);
  const outer = inner && group(inner.doc, [inner.id, 'shape2']);
  if (!outer) throw new Error('not grouped');
  return outer.doc;
}

describe('frameAt and dragged: dropping on a group frame', () => {
  it('finds the innermost frame under a point, with its corner', () => {
    const doc = nested();
    const model = editorModel(doc);
    const boxes = absoluteBoxes(model);
    const inner = boxes.get('group1');
    const outer = boxes.get('group2');
    if (!inner || !outer) throw new Error('not drawn');
    expect(frameAt({ x: inner.x + 5, y: inner.y + 5 }, model, doc)).toEqual({ id: 'group1', origin: { x: inner.x, y: inner.y } });
    expect(frameAt({ x: outer.x + outer.width - 5, y: outer.y + outer.height - 5 }, model, doc)).toEqual({ id: 'group2', origin: { x: outer.x, y: outer.y } });
    expect(frameAt({ x: outer.x - 5, y: outer.y }, model, doc)).toBeNull();
  });

  it('moves in one step; a node dropped on a frame joins its group, one dropped outside its frame leaves it', () => {
    const doc = nested();
    const model = editorModel(doc);
    const inner = absoluteBoxes(model).get('group1');
    if (!inner) throw new Error('not drawn');
    // shape3 onto the inner frame (top level: absolute), shape1 far out of it (relative to its frame).
    const next = dragged(doc, model, [
      { id: 'shape3', x: inner.x + 4, y: inner.y + 4 },
      { id: 'shape1', x: 2000, y: 2000 },
    ]);
    expect(parentOf(next.graph, 'shape3')).toBe('group1');
    expect(parentOf(next.graph, 'shape1')).toBeUndefined();
    expect(parentOf(next.graph, 'shape2')).toBe('group2');
    // A frame moved is only moved.
    const frameMoved = dragged(doc, model, [{ id: 'group1', x: 40, y: 40 }]);
    expect(frameMoved.graph).toEqual(doc.graph);
    expect(frameMoved.layout).toEqual(move(doc, [{ id: 'group1', x: 40, y: 40 }]).layout);
  });
});
