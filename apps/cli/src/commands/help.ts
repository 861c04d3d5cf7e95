import { Args, Command, loadHelpClass } from '@oclif/core';
import { Messages } from '../lib/messages';

const messages = Messages.load('help');

/** oclif core handles `--help`; this adds the `service-cli help [command]` form without @oclif/plugin-help. */
export default class HelpCommand extends Command {
  static override summary = messages.getMessage('summary');

  static override examples = messages.getExamples();

  static override args = {
    command: Args.string({ description: messages.getMessage('args.command.description'), required: false }),
  };

  static override strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(HelpCommand);
    const Help = await loadHelpClass(this.config);
    await new Help(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(argv as string[]);
  }
}
