import fs from 'node:fs';

/**
 * Captures what the process writes to stdout/stderr — pino writes straight to file descriptor 1 through
 * sonic-boom, so both `process.stdout.write` and `fs.write`/`fs.writeSync` on fds 1 and 2 are recorded
 * (and kept off the test output).
 */
export function captureOutput(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const original = { stdout: process.stdout.write, stderr: process.stderr.write, write: fs.write, writeSync: fs.writeSync };
  const record = (data: unknown) => chunks.push(typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  process.stdout.write = ((data: unknown) => (record(data), true)) as typeof process.stdout.write;
  process.stderr.write = ((data: unknown) => (record(data), true)) as typeof process.stderr.write;
  (fs as { writeSync: unknown }).writeSync = (fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd === 1 || fd === 2) {
      record(data);
      return typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
    }
    return (original.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
  };
  (fs as { write: unknown }).write = (fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd === 1 || fd === 2) {
      record(data);
      const callback = rest.find((arg) => typeof arg === 'function') as ((err: null, written: number) => void) | undefined;
      const length = typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
      if (callback) process.nextTick(() => callback(null, length));
      return;
    }
    (original.write as (...args: unknown[]) => void)(fd, data, ...rest);
  };
  return {
    text: () => chunks.join(''),
    restore: () => {
      process.stdout.write = original.stdout;
      process.stderr.write = original.stderr;
      (fs as { write: unknown }).write = original.write;
      (fs as { writeSync: unknown }).writeSync = original.writeSync;
    },
  };
}
