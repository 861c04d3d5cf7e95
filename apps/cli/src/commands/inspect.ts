import { Args, Flags } from '@oclif/core';
import { documentedCommand, jsonFlag } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runInspect } from '../lib/run-inspect';

const messages = Messages.load('inspect');

export default class InspectCommand extends documentedCommand(messages) {
  static override args = {
    file: Args.string({ description: messages.getMessage('args.file.description'), required: true }),
  };

  static override flags = {
    context: Flags.string({ summary: messages.getMessage('flags.context.summary'), helpValue: '<file.json>' }),
    // Non-greedy: `--database a file.mmd` must not swallow the file argument.
    database: Flags.string({ summary: messages.getMessage('flags.database.summary'), multiple: true, multipleNonGreedy: true, helpValue: '<name>' }),
    json: jsonFlag(messages),
    verbose: Flags.boolean({ summary: messages.getMessage('flags.verbose.summary'), default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(InspectCommand);
    process.exitCode = await runInspect(
      { file: args.file, context: flags.context, databases: flags.database ?? [], json: this.jsonEnabled(), verbose: flags.verbose },
      { cwd: process.cwd(), io: processIo },
    );
  }
}
