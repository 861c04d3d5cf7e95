import { Flags } from '@oclif/core';
import { documentedCommand, jsonFlag } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runDiff } from '../lib/run-diff';
import { DEFAULT_TRANSPORT_OPTIONS } from '../lib/transport';

const messages = Messages.load('diff');

export default class DiffCommand extends documentedCommand(messages) {
  static override flags = {
    config: Flags.string({ char: 'c', summary: messages.getMessage('flags.config.summary'), helpValue: '<path>' }),
    against: Flags.integer({ summary: messages.getMessage('flags.against.summary'), helpValue: '<revision>', min: 0, exclusive: ['base'] }),
    base: Flags.string({ summary: messages.getMessage('flags.base.summary'), helpValue: '<dir>', exclusive: ['against'] }),
    format: Flags.string({ summary: messages.getMessage('flags.format.summary'), options: ['text', 'markdown'], default: 'text' }),
    'preview-url': Flags.string({ summary: messages.getMessage('flags.preview-url.summary'), helpValue: '<url>' }),
    'exit-code': Flags.boolean({ summary: messages.getMessage('flags.exit-code.summary'), default: false }),
    enterprise: Flags.boolean({ summary: messages.getMessage('flags.enterprise.summary'), default: false }),
    json: jsonFlag(messages),
    timeout: Flags.integer({ summary: messages.getMessage('flags.timeout.summary'), default: DEFAULT_TRANSPORT_OPTIONS.timeoutMs / 1000, min: 1 }),
    retries: Flags.integer({ summary: messages.getMessage('flags.retries.summary'), default: DEFAULT_TRANSPORT_OPTIONS.retries, min: 0, max: 10 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DiffCommand);
    process.exitCode = await runDiff(
      {
        config: flags.config,
        against: flags.against,
        base: flags.base,
        json: this.jsonEnabled(),
        format: flags.format === 'markdown' ? 'markdown' : 'text',
        exitCode: flags['exit-code'],
        previewUrl: flags['preview-url'],
        enterprise: flags.enterprise,
        timeoutMs: flags.timeout * 1000,
        retries: flags.retries,
      },
      { cwd: process.cwd(), env: process.env, io: processIo, userAgent: this.config.userAgent, cliVersion: this.config.version },
    );
  }
}
