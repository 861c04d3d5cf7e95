import type { CliIo } from '../../src/lib/io';

/** An io that records everything a command prints. */
export interface CapturedIo extends CliIo {
  stdout: string[];
  stderr: string[];
  /** stdout and stderr together, for "never printed" scans. */
  all(): string;
}

export function captureIo(isTTY = false): CapturedIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    isTTY,
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    all: () => [...stdout, ...stderr].join('\n'),
  };
}
