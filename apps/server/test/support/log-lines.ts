import { Writable } from 'node:stream';

/** A log destination that pushes each written chunk (one JSON line from pino) onto `lines`. */
export function lineCollector(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
}
