import ELK from 'elkjs/lib/elk.bundled.js';
import fc from 'fast-check';
import type { ArrangementLists } from '@sc/contracts';
import { applyArrangement, arrangementOf, boxesClash, keptBoxes, moveBoxes, withoutArranged, type ArrangedDrawing } from './arrangement';
import { elkPlacements } from './elk-placement';
import { GROUP_HEADER, type Box, type LayoutInput, type LayoutResult } from './layout';

/**
 * A stand-in for the automatic layout: each container's members in a row, groups wrapping theirs. Consistent (every
 * member inside its frame), which is all the merge rule relies on; ELK itself is exercised in layout.spec.ts.
 */
function rowLayout(input: LayoutInput): LayoutResult {
  const boxes: Record<string, Box> = {};
  const children = new Map<string | undefined, { id: string; width: number; height: number; group: boolean }[]>();
  const groupIds = new Set(input.groups.map((group) => group.id));
  for (const group of input.groups) {
    const parent = group.parent !== undefined && groupIds.has(group.parent) ? group.parent : undefined;
    children.set(parent, [...(children.get(parent) ?? []), { id: group.id, width: group.width, height: group.height, group: !group.collapsed }]);
  }
  for (const node of input.nodes) {
    const parent = node.parent !== undefined && groupIds.has(node.parent) ? node.parent : undefined;
    children.set(parent, [...(children.get(parent) ?? []), { id: node.id, width: node.width, height: node.height, group: false }]);
  }
  // Relative boxes, innermost first (sizes), then absolute from the top.
  const relative = new Map<string, Box>();
  const size = (container: string | undefined): { width: number; height: number } => {
    let x = 16;
    let height = 0;
    for (const child of children.get(container) ?? []) {
      const inner = child.group ? size(child.id) : child;
      const width = Math.max(inner.width, child.width);
      relative.set(child.id, { x, y: container === undefined ? 16 : GROUP_HEADER + 8, width, height: inner.height });
      x += width + 28;
      height = Math.max(height, inner.height);
    }
    return { width: x - 28 + 16, height: height + (container === undefined ? 32 : GROUP_HEADER + 8 + 16) };
  };
  const total = size(undefined);
  const place = (container: string | undefined, origin: { x: number; y: number }) => {
    for (const child of children.get(container) ?? []) {
      const box = relative.get(child.id) as Box;
      boxes[child.id] = { ...box, x: origin.x + box.x, y: origin.y + box.y };
      if (child.group) place(child.id, boxes[child.id]);
    }
  };
  place(undefined, { x: 0, y: 0 });
  return { ...total, boxes, edges: {} };
}

const node = (id: string, parent?: string) => ({ id, width: 120, height: 48, ...(parent ? { parent } : {}) });
const group = (id: string, parent?: string) => ({ id, collapsed: false, width: 160, height: 0, ...(parent ? { parent } : {}) });
const edge = (source: string, target: string, index = 0) => ({ key: `${source}->${target}#${index}`, source, target });
const empty: ArrangementLists = { nodes: [], groups: [], edges: [] };

function saved(input: LayoutInput, layout: LayoutResult): ArrangementLists {
  const parentOf = new Map<string, string | undefined>([...input.groups.map((g) => [g.id, g.parent] as const), ...input.nodes.map((n) => [n.id, n.parent] as const)]);
  return arrangementOf(input, layout, new Map(), null, { parentOf, edges: new Map() });
}

describe('applyArrangement', () => {
  it('draws the automatic layout unchanged without an arrangement', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('b')], groups: [], edges: [edge('a', 'b')] };
    const auto = rowLayout(input);
    expect(applyArrangement(input, auto, empty)).toEqual({ layout: auto, placed: [] });
    expect(applyArrangement(input, auto, null).layout).toBe(auto);
  });

  it('keeps arranged nodes where they are, drops removed ones and places a new one beside its neighbour', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('b'), node('new')], groups: [], edges: [edge('a', 'new')] };
    const arrangement: ArrangementLists = {
      nodes: [
        { id: 'a', x: 500, y: 300 },
        { id: 'b', x: 0, y: 0 },
        { id: 'gone', x: 900, y: 900 },
      ],
      groups: [],
      edges: [],
    };
    const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
    expect(layout.boxes['a']).toEqual({ x: 500, y: 300, width: 120, height: 48 });
    expect(layout.boxes['b']).toEqual({ x: 0, y: 0, width: 120, height: 48 });
    expect(layout.boxes['gone']).toBeUndefined();
    expect(placed).toEqual(['new']);
    const fresh = layout.boxes['new'];
    expect(boxesClash(fresh, layout.boxes['a'], 16)).toBe(false);
    // Next to `a` (one box and a gap away), not at its automatic place far to the left.
    expect(Math.hypot(fresh.x - 500, fresh.y - 300)).toBeLessThanOrEqual(120 + 16 + 0.01);
  });

  it('keeps a resized node at its size', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a')], groups: [], edges: [] };
    const { layout } = applyArrangement(input, rowLayout(input), { ...empty, nodes: [{ id: 'a', x: 10, y: 20, width: 300, height: 90 }] });
    expect(layout.boxes['a']).toEqual({ x: 10, y: 20, width: 300, height: 90 });
  });

  it('treats a renamed id as a removed node and a new one', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('renamed')], groups: [], edges: [] };
    const arrangement = { ...empty, nodes: [{ id: 'a', x: 0, y: 0 }, { id: 'old-name', x: 400, y: 0 }] };
    const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
    expect(placed).toEqual(['renamed']);
    expect(layout.boxes['old-name']).toBeUndefined();
    expect(boxesClash(layout.boxes['renamed'], layout.boxes['a'], 16)).toBe(false);
  });

  it('places a new member inside its arranged group, growing the frame when it is full', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'g'), node('b', 'g')], groups: [group('g')], edges: [] };
    // The frame holds exactly `a`.
    const frame = { id: 'g', x: 100, y: 100, width: 152, height: 48 + GROUP_HEADER + 8 + 16 };
    const arrangement = { ...empty, groups: [frame], nodes: [{ id: 'a', x: 116, y: 100 + GROUP_HEADER + 8 }] };
    const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
    expect(placed).toEqual(['b']);
    expect(layout.boxes['a']).toMatchObject({ x: 116, y: 148 });
    const b = layout.boxes['b'];
    const g = layout.boxes['g'];
    expect(boxesClash(b, layout.boxes['a'], 16)).toBe(false);
    expect(b.x >= g.x && b.y >= g.y && b.x + b.width <= g.x + g.width && b.y + b.height <= g.y + g.height).toBe(true);
    expect(g.x).toBe(100);
    expect(g.y).toBe(100);
  });

  it('grows a full frame away from a kept neighbour instead of over it', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'g'), node('b', 'g'), node('n')], groups: [group('g')], edges: [] };
    const frame = { id: 'g', x: 100, y: 100, width: 152, height: 48 + GROUP_HEADER + 8 + 16 };
    // `n` sits just below the frame: growing the frame downwards (the old rule) covered it.
    const arrangement = { ...empty, groups: [frame], nodes: [{ id: 'a', x: 116, y: 148 }, { id: 'n', x: 100, y: frame.y + frame.height + 20 }] };
    const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
    expect(placed).toEqual(['b']);
    const g = layout.boxes['g'];
    expect(boxesClash(g, layout.boxes['n'])).toBe(false);
    expect(layout.boxes['n']).toMatchObject({ x: 100, y: frame.y + frame.height + 20 });
    const b = layout.boxes['b'];
    expect(b.x >= g.x && b.y >= g.y && b.x + b.width <= g.x + g.width && b.y + b.height <= g.y + g.height).toBe(true);
    expect(boxesClash(b, layout.boxes['a'], 16)).toBe(false);
  });

  it('keeps a node moved to another group at its place relative to the group when it fits, else places it', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'h'), node('b', 'h')], groups: [group('g'), group('h')], edges: [] };
    const arrangement: ArrangementLists = {
      groups: [
        { id: 'g', x: 0, y: 0, width: 400, height: 200 },
        { id: 'h', x: 600, y: 0, width: 400, height: 200 },
      ],
      // Both were in g and are in h now: `a` keeps its place relative to the frame; so would `b`, but there it
      // would overlap `a`, so it is placed.
      nodes: [
        { id: 'a', x: 16, y: 60 },
        { id: 'b', x: 30, y: 70 },
      ],
      edges: [],
    };
    const { kept, placed } = keptBoxes(input, arrangement);
    expect(kept.get('a')).toEqual({ x: 616, y: 60, width: 120, height: 48 });
    expect(placed).toEqual(['b']);
    const { layout } = applyArrangement(input, rowLayout(input), arrangement);
    expect(boxesClash(layout.boxes['b'], layout.boxes['a'], 16)).toBe(false);
  });

  it('places a node moved into a group whose frame cannot hold its old relative place', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'small')], groups: [group('big'), group('small')], edges: [] };
    const arrangement: ArrangementLists = {
      groups: [
        { id: 'big', x: 0, y: 0, width: 800, height: 400 },
        { id: 'small', x: 900, y: 0, width: 152, height: 112 },
      ],
      nodes: [{ id: 'a', x: 500, y: 300 }],
      edges: [],
    };
    expect(keptBoxes(input, arrangement).placed).toEqual(['a']);
  });

  it('puts a collapsed group where its frame was', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('x')], groups: [{ id: 'g', collapsed: true, width: 180, height: 44 }], edges: [edge('x', 'g')] };
    const arrangement = { ...empty, groups: [{ id: 'g', x: 300, y: 200, width: 500, height: 400 }], nodes: [{ id: 'x', x: 0, y: 0 }] };
    const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
    expect(placed).toEqual([]);
    expect(layout.boxes['g']).toEqual({ x: 300, y: 200, width: 180, height: 44 });
  });

  it('draws an edge through its arranged bends, and moves automatic routes with ends that moved together', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('b'), node('c')], groups: [], edges: [edge('a', 'b'), edge('b', 'c')] };
    const auto = rowLayout(input);
    auto.edges['b->c#0'] = { points: [{ x: 300, y: 40 }, { x: 320, y: 40 }] };
    const arrangement: ArrangementLists = {
      nodes: [
        { id: 'a', x: 0, y: 0 },
        { id: 'b', x: auto.boxes['b'].x + 100, y: auto.boxes['b'].y },
        { id: 'c', x: auto.boxes['c'].x + 100, y: auto.boxes['c'].y },
      ],
      groups: [],
      edges: [{ source: 'a', target: 'b', index: 0, points: [{ x: 60, y: 200 }] }],
    };
    const { layout } = applyArrangement(input, auto, arrangement);
    expect(layout.edges['a->b#0'].points).toHaveLength(3);
    expect(layout.edges['a->b#0'].points[1]).toEqual({ x: 60, y: 200 });
    expect(layout.edges['b->c#0'].points).toEqual([{ x: 400, y: 40 }, { x: 420, y: 40 }]);
  });

  it('ends a drawn line on the outline of a shape with data rows under it, not on the rows', () => {
    // b: a 30 px outline over 60 px of rows. The line from a comes from below-left through its bend; c was moved below b.
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), { ...node('b'), height: 90, belowOutline: 60 }, node('c')], groups: [], edges: [edge('a', 'b'), edge('b', 'c')] };
    const auto = rowLayout(input);
    const b = auto.boxes['b'];
    const arrangement: ArrangementLists = {
      nodes: [
        { id: 'a', x: auto.boxes['a'].x, y: auto.boxes['a'].y },
        { id: 'b', x: b.x, y: b.y },
        { id: 'c', x: b.x, y: b.y + 300 },
      ],
      groups: [],
      edges: [{ source: 'a', target: 'b', index: 0, points: [{ x: b.x - 100, y: b.y + 200 }] }],
    };
    const { layout } = applyArrangement(input, auto, arrangement);
    for (const [key, end] of [['a->b#0', -1], ['b->c#0', 0]] as const) {
      const points = layout.edges[key].points;
      expect(points.at(end)?.y).toBeLessThanOrEqual(b.y + 30);
    }
  });
});

describe('arrangementOf', () => {
  it('saves every visible box, and the hidden members of a collapsed group moved with it', () => {
    const previous: ArrangementLists = {
      groups: [{ id: 'g', x: 100, y: 100, width: 400, height: 300 }],
      nodes: [
        { id: 'in', x: 120, y: 150 },
        { id: 'gone', x: 0, y: 0 },
      ],
      edges: [{ source: 'in', target: 'x', index: 0, points: [{ x: 1, y: 2 }] }],
    };
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('x')], groups: [{ id: 'g', collapsed: true, width: 180, height: 44 }], edges: [] };
    const layout: LayoutResult = { width: 0, height: 0, edges: {}, boxes: { g: { x: 150, y: 90, width: 180, height: 44 }, x: { x: 0, y: 0, width: 120, height: 48 } } };
    const parentOf = new Map<string, string | undefined>([['g', undefined], ['x', undefined], ['in', 'g']]);
    const edges = new Map([['in->x#0', { source: 'in', target: 'x', index: 0 }]]);
    const result = arrangementOf(input, layout, new Map(), previous, { parentOf, edges });
    expect(result.groups).toEqual([{ id: 'g', x: 150, y: 90, width: 400, height: 300 }]);
    expect(result.nodes).toEqual([{ id: 'x', x: 0, y: 0 }, { id: 'in', x: 170, y: 140 }]);
    expect(result.edges).toEqual(previous.edges);
  });
});

/** Random graph edits: every surviving element keeps its box, and no placed box overlaps a kept one. */
describe('applyArrangement on random edits', () => {
  interface Shape {
    groups: { id: string; parent?: string }[];
    nodes: { id: string; parent?: string }[];
    edges: [number, number][];
  }
  const toInput = (shape: Shape): LayoutInput => ({
    direction: 'RIGHT',
    groups: shape.groups.map((g) => group(g.id, g.parent)),
    nodes: shape.nodes.map((n) => node(n.id, n.parent)),
    edges: shape.edges
      .filter(([s, t]) => s < shape.nodes.length && t < shape.nodes.length)
      .map(([s, t], i) => ({ key: `${shape.nodes[s].id}->${shape.nodes[t].id}#${i}`, source: shape.nodes[s].id, target: shape.nodes[t].id })),
  });
  const shapeArb = fc
    .record({ groupCount: fc.integer({ min: 0, max: 4 }), nodeParents: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 1, maxLength: 14 }), nesting: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 4, maxLength: 4 }), edges: fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { maxLength: 20 }) })
    .map(({ groupCount, nodeParents, nesting, edges }): Shape => {
      // Group i nests only in a group with a smaller index: no cycles.
      const groups = Array.from({ length: groupCount }, (_, i) => ({ id: `g${i}`, ...(nesting[i] >= 0 && nesting[i] < i ? { parent: `g${nesting[i]}` } : {}) }));
      const nodes = nodeParents.map((p, i) => ({ id: `n${i}`, ...(p >= 0 && p < groupCount ? { parent: `g${p}` } : {}) }));
      return { groups, nodes, edges };
    });
  const editArb = fc.record({
    remove: fc.array(fc.nat(20), { maxLength: 4 }),
    add: fc.array(fc.tuple(fc.integer({ min: -1, max: 3 }), fc.nat(20)), { maxLength: 5 }),
    move: fc.array(fc.tuple(fc.nat(20), fc.integer({ min: -1, max: 3 })), { maxLength: 3 }),
    spread: fc.array(fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 })), { maxLength: 14 }),
  });

  type Edit = typeof editArb extends fc.Arbitrary<infer E> ? E : never;
  type Arrange = (input: LayoutInput, auto: LayoutResult, arrangement: ArrangementLists) => ArrangedDrawing | Promise<ArrangedDrawing>;
  /** Arranges `shape`, edits the graph, draws the edited graph with `arrange` and checks the rule's guarantees. */
  async function checkEdit(shape: Shape, edit: Edit, arrange: Arrange): Promise<void> {
    const before = toInput(shape);
    const arrangement = saved(before, rowLayout(before));
    // People moved some top-level nodes around (groups and their members stay as laid out).
    arrangement.nodes = arrangement.nodes.map((n, i) => {
      const own = shape.nodes.find((s) => s.id === n.id);
      const [dx, dy] = edit.spread[i] ?? [0, 0];
      return own?.parent === undefined ? { ...n, x: n.x + dx * 3 + 2000, y: n.y + dy * 3 } : n;
    });

    const removed = new Set(edit.remove.map((i) => `n${i}`));
    const groupIds = new Set(shape.groups.map((g) => g.id));
    const parentFor = (p: number) => (groupIds.has(`g${p}`) ? `g${p}` : undefined);
    const movedTo = new Map(edit.move.map(([i, p]) => [`n${i}`, parentFor(p)]));
    const nodes = shape.nodes
      .filter((n) => !removed.has(n.id))
      .map((n) => (movedTo.has(n.id) ? { id: n.id, ...(movedTo.get(n.id) ? { parent: movedTo.get(n.id) } : {}) } : n));
    const added = edit.add.map(([p], i) => ({ id: `new${i}`, ...(parentFor(p) ? { parent: parentFor(p) } : {}) }));
    const afterNodes = [...nodes, ...added];
    const afterEdges: [number, number][] = edit.add.map(([, t], i) => [nodes.length + i, t % Math.max(1, nodes.length)]);
    const after = toInput({ groups: shape.groups, nodes: afterNodes, edges: [...shape.edges.filter(([s, t]) => s < nodes.length && t < nodes.length), ...afterEdges] });

    const { layout, placed } = await arrange(after, rowLayout(after), arrangement);
    const stored = new Map([...arrangement.nodes, ...arrangement.groups].map((b) => [b.id, b]));
    const placedSet = new Set(placed);
    const parentOf = new Map<string, string | undefined>([...after.groups.map((g) => [g.id, g.parent] as const), ...after.nodes.map((n) => [n.id, n.parent] as const)]);
    const ancestors = (id: string) => {
      const found = new Set<string>();
      for (let c = parentOf.get(id); c !== undefined; c = parentOf.get(c)) found.add(c);
      return found;
    };
    // Survivors in the same group keep their box exactly.
    for (const n of shape.nodes) {
      if (removed.has(n.id) || movedTo.has(n.id)) continue;
      const box = stored.get(n.id);
      expect(placedSet.has(n.id)).toBe(false);
      expect(layout.boxes[n.id]).toMatchObject({ x: box?.x, y: box?.y });
    }
    for (const g of shape.groups) expect(layout.boxes[g.id]).toMatchObject({ x: stored.get(g.id)?.x, y: stored.get(g.id)?.y });
    // Nothing placed overlaps a kept box (as stored), other than a frame around it.
    for (const id of placed) {
      const box = layout.boxes[id];
      for (const [other, kept] of stored) {
        if (placedSet.has(other) || !parentOf.has(other) || ancestors(id).has(other)) continue;
        const keptBox = layout.boxes[other];
        expect(boxesClash(box, { x: kept.x, y: kept.y, width: keptBox.width, height: keptBox.height })).toBe(false);
      }
    }
    expect(new Set(Object.keys(layout.boxes))).toEqual(new Set(parentOf.keys()));
  }

  it('keeps every surviving id in place and never overlaps a kept box with a placed one', async () => {
    await fc.assert(
      fc.asyncProperty(shapeArb, editArb, (shape, edit) => checkEdit(shape, edit, applyArrangement)),
      { numRuns: 300, seed: 20261127 },
    );
  });

  it('keeps them so with ELK placing the new ones (its proposals moved off every kept box)', async () => {
    const elk = new ELK();
    let proposed = 0;
    const withElk: Arrange = async (input, auto, arrangement) => {
      const proposals = await elkPlacements(elk, input, auto, arrangement);
      proposed += proposals.size;
      return applyArrangement(input, auto, arrangement, proposals);
    };
    await fc.assert(
      fc.asyncProperty(shapeArb, editArb, (shape, edit) => checkEdit(shape, edit, withElk)),
      { numRuns: 150, seed: 20261128 },
    );
    // ELK did place things in these runs (a new node joined to a kept one gets a proposal).
    expect(proposed).toBeGreaterThan(50);
    // An upper bound for a loaded machine (150 small ELK runs), not a measurement.
  }, 120_000);
});

describe('applyArrangement growing a frame for new members', () => {
  it('never grows a frame over a kept neighbour when its right or its bottom side is free', () => {
    const sides = ['above', 'below', 'left', 'right'] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        // A kept frame keeps its top-left corner, so it grows rightwards or downwards only.
        fc.constantFrom('below' as const, 'right' as const),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: -60, max: 60 }), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (kept, added, free, gaps, slides, nested) => {
          // A frame (nested in an outer frame or not) holding `kept` members in a row, exactly; a kept neighbour
          // close to it on every side but `free`; `added` new members of the frame.
          const members = Array.from({ length: kept }, (_, i) => node(`m${i}`, 'g'));
          const news = Array.from({ length: added }, (_, i) => node(`new${i}`, 'g'));
          const frame = { id: 'g', x: 1000, y: 1000, width: kept * 120 + (kept - 1) * 16 + 32, height: 48 + GROUP_HEADER + 8 + 16 };
          const neighbours = sides.filter((side) => side !== free);
          const place = (side: (typeof sides)[number], i: number) => {
            const gap = gaps[i];
            const slide = slides[i];
            if (side === 'above') return { x: frame.x + slide, y: frame.y - gap - 48 };
            if (side === 'below') return { x: frame.x + slide, y: frame.y + frame.height + gap };
            if (side === 'left') return { x: frame.x - gap - 120, y: frame.y + slide };
            return { x: frame.x + frame.width + gap, y: frame.y + slide };
          };
          const outer = { id: 'o', x: 0, y: 0, width: 3000, height: 3000 };
          const input: LayoutInput = {
            direction: 'RIGHT',
            nodes: [...members, ...news, ...neighbours.map((side) => node(`n-${side}`, nested ? 'o' : undefined))],
            groups: [group('g', nested ? 'o' : undefined), ...(nested ? [group('o')] : [])],
            edges: news.map((n, i) => edge(n.id, `n-${neighbours[i % neighbours.length]}`)),
          };
          const arrangement: ArrangementLists = {
            ...empty,
            groups: [frame, ...(nested ? [outer] : [])],
            nodes: [...members.map((m, i) => ({ id: m.id, x: frame.x + 16 + i * 136, y: frame.y + GROUP_HEADER + 8 })), ...neighbours.map((side, i) => ({ id: `n-${side}`, ...place(side, i) }))],
          };
          const { layout, placed } = applyArrangement(input, rowLayout(input), arrangement);
          expect(placed).toEqual(news.map((n) => n.id));
          const g = layout.boxes['g'];
          for (const side of neighbours) {
            const stored = arrangement.nodes.find((n) => n.id === `n-${side}`);
            expect(layout.boxes[`n-${side}`]).toMatchObject({ x: stored?.x, y: stored?.y });
            expect(boxesClash(g, layout.boxes[`n-${side}`])).toBe(false);
          }
          for (const n of news) {
            const b = layout.boxes[n.id];
            expect(b.x >= g.x && b.y >= g.y && b.x + b.width <= g.x + g.width && b.y + b.height <= g.y + g.height).toBe(true);
            for (const m of members) expect(boxesClash(b, layout.boxes[m.id])).toBe(false);
          }
        },
      ),
      { numRuns: 200, seed: 20261128 },
    );
  });
});

describe('withoutArranged', () => {
  it('drops the chosen nodes, a chosen group with everything inside it, and the bends of their edges', () => {
    const parentOf = new Map<string, string | undefined>([['a', undefined], ['b', 'g'], ['c', 'h'], ['h', 'g'], ['g', undefined], ['d', undefined]]);
    const lists: ArrangementLists = {
      nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, x: 0, y: 0 })),
      groups: ['g', 'h'].map((id) => ({ id, x: 0, y: 0, width: 10, height: 10 })),
      edges: [
        { source: 'a', target: 'd', index: 0, points: [] },
        { source: 'd', target: 'c', index: 0, points: [] },
        { source: 'd', target: 'd', index: 0, points: [] },
      ],
    };
    const left = withoutArranged(lists, ['a', 'g'], parentOf);
    expect(left.nodes.map((n) => n.id)).toEqual(['d']);
    expect(left.groups).toEqual([]);
    expect(left.edges).toEqual([{ source: 'd', target: 'd', index: 0, points: [] }]);
    // Then placed again, each near its neighbours and clear of what stays.
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('d'), node('e')], groups: [], edges: [edge('a', 'd')] };
    const arranged: ArrangementLists = { ...empty, nodes: [{ id: 'a', x: 0, y: 0 }, { id: 'd', x: 600, y: 300 }, { id: 'e', x: 600, y: 400 }] };
    const { layout, placed } = applyArrangement(input, rowLayout(input), withoutArranged(arranged, ['a', 'e'], new Map()));
    expect(placed).toEqual(['a', 'e']);
    expect(layout.boxes['d']).toMatchObject({ x: 600, y: 300 });
    expect(Math.hypot(layout.boxes['a'].x - 600, layout.boxes['a'].y - 300)).toBeLessThan(250);
    expect(boxesClash(layout.boxes['a'], layout.boxes['d'], 16)).toBe(false);
    expect(boxesClash(layout.boxes['e'], layout.boxes['a'], 16)).toBe(false);
  });
});

describe('moveBoxes', () => {
  it('moves a group with its members, grows a frame around a member dragged out of it, and refuses a frame over a non-member', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'g'), node('b')], groups: [group('g')], edges: [] };
    const auto = rowLayout(input);
    const moved = moveBoxes(input, auto.boxes, [{ id: 'g', x: auto.boxes['g'].x + 100, y: auto.boxes['g'].y + 50 }]);
    if (!moved) throw new Error('the group could not be moved');
    expect(moved['a']).toMatchObject({ x: auto.boxes['a'].x + 100, y: auto.boxes['a'].y + 50 });
    expect(moved['g']).toEqual({ ...auto.boxes['g'], x: auto.boxes['g'].x + 100, y: auto.boxes['g'].y + 50 });
    expect(moved['b']).toEqual(auto.boxes['b']);

    const out = moveBoxes(input, auto.boxes, [{ id: 'a', x: 20, y: 400 }]);
    if (!out) throw new Error('the node could not be moved');
    const frame = out['g'];
    expect(frame.y + frame.height).toBeGreaterThanOrEqual(400 + 48);
    // Into b's place: g's frame would hold b, which is not its member.
    expect(moveBoxes(input, auto.boxes, [{ id: 'a', x: auto.boxes['b'].x, y: auto.boxes['b'].y + 100 }])).toBeNull();
    expect(moveBoxes(input, auto.boxes, [{ id: 'b', x: auto.boxes['a'].x, y: auto.boxes['a'].y }])).toBeNull();
    // Saved and applied again, everything stays where it was dragged.
    const arrangement = saved(input, { ...auto, boxes: out });
    expect(applyArrangement(input, auto, arrangement)).toMatchObject({ placed: [], layout: { boxes: out } });
  });

  it('resizes a node, never smaller than its own size', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('b')], groups: [], edges: [] };
    const boxes = { a: { x: 0, y: 0, width: 120, height: 48 }, b: { x: 300, y: 0, width: 120, height: 48 } };
    expect(moveBoxes(input, boxes, [{ id: 'a', x: 0, y: 0, width: 200, height: 90 }])?.['a']).toEqual({ x: 0, y: 0, width: 200, height: 90 });
    expect(moveBoxes(input, boxes, [{ id: 'a', x: 0, y: 0, width: 60, height: 20 }])?.['a']).toEqual({ x: 0, y: 0, width: 120, height: 48 });
    // Saved with its size, drawn at it.
    const grown = moveBoxes(input, boxes, [{ id: 'b', x: 300, y: 0, width: 180, height: 70 }]) as Record<string, Box>;
    const lists = saved(input, { width: 500, height: 100, boxes: grown, edges: {} });
    expect(lists.nodes).toContainEqual({ id: 'b', x: 300, y: 0, width: 180, height: 70 });
    expect(lists.nodes).toContainEqual({ id: 'a', x: 0, y: 0 });
    expect(applyArrangement(input, rowLayout(input), lists).layout.boxes['b']).toEqual({ x: 300, y: 0, width: 180, height: 70 });
  });

  it('resizes a frame, never smaller than what its members need', () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a', 'g'), node('b')], groups: [group('g')], edges: [] };
    const auto = rowLayout(input);
    const g = auto.boxes['g'];
    const bigger = moveBoxes(input, auto.boxes, [{ id: 'g', x: g.x, y: g.y, width: g.width, height: g.height + 200 }]);
    expect(bigger?.['g']).toEqual({ ...g, height: g.height + 200 });
    expect(bigger?.['a']).toEqual(auto.boxes['a']);
    const smaller = moveBoxes(input, auto.boxes, [{ id: 'g', x: g.x, y: g.y, width: 10, height: 10 }]);
    expect(smaller?.['g']).toEqual(g);
    // Wide enough to reach b: refused.
    expect(moveBoxes(input, auto.boxes, [{ id: 'g', x: g.x, y: g.y, width: g.width + 400, height: g.height }])).toBeNull();
  });
});
