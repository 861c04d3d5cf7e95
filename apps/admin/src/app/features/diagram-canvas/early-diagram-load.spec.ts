import { claimDiagramLayout, diagramLayoutUrl } from './early-diagram-layout';
import { startEarlyDiagramLoad } from './early-diagram-load';
import { claimEarlyLayoutWorkers } from './early-layout-worker';

/** Workers created through createLayoutWorker, recorded instead of run. */
class MockWorker {
  static created: MockWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor() {
    MockWorker.created.push(this);
  }
  postMessage(): void {
    // Recorded by construction only.
  }
  terminate(): void {
    this.onmessage = null;
  }
}

jest.mock('./layout-worker', () => ({ createLayoutWorker: () => new MockWorker() }));

describe('what main.ts starts before Angular on a diagram page', () => {
  const hadWorker = 'Worker' in globalThis;
  beforeAll(() => {
    if (!hadWorker) Object.assign(globalThis, { Worker: MockWorker });
  });
  afterAll(() => {
    if (!hadWorker) delete (globalThis as { Worker?: unknown }).Worker;
  });
  beforeEach(() => {
    MockWorker.created = [];
    Object.assign(globalThis, { fetch: jest.fn(() => new Promise<Response>(() => undefined)) });
  });
  afterEach(() => {
    for (const { worker } of claimEarlyLayoutWorkers()) worker.terminate();
    delete (globalThis as { fetch?: unknown }).fetch;
  });

  it('requests the server’s layout of an architecture diagram and starts no layout worker (the first drawing needs no ELK)', () => {
    startEarlyDiagramLoad('/orgs/acme/services/bench/diagrams/small', '');
    expect(globalThis.fetch).toHaveBeenCalledTimes(1);
    expect(MockWorker.created).toEqual([]);
    expect(claimDiagramLayout(diagramLayoutUrl('acme', 'bench', 'small'))).not.toBeNull();
  });

  it('starts the layout workers on a flow’s page, which has no server layout', () => {
    startEarlyDiagramLoad('/orgs/acme/services/bench/flows/checkout', '');
    expect(globalThis.fetch).not.toHaveBeenCalled();
    expect(MockWorker.created.length).toBeGreaterThan(0);
  });
});
