import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';

/** Runs ELK off the page's main thread, one group's graph per message: the page stays responsive while it works. */
const elk = new ELK();

addEventListener('message', (event: MessageEvent<{ id: number; graph: ElkNode }>) => {
  const { id, graph } = event.data;
  elk.layout(graph).then(
    (result) => postMessage({ id, result }),
    (error: unknown) => postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
