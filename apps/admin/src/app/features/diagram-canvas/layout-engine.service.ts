import { Injectable, type OnDestroy } from '@angular/core';
import type { DiagramLayout } from '@sc/contracts';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { LAYOUT_ENGINE_VERSION, LayoutCache, layoutDiagram, layoutFingerprint, replayLayout, type ElkEngine, type LayoutInput, type LayoutResult } from '@sc/diagram';
import { diagramLayoutRequested } from './early-diagram-layout';
import { claimEarlyLayoutWorkers, layoutWorkerCount, warmUpGraph, WARM_UP_ID } from './early-layout-worker';
import { createLayoutWorker } from './layout-worker';

interface WorkerSlot {
  worker: Worker;
  /** Group layouts sent and not answered yet. */
  busy: number;
  /** It has answered once (its warm-up or a layout): ELK is compiled there, so it takes its share of the work. */
  warm: boolean;
}

/**
 * Group layouts already computed in this browser tab, by their exact input: coming back to a diagram, or expanding a
 * group, finds them. Shared by the pages of the tab; bounded by LayoutCache.
 */
const TAB_CACHE = new LayoutCache(300);

/**
 * Longest a layout waits for the server's answer (asked for with the diagram, so normally already there): a slow
 * answer must not hold the drawing longer than ELK would take.
 */
export const SERVER_LAYOUT_WAIT_MS = 1000;
const delay = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));

/**
 * Lays diagrams out with ELK in Web Workers: `layoutDiagram` (cheap bookkeeping) runs here and hands each group's
 * graph to the least busy warm worker, so groups that do not depend on each other are laid out in parallel, one
 * worker per core (at most two). A worker takes work once it has warmed up (answered once): a cold ELK is two to
 * three times slower, so a group given to it would finish after a warm worker had done it and the next one.
 * Workers end with the page.
 */
@Injectable()
export class LayoutEngine implements OnDestroy {
  private readonly workers: WorkerSlot[] = [];
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: ElkNode) => void; reject: (error: Error) => void; slot: WorkerSlot }>();
  /** ELK as layoutDiagram sees it: each call goes to a worker. */
  private readonly elk: ElkEngine = { layout: (graph) => this.layoutGroup(graph) };
  /** ELK as the workers run it, for a caller that builds its own graph (the draft editor: editor-layout.ts). */
  readonly engine: ElkEngine = this.elk;

  /** warmUp put the workers' warm-up off until the first drawing (drawn()), the server's layout being expected. */
  private warmUpAfterDrawing = false;

  /** The server's layout of the diagram's default view (offerServerLayout), while the page shows that diagram. */
  private serverLayout: Promise<DiagramLayout | null> | null = null;

  /**
   * The layout of `input`: the server's when it is the layout of exactly this input (same engine version, same
   * fingerprint: the default view of the diagram, every group expanded), else ELK's in the workers.
   */
  async layout(input: LayoutInput): Promise<LayoutResult> {
    return (await this.fromServer(input)) ?? layoutDiagram(this.elk, input, TAB_CACHE);
  }

  /**
   * The page's diagram has this layout computed by the server (null: none). Layouts asked for from now on wait for
   * it to arrive (it was requested with the diagram, so it is there about as soon) and use it when it matches.
   */
  offerServerLayout(layout: Promise<DiagramLayout | null>): void {
    this.serverLayout = layout.catch(() => null);
  }

  private async fromServer(input: LayoutInput): Promise<LayoutResult | null> {
    const layout = this.serverLayout ? await Promise.race([this.serverLayout, delay(SERVER_LAYOUT_WAIT_MS)]) : null;
    // Comparing the group count first spares hashing the input of a collapsed view, which never matches.
    if (!layout || layout.engine !== LAYOUT_ENGINE_VERSION || Object.keys(layout.containers).length !== input.groups.filter((group) => !group.collapsed).length + 1) return null;
    if (layout.fingerprint !== layoutFingerprint(input)) return null;
    // Through layoutDiagram, which keeps each container's result in the tab's cache: a later collapse re-lays out
    // only the containers above the collapsed group (and those its edges enter), as after an ELK layout. A stored
    // layout that does not fit (it never should, with this fingerprint) leaves the layout to ELK.
    return replayLayout(layout, input, TAB_CACHE).catch(() => null);
  }

  /**
   * Starts the workers and has each lay out a small graph while the page is still loading its data: the first real
   * layout then runs in an ELK that V8 has already started to compile (a fresh ELK is two to three times slower).
   * The workers main.ts started early (early-layout-worker.ts) are taken over, their warm-up already under way;
   * without them (the page opened from another page of the app) they are started here. While main.ts's request for
   * the server's layout is pending, the first drawing is expected to need no ELK: no worker is started before it
   * (compiling ELK took a core from the page's load, half a second of CPU), one warms up once it is drawn (drawn())
   * and leastBusy adds the second when it is busy. Should the server's layout not serve, the first layout starts a
   * worker itself.
   */
  warmUp(): void {
    const serverLayoutExpected = diagramLayoutRequested();
    const wanted = serverLayoutExpected ? 1 : this.maxWorkers();
    for (const early of claimEarlyLayoutWorkers()) {
      if (this.workers.length < wanted) this.workers.push(this.adopt(early.worker, early.warm));
      else early.worker.terminate();
    }
    if (serverLayoutExpected) {
      this.warmUpAfterDrawing = this.workers.length === 0;
      return;
    }
    while (this.workers.length < wanted) this.workers.push(this.startWarming());
  }

  /**
   * The page's first drawing is on screen: the warm-up warmUp put off for it starts now (for the first collapse).
   * Does nothing when none was put off.
   */
  drawn(): void {
    if (!this.warmUpAfterDrawing) return;
    this.warmUpAfterDrawing = false;
    if (this.workers.length === 0) this.workers.push(this.startWarming());
  }

  ngOnDestroy(): void {
    // A page left between its first drawing and drawn() starts no worker afterwards.
    this.warmUpAfterDrawing = false;
    for (const { worker } of this.workers) worker.terminate();
    for (const { reject } of this.pending.values()) reject(new Error('The page was left before the layout finished.'));
    this.pending.clear();
  }

  private layoutGroup(graph: ElkNode): Promise<ElkNode> {
    return this.send(this.leastBusy(), graph);
  }

  private send(slot: WorkerSlot, graph: ElkNode): Promise<ElkNode> {
    const id = this.next++;
    slot.busy++;
    return new Promise<ElkNode>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ id, graph });
    });
  }

  private maxWorkers(): number {
    return layoutWorkerCount();
  }

  private leastBusy(): WorkerSlot {
    // The first worker (a page that did not warm up, like the draft editor's) starts with real work; a second one
    // warms up first, as it joins a worker that is already busy.
    if (this.workers.length === 0) this.workers.push(this.adopt(createLayoutWorker()));
    else if (this.workers.length < this.maxWorkers() && this.workers.every((slot) => slot.busy > 0)) this.workers.push(this.startWarming());
    // None warm yet: the first worker, furthest along in compiling ELK.
    const warm = this.workers.filter((slot) => slot.warm);
    if (warm.length === 0) return this.workers[0];
    return warm.reduce((best, slot) => (slot.busy < best.busy ? slot : best));
  }

  /** A new worker, laying out a small graph so that V8 compiles ELK before real work reaches it. */
  private startWarming(): WorkerSlot {
    const slot = this.adopt(createLayoutWorker());
    slot.worker.postMessage({ id: WARM_UP_ID, graph: warmUpGraph() });
    return slot;
  }

  private adopt(worker: Worker, warm = false): WorkerSlot {
    const slot: WorkerSlot = { worker, busy: 0, warm };
    worker.onmessage = (event: MessageEvent<{ id: number; result?: ElkNode; error?: string }>) => {
      slot.warm = true;
      // A warm-up's answer (WARM_UP_ID): nothing waits for it.
      const waiting = this.pending.get(event.data.id);
      if (!waiting) return;
      this.pending.delete(event.data.id);
      waiting.slot.busy--;
      if (event.data.result) waiting.resolve(event.data.result);
      else waiting.reject(new Error(event.data.error ?? 'The layout failed.'));
    };
    worker.onerror = (event) => {
      for (const [id, waiting] of this.pending) {
        if (waiting.slot.worker !== worker) continue;
        this.pending.delete(id);
        waiting.reject(new Error(event.message || 'The layout worker failed.'));
      }
    };
    return slot;
  }
}
