import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';

/**
 * Unit tests' stand-in for the layout Web Worker (jsdom has no Worker): the same ELK, run in the test's thread,
 * answering through the Worker interface the LayoutEngine uses.
 */
export function createLayoutWorker(): Worker {
  const elk = new ELK();
  const worker = {
    onmessage: null as ((event: MessageEvent) => void) | null,
    onerror: null as ((event: ErrorEvent) => void) | null,
    postMessage({ id, graph }: { id: number; graph: ElkNode }) {
      elk.layout(graph).then(
        (result) => worker.onmessage?.({ data: { id, result } } as MessageEvent),
        (error: unknown) => worker.onmessage?.({ data: { id, error: String(error) } } as MessageEvent),
      );
    },
    terminate() {
      worker.onmessage = null;
    },
  };
  return worker as unknown as Worker;
}
