import ELK from 'elkjs/lib/elk.bundled.js';
import { withoutEndSteps } from './end-steps';
import { LayoutCache, layoutDiagram, type Box, type EdgeRoute, type LayoutInput } from './layout';
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

describe('withoutEndSteps', () => {
  it('draws a Z between two nodes straight, sliding the source’s end along its side', () => {
    const { input, boxes, routes } = drawing();
    expect(withoutEndSteps(input, boxes, routes)['still->moving'].points).toEqual([{ x: 60, y: 40 }, { x: 60, y: 100 }]);
  });

  it('slides the target’s end where the source’s would come too near its corner', () => {
    const { input, boxes, routes } = drawing();
    const nearCorner: EdgeRoute = { points: [{ x: 88, y: 40 }, { x: 88, y: 70 }, { x: 98, y: 70 }, { x: 98, y: 100 }] };
    expect(withoutEndSteps(input, boxes, { ...routes, 'still->moving': nearCorner })['still->moving'].points).toEqual([{ x: 88, y: 40 }, { x: 88, y: 100 }]);
  });

  // Straight, the line would run at x 60 (the source's end slid) or at x 50 (the target's): each case blocks both.
  it('leaves the Z where the straight line would run beside another line, cross a box or a label, or the step goes around something', () => {
    const beside = drawing({ edges: [{ key: 'moving->still', source: 'moving', target: 'still' }], routes: { 'moving->still': { points: [{ x: 55, y: 100 }, { x: 55, y: 40 }] } } });
    const box = drawing({ nodes: [node('note', { x: 45, y: 75, width: 20, height: 10 })] });
    const label = drawing({
      edges: [{ key: 'moving->still', source: 'moving', target: 'still', labelWidth: 20, labelHeight: 10 }],
      routes: { 'moving->still': { points: [{ x: 90, y: 100 }, { x: 90, y: 40 }], label: { x: 45, y: 80 } } },
    });
    const wide = drawing({ routes: { 'still->moving': { points: [{ x: 20, y: 40 }, { x: 20, y: 70 }, { x: 40, y: 70 }, { x: 40, y: 100 }] } } });
    for (const { input, boxes, routes } of [beside, box, label, wide]) {
      expect(withoutEndSteps(input, boxes, routes)).toBe(routes);
    }
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
