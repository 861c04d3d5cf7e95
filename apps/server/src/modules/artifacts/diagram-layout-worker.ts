/**
 * Worker thread entry of DiagramLayoutService: lays out a diagram's default view with ELK off the server's event
 * loop (a 1,000-node diagram takes seconds of CPU). The service names this file; the server's build emits it next to
 * the service as diagram-layout-worker.js.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { layoutDefaultView, type ModelInput, type OverlaidGraph } from '@sc/diagram';
import { serveWorkerJobs } from '@sc/diagram/node';

/** Service → thread: the graph with its overlays and the schemas of the databases its data nodes name. */
export interface DiagramLayoutRequest {
  graph: OverlaidGraph;
  databases: [string, LayoutDatabase][];
}

export type LayoutDatabase = ModelInput['databases'] extends ReadonlyMap<string, infer Database> ? Database : never;

const elk = new ELK();

serveWorkerJobs((request: DiagramLayoutRequest) => layoutDefaultView(elk, request.graph, new Map(request.databases)));
