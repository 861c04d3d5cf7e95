import type { ExitCode } from './exit-codes';
import { CliError, toJsonError } from './cli-error';
import { formatProblems, type ProblemFormat } from './format';

/** Where a command writes. Injected so tests capture output and so every write passes the redactor. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is an interactive terminal (progress is redrawn in place there). */
  readonly isTTY: boolean;
}

export const REDACTED = '[redacted]';

/**
 * Wraps an io so no secret ever reaches the terminal or a CI log, even if some error message (ours, Node's
 * or the server's) happens to echo it back.
 */
export function redactingIo(io: CliIo, secrets: readonly (string | undefined)[]): CliIo {
  const active = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
  const redact = (text: string): string => active.reduce((result, secret) => result.split(secret).join(REDACTED), text);
  return { out: (text) => io.out(redact(text)), err: (text) => io.err(redact(text)), isTTY: io.isTTY };
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') || text.endsWith('\r') ? text : `${text}\n`),
  get isTTY() {
    return Boolean(process.stderr.isTTY);
  },
};

/**
 * Runs a command body; a CliError becomes its exit code plus one message (a JSON error document with --json,
 * text on stderr otherwise). Anything else is a bug and propagates to oclif's handler.
 */
export async function runReportingErrors(io: CliIo, json: boolean, body: () => Promise<ExitCode>, format: ProblemFormat = {}): Promise<ExitCode> {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (json) {
      io.out(JSON.stringify(toJsonError(error), null, 2));
    } else {
      io.err(`Error: ${error.message}`);
      if (error.problems.length) io.err(formatProblems(error.problems, format));
    }
    return error.exitCode;
  }
}
