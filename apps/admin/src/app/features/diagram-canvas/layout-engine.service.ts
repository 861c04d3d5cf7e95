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
const TAB_CACHE = new LayoutCache(300);

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

  /**
   * Starts the workers and has each lay out a small graph while the page is still loading its data: the first real
   * layout then runs in an ELK that V8 has already started to compile (a fresh ELK is two to three times slower).
   */
  warmUp(): void {
    while (this.workers.length < this.maxWorkers()) {
      const slot = this.start();
      this.workers.push(slot);
      void this.send(slot, warmUpGraph()).catch(() => undefined);
    }
  }

  ngOnDestroy(): void {
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
    const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 1;
    return Math.min(2, cores);
  }

  private leastBusy(): WorkerSlot {
    if (this.workers.length < this.maxWorkers() && this.workers.every((slot) => slot.busy > 0)) this.workers.push(this.start());
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

/** A small layered graph with labelled, crossing edges: exercises the same ELK phases as a real group. */
function warmUpGraph(): ElkNode {
  const children = Array.from({ length: 40 }, (_, i) => ({ id: `w${i}`, width: 120 + (i % 3) * 20, height: 40 }));
  const edges = children.flatMap((_, i) =>
    [i + 8, i + 5].filter((j) => j < children.length).map((j) => ({ id: `w${i}-${j}`, sources: [`w${i}`], targets: [`w${j}`], labels: i % 4 ? [] : [{ id: `l${i}-${j}`, text: 'x', width: 40, height: 16 }] })),
  );
  return {
    id: 'warm-up',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'ORTHOGONAL', 'elk.layered.thoroughness': '1' },
    children,
    edges,
  };
}
