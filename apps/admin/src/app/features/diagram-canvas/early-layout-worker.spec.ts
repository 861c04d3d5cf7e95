import { claimEarlyDiagram, diagramUrl } from './early-diagram-layout';
import { startEarlyDiagramLoad } from './early-diagram-load';
import { useWorkerGlobal } from '../../../testing/worker-global';
import { UNCLAIMED_AFTER_MS, WARM_UP_ID, claimEarlyLayoutWorkers, isDiagramPage, startEarlyLayoutWorkers } from './early-layout-worker';

/** Workers created through createLayoutWorker, recorded instead of run. */
class MockWorker {
  static created: MockWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  readonly received: { id: number }[] = [];
  terminated = false;
  constructor() {
    MockWorker.created.push(this);
  }
  postMessage(message: { id: number }): void {
    this.received.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
}

jest.mock('./layout-worker', () => ({ createLayoutWorker: () => new MockWorker() }));

describe('early layout worker', () => {
  useWorkerGlobal(MockWorker);
  beforeEach(() => {
    MockWorker.created = [];
    for (const { worker } of claimEarlyLayoutWorkers()) worker.terminate();
    jest.useRealTimers();
  });

  it('recognizes the diagram pages of services.routes.ts and nothing else', () => {
    for (const path of ['/orgs/acme/services/bench/diagrams/large', '/orgs/acme/services/bench/flows/checkout', '/orgs/acme/services/bench/jobs', '/orgs/a%20b/services/s/diagrams/x/']) {
      expect({ path, diagram: isDiagramPage(path) }).toEqual({ path, diagram: true });
    }
    for (const path of ['/', '/sign-in', '/orgs/acme/services', '/orgs/acme/services/bench', '/orgs/acme/services/bench/diagrams', '/orgs/acme/drafts/d1', '/orgs/acme/services/bench/databases/db']) {
      expect({ path, diagram: isDiagramPage(path) }).toEqual({ path, diagram: false });
    }
  });

  it('starts nothing away from a diagram page', () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench', 2);
    expect(MockWorker.created).toHaveLength(0);
    expect(claimEarlyLayoutWorkers()).toEqual([]);
  });

  it('starts a worker per core (at most two) with a warm-up layout on a diagram page, handed over once', () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 4);
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 4);
    expect(MockWorker.created).toHaveLength(2);
    for (const worker of MockWorker.created) {
      expect(worker.received).toEqual([expect.objectContaining({ id: WARM_UP_ID, graph: expect.objectContaining({ id: 'warm-up' }) })]);
    }
    expect(claimEarlyLayoutWorkers()).toEqual(MockWorker.created.map((worker) => ({ worker, warm: false })));
    expect(claimEarlyLayoutWorkers()).toEqual([]);
  });

  it('starts one worker on one core', () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench/flows/checkout', 1);
    expect(MockWorker.created).toHaveLength(1);
  });

  it('reports which warm-ups were answered before the claim', () => {
    startEarlyLayoutWorkers('/orgs/acme/services/bench/jobs', 2);
    const [first, second] = MockWorker.created;
    second.onmessage?.({ data: { id: WARM_UP_ID, result: {} } } as MessageEvent);
    expect(claimEarlyLayoutWorkers()).toEqual([
      { worker: first, warm: false },
      { worker: second, warm: true },
    ]);
  });

  it('ends workers nobody claimed', () => {
    jest.useFakeTimers();
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 2);
    jest.advanceTimersByTime(UNCLAIMED_AFTER_MS - 1);
    expect(MockWorker.created.map((worker) => worker.terminated)).toEqual([false, false]);
    jest.advanceTimersByTime(1);
    expect(MockWorker.created.map((worker) => worker.terminated)).toEqual([true, true]);
    expect(claimEarlyLayoutWorkers()).toEqual([]);
  });

  it('keeps claimed workers past the deadline', () => {
    jest.useFakeTimers();
    startEarlyLayoutWorkers('/orgs/acme/services/bench/diagrams/large', 2);
    const claimed = claimEarlyLayoutWorkers();
    jest.advanceTimersByTime(UNCLAIMED_AFTER_MS * 2);
    expect(claimed.map(({ worker }) => worker)).toEqual(MockWorker.created);
    expect(MockWorker.created.map((worker) => worker.terminated)).toEqual([false, false]);
  });

  describe('what main.ts starts (startEarlyDiagramLoad)', () => {
    beforeEach(() => Object.assign(globalThis, { fetch: jest.fn(() => new Promise<Response>(() => undefined)) }));
    afterEach(() => delete (globalThis as { fetch?: unknown }).fetch);

    it('requests the server’s layout of an architecture diagram and starts no layout worker (the first drawing needs no ELK)', () => {
      startEarlyDiagramLoad('/orgs/acme/services/bench/diagrams/small', '');
      expect(globalThis.fetch).toHaveBeenCalledTimes(1);
      expect(MockWorker.created).toEqual([]);
      expect(claimEarlyDiagram(diagramUrl('acme', 'bench', 'small'))).not.toBeNull();
    });

    it('starts the layout workers on a flow’s page, which has no server layout', () => {
      startEarlyDiagramLoad('/orgs/acme/services/bench/flows/checkout', '');
      expect(globalThis.fetch).not.toHaveBeenCalled();
      expect(MockWorker.created.length).toBeGreaterThan(0);
    });
  });
});
