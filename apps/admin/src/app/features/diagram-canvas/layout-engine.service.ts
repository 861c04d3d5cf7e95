import { Injectable, type OnDestroy } from '@angular/core';
import type { LayoutInput, LayoutResult } from './layout';
import { createLayoutWorker } from './layout-worker';

/** Lays diagrams out in the layout worker; one worker per page visit, started on first use. */
@Injectable()
export class LayoutEngine implements OnDestroy {
  private worker?: Worker;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: LayoutResult) => void; reject: (error: Error) => void }>();

  layout(input: LayoutInput): Promise<LayoutResult> {
    const worker = this.start();
    const id = this.next++;
    return new Promise<LayoutResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, input });
    });
  }

  ngOnDestroy(): void {
    this.worker?.terminate();
    for (const { reject } of this.pending.values()) reject(new Error('The page was left before the layout finished.'));
    this.pending.clear();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = createLayoutWorker();
    worker.onmessage = (event: MessageEvent<{ id: number; result?: LayoutResult; error?: string }>) => {
      const waiting = this.pending.get(event.data.id);
      if (!waiting) return;
      this.pending.delete(event.data.id);
      if (event.data.result) waiting.resolve(event.data.result);
      else waiting.reject(new Error(event.data.error ?? 'The layout failed.'));
    };
    worker.onerror = (event) => {
      for (const { reject } of this.pending.values()) reject(new Error(event.message || 'The layout worker failed.'));
      this.pending.clear();
    };
    this.worker = worker;
    return worker;
  }
}
