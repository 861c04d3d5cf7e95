import { Flags } from '@oclif/core';
import { documentedCommand, jsonFlag } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runInit } from '../lib/run-init';

const messages = Messages.load('init');

export default class InitCommand extends documentedCommand(messages) {
  static override flags = {
    dir: Flags.string({ summary: messages.getMessage('flags.dir.summary'), default: '.', helpValue: '<dir>' }),
    name: Flags.string({ summary: messages.getMessage('flags.name.summary'), helpValue: '<name>' }),
    json: jsonFlag(messages),
    example: Flags.boolean({ summary: messages.getMessage('flags.example.summary'), default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(InitCommand);
    process.exitCode = await runInit({ dir: flags.dir, name: flags.name, json: this.jsonEnabled(), example: flags.example }, { cwd: process.cwd(), io: processIo });
  }
}
