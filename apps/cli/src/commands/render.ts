import { Flags } from '@oclif/core';
import { DIAGRAM_THEMES, type DiagramTheme } from '@sc/diagram';
import { diagramFileArgs, diagramInputFlags, documentedCommand, jsonFlag } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runRender } from '../lib/run-render';

const messages = Messages.load('render');

export default class RenderCommand extends documentedCommand(messages) {
  static override args = diagramFileArgs(messages);

  static override flags = {
    ...diagramInputFlags(messages),
    output: Flags.string({ char: 'o', summary: messages.getMessage('flags.output.summary'), required: true, helpValue: '<out.svg|out.png>' }),
    scale: Flags.integer({ summary: messages.getMessage('flags.scale.summary'), default: 2, min: 1, max: 4 }),
    theme: Flags.string({ summary: messages.getMessage('flags.theme.summary'), options: [...DIAGRAM_THEMES], default: 'light' }),
    json: jsonFlag(messages),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderCommand);
    process.exitCode = await runRender(
      { file: args.file, context: flags.context, databases: flags.database ?? [], output: flags.output, scale: flags.scale, theme: flags.theme as DiagramTheme, json: this.jsonEnabled() },
      { cwd: process.cwd(), io: processIo },
    );
  }
}
