import { Flags } from '@oclif/core';
import { diagramFileArgs, diagramInputFlags, documentedCommand, jsonFlag } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runInspect } from '../lib/run-inspect';

const messages = Messages.load('inspect');

export default class InspectCommand extends documentedCommand(messages) {
  static override args = diagramFileArgs(messages);

  static override flags = {
    ...diagramInputFlags(messages),
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
