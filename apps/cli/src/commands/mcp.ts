import { Flags } from '@oclif/core';
import { documentedCommand } from '../lib/cli-command';
import { processIo } from '../lib/io';
import { Messages } from '../lib/messages';
import { runMcp } from '../lib/run-mcp';

const messages = Messages.load('mcp');

export default class McpCommand extends documentedCommand(messages) {
  /** stdout carries the MCP protocol: there is no other output to format as JSON. */
  static override enableJsonFlag = false;

  static override flags = {
    enterprise: Flags.boolean({ summary: messages.getMessage('flags.enterprise.summary'), default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpCommand);
    process.exitCode = await runMcp({ enterprise: flags.enterprise, env: process.env, io: processIo, stdin: process.stdin, stdout: process.stdout, userAgent: this.config.userAgent });
  }
}
