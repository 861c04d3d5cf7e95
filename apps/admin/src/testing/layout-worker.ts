import ELK from 'elkjs/lib/elk.bundled.js';
import { LayoutCache, layoutDiagram, type LayoutInput } from '../app/features/diagram-canvas/layout';

/**
 * Unit tests' stand-in for the layout Web Worker (jsdom has no Worker): the same layout code and the same ELK,
 * run in the test's thread, answering through the Worker interface the LayoutEngine uses.
 */
export function createLayoutWorker(): Worker {
  const elk = new ELK();
  const cache = new LayoutCache();
  const worker = {
    onmessage: null as ((event: MessageEvent) => void) | null,
    onerror: null as ((event: ErrorEvent) => void) | null,
    postMessage({ id, input }: { id: number; input: LayoutInput }) {
      layoutDiagram(elk, input, cache).then(
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
