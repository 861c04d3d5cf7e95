import { Logger } from '@nestjs/common';

/** What a background pass writes to the log: what a finished pass says (null: nothing worth a line) and a failure's prefix. */
export interface PassReport<T> {
  logger: Logger;
  done: (result: T) => string | null;
  failed: string;
}

/**
 * A background job's pass (retention, the search backfill): once on the next turn after the application started and,
 * with an interval, again every interval; a failure is logged and the next pass retries. One pass at a time: a call
 * while a pass runs shares it, and shutdown waits for it to end (the database pool closes after the shutdown hooks).
 */
export class BackgroundPass<T> {
  private running: Promise<T> | undefined;
  private first: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly report: PassReport<T>,
  ) {}

  /** From onApplicationBootstrap. The interval's timer keeps no process alive. */
  start(intervalMs?: number): void {
    this.first = setImmediate(() => void this.runInBackground());
    if (intervalMs === undefined) return;
    this.timer = setInterval(() => void this.runInBackground(), intervalMs);
    this.timer.unref();
  }

  /** From onApplicationShutdown: no pass starts any more, and the one in progress, if any, ends first, whatever its outcome. */
  async stop(): Promise<void> {
    clearImmediate(this.first);
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  run(): Promise<T> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runInBackground(): Promise<void> {
    try {
      const message = this.report.done(await this.run());
      if (message) this.report.logger.log(message);
    } catch (error) {
      this.report.logger.warn(`${this.report.failed}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
