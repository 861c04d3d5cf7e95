import ELK from 'elkjs/lib/elk.bundled.js';
import type { ArrangementLists } from '@sc/contracts';
import { boxesClash } from './arrangement';
import { arrangeWithElk, elkPlacements } from './elk-placement';
import { LayoutCache, layoutDiagram, type Box, type LayoutInput } from './layout';

const elk = new ELK();
const node = (id: string, parent?: string) => ({ id, width: 120, height: 48, ...(parent ? { parent } : {}) });
const edge = (source: string, target: string, index = 0) => ({ key: `${source}->${target}#${index}`, source, target });
const middle = (box: Box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
/** An arrangement that keeps only these nodes where they were put. */
const keeping = (...nodes: ArrangementLists['nodes']): ArrangementLists => ({ nodes, groups: [], edges: [] });
/** The automatic layout that ELK's placement starts from. */
const autoLayout = (input: LayoutInput) => layoutDiagram(elk, input, new LayoutCache());

/** Every pair of drawn boxes apart (no frame here). */
function expectApart(boxes: Record<string, Box>): void {
  const ids = Object.keys(boxes);
  for (const a of ids) for (const b of ids) if (a < b) expect([a, b, boxesClash(boxes[a], boxes[b])]).toEqual([a, b, false]);
}

describe('placing what an arrangement does not place, by ELK', () => {
  it('puts a new node after its neighbour in the flow (RIGHT: to its right, level with it), overlapping nothing', async () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('b'), node('c'), node('new')], groups: [], edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'new')] };
    const arrangement = keeping(
      { id: 'a', x: 0, y: 400 },
      { id: 'b', x: 300, y: 100 },
      { id: 'c', x: 700, y: 250 },
    );
    const auto = await autoLayout(input);
    const { layout, placed } = await arrangeWithElk(elk, input, auto, arrangement);
    expect(placed).toEqual(['new']);
    for (const kept of arrangement.nodes) expect(layout.boxes[kept.id]).toMatchObject({ x: kept.x, y: kept.y });
    const fresh = layout.boxes['new'];
    const c = layout.boxes['c'];
    // Right of c, one layer's spacing away (56 between layers), level with it.
    expect(fresh.x).toBeGreaterThanOrEqual(c.x + c.width);
    expect(fresh.x).toBeLessThanOrEqual(c.x + c.width + 56 + 1);
    expect(Math.abs(middle(fresh).y - middle(c).y)).toBeLessThanOrEqual(1);
    expectApart(layout.boxes);
  });

  it('puts a new node after a neighbour resized wider than it (the flow, not the centres, orders them)', async () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('c'), node('new')], groups: [], edges: [edge('c', 'new')] };
    const arrangement = keeping({ id: 'c', x: 100, y: 100, width: 320, height: 110 });
    const auto = await autoLayout(input);
    const { layout } = await arrangeWithElk(elk, input, auto, arrangement);
    const fresh = layout.boxes['new'];
    expect(fresh.x).toBeGreaterThanOrEqual(100 + 320);
    expect(fresh.y).toBeGreaterThanOrEqual(100);
    expect(fresh.y + fresh.height).toBeLessThanOrEqual(100 + 110);
  });

  it('puts a new node before the neighbour it points to in a top-down flow (above it)', async () => {
    const input: LayoutInput = { direction: 'DOWN', nodes: [node('a'), node('new')], groups: [], edges: [edge('new', 'a')] };
    const arrangement = keeping({ id: 'a', x: 400, y: 400 });
    const auto = await autoLayout(input);
    const proposals = await elkPlacements(elk, input, auto, arrangement);
    const { layout } = await arrangeWithElk(elk, input, auto, arrangement);
    const fresh = layout.boxes['new'];
    expect(proposals.get('new')).toEqual({ x: fresh.x, y: fresh.y });
    expect(fresh.y + fresh.height).toBeLessThanOrEqual(400);
    expect(fresh.y + fresh.height).toBeGreaterThanOrEqual(400 - 56 - 1);
    expect(Math.abs(middle(fresh).x - middle(layout.boxes['a']).x)).toBeLessThanOrEqual(1);
  });

  it('puts a new node between its two neighbours when it joins them', async () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a'), node('z'), node('new')], groups: [], edges: [edge('a', 'new'), edge('new', 'z')] };
    const arrangement = keeping(
      { id: 'a', x: 0, y: 0 },
      { id: 'z', x: 800, y: 0 },
    );
    const auto = await autoLayout(input);
    const { layout } = await arrangeWithElk(elk, input, auto, arrangement);
    const fresh = layout.boxes['new'];
    expect(fresh.x).toBeGreaterThan(120);
    expect(fresh.x + fresh.width).toBeLessThan(800);
    expectApart(layout.boxes);
  });

  it('moves ELK\'s place off a kept box that is no neighbour of the new node', async () => {
    // `blocker` sits right where ELK puts `new` (after c): ELK does not know it, the overlap resolution does.
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('c'), node('blocker'), node('new')], groups: [], edges: [edge('c', 'new')] };
    const arrangement = keeping(
      { id: 'c', x: 0, y: 0 },
      { id: 'blocker', x: 176, y: 0 },
    );
    const auto = await autoLayout(input);
    const proposal = (await elkPlacements(elk, input, auto, arrangement)).get('new');
    expect(proposal).toBeDefined();
    expect(boxesClash({ ...(proposal as { x: number; y: number }), width: 120, height: 48 }, { x: 176, y: 0, width: 120, height: 48 })).toBe(true);
    const { layout } = await arrangeWithElk(elk, input, auto, arrangement);
    expect(layout.boxes['blocker']).toMatchObject({ x: 176, y: 0 });
    expectApart(layout.boxes);
    for (const id of ['c', 'blocker']) expect(boxesClash(layout.boxes['new'], layout.boxes[id], 16)).toBe(false);
  });

  it('proposes nothing without an arrangement or without anything to place', async () => {
    const input: LayoutInput = { direction: 'RIGHT', nodes: [node('a')], groups: [], edges: [] };
    const auto = await autoLayout(input);
    expect((await elkPlacements(elk, input, auto, null)).size).toBe(0);
    expect((await elkPlacements(elk, input, auto, { nodes: [{ id: 'a', x: 5, y: 5 }], groups: [], edges: [] })).size).toBe(0);
    expect((await arrangeWithElk(elk, input, auto, null)).layout).toBe(auto);
  });
});
