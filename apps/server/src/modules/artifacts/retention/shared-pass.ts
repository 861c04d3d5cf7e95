/**
 * One pass of a background job at a time (retention, the search backfill): a call while a pass runs shares it, and
 * shutdown waits for it to end (the database pool closes after the shutdown hooks).
 */
export class SharedPass<T> {
  private running: Promise<T> | undefined;

  constructor(private readonly pass: () => Promise<T>) {}

  run(): Promise<T> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves once the pass in progress, if any, has ended, whatever its outcome. */
  async settled(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
