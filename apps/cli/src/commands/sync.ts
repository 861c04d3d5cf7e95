import { Flags } from '@oclif/core';
import { documentedCommand, jsonFlag } from '../lib/cli-command';
import { DEFAULT_ENTERPRISE_GATEWAY_URL } from '../lib/gateway';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runSync } from '../lib/run-sync';
import { DEFAULT_TRANSPORT_OPTIONS } from '../lib/transport';

const messages = Messages.load('sync');

export default class SyncCommand extends documentedCommand(messages, [DEFAULT_ENTERPRISE_GATEWAY_URL]) {
  static override flags = {
    config: Flags.string({ char: 'c', summary: messages.getMessage('flags.config.summary'), helpValue: '<path>' }),
    'dry-run': Flags.boolean({ summary: messages.getMessage('flags.dry-run.summary'), default: false }),
    enterprise: Flags.boolean({ summary: messages.getMessage('flags.enterprise.summary'), default: false }),
    json: jsonFlag(messages),
    timeout: Flags.integer({ summary: messages.getMessage('flags.timeout.summary'), default: DEFAULT_TRANSPORT_OPTIONS.timeoutMs / 1000, min: 1 }),
    retries: Flags.integer({ summary: messages.getMessage('flags.retries.summary'), default: DEFAULT_TRANSPORT_OPTIONS.retries, min: 0, max: 10 }),
    verbose: Flags.boolean({ summary: messages.getMessage('flags.verbose.summary'), default: false }),
    // No default: absent leaves it to .service.yaml's `strict`.
    strict: Flags.boolean({ summary: messages.getMessage('flags.strict.summary'), allowNo: true }),
    preview: Flags.boolean({ summary: messages.getMessage('flags.preview.summary'), default: false }),
    label: Flags.string({ summary: messages.getMessage('flags.label.summary'), helpValue: '<branch>', dependsOn: ['preview'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SyncCommand);
    process.exitCode = await runSync(
      { config: flags.config, dryRun: flags['dry-run'], enterprise: flags.enterprise, json: this.jsonEnabled(), timeoutMs: flags.timeout * 1000, retries: flags.retries, verbose: flags.verbose, strict: flags.strict, preview: flags.preview, label: flags.label },
      { cwd: process.cwd(), env: process.env, io: processIo, userAgent: this.config.userAgent, cliVersion: this.config.version },
    );
  }
}
