import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { recordLayout, type LayoutInput } from '@sc/diagram';
import { claimEarlyDiagram, diagramUrl, prefetchDiagram } from './early-diagram-layout';
import { WARM_UP_ID, claimEarlyLayoutWorkers, startEarlyLayoutWorkers } from './early-layout-worker';
import { useWorkerGlobal } from '../../../testing/worker-global';
import { LayoutEngine } from './layout-engine.service';

const elk = new ELK();

/** A layout worker that holds its messages until the test answers them (with the real ELK). */
class MockWorker {
  static created: MockWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly received: { id: number; graph: ElkNode }[] = [];
  /** Ids of every message ever received. */
  readonly ids: number[] = [];
  constructor() {
    MockWorker.created.push(this);
  }
  postMessage(message: { id: number; graph: ElkNode }): void {
    this.received.push(message);
    this.ids.push(message.id);
  }
  terminate(): void {
    this.onmessage = null;
  }
  async answerAll(): Promise<void> {
    for (const { id, graph } of this.received.splice(0)) {
      const result = await elk.layout(graph);
      this.onmessage?.({ data: { id, result } } as MessageEvent);
    }
  }
}

jest.mock('./layout-worker', () => ({ createLayoutWorker: () => new MockWorker() }));

/** Two groups of three nodes (laid out together), then the root: names made unique so the tab's cache misses. */
function twoGroups(tag: string): LayoutInput {
  const nodes = ['a', 'b'].flatMap((group) => [1, 2, 3].map((i) => ({ id: `${tag}${group}${i}`, width: 80, height: 30, parent: `${tag}${group}` })));
  return {
    direction: 'RIGHT',
    nodes,
    groups: ['a', 'b'].map((group) => ({ id: `${tag}${group}`, collapsed: false, width: 0, height: 0 })),
    edges: [{ key: `${tag}a1-${tag}b1`, source: `${tag}a1`, target: `${tag}b1` }],
  };
}

/** Group layouts each worker has been given (its warm-up left out). */
const layoutsPerWorker = () => MockWorker.created.map((worker) => worker.ids.filter((id) => id !== WARM_UP_ID).length);

/** Lets promise chains (the engine's next level of groups) run. */
const settle = () => new Promise((done) => setTimeout(done, 0));

describe('LayoutEngine workers', () => {
  useWorkerGlobal(MockWorker);
  let engine: LayoutEngine;
  beforeAll(() => {
    Object.defineProperty(navigator, 'hardwareConcurrency', { value: 2, configurable: true });
  });
  beforeEach(() => {
    MockWorker.created = [];
    engine = new LayoutEngine();
  });
  afterEach(() => engine.ngOnDestroy());

  it('takes over the workers main.ts started instead of starting its own', () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 2);
    engine.warmUp();
    expect(MockWorker.created).toHaveLength(2);
    expect(claimEarlyLayoutWorkers()).toEqual([]);
  });

  it('gives group layouts only to an early worker whose warm-up was answered', async () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 2);
    const [first, second] = MockWorker.created;
    await second.answerAll();
    engine.warmUp();
    const done = engine.layout(twoGroups('early'));
    await settle();
    expect(layoutsPerWorker()).toEqual([0, 2]);
    await second.answerAll();
    await settle();
    await second.answerAll();
    await expect(done).resolves.toEqual(expect.objectContaining({ width: expect.any(Number) }));
    expect(first.ids).toEqual([WARM_UP_ID]);
  });

  it('warms one worker while main.ts’s request for the server layout is unclaimed, and adds the second when it is busy', async () => {
    const url = diagramUrl('acme', 'bench', 'large');
    const fetched = jest.fn(() => new Promise<Response>(() => undefined));
    Object.assign(globalThis, { fetch: fetched });
    try {
      expect(prefetchDiagram('/orgs/acme/services/bench/diagrams/large', '')).toBe(true);
      startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 1);
      engine.warmUp();
      expect(MockWorker.created.map((worker) => worker.ids)).toEqual([[WARM_UP_ID]]);
      expect(claimEarlyDiagram(url)).not.toBeNull();

      const done = engine.layout(twoGroups('one'));
      await settle();
      expect(MockWorker.created).toHaveLength(2);
      expect(MockWorker.created[1].ids).toEqual([WARM_UP_ID]);
      for (let level = 0; level < 2; level++) {
        await MockWorker.created[0].answerAll();
        await settle();
      }
      await expect(done).resolves.toEqual(expect.objectContaining({ width: expect.any(Number) }));
    } finally {
      delete (globalThis as { fetch?: unknown }).fetch;
    }
  });

  it('with main.ts’s request for the server layout and no early worker, warms one worker only once the first drawing is done', () => {
    const url = diagramUrl('acme', 'bench', 'small');
    Object.assign(globalThis, { fetch: jest.fn(() => new Promise<Response>(() => undefined)) });
    try {
      expect(prefetchDiagram('/orgs/acme/services/bench/diagrams/small', '')).toBe(true);
      engine.warmUp();
      expect(claimEarlyDiagram(url)).not.toBeNull();
      expect(MockWorker.created).toEqual([]);
      engine.drawn();
      expect(MockWorker.created.map((worker) => worker.ids)).toEqual([[WARM_UP_ID]]);
      engine.drawn();
      expect(MockWorker.created).toHaveLength(1);

      // A page left before its drawing's warm-up started starts none afterwards.
      const left = new LayoutEngine();
      expect(prefetchDiagram('/orgs/acme/services/bench/diagrams/small', '')).toBe(true);
      left.warmUp();
      expect(claimEarlyDiagram(url)).not.toBeNull();
      left.ngOnDestroy();
      left.drawn();
      expect(MockWorker.created).toHaveLength(1);
    } finally {
      delete (globalThis as { fetch?: unknown }).fetch;
    }
  });

  it('starts a warming worker per core (at most two) when main.ts started none', () => {
    engine.warmUp();
    expect(MockWorker.created.map((worker) => worker.ids)).toEqual([[WARM_UP_ID], [WARM_UP_ID]]);
  });

  it('gives every group to the first worker while none has warmed up', async () => {
    engine.warmUp();
    const done = engine.layout(twoGroups('cold'));
    await settle();
    expect(layoutsPerWorker()).toEqual([2, 0]);

    await MockWorker.created[0].answerAll();
    await settle();
    await MockWorker.created[0].answerAll();
    const result = await done;
    expect(Object.keys(result.boxes).sort()).toEqual(['colda', 'colda1', 'colda2', 'colda3', 'coldb', 'coldb1', 'coldb2', 'coldb3']);
  });

  it('starts a second worker when the first is busy, and gives it groups only after its warm-up', async () => {
    const draftLike = new LayoutEngine();
    const first = draftLike.layout(twoGroups('busy'));
    await settle();
    expect(MockWorker.created.map((worker) => worker.ids)).toEqual([[0, 1], [WARM_UP_ID]]);
    await MockWorker.created[1].answerAll();
    for (let level = 0; level < 2; level++) {
      await MockWorker.created[0].answerAll();
      await settle();
    }
    await first;
    const second = draftLike.layout(twoGroups('after'));
    await settle();
    // The first worker did both groups and the root; now one group each.
    expect(layoutsPerWorker()).toEqual([4, 1]);
    for (let level = 0; level < 2; level++) {
      for (const worker of MockWorker.created) await worker.answerAll();
      await settle();
    }
    await expect(second).resolves.toEqual(expect.objectContaining({ width: expect.any(Number) }));
    draftLike.ngOnDestroy();
  });

  it('shares the groups between the workers once both are warm', async () => {
    engine.warmUp();
    const first = engine.layout(twoGroups('one'));
    await settle();
    for (const worker of MockWorker.created) await worker.answerAll();
    await settle();
    await MockWorker.created[0].answerAll();
    await first;

    const before = layoutsPerWorker();
    const second = engine.layout(twoGroups('two'));
    await settle();
    const added = layoutsPerWorker().map((count, i) => count - before[i]);
    expect(added).toEqual([1, 1]);
    for (const worker of MockWorker.created) await worker.answerAll();
    await settle();
    for (const worker of MockWorker.created) await worker.answerAll();
    await expect(second).resolves.toEqual(expect.objectContaining({ boxes: expect.objectContaining({ twoa: expect.any(Object), twob: expect.any(Object) }) }));
  });
});

describe('LayoutEngine with the server’s layout of the default view', () => {
  useWorkerGlobal(MockWorker);

  /** What the server stores for `input` (ELK's result of each container, recorded as layoutDefaultView does). */
  const stored = (input: LayoutInput) => recordLayout({ layout: (graph) => elk.layout(graph) }, input);

  it('draws it without the workers, and a collapse afterwards lays out only the containers above the group and those its edges enter', async () => {
    MockWorker.created = [];
    const engine = new LayoutEngine();
    const input = twoGroups('served');
    engine.offerServerLayout(stored(input));
    const drawn = await engine.layout(input);
    expect(MockWorker.created.flatMap((worker) => worker.ids)).toEqual([]);
    expect(drawn.boxes['serveda1']).toEqual(expect.objectContaining({ width: 80, height: 30 }));

    // Collapsing group a: its edge now enters group b from the collapsed group, through a port of b's named by the
    // edge's tree (here its source), so b is laid out again, then the top level; a's old layout is not.
    const collapsed: LayoutInput = {
      ...input,
      nodes: input.nodes.filter((node) => node.parent !== 'serveda'),
      groups: input.groups.map((group) => (group.id === 'serveda' ? { ...group, collapsed: true, width: 180, height: 44 } : group)),
      edges: [{ key: 'serveda1-servedb1', source: 'serveda', target: 'servedb1' }],
    };
    const done = engine.layout(collapsed);
    const laidOut = () => layoutsPerWorker().reduce((sum, count) => sum + count, 0);
    await settle();
    expect(laidOut()).toBe(1);
    for (const worker of MockWorker.created) await worker.answerAll();
    await settle();
    expect(laidOut()).toBe(2);
    for (const worker of MockWorker.created) await worker.answerAll();
    await expect(done).resolves.toEqual(expect.objectContaining({ width: expect.any(Number) }));
    engine.ngOnDestroy();
  });
});

describe('LayoutEngine without a warm-up (the draft editor)', () => {
  it('gives the first layout straight to the first worker, no warm-up before it', async () => {
    MockWorker.created = [];
    const engine = new LayoutEngine();
    const done = engine.layout(twoGroups('draft'));
    await settle();
    expect(MockWorker.created[0].ids.filter((id) => id === WARM_UP_ID)).toEqual([]);
    for (const worker of MockWorker.created) await worker.answerAll();
    await settle();
    for (const worker of MockWorker.created) await worker.answerAll();
    await expect(done).resolves.toEqual(expect.objectContaining({ width: expect.any(Number) }));
    engine.ngOnDestroy();
  });
});
