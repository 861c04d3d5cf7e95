import type { ExitCode } from './exit-codes';

/** One problem shown to the user: the config's, a diagram library issue or a server detail. */
export interface CliProblem {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** Config key path or JSON path into a context file. */
  path?: string;
  /** The artifact concerned, as `kind name` (server details name it when no file applies). */
  artifact?: string;
  hint?: string;
  /** The source line with a caret under the column (Mermaid problems), printed under the message. */
  excerpt?: string;
  /** The parser's own report (Mermaid's expected tokens), printed only with --verbose. */
  detail?: string;
}

/** An error that ends a command with a given exit code and a stable error code for --json. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    readonly code: string,
    message: string,
    readonly problems: CliProblem[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The --json shape of any failed command. */
export interface JsonErrorOutput {
  ok: false;
  exitCode: ExitCode;
  error: { code: string; message: string; details: CliProblem[] };
}

export function toJsonError(error: CliError): JsonErrorOutput {
  return { ok: false, exitCode: error.exitCode, error: { code: error.code, message: error.message, details: error.problems } };
}
