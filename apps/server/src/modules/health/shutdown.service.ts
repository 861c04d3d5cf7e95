import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { HealthConfig } from './health.config';
import { HealthErrorCode, healthError } from './health.errors';

/**
 * Graceful shutdown. Nest runs `beforeApplicationShutdown` on SIGTERM/SIGINT (enableShutdownHooks) before it
 * closes the HTTP server and, after that, the database (TypeORM) and the parser pool (their
 * `onApplicationShutdown`). Here the server stops accepting connections and the requests in flight (syncs
 * included) get SERVICE_SHUTDOWN_GRACE to finish; past that deadline their connections are cut and a sync
 * that has not committed yet refuses to (`assertRunning` inside its transaction), so it rolls back whole.
 */
@Injectable()
export class ShutdownService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ShutdownService.name);
  private inFlight = 0;
  private drained?: () => void;
  private state: 'running' | 'draining' | 'cut-off' = 'running';

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: HealthConfig,
  ) {}

  /** False from the moment a shutdown starts: readiness then answers 503 so a load balancer stops routing here. */
  get running(): boolean {
    return this.state === 'running';
  }

  onApplicationBootstrap(): void {
    this.server()?.on('request', (_req, res) => {
      this.inFlight++;
      res.once('close', () => {
        this.inFlight--;
        if (this.inFlight === 0) this.drained?.();
      });
    });
  }

  /** Called by work that must not commit once the grace period is over (a sync, inside its transaction). */
  assertRunning(): void {
    if (this.state === 'cut-off') throw healthError(HealthErrorCode.ShuttingDown, 'The service is shutting down; nothing was stored. Retry the request.');
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    const server = this.server();
    if (!server || this.state !== 'running') return;
    this.state = 'draining';
    this.logger.log(`Shutting down (${signal ?? 'close'}): ${this.inFlight} request(s) in flight, waiting up to ${this.config.shutdownGraceMs} ms.`);
    // Stop accepting connections; idle keep-alive connections close now, busy ones after their answer.
    server.close();
    server.closeIdleConnections();
    const finished = await this.waitForDrain(this.config.shutdownGraceMs);
    if (!finished) {
      this.state = 'cut-off';
      this.logger.warn(`Shutdown grace period over: cutting off ${this.inFlight} request(s); uncommitted syncs roll back.`);
    }
    server.closeAllConnections();
  }

  private waitForDrain(graceMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.drained = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  private server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }
}
