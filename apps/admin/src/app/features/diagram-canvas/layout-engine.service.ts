import { Injectable, type OnDestroy } from '@angular/core';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { LayoutCache, layoutDiagram, type ElkEngine, type LayoutInput, type LayoutResult } from './layout';
import { createLayoutWorker } from './layout-worker';

interface WorkerSlot {
  worker: Worker;
  /** Group layouts sent and not answered yet. */
  busy: number;
}

/**
 * Group layouts already computed in this browser tab, by their exact input: coming back to a diagram, or expanding a
 * group, finds them. Shared by the pages of the tab; bounded by LayoutCache.
 */
const TAB_CACHE = new LayoutCache(1000);

/**
 * Lays diagrams out with ELK in Web Workers: `layoutDiagram` (cheap bookkeeping) runs here and hands each group's
 * graph to the least busy worker, so groups that do not depend on each other are laid out in parallel, one worker
 * per core (at most two). Workers start on first use and end with the page.
 */
@Injectable()
export class LayoutEngine implements OnDestroy {
  private readonly workers: WorkerSlot[] = [];
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: ElkNode) => void; reject: (error: Error) => void; slot: WorkerSlot }>();
  /** ELK as layoutDiagram sees it: each call goes to a worker. */
  private readonly elk: ElkEngine = { layout: (graph) => this.layoutGroup(graph) };

  layout(input: LayoutInput): Promise<LayoutResult> {
    return layoutDiagram(this.elk, input, TAB_CACHE);
  }

  ngOnDestroy(): void {
    for (const { worker } of this.workers) worker.terminate();
    for (const { reject } of this.pending.values()) reject(new Error('The page was left before the layout finished.'));
    this.pending.clear();
  }

  private layoutGroup(graph: ElkNode): Promise<ElkNode> {
    const slot = this.leastBusy();
    const id = this.next++;
    slot.busy++;
    return new Promise<ElkNode>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ id, graph });
    });
  }

  private leastBusy(): WorkerSlot {
    const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 1;
    if (this.workers.length < Math.min(2, cores) && this.workers.every((slot) => slot.busy > 0)) this.workers.push(this.start());
    return this.workers.reduce((best, slot) => (slot.busy < best.busy ? slot : best));
  }

  private start(): WorkerSlot {
    const worker = createLayoutWorker();
    worker.onmessage = (event: MessageEvent<{ id: number; result?: ElkNode; error?: string }>) => {
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
    return { worker, busy: 0 };
  }
}
