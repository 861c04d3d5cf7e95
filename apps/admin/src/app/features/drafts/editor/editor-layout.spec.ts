import ELK from 'elkjs/lib/elk.bundled.js';
import { segmentEntersBox, type Box, type LayoutInput, type Point } from '@sc/diagram';
import { layoutDraft } from './editor-layout';

const elk = new ELK();
const node = (id: string, parent?: string) => ({ id, width: 120, height: 48, ...(parent ? { parent } : {}) });
const edge = (source: string, target: string) => ({ key: `${source}>${target}`, source, target });

/** Every edge's route against every node box but its ends: the crossings, as "edge through node". */
function crossings(input: LayoutInput, boxes: Record<string, Box>, routes: Record<string, { points: Point[] }>): string[] {
  const out: string[] = [];
  for (const e of input.edges) {
    const points = routes[e.key]?.points ?? [];
    for (const n of input.nodes) {
      if (n.id === e.source || n.id === e.target) continue;
      if (points.some((p, i) => i > 0 && segmentEntersBox(points[i - 1], p, boxes[n.id]))) out.push(`${e.key} through ${n.id}`);
    }
  }
  return out;
}

describe('layoutDraft: the editor’s auto-layout in one ELK run', () => {
  // A chain in a row with edges skipping a member of it, across a group's border: laid out group by group, the edge
  // gateway → stock was joined to the group's border straight through orders.
  const input: LayoutInput = {
    direction: 'RIGHT',
    nodes: [node('client'), node('gateway'), node('orders', 'shop'), node('stock', 'shop')],
    groups: [{ id: 'shop', collapsed: false, width: 200, height: 0 }],
    edges: [edge('client', 'gateway'), edge('gateway', 'orders'), edge('orders', 'stock'), edge('client', 'orders'), edge('gateway', 'stock')],
  };

  it('routes every edge, between groups too, around the nodes it does not join, never along their borders', async () => {
    const result = await layoutDraft(elk, input);
    expect(Object.keys(result.edges).sort()).toEqual(input.edges.map((e) => e.key).sort());
    expect(crossings(input, result.boxes, result.edges)).toEqual([]);
    // gateway → stock passes under orders: straightened, it ran along orders' bottom border.
    const near: string[] = [];
    for (const e of input.edges) {
      const points = result.edges[e.key].points;
      for (const n of input.nodes) {
        if (n.id === e.source || n.id === e.target) continue;
        const box = result.boxes[n.id];
        const grown = { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 };
        if (points.some((p, i) => i > 0 && segmentEntersBox(points[i - 1], p, grown))) near.push(`${e.key} beside ${n.id}`);
      }
    }
    expect(near).toEqual([]);
  });

  it('gives absolute boxes, members inside their group below its header, and routes that start and end on their nodes', async () => {
    const { boxes, edges } = await layoutDraft(elk, input);
    const shop = boxes['shop'];
    for (const id of ['orders', 'stock']) {
      const box = boxes[id];
      expect(box.x).toBeGreaterThanOrEqual(shop.x + 24);
      expect(box.y).toBeGreaterThanOrEqual(shop.y + 48);
      expect(box.x + box.width).toBeLessThanOrEqual(shop.x + shop.width - 24);
    }
    const onBorder = (p: Point, b: Box) => p.x >= b.x - 1 && p.x <= b.x + b.width + 1 && p.y >= b.y - 1 && p.y <= b.y + b.height + 1;
    const route = edges['gateway>stock'].points;
    expect(onBorder(route[0], boxes['gateway'])).toBe(true);
    expect(onBorder(route[route.length - 1], boxes['stock'])).toBe(true);
  });

  it.each(['RIGHT', 'DOWN'] as const)('ends the edges of a shape with data rows under it on its outline, not beside or below the rows, each at a point of its own (%s)', async (direction) => {
    // orders: a 40 px outline over 50 px of rows, with edges in from both sides of the group's border and one out.
    const withRows: LayoutInput = { ...input, direction, nodes: input.nodes.map((n) => (n.id === 'orders' ? { ...n, height: 90, belowOutline: 50 } : n)) };
    const { boxes, edges } = await layoutDraft(elk, withRows);
    const orders = boxes['orders'];
    const ends = withRows.edges.flatMap((e) => [...(e.source === 'orders' ? [edges[e.key].points[0]] : []), ...(e.target === 'orders' ? [edges[e.key].points.at(-1)] : [])]);
    expect(ends).toHaveLength(3);
    expect(orders.height).toBe(90);
    // On the outline's left or right side, or on its top; never below the outline, where the rows are.
    const near = (a: number, b: number) => Math.abs(a - b) < 1;
    const onSide = (end: Point) => (near(end.x, orders.x) || near(end.x, orders.x + orders.width)) && end.y > orders.y && end.y < orders.y + 40;
    const onTop = (end: Point) => near(end.y, orders.y) && end.x > orders.x && end.x < orders.x + orders.width;
    expect(ends.filter((end) => end === undefined || !(onSide(end) || onTop(end)))).toEqual([]);
    // Side by side: no two edges share an end.
    expect(new Set(ends.map((end) => `${Math.round(end?.x ?? 0)},${Math.round(end?.y ?? 0)}`)).size).toBe(3);
    expect(crossings(withRows, boxes, edges)).toEqual([]);
  });

  it('draws only the edge that closes a cycle in the draft’s order against the flow, the group after the nodes named before it', async () => {
    // client → gateway → [shop: orders → stock], and stock → client closes the cycle. With the group first among the
    // members, ELK drew it before client and gateway.
    const cycle: LayoutInput = { ...input, edges: [edge('client', 'gateway'), edge('gateway', 'orders'), edge('orders', 'stock'), edge('stock', 'client')] };
    const { boxes, edges } = await layoutDraft(elk, cycle);
    const x = (id: string) => boxes[id].x;
    expect([x('client') < x('gateway'), x('gateway') < x('shop'), x('orders') < x('stock')]).toEqual([true, true, true]);
    expect(crossings(cycle, boxes, edges)).toEqual([]);
  });

  it('places nodes that no edge joins in the draft’s order, row by row, not in the order ELK packs them', async () => {
    const result = await layoutDraft(elk, {
      direction: 'RIGHT',
      nodes: [node('first'), node('a'), node('b'), node('second'), node('third'), node('fourth')],
      groups: [],
      edges: [edge('a', 'b')],
    });
    const rowByRow = ['first', 'a', 'second', 'third', 'fourth'].sort((p, q) => result.boxes[p].y - result.boxes[q].y || result.boxes[p].x - result.boxes[q].x);
    expect(rowByRow).toEqual(['first', 'a', 'second', 'third', 'fourth']);
  });

  it('ends the lines of a diamond on its outline, not on its box', async () => {
    const withDiamond: LayoutInput = { ...input, nodes: input.nodes.map((n) => (n.id === 'gateway' ? { ...n, width: 160, height: 90, shape: 'diamond' as const } : n)) };
    const { boxes, edges } = await layoutDraft(elk, withDiamond);
    const box = boxes['gateway'];
    const ends = withDiamond.edges.flatMap((e) => [...(e.source === 'gateway' ? [edges[e.key].points[0]] : []), ...(e.target === 'gateway' ? [edges[e.key].points.at(-1)] : [])]);
    expect(ends).toHaveLength(3);
    // On a side of the diamond: |dx| / half its width + |dy| / half its height = 1, from the box's centre.
    const onSide = (p: Point | undefined) => p !== undefined && Math.abs(Math.abs(p.x - (box.x + box.width / 2)) / (box.width / 2) + Math.abs(p.y - (box.y + box.height / 2)) / (box.height / 2) - 1) < 0.01;
    expect(ends.filter((end) => !onSide(end))).toEqual([]);
  });

  it('draws a line there and a line back between two nodes straight, not with a step at one end', async () => {
    const cycle: LayoutInput = {
      direction: 'DOWN',
      nodes: [node('idle'), node('busy'), node('done')],
      groups: [],
      edges: [edge('idle', 'busy'), edge('busy', 'idle'), edge('busy', 'done'), edge('idle', 'done')],
    };
    const { boxes, edges } = await layoutDraft(elk, cycle);
    expect([edges['idle>busy'].points.length, edges['busy>idle'].points.length]).toEqual([2, 2]);
    expect(crossings(cycle, boxes, edges)).toEqual([]);
  });

  it('leaves a group’s edge to its own member to be drawn straight', async () => {
    const nested: LayoutInput = { ...input, edges: [...input.edges, edge('shop', 'orders')] };
    const result = await layoutDraft(elk, nested);
    expect(result.edges['shop>orders']).toBeUndefined();
  });
});
