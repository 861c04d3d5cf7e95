import ELK from 'elkjs/lib/elk.bundled.js';
import { SMALL_STEPS_MAX_LINES, withoutSmallSteps } from './small-steps';
import { LayoutCache, layoutDiagram, type Box, type EdgeRoute, type LayoutInput, type Point } from './layout';
import { drawingOf, routeCrossings } from './route-check';

jest.setTimeout(120_000);

const node = (id: string, box: Box) => ({ node: { id, width: box.width, height: box.height }, box });
const still = node('still', { x: 0, y: 0, width: 100, height: 40 });
const moving = node('moving', { x: 10, y: 100, width: 100, height: 40 });
/** still's bottom at x 50, a step of 10 px across at y 70, moving's top at x 60. */
const z: EdgeRoute = { points: [{ x: 50, y: 40 }, { x: 50, y: 70 }, { x: 60, y: 70 }, { x: 60, y: 100 }] };

function drawing(extra: { nodes?: ReturnType<typeof node>[]; routes?: Record<string, EdgeRoute>; edges?: LayoutInput['edges'] } = {}) {
  const nodes = [still, moving, ...(extra.nodes ?? [])];
  const input: Pick<LayoutInput, 'nodes' | 'groups' | 'edges'> = {
    nodes: nodes.map((n) => n.node),
    groups: [],
    edges: [{ key: 'still->moving', source: 'still', target: 'moving' }, ...(extra.edges ?? [])],
  };
  const boxes = Object.fromEntries(nodes.map((n) => [n.node.id, n.box]));
  return { input, boxes, routes: { 'still->moving': z, ...extra.routes } };
}

describe('withoutSmallSteps', () => {
  it('draws a Z between two nodes straight, sliding the source’s end along its side', () => {
    const { input, boxes, routes } = drawing();
    expect(withoutSmallSteps(input, boxes, routes)['still->moving'].points).toEqual([{ x: 60, y: 40 }, { x: 60, y: 100 }]);
  });

  it('moves a stretch in the middle of a route onto the next one’s line (a line through two nested frames whose ports are 6 px apart)', () => {
    const { input, boxes } = drawing();
    const far = node('far', { x: 60, y: 200, width: 60, height: 40 });
    const through: EdgeRoute = { points: [{ x: 50, y: 40 }, { x: 50, y: 60 }, { x: 80, y: 60 }, { x: 80, y: 150 }, { x: 86, y: 150 }, { x: 86, y: 200 }] };
    const routes = withoutSmallSteps({ ...input, nodes: [...input.nodes, far.node], edges: [{ key: 'still->far', source: 'still', target: 'far' }] }, { ...boxes, far: far.box }, { 'still->far': through });
    expect(routes['still->far'].points).toEqual([{ x: 50, y: 40 }, { x: 50, y: 60 }, { x: 86, y: 60 }, { x: 86, y: 200 }]);
  });

  it('slides the target’s end where the source’s would come too near its corner', () => {
    const { input, boxes, routes } = drawing();
    const nearCorner: EdgeRoute = { points: [{ x: 88, y: 40 }, { x: 88, y: 70 }, { x: 98, y: 70 }, { x: 98, y: 100 }] };
    expect(withoutSmallSteps(input, boxes, { ...routes, 'still->moving': nearCorner })['still->moving'].points).toEqual([{ x: 88, y: 40 }, { x: 88, y: 100 }]);
  });

  it('slides an end only along the outline of a node with rows under it, never beside the rows', () => {
    // api: a 40 px outline with 60 px of rows under it; its line leaves at y 30 and steps down to y 44 on the way.
    const api = { id: 'api', width: 40, height: 100, belowOutline: 60 };
    const input: Pick<LayoutInput, 'nodes' | 'groups' | 'edges'> = { nodes: [api, { id: 'db', width: 60, height: 100 }], groups: [], edges: [{ key: 'api->db', source: 'api', target: 'db' }] };
    const boxes = { api: { x: 0, y: 0, width: 40, height: 100 }, db: { x: 100, y: 0, width: 60, height: 100 } };
    const route: EdgeRoute = { points: [{ x: 40, y: 30 }, { x: 70, y: 30 }, { x: 70, y: 44 }, { x: 100, y: 44 }] };
    expect(withoutSmallSteps(input, boxes, { 'api->db': route })['api->db'].points).toEqual([{ x: 40, y: 30 }, { x: 100, y: 30 }]);
  });

  // Straight, the line would run at x 60 (the source's end slid) or at x 50 (the target's). Each case blocks both: a
  // box, a label or a line 6 px away above the step at x 60 and one below it at x 50, where the Z itself does not pass.
  it('leaves the Z where the straight line would run beside another line, pass through a box or a label, or the step goes around something', () => {
    const line = (key: string, x: number, from: number, to: number) => ({ key, source: 'still', target: 'moving', points: [{ x, y: from }, { x, y: to }] });
    const lines = [line('still->moving#1', 66, 40, 70), line('still->moving#2', 44, 70, 100)];
    const beside = drawing({ edges: lines.map(({ points: _points, ...edge }) => edge), routes: Object.fromEntries(lines.map((l) => [l.key, { points: l.points }])) });
    const box = drawing({ nodes: [node('upper', { x: 55, y: 50, width: 10, height: 10 }), node('lower', { x: 45, y: 80, width: 10, height: 10 })] });
    const labelled = (key: string, at: Point) => ({ key, source: 'moving', target: 'still', labelWidth: 10, labelHeight: 10, at });
    const labels = [labelled('moving->still#0', { x: 55, y: 50 }), labelled('moving->still#1', { x: 45, y: 80 })];
    const label = drawing({
      edges: labels.map(({ at: _at, ...edge }) => edge),
      routes: Object.fromEntries(labels.map((l, i) => [l.key, { points: [{ x: 90 - i * 4, y: 100 }, { x: 90 - i * 4, y: 40 }], label: l.at }])),
    });
    const wide = drawing({ routes: { 'still->moving': { points: [{ x: 20, y: 40 }, { x: 20, y: 70 }, { x: 40, y: 70 }, { x: 40, y: 100 }] } } });
    for (const { input, boxes, routes } of [beside, box, label, wide]) {
      expect(withoutSmallSteps(input, boxes, routes)).toBe(routes);
    }
  });

  it('leaves the Z where the straight line would run along another box’s border, or closer than 8 px to it', () => {
    // The draft editor's `gateway --> stock` passing under `orders` 6 px below its bottom, then up into stock: drawn
    // straight it ran along orders' bottom border. Here a box beside the step, its left side at x 60 (on the line the
    // source's end would slide to) or at x 66 (6 px from it), and another at x 40 to 44 beside the target's.
    const along = drawing({ nodes: [node('upper', { x: 60, y: 45, width: 30, height: 20 }), node('lower', { x: 14, y: 75, width: 30, height: 20 })] });
    const beside = drawing({ nodes: [node('upper', { x: 66, y: 45, width: 30, height: 20 }), node('lower', { x: 14, y: 75, width: 30, height: 20 })] });
    for (const { input, boxes, routes } of [along, beside]) expect(withoutSmallSteps(input, boxes, routes)).toBe(routes);
    // 9 px away, it is straightened.
    const clear = drawing({ nodes: [node('upper', { x: 69, y: 45, width: 30, height: 20 })] });
    expect(withoutSmallSteps(clear.input, clear.boxes, clear.routes)['still->moving'].points).toEqual([{ x: 60, y: 40 }, { x: 60, y: 100 }]);
  });

  it('leaves the lines of a drawing of more than SMALL_STEPS_MAX_LINES lines as they are', () => {
    const { input, boxes, routes } = drawing();
    const many = [...input.edges, ...Array.from({ length: SMALL_STEPS_MAX_LINES }, (_, i) => ({ key: `still->moving#${i + 1}`, source: 'still', target: 'moving' }))];
    expect(withoutSmallSteps({ ...input, edges: many }, boxes, routes)).toBe(routes);
    expect(withoutSmallSteps({ ...input, edges: many.slice(0, SMALL_STEPS_MAX_LINES) }, boxes, routes)).not.toBe(routes);
  });

  it('draws the two lines of a state and the state after it straight, each clear of the other (state-01’s Still and Moving)', async () => {
    const input: LayoutInput = {
      direction: 'DOWN',
      nodes: [
        { id: 'Still', width: 80, height: 36 },
        { id: 'Moving', width: 86, height: 36 },
        { id: 'Crash', width: 76, height: 36 },
        { id: 'start', width: 28, height: 28, shape: 'circle', gather: true },
        { id: 'end', width: 28, height: 28, shape: 'circle', gather: true },
      ],
      groups: [],
      edges: [
        { key: 'start->Still', source: 'start', target: 'Still' },
        { key: 'Still->end', source: 'Still', target: 'end' },
        { key: 'Still->Moving', source: 'Still', target: 'Moving' },
        { key: 'Moving->Still', source: 'Moving', target: 'Still' },
        { key: 'Moving->Crash', source: 'Moving', target: 'Crash' },
        { key: 'Crash->end', source: 'Crash', target: 'end' },
      ],
    };
    const result = await layoutDiagram(new ELK(), input, new LayoutCache());
    expect(result.edges['Still->Moving'].points).toHaveLength(2);
    expect(result.edges['Moving->Still'].points).toHaveLength(2);
    expect(routeCrossings(drawingOf(input, result))).toEqual([]);
  });
});
