import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { DiagramLayout } from '@sc/contracts';
import type { WorkerPool } from '@sc/diagram/node';
import type { DiagramImage, DiagramLayoutRequest } from './diagram-layout-worker';
import { ParsingConfig } from './parsing.config';
import { serverWorkerPool } from './server-worker-pool';

/**
 * ELK layouts and image rendering (diagram-layout-worker.ts) in SERVICE_LAYOUT_WORKERS worker threads: a 1,000-node
 * diagram takes seconds of CPU. A job over SERVICE_LAYOUT_TIMEOUT is stopped (its thread replaced) and rejected with
 * a plain Error: what a failed layout means is the caller's (DiagramLayoutService) to say.
 */
@Injectable()
export class DiagramLayoutPool implements OnApplicationShutdown {
  private readonly pool: WorkerPool<DiagramLayoutRequest, DiagramLayout | DiagramImage>;

  constructor(config: ParsingConfig) {
    this.pool = serverWorkerPool('diagram-layout-worker', config.layout, {
      timeout: (timeoutMs) => new Error(`the layout took longer than ${timeoutMs} ms (SERVICE_LAYOUT_TIMEOUT)`),
      unavailable: (reason) => new Error(`the layout thread is unavailable: ${reason}`),
    });
  }

  /** The default view's layout, or the image when the request asks for one. */
  run(request: DiagramLayoutRequest): Promise<DiagramLayout | DiagramImage> {
    return this.pool.run(request);
  }

  /** At application shutdown, after in-flight requests drained (ShutdownService), not at module destroy before it. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
