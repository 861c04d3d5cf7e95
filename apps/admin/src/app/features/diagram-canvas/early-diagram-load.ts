import { prefetchDiagram } from './early-diagram-layout';
import { startEarlyLayoutWorkers } from './early-layout-worker';

/**
 * What main.ts starts before Angular on a diagram page: the requests for an architecture diagram and its server
 * layout (none for a sequence diagram), or else (flows, jobs, which have none) the layout workers, so ELK compiles
 * while the app boots. With the server's layout requested no worker starts here: the first drawing needs no ELK, and
 * the page's LayoutEngine warms one up once it has drawn (a worker compiling ELK during the load took a core from the
 * page's main thread); a sequence diagram needs none at all.
 */
export function startEarlyDiagramLoad(pathname: string, search: string): void {
  if (!prefetchDiagram(pathname, search)) startEarlyLayoutWorkers(pathname);
}
