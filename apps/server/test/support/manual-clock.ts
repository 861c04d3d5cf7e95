import { Clock } from '../../src/common/clock';

/** A Clock tests can move: real time plus an offset that `advance` / `set` change. */
export class ManualClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now();
  }
}
