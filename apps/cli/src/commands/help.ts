import { Args, Command, loadHelpClass } from '@oclif/core';

/** oclif core handles `--help`; this adds the `service-cli help [command]` form without @oclif/plugin-help. */
export default class HelpCommand extends Command {
  static override summary = 'Show help for service-cli or one of its commands.';

  static override examples = [
    { description: 'All commands', command: '<%= config.bin %> help' },
    { description: 'One command', command: '<%= config.bin %> help sync' },
  ];

  static override args = {
    command: Args.string({ description: 'Command to show help for.', required: false }),
  };

  static override strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(HelpCommand);
    const Help = await loadHelpClass(this.config);
    await new Help(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(argv as string[]);
  }
}
