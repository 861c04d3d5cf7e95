import { Args, Command, Flags } from '@oclif/core';
import type { JsonErrorOutput } from './cli-error';
import { ExitCode } from './exit-codes';
import type { Messages } from './messages';

/**
 * The commands' base: oclif's `enableJsonFlag` decides whether `--json` is on (`this.jsonEnabled()`, which also
 * honours `SERVICE_CLI_CONTENT_TYPE=json` and ignores a `--json` after `--`). The commands still print their JSON
 * document themselves, through the redacting io, so a token echoed in a message never reaches stdout; `run()`
 * returns nothing, so oclif prints nothing twice. Each command still lists `json` in its flags, only to keep its own
 * summary under FLAGS (oclif lets a command's flag replace the generic "Format output as json." one).
 */
export abstract class CliCommand extends Command {
  static override enableJsonFlag = true;

  /** With --json, what oclif itself catches (invalid flags: exit 2, a bug: exit 1) keeps its exit code. */
  override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (this.jsonEnabled()) process.exitCode = error.exitCode ?? error.oclif?.exit ?? ExitCode.Validation;
    return super.catch(error);
  }

  /** ...and is printed as the documented error document (docs/schema/cli-output-common.schema.json). */
  override toErrorJson(error: unknown): JsonErrorOutput {
    const exitCode = Number(process.exitCode) === ExitCode.Configuration ? ExitCode.Configuration : ExitCode.Validation;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, exitCode, error: { code: exitCode === ExitCode.Configuration ? 'invalid_arguments' : 'unexpected_error', message, details: [] } };
  }
}

/**
 * The base of a command whose help lives in its messages file: summary, description (with `descriptionTokens` for
 * its `%s` placeholders) and examples.
 */
export function documentedCommand(messages: Messages, descriptionTokens: readonly (string | number)[] = []) {
  abstract class DocumentedCommand extends CliCommand {
    static override summary = messages.getMessage('summary');

    static override description = messages.getMessage('description', descriptionTokens);

    static override examples = messages.getExamples();
  }
  return DocumentedCommand;
}

/** The `--json` flag with the command's own summary (`# flags.json.summary`), see CliCommand. */
export function jsonFlag(messages: Messages) {
  return Flags.boolean({ summary: messages.getMessage('flags.json.summary'), default: false });
}

/** The argument of a command that reads one Mermaid diagram: the file (`# args.file.description`). */
export function diagramFileArgs(messages: Messages) {
  return { file: Args.string({ description: messages.getMessage('args.file.description'), required: true }) };
}

/**
 * What such a command reads beside the diagram: its context JSON (`--context`) and the databases its nodes link to
 * (`--database`, repeatable), each with the command's own summary.
 */
export function diagramInputFlags(messages: Messages) {
  return {
    context: Flags.string({ summary: messages.getMessage('flags.context.summary'), helpValue: '<file.json>' }),
    // Non-greedy: `--database a file.mmd` must not swallow the file argument.
    database: Flags.string({ summary: messages.getMessage('flags.database.summary'), multiple: true, multipleNonGreedy: true, helpValue: '<name>' }),
  };
}
