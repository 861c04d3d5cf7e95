import ELK from 'elkjs/lib/elk.bundled.js';
import { recordLayout, replayLayout } from './default-layout';
import { distanceToOutline } from '../../testing/outline-distance';
import { LayoutCache, layoutDiagram, portsClearOfHeader, routeBetweenBoxes, straightLine, withoutJogs, withoutSlants, type Box, type LayoutDirection, type LayoutInput, type Point } from './layout';
import { drawingOf, routeCrossings, segmentEntersBox } from './route-check';
import { outlinePolygon, type DrawnShape } from './shapes';

const elk = new ELK();
// ELK runs in this thread: on a busy machine a layout takes several times longer than on a quiet one.
jest.setTimeout(120_000);

const node = (id: string, parent?: string, width = 120, height = 48) => ({ id, width, height, ...(parent ? { parent } : {}) });
const group = (id: string, parent?: string, collapsed = false) => ({ id, collapsed, width: 180, height: collapsed ? 44 : 0, ...(parent ? { parent } : {}) });
const edge = (source: string, target: string, index = 0, label = false) => ({
  key: `${source}->${target}#${index}`,
  source,
  target,
  ...(label ? { labelWidth: 60, labelHeight: 18 } : {}),
});

/** A layout as JSON with every number rounded to the pixel (stored layouts keep 1/100 px). */
const rounded = (layout: unknown) => JSON.stringify(layout, (_key, value: unknown) => (typeof value === 'number' ? Math.round(value) : value));

async function crossingsOf(input: LayoutInput) {
  const result = await layoutDiagram(elk, input, new LayoutCache());
  return { result, crossings: routeCrossings(drawingOf(input, result)) };
}

describe('segmentEntersBox', () => {
  const box = { x: 0, y: 0, width: 100, height: 50 };
  it('tells a segment through a box from one that ends on or runs along its border', () => {
    expect(segmentEntersBox({ x: -10, y: 25 }, { x: 110, y: 25 }, box)).toBe(true);
    expect(segmentEntersBox({ x: 50, y: -20 }, { x: 50, y: 10 }, box)).toBe(true);
    expect(segmentEntersBox({ x: 50, y: 10 }, { x: 50, y: 40 }, box)).toBe(true);
    expect(segmentEntersBox({ x: -10, y: 25 }, { x: 0, y: 25 }, box)).toBe(false);
    expect(segmentEntersBox({ x: -10, y: 0 }, { x: 110, y: 0 }, box)).toBe(false);
    expect(segmentEntersBox({ x: -10, y: 60 }, { x: 110, y: 60 }, box)).toBe(false);
  });
});

describe('layoutDiagram routes around every box', () => {
  it('routes edges leaving a C4 boundary around the database beside their source (the Orders DB case)', async () => {
    // Orders service and Orders DB share a boundary; Payments and Email are outside it.
    const input: LayoutInput = {
      direction: 'DOWN',
      nodes: [node('customer'), node('orders', 'shop'), node('ordersDb', 'shop'), node('payments'), node('email')],
      groups: [group('shop')],
      edges: [edge('customer', 'orders', 0, true), edge('orders', 'ordersDb', 0, true), edge('orders', 'payments', 0, true), edge('orders', 'email', 0, true)],
    };
    const { crossings, result } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    for (const key of ['orders->payments#0', 'orders->email#0']) expect(result.edges[key].label).toBeDefined();
  });

  it('routes an edge between two groups around a node standing between them', async () => {
    const input: LayoutInput = {
      direction: 'RIGHT',
      nodes: [node('mobile', 'clients'), node('web', 'clients'), node('api', 'backend'), node('db', 'backend'), node('middle')],
      groups: [group('clients'), group('backend')],
      edges: [edge('mobile', 'api'), edge('web', 'middle'), edge('middle', 'api'), edge('web', 'db'), edge('api', 'db')],
    };
    expect((await crossingsOf(input)).crossings).toEqual([]);
  });

  it('routes through three levels of nesting and to collapsed groups without crossing a frame it does not enter', async () => {
    const input: LayoutInput = {
      direction: 'RIGHT',
      nodes: [node('x', 'g3'), node('x2', 'g3'), node('y', 'g2'), node('z', 'g1'), node('out'), node('other', 'side')],
      groups: [group('g1'), group('g2', 'g1'), group('g3', 'g2'), group('side'), group('shut', undefined, true)],
      edges: [edge('x', 'out'), edge('out', 'x2'), edge('x', 'y'), edge('z', 'x'), edge('x', 'other', 0, true), edge('other', 'shut'), edge('shut', 'y'), edge('x2', 'z')],
    };
    const { crossings, result } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    // Every route is joined: consecutive points, first on the source's border, last on the target's.
    for (const e of input.edges) expect([e.key, result.edges[e.key].points.length >= 2]).toEqual([e.key, true]);
  });

  it('makes an expanded group at least as wide as its header asks', async () => {
    const input: LayoutInput = { direction: 'DOWN', nodes: [node('a', 'g', 40, 30)], groups: [{ id: 'g', collapsed: false, width: 320, height: 0 }], edges: [] };
    const result = await layoutDiagram(elk, input, new LayoutCache());
    expect(result.boxes['g'].width).toBeGreaterThanOrEqual(320);
  });

  it('bundles edges between two groups into trees: from one source to its targets, or from many sources into one target', async () => {
    const input: LayoutInput = {
      direction: 'RIGHT',
      nodes: [node('api', 'services'), node('billing', 'services'), node('worker', 'services'), node('db', 'data'), node('gw', 'edge'), node('cache', 'stores'), node('queue', 'stores'), node('files', 'stores')],
      groups: [group('services'), group('data'), group('edge'), group('stores')],
      // Three services into one database; one gateway out to three stores.
      edges: [edge('api', 'db'), edge('billing', 'db'), edge('worker', 'db'), edge('gw', 'cache'), edge('gw', 'queue'), edge('gw', 'files')],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    /** Where a route crosses a group's left side on its way in: one port per tree. */
    const entries = (group: string, keys: string[]) =>
      new Set(
        keys.map((key) => {
          const point = result.edges[key].points.find((p) => Math.abs(p.x - result.boxes[group].x) < 1);
          return point ? `${Math.round(point.x)},${Math.round(point.y)}` : 'none';
        }),
      );
    expect(entries('data', ['api->db#0', 'billing->db#0', 'worker->db#0'])).toEqual(new Set([expect.stringMatching(/^\d+,\d+$/)]));
    expect(entries('stores', ['gw->cache#0', 'gw->queue#0', 'gw->files#0'])).toEqual(new Set([expect.stringMatching(/^\d+,\d+$/)]));
  });

  const directions: LayoutDirection[] = ['RIGHT', 'DOWN', 'LEFT', 'UP'];
  it.each(Array.from({ length: 12 }, (_, i) => i + 1))('finds no crossing on the seeded random nested graph %i', async (seed) => {
    expect((await crossingsOf(randomGraph(seed, directions[seed % 4]))).crossings).toEqual([]);
  });
});

describe('a cycle reads in the order the diagram names its members', () => {
  // The checkout flow: client → gateway → [checkout: validate → reserve → charge] → psp, and validate → client closes
  // the cycle. ELK's greedy cycle breaking alone drew the group first and sent client and gateway after it, so the
  // request read right to left; the edge that closes the cycle in the source is the one drawn back.
  const checkout = (direction: LayoutDirection): LayoutInput => ({
    direction,
    nodes: [node('client'), node('gateway'), node('validate', 'checkout'), node('reserve', 'checkout'), node('charge', 'checkout'), node('psp')],
    groups: [group('checkout')],
    edges: [edge('client', 'gateway', 0, true), edge('gateway', 'validate'), edge('validate', 'reserve'), edge('reserve', 'charge'), edge('charge', 'psp'), edge('validate', 'client')],
  });
  /** Where a box is along the flow: its centre's x for a left-right layout, y for a top-down one, growing with the flow. */
  const along = (direction: LayoutDirection, box: Box) => {
    const centre = direction === 'RIGHT' || direction === 'LEFT' ? box.x + box.width / 2 : box.y + box.height / 2;
    return direction === 'LEFT' || direction === 'UP' ? -centre : centre;
  };

  it.each(['RIGHT', 'DOWN', 'LEFT', 'UP'] as const)('draws only the edge that closes the cycle against the flow, across a group (%s)', async (direction) => {
    const input = checkout(direction);
    const { result, crossings } = await crossingsOf(input);
    const backward = input.edges.filter((e) => along(direction, result.boxes[e.target]) < along(direction, result.boxes[e.source])).map((e) => e.key);
    expect(backward).toEqual(['validate->client#0']);
    expect(crossings).toEqual([]);
  });

  it.each(['RIGHT', 'DOWN', 'LEFT', 'UP'] as const)('sends the edge drawn back out of the group on the side facing its target, not around the group (%s)', async (direction) => {
    const input = checkout(direction);
    const { result } = await crossingsOf(input);
    const horizontal = direction === 'RIGHT' || direction === 'LEFT';
    const sign = direction === 'LEFT' || direction === 'UP' ? -1 : 1;
    const validate = result.boxes['validate'];
    // The far side of `validate` along the flow: the answer to the client starts before it and only goes back.
    const farSide = Math.max(sign * (horizontal ? validate.x : validate.y), sign * (horizontal ? validate.x + validate.width : validate.y + validate.height));
    const furthest = Math.max(...result.edges['validate->client#0'].points.map((point) => sign * (horizontal ? point.x : point.y)));
    expect(furthest).toBeLessThanOrEqual(farSide);
  });

  it('replays a stored layout of it exactly, the moved port included', async () => {
    const input = checkout('RIGHT');
    const recorded = await recordLayout(elk, input);
    expect(rounded(await replayLayout(recorded, input, new LayoutCache()))).toBe(rounded(await layoutDiagram(elk, input, new LayoutCache())));
  });

  it('starts the edge drawn back on the side of a symbol facing its target, not around the symbol', async () => {
    // A summing junction in the group: its circle (40 px) above its label, lines on ports of the circle.
    const input: LayoutInput = {
      direction: 'RIGHT',
      nodes: [node('client'), node('gateway'), { ...node('join', 'checkout', 60, 68), belowOutline: 28, shape: 'summing-junction' }, node('reserve', 'checkout')],
      groups: [group('checkout')],
      edges: [edge('client', 'gateway'), edge('gateway', 'join'), edge('join', 'reserve'), edge('join', 'client')],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    const join = result.boxes['join'];
    const [start, ...rest] = result.edges['join->client#0'].points;
    // It leaves the circle on its west side and only goes back from there.
    expect(start.x).toBeLessThan(join.x + join.width / 2);
    expect(Math.max(...rest.map((point) => point.x))).toBeLessThanOrEqual(start.x);
  });

  it.each(['RIGHT', 'DOWN', 'LEFT', 'UP'] as const)('draws a line back into a symbol on the side facing it, not around the symbol (%s)', async (direction) => {
    // A loop back to a summing junction in one container: `check → join` after `join → work → check`.
    const input: LayoutInput = {
      direction,
      nodes: [node('start'), { ...node('join', undefined, 60, 68), belowOutline: 28, shape: 'summing-junction' }, node('work'), node('check')],
      groups: [],
      edges: [edge('start', 'join'), edge('join', 'work'), edge('work', 'check'), edge('check', 'join')],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    // The whole line lies between the junction and the check along the flow: it never goes past the junction.
    const sign = direction === 'LEFT' || direction === 'UP' ? -1 : 1;
    const flow = (point: Point) => sign * (direction === 'RIGHT' || direction === 'LEFT' ? point.x : point.y);
    const join = result.boxes['join'];
    const nearSide = Math.min(flow(join), flow({ x: join.x + join.width, y: join.y + join.height }));
    expect(Math.min(...result.edges['check->join#0'].points.map(flow))).toBeGreaterThanOrEqual(nearSide);
  });

  it('gives a nested group’s port the side its line takes too, one pass after its parent’s', async () => {
    const input: LayoutInput = {
      direction: 'RIGHT',
      nodes: [node('client'), node('gateway'), node('validate', 'inner'), node('reserve', 'inner'), node('charge', 'outer')],
      groups: [group('outer'), group('inner', 'outer')],
      edges: [edge('client', 'gateway'), edge('gateway', 'validate'), edge('validate', 'reserve'), edge('reserve', 'charge'), edge('validate', 'client')],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    const validate = result.boxes['validate'];
    expect(Math.max(...result.edges['validate->client#0'].points.map((point) => point.x))).toBeLessThanOrEqual(validate.x + validate.width);
  });

  it('keeps a loop between two states below the state it leaves (a retry drawn after the attempt)', async () => {
    // The webhook delivery states: Delivering → Retrying → Delivering; Retrying was drawn above Delivering, beside Pending.
    const input: LayoutInput = {
      direction: 'DOWN',
      nodes: [node('start', undefined, 20, 20), node('pending'), node('delivering'), node('delivered'), node('retrying'), node('dead'), node('end', undefined, 20, 20)],
      groups: [],
      edges: [edge('start', 'pending'), edge('pending', 'delivering', 0, true), edge('delivering', 'delivered', 0, true), edge('delivering', 'retrying', 0, true), edge('retrying', 'delivering', 0, true), edge('retrying', 'dead', 0, true), edge('delivered', 'end'), edge('dead', 'end')],
    };
    const { result, crossings } = await crossingsOf(input);
    const y = (id: string) => result.boxes[id].y;
    expect([y('pending') < y('delivering'), y('delivering') < y('retrying'), y('retrying') < y('dead')]).toEqual([true, true, true]);
    expect(crossings).toEqual([]);
  });
});

describe('a line to or from a group itself', () => {
  it.each(['RIGHT', 'DOWN'] as const)('ends on the middle of the group’s side facing the flow, not at its corner (%s)', async (direction) => {
    // A transition into a composite state and one out of it, while a line also passes into it (`lonely --> deep`).
    const input: LayoutInput = {
      direction,
      nodes: [node('lonely'), node('deep', 'outer'), node('after')],
      groups: [group('outer')],
      edges: [edge('lonely', 'outer'), edge('outer', 'after'), edge('lonely', 'deep', 0, true)],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    const frame = result.boxes['outer'];
    const into = result.edges['lonely->outer#0'].points.at(-1) as Point;
    const outOf = result.edges['outer->after#0'].points[0];
    const [across, along] = direction === 'RIGHT' ? (['y', 'x'] as const) : (['x', 'y'] as const);
    const [size, length] = direction === 'RIGHT' ? (['height', 'width'] as const) : (['width', 'height'] as const);
    // On the near side, then the far side, each well inside the side's ends (the corners are rounded).
    expect([into[along] - frame[along], outOf[along] - (frame[along] + frame[length])].map(Math.round)).toEqual([0, 0]);
    for (const end of [into, outOf]) {
      expect(end[across]).toBeGreaterThan(frame[across] + 10);
      expect(end[across]).toBeLessThan(frame[across] + frame[size] - 10);
    }
    expect(rounded(await replayLayout(await recordLayout(elk, input), input, new LayoutCache()))).toBe(rounded(result));
  });
});

describe('lines into a group pass between the name and the button of its header', () => {
  it('moves the top side’s ports out from under the name and the button, in order and apart, widening where needed', () => {
    const top = (id: string, x: number) => ({ id, x, y: 0 });
    const group = { id: 'g', width: 240, height: 200, ports: [top('a', 20), top('b', 150), top('c', 190), { id: 'south', x: 30, y: 200 }] };
    const onTop = (port: { y?: number }) => port.y === 0;
    // The name reaches 60 px from the left, the button 50 px from the right; lines keep 8 px from both.
    expect(portsClearOfHeader(group, { left: 60, right: 50 }, onTop)).toEqual({ x: new Map([['a', 68], ['b', 150], ['c', 182]]), width: 240 });
    expect(portsClearOfHeader(group, { left: 10, right: 40 }, onTop)).toBeUndefined();
    // Too narrow for two lines 10 px apart between name and button: the group grows.
    expect(portsClearOfHeader({ ...group, width: 120, ports: [top('a', 20), top('b', 100)] }, { left: 60, right: 50 }, onTop)).toEqual({ x: new Map([['a', 68], ['b', 78]]), width: 136 });
  });

  it.each(['DOWN', 'UP'] as const)('enters and leaves a group through the room between its name and its button (%s)', async (direction) => {
    // A long name and the button leave 40 px of the header between them; ELK alone puts the lines under the name.
    const header = { left: 150, right: 90 };
    const input: LayoutInput = {
      direction,
      nodes: [node('user'), node('ingress', 'platform', 60), node('app', 'platform', 60), node('monitoring')],
      groups: [{ ...group('platform'), width: 280, header }],
      edges: [edge('user', 'ingress'), edge('ingress', 'app'), edge('app', 'monitoring')],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    const frame = result.boxes['platform'];
    // Where lines cross the frame's top side (at a port: a point of the route), from the frame's left.
    const across = [...new Set(Object.values(result.edges).flatMap((route) => route.points.filter((point) => Math.abs(point.y - frame.y) < 0.5).map((point) => Math.round(point.x - frame.x))))];
    expect(across.length).toBe(1);
    expect(across[0]).toBeGreaterThanOrEqual(header.left + 8);
    expect(across[0]).toBeLessThanOrEqual(frame.width - header.right - 8);
    // A stored layout replays it exactly.
    expect(rounded(await replayLayout(await recordLayout(elk, input), input, new LayoutCache()))).toBe(rounded(result));
  });
});

describe('straight lines without wiggles', () => {
  it('takes out a step of under 3 px between two parallel stretches, moving an end only where no other stretch can move', () => {
    // A route of four points: only its end can move onto the start's line.
    expect(withoutJogs([{ x: 225, y: 742 }, { x: 225, y: 696 }, { x: 226.7, y: 696 }, { x: 226.7, y: 610 }])).toEqual([{ x: 225, y: 742 }, { x: 225, y: 610 }]);
    // A longer route: the stretch that does not end it moves, so both ends stay.
    const route = [{ x: 0, y: 0 }, { x: 50, y: 0 }, { x: 50, y: 40 }, { x: 52, y: 40 }, { x: 52, y: 90 }, { x: 120, y: 90 }];
    expect(withoutJogs(route)).toEqual([{ x: 0, y: 0 }, { x: 50, y: 0 }, { x: 50, y: 90 }, { x: 120, y: 90 }]);
    const last = [{ x: 0, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 40 }, { x: 62, y: 40 }, { x: 62, y: 90 }];
    expect(withoutJogs(last)).toEqual([{ x: 0, y: 0 }, { x: 62, y: 0 }, { x: 62, y: 90 }]);
  });

  it('keeps a step of 3 px or more, and corners that are no step: the same route, so a redrawing sees nothing moved', () => {
    const step = [{ x: 0, y: 0 }, { x: 0, y: 40 }, { x: 5, y: 40 }, { x: 5, y: 90 }];
    expect(withoutJogs(step)).toBe(step);
    const corner = [{ x: 0, y: 0 }, { x: 0, y: 40 }, { x: 2, y: 40 }, { x: 80, y: 40 }];
    expect(withoutJogs(corner)).toBe(corner);
  });

  it('straightens a stretch that leans less than 3 px, moving the run of points on one side up to its corner', () => {
    // c4-05's web → spa: a 1 px jog taken out of a stretch with a point in its middle left the rest of it leaning.
    const leaning = [{ x: 1164, y: 582 }, { x: 1290, y: 582 }, { x: 1290, y: 524 }, { x: 1290, y: 456 }, { x: 1291, y: 408 }, { x: 1291, y: 362 }, { x: 1043, y: 362 }];
    expect(withoutSlants(leaning)).toEqual([{ x: 1164, y: 582 }, { x: 1291, y: 582 }, { x: 1291, y: 524 }, { x: 1291, y: 456 }, { x: 1291, y: 408 }, { x: 1291, y: 362 }, { x: 1043, y: 362 }]);
    // Where it came from: the 1 px jog at y 514 taken out moved the stretch to y 456 only, its point there in between.
    const elk = [{ x: 1164, y: 592 }, { x: 1164, y: 582 }, { x: 1290, y: 582 }, { x: 1290, y: 514 }, { x: 1291, y: 514 }, { x: 1291, y: 456 }, { x: 1291, y: 362 }, { x: 1043, y: 362 }];
    const boxes = { web: { x: 1100, y: 592, width: 128, height: 60 }, spa: { x: 900, y: 300, width: 143, height: 62 } };
    const drawn = routeBetweenBoxes({ nodes: [] }, [{ key: 'web->spa', source: 'web', target: 'spa' }], boxes, () => ({ points: elk }))['web->spa'].points;
    const leans = drawn.filter((p, i) => i > 0 && p.x !== drawn[i - 1].x && p.y !== drawn[i - 1].y);
    expect(leans).toEqual([]);
    // The earlier side reaches the start: the later side moves, whose corner is not an end.
    const fromStart = [{ x: 106, y: 118 }, { x: 106, y: 220 }, { x: 107, y: 300 }, { x: 107, y: 320 }, { x: 200, y: 320 }];
    expect(withoutSlants(fromStart)).toEqual([{ x: 106, y: 118 }, { x: 106, y: 220 }, { x: 106, y: 300 }, { x: 106, y: 320 }, { x: 200, y: 320 }]);
  });

  it('moves an end to straighten a stretch only where that end may slide, and never a straight line of two points', () => {
    // topology's gateway → api: ends half a pixel apart, every point in line with one of them.
    const ends = [{ x: 629, y: 549 }, { x: 789, y: 549 }, { x: 815, y: 549 }, { x: 825, y: 548.5 }];
    expect(withoutSlants(ends)).toBe(ends);
    expect(withoutSlants(ends, { first: false, last: true })).toEqual([{ x: 629, y: 549 }, { x: 789, y: 549 }, { x: 815, y: 549 }, { x: 825, y: 549 }]);
    expect(withoutSlants(ends, { first: true, last: false })).toEqual([{ x: 629, y: 548.5 }, { x: 789, y: 548.5 }, { x: 815, y: 548.5 }, { x: 825, y: 548.5 }]);
    const straight = [{ x: 16, y: 61.8 }, { x: 32, y: 64 }];
    expect(withoutSlants(straight, { first: true, last: true })).toBe(straight);
    // 3 px or more across is a step or a corner, not a lean.
    const step = [{ x: 0, y: 0 }, { x: 0, y: 40 }, { x: 3, y: 90 }, { x: 60, y: 90 }];
    expect(withoutSlants(step)).toBe(step);
  });

  it('draws a labelled loop back between two states inside a composite state as one straight line', async () => {
    // The Fulfilling state: Packing → Picking "item missing" came back with a 1.7 px step halfway.
    const input: LayoutInput = {
      direction: 'DOWN',
      nodes: [node('paid', undefined, 65, 38), { ...node('start', 'fulfilling', 28, 28), shape: 'circle' }, node('picking', 'fulfilling', 85, 38), node('packing', 'fulfilling', 90, 38), node('shipped', 'fulfilling', 92, 38)],
      groups: [{ id: 'fulfilling', collapsed: false, width: 192, height: 0 }],
      edges: [edge('paid', 'fulfilling'), edge('start', 'picking'), edge('picking', 'packing'), edge('packing', 'shipped'), { ...edge('packing', 'picking'), labelWidth: 90, labelHeight: 20 }],
    };
    const { result, crossings } = await crossingsOf(input);
    expect(crossings).toEqual([]);
    const points = result.edges['packing->picking#0'].points;
    const steps = points.slice(1).map((point, i) => Math.hypot(point.x - points[i].x, point.y - points[i].y)).filter((length) => length < 3);
    expect(steps).toEqual([]);
  });
});

describe('lines end on a shape’s outline, not on its box', () => {
  // A decision diamond with two answers and a cylinder (the refunds flow): ELK ends routes on the box, whose corners
  // are empty beside a diamond, so the lines stopped in the air beside it.
  const input = (direction: LayoutDirection): LayoutInput => ({
    direction,
    nodes: [node('start'), { ...node('decide', undefined, 180, 90), shape: 'diamond' }, { ...node('no', undefined, 168, 88), shape: 'multiple-documents' }, node('yes'), { ...node('ledger', undefined, 140, 70), shape: 'cylinder' }],
    groups: [],
    edges: [edge('start', 'decide'), edge('decide', 'no', 0, true), edge('decide', 'yes', 0, true), edge('yes', 'ledger'), edge('start', 'ledger')],
  });
  /** Every route end at a shaped node: how far it is from the outline (0: on it). */
  const offOutline = (nodes: LayoutInput['nodes'], boxes: Record<string, Box>, edges: LayoutInput['edges'], routes: Record<string, { points: Point[] }>) =>
    edges.flatMap((e) =>
      ([[e.source, routes[e.key].points[0]], [e.target, routes[e.key].points.at(-1)]] as const).flatMap(([id, end]) => {
        const shape = nodes.find((n) => n.id === id)?.shape;
        if (!shape || !end) return [];
        const box = boxes[id];
        const polygon = (outlinePolygon(shape as DrawnShape, box.width, box.height) ?? []).map((p) => ({ x: box.x + p.x, y: box.y + p.y }));
        return [Math.round(distanceToOutline(end, polygon))];
      }),
    );

  it.each(['RIGHT', 'DOWN'] as const)('ends every routed line on the diamond’s, the stacked documents’ and the cylinder’s outline (%s)', async (direction) => {
    const layout = input(direction);
    const { result, crossings } = await crossingsOf(layout);
    expect(offOutline(layout.nodes, result.boxes, layout.edges, result.edges)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(crossings).toEqual([]);
  });

  it('ends a straight line (an arranged drawing, a collapse drawn in place) on the outline too', () => {
    const layout = input('RIGHT');
    const boxes: Record<string, Box> = { start: { x: 0, y: 200, width: 120, height: 48 }, decide: { x: 300, y: 0, width: 180, height: 90 } };
    const edges = [edge('start', 'decide')];
    const routes = routeBetweenBoxes(layout, edges, boxes, (_edge, source, target) => ({ points: straightLine(source, target) }));
    expect(offOutline(layout.nodes, boxes, edges, routes)).toEqual([0]);
  });
});

describe('a node with rows under its outline (a shape and its data fields)', () => {
  // 'api' is a 40 px shape with 58 px of data rows under it, inside a group; its edges come from outside the group,
  // go into it and out of it, one loops back to a node before it, and one is drawn straight to its own group.
  const input = (direction: LayoutDirection): LayoutInput => ({
    direction,
    nodes: [{ ...node('api', 'core', 160, 98), belowOutline: 58 }, node('gateway'), node('rules', 'core'), node('db'), node('events'), node('note')],
    groups: [group('core')],
    edges: [edge('gateway', 'api'), edge('note', 'api'), edge('api', 'rules'), edge('api', 'db', 0, true), edge('api', 'events'), edge('events', 'gateway'), edge('core', 'api')],
  });
  const apiEnds = (result: Awaited<ReturnType<typeof layoutDiagram>>) =>
    Object.entries(result.edges).flatMap(([key, route]) => [
      ...(key.startsWith('api->') ? [route.points[0]] : []),
      ...(key.endsWith('->api#0') && !key.startsWith('core') ? [route.points[route.points.length - 1]] : []),
    ]);

  /** On the outline's left or right side, or on its top; never below the outline, where the rows are. */
  const onOutline = (api: Box, end: Point, sides: 'sides' | 'sides or top') => {
    const near = (a: number, b: number) => Math.abs(a - b) < 0.5;
    const within = (value: number, from: number, to: number) => value > from + 0.5 && value < to - 0.5;
    const onSide = (near(end.x, api.x) || near(end.x, api.x + api.width)) && within(end.y, api.y, api.y + 40);
    const onTop = near(end.y, api.y) && within(end.x, api.x, api.x + api.width);
    return onSide || (sides === 'sides or top' && onTop);
  };

  it.each<LayoutDirection>(['RIGHT', 'LEFT', 'DOWN', 'UP'])('ends every routed edge on the outline\'s sides or top, never beside or below the rows, each at a point of its own (%s)', async (direction) => {
    const { result, crossings } = await crossingsOf(input(direction));
    expect(crossings).toEqual([]);
    const api = result.boxes['api'];
    expect(api.height).toBe(98);
    const ends = apiEnds(result);
    expect(ends).toHaveLength(5);
    // Left to right and back every end is on a side; top-down and bottom-up ends enter the top or leave by a side.
    const horizontal = direction === 'RIGHT' || direction === 'LEFT';
    expect(ends.filter((end) => !onOutline(api, end, horizontal ? 'sides' : 'sides or top'))).toEqual([]);
    // Side by side: no two edges share an end (a dashed edge would be hidden under a solid one there).
    expect(new Set(ends.map((end) => `${Math.round(end.x)},${Math.round(end.y)}`)).size).toBe(5);
  });

  it('ends a straight line on the outline too, and so does a replayed stored layout', async () => {
    const cache = new LayoutCache();
    const recorded = await recordLayout(elk, input('RIGHT'));
    const result = await replayLayout(recorded, input('RIGHT'), cache);
    const api = result.boxes['api'];
    expect(apiEnds(result).filter((end) => !onOutline(api, end, 'sides'))).toEqual([]);
    const straight = result.edges['core->api#0'].points;
    expect(straight[straight.length - 1].y).toBeLessThanOrEqual(api.y + 40);
  });
});

describe('lines into a state’s end mark', () => {
  // The payment lifecycle: four states end in one [*] mark (28 px across). Side by side, their four arrowheads
  // covered each other on the top of the circle.
  const mark = { id: 'end', width: 28, height: 28, shape: 'circle' as const, gather: true };
  const input = (direction: LayoutDirection, strokes: Record<string, string> = {}): LayoutInput => ({
    direction,
    nodes: [node('created'), node('declined'), node('voided'), node('settled'), node('refunded'), mark],
    groups: [],
    edges: [
      edge('created', 'declined'),
      edge('created', 'voided'),
      edge('created', 'settled'),
      edge('settled', 'refunded'),
      ...['declined', 'voided', 'settled', 'refunded'].map((from) => ({ ...edge(from, 'end'), ...(strokes[from] ? { stroke: strokes[from] } : {}) })),
    ],
  });
  const endsAtMark = (result: Awaited<ReturnType<typeof layoutDiagram>>) =>
    Object.entries(result.edges)
      .filter(([key]) => key.includes('->end#'))
      .map(([, route]) => route.points[route.points.length - 1])
      .map((point) => `${Math.round(point.x)},${Math.round(point.y)}`);

  it.each<LayoutDirection>(['DOWN', 'RIGHT', 'UP', 'LEFT'])('ends them all at one point on the circle, in the middle of its side (%s)', async (direction) => {
    const layout = input(direction);
    const { result, crossings } = await crossingsOf(layout);
    expect(crossings).toEqual([]);
    const ends = endsAtMark(result);
    expect(ends).toHaveLength(4);
    expect(new Set(ends).size).toBe(1);
    const box = result.boxes['end'];
    const [x, y] = ends[0].split(',').map(Number);
    const middle = { DOWN: [box.x + 14, box.y], UP: [box.x + 14, box.y + 28], RIGHT: [box.x, box.y + 14], LEFT: [box.x + 28, box.y + 14] }[direction];
    expect([Math.abs(x - middle[0]) <= 1, Math.abs(y - middle[1]) <= 1]).toEqual([true, true]);
  });

  it('keeps a line drawn otherwise (a removed transition) apart, and a stored layout replays them', async () => {
    const layout = input('DOWN', { voided: 'removed' });
    const result = await layoutDiagram(elk, layout, new LayoutCache());
    expect(new Set(endsAtMark(result)).size).toBe(2);
    const replayed = await replayLayout(await recordLayout(elk, layout), layout, new LayoutCache());
    expect(rounded(replayed)).toBe(rounded(result));
  });
});

describe('a box with many lines on one side', () => {
  // flowchart-05: thirteen lines drawn each its own way leave one 38 px box, 2.5 px apart at the box.
  const targets = Array.from({ length: 13 }, (_, index) => `t${index}`);
  const input = (direction: LayoutDirection, shape?: DrawnShape): LayoutInput => ({
    direction,
    nodes: [{ ...node('hub', undefined, 56, 38), ...(shape ? { shape } : {}) }, ...targets.map((id) => node(id))],
    groups: [],
    edges: targets.map((id, index) => ({ ...edge('hub', id), stroke: `style-${index}` })),
  });
  /** Where the lines leave the hub, along its side: sorted, one per line. */
  const starts = (result: Awaited<ReturnType<typeof layoutDiagram>>, across: 'x' | 'y') =>
    targets.map((id) => result.edges[`hub->${id}#0`].points[0][across]).sort((a, b) => a - b);

  it.each<[LayoutDirection, 'x' | 'y']>([
    ['RIGHT', 'y'],
    ['DOWN', 'x'],
  ])('grows along that side until its lines leave it 10 px apart (%s)', async (direction, across) => {
    const layout = input(direction);
    const { result, crossings } = await crossingsOf(layout);
    expect(crossings).toEqual([]);
    const points = starts(result, across);
    const gaps = points.slice(1).map((at, index) => at - points[index]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(10 - 0.01);
    const box = result.boxes['hub'];
    // Grown along the side the lines leave from; as it was across it. The other boxes keep their size.
    expect(across === 'y' ? [box.width, box.height >= 13 * 10] : [box.height, box.width >= 13 * 10]).toEqual([across === 'y' ? 56 : 38, true]);
    expect(result.boxes['t0']).toMatchObject({ width: 120, height: 48 });
  });

  it('keeps a drawn shape at its size (a circle stays a circle), and a stored layout replays the grown box', async () => {
    const circle = await layoutDiagram(elk, input('RIGHT', 'circle'), new LayoutCache());
    expect(circle.boxes['hub']).toMatchObject({ width: 56, height: 38 });
    const layout = input('RIGHT');
    const result = await layoutDiagram(elk, layout, new LayoutCache());
    const replayed = await replayLayout(await recordLayout(elk, layout), layout, new LayoutCache());
    expect(rounded(replayed)).toBe(rounded(result));
  });
});

describe('stored layouts', () => {
  it('replays a recorded layout with its ports exactly as ELK laid it out', async () => {
    const input = randomGraph(5, 'RIGHT');
    const laidOut = await layoutDiagram(elk, input, new LayoutCache());
    const recorded = await recordLayout(elk, input);
    expect(Object.values(recorded.containers).some((container) => Object.keys(container.ports ?? {}).length > 0)).toBe(true);
    // PostgreSQL's jsonb, where the server stores it, cannot hold a NUL character.
    expect(JSON.stringify(recorded)).not.toContain('\\u0000');
    const replayed = await replayLayout(recorded, input, new LayoutCache());
    // Stored coordinates are rounded to 1/100 px.
    expect(rounded(replayed)).toBe(rounded(laidOut));
  });
});

/** A graph of 25 nodes in nested groups (some collapsed) with 35 edges, the same for the same seed. */
function randomGraph(seed: number, direction: LayoutDirection): LayoutInput {
  let state = seed * 2654435761;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const groups: LayoutInput['groups'] = [];
  for (let i = 0; i < 6; i++) {
    const parent = i > 0 && random() < 0.4 ? pick(groups.filter((g) => !g.collapsed)).id : undefined;
    groups.push(group(`g${i}`, parent, i > 0 && random() < 0.2));
  }
  const open = groups.filter((g) => !g.collapsed);
  const nodes = Array.from({ length: 25 }, (_, i) => node(`n${i}`, random() < 0.7 ? pick(open).id : undefined, 80 + Math.floor(random() * 80), 40));
  // Members of a collapsed group are not drawn: edges to them point at the group, as collapse does.
  const ends = [...nodes.map((n) => n.id), ...groups.filter((g) => g.collapsed).map((g) => g.id)];
  const edges: LayoutInput['edges'] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < 35; i++) {
    const source = pick(ends);
    const target = pick(ends);
    if (source === target) continue;
    const index = seen.get(`${source}->${target}`) ?? 0;
    seen.set(`${source}->${target}`, index + 1);
    edges.push(edge(source, target, index, random() < 0.3));
  }
  return { direction, nodes, groups, edges };
}

describe('routeCrossings on shared stretches', () => {
  const drawn = (key: string, source: string, target: string, points: [number, number][]) => ({ key, source, target, points: points.map(([x, y]) => ({ x, y })) });
  const drawing = (...edges: ReturnType<typeof drawn>[]) => ({ nodes: {}, frames: {}, parentOf: {}, edges });

  it('reports two edges without a common end that run along the same stretch, once', () => {
    const crossings = routeCrossings(
      drawing(
        drawn('api->keys', 'api', 'keys', [[0, 0], [100, 0], [100, 80]]),
        drawn('worker->ledger', 'worker', 'ledger', [[0, 10], [40, 10], [40, 0], [100, 0], [100, 60], [160, 60]]),
      ),
    );
    expect(crossings).toEqual([{ edge: 'worker->ledger', through: { kind: 'edge', id: 'api->keys' } }]);
  });

  it('reports a line along the border of a box it does not connect, not one along its own ends’ or 2 px away', () => {
    const nodes = { gateway: { x: 0, y: 40, width: 100, height: 40 }, orders: { x: 150, y: 0, width: 100, height: 40 }, stock: { x: 300, y: 20, width: 100, height: 40 } };
    const line = (y: number) => ({ key: 'gateway->stock', source: 'gateway', target: 'stock', points: [{ x: 100, y }, { x: 300, y }] });
    const drawing = (y: number) => ({ nodes, frames: {}, parentOf: {}, edges: [line(y)] });
    expect(routeCrossings(drawing(40))).toEqual([{ edge: 'gateway->stock', through: { kind: 'node', id: 'orders' } }]);
    expect(routeCrossings(drawing(41))).toEqual([{ edge: 'gateway->stock', through: { kind: 'node', id: 'orders' } }]);
    expect(routeCrossings(drawing(42))).toEqual([]);
    // Along the top of its own target (stock's top is at y 20): its end, not a crossing.
    expect(routeCrossings({ ...drawing(20), nodes: { gateway: nodes.gateway, stock: nodes.stock } })).toEqual([]);
  });

  it('lets edges from one source or into one target merge, and lets lines cross or touch at a point', () => {
    expect(
      routeCrossings(
        drawing(
          drawn('api->keys', 'api', 'keys', [[0, 0], [100, 0], [100, 80]]),
          drawn('api->ledger', 'api', 'ledger', [[0, 0], [100, 0], [100, -80]]),
          drawn('worker->keys', 'worker', 'keys', [[200, 80], [100, 80]]),
          drawn('a->b', 'a', 'b', [[50, -40], [50, 40]]),
          drawn('c->d', 'c', 'd', [[100, 80], [100, 120]]),
        ),
      ),
    ).toEqual([]);
  });
});
