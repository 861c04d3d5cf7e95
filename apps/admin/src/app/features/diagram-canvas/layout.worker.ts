import ELK from 'elkjs/lib/elk.bundled.js';
import { LayoutCache, layoutDiagram, type LayoutInput } from './layout';

/** Runs ELK off the page's main thread: the page stays responsive while a large diagram is laid out. */
const elk = new ELK();
const cache = new LayoutCache();

addEventListener('message', (event: MessageEvent<{ id: number; input: LayoutInput }>) => {
  const { id, input } = event.data;
  layoutDiagram(elk, input, cache).then(
    (result) => postMessage({ id, result }),
    (error: unknown) => postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
