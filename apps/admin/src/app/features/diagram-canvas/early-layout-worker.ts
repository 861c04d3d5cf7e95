import type { ElkNode } from 'elkjs/lib/elk-api';
import { createLayoutWorker } from './layout-worker';

/**
 * Layout workers started before Angular, when the browser opens a diagram page directly (a first visit, a reload,
 * a shared link). A fresh worker spends most of its first second fetching and compiling ELK; started from main.ts
 * that happens while the main thread boots the app, loads the route and reads the diagram, instead of after all of
 * them. The page's LayoutEngine claims them. Kept small on purpose: main.ts bundles this module, ELK stays in the
 * worker's own script.
 */

/** The diagram pages (services.routes.ts: `:service/diagrams/:name`, `:service/flows/:name`, `:service/jobs`). */
const DIAGRAM_PAGE = /^\/orgs\/[^/]+\/services\/[^/]+\/(diagrams\/[^/]+|flows\/[^/]+|jobs)\/?$/;

/** Not claimed by then (the page redirected to sign-in, say): the worker is ended, its memory given back. */
export const UNCLAIMED_AFTER_MS = 60_000;

/** Answers to this id are the warm-up's; the LayoutEngine numbers its own messages from 0 and ignores it. */
export const WARM_UP_ID = -1;

export interface EarlyLayoutWorker {
  worker: Worker;
  /** Its warm-up has been answered (answers after the claim go to the new owner's handler). */
  warm: boolean;
}

let early: { workers: EarlyLayoutWorker[]; timer: ReturnType<typeof setTimeout> } | null = null;

/** Workers a page uses: one per core, at most two (more would only compete with the page for the cores). */
export function layoutWorkerCount(cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 1): number {
  return Math.min(2, cores);
}

export function isDiagramPage(pathname: string): boolean {
  return DIAGRAM_PAGE.test(pathname);
}

/**
 * Starts the page's layout workers (layoutWorkerCount) and has each lay out a small graph (V8 compiles the ELK
 * functions a real layout needs) when `pathname` is a diagram page.
 */
export function startEarlyLayoutWorkers(pathname: string, cores?: number): void {
  if (early || !isDiagramPage(pathname) || typeof Worker === 'undefined') return;
  const workers = Array.from({ length: layoutWorkerCount(cores) }, () => {
    const started: EarlyLayoutWorker = { worker: createLayoutWorker(), warm: false };
    started.worker.onmessage = () => (started.warm = true);
    started.worker.postMessage({ id: WARM_UP_ID, graph: warmUpGraph() });
    return started;
  });
  const timer = setTimeout(() => {
    for (const { worker } of workers) worker.terminate();
    early = null;
  }, UNCLAIMED_AFTER_MS);
  early = { workers, timer };
}

/** The early workers, once: the caller owns them from now on (sets their handlers, terminates them). */
export function claimEarlyLayoutWorkers(): EarlyLayoutWorker[] {
  if (!early) return [];
  const { workers, timer } = early;
  clearTimeout(timer);
  early = null;
  return workers;
}

/** A small layered graph with labelled, crossing edges: exercises the same ELK phases as a real group. */
export function warmUpGraph(): ElkNode {
  const children = Array.from({ length: 40 }, (_, i) => ({ id: `w${i}`, width: 120 + (i % 3) * 20, height: 40 }));
  const edges = children.flatMap((_, i) =>
    [i + 8, i + 5]
      .filter((j) => j < children.length)
      .map((j) => ({ id: `w${i}-${j}`, sources: [`w${i}`], targets: [`w${j}`], labels: i % 4 ? [] : [{ id: `l${i}-${j}`, text: 'x', width: 40, height: 16 }] })),
  );
  return {
    id: 'warm-up',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'ORTHOGONAL', 'elk.layered.thoroughness': '1' },
    children,
    edges,
  };
}
