import { Command, Flags } from '@oclif/core';
import { processIo } from '../lib/io';
import { runInit } from '../lib/run-init';

export default class InitCommand extends Command {
  static override summary = 'Write a commented starter .service.yaml and the .service/ layout.';

  static override description = `Creates .service.yaml (version 1) and .service/diagrams/, flows/, schemas/, jobs/ and service-summary.md, plus a small starter diagram with its context so \`sync --dry-run\` passes at once. Existing files are never overwritten: each one is reported as kept.`;

  static override examples = [
    { description: 'Set up the current repository', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Set up another directory with an explicit service name', command: '<%= config.bin %> <%= command.id %> --dir services/payments --name payments' },
  ];

  static override flags = {
    dir: Flags.string({ summary: 'Directory to set up (the repository root).', default: '.', helpValue: '<dir>' }),
    name: Flags.string({ summary: 'Service name (default: the directory name).', helpValue: '<name>' }),
    json: Flags.boolean({ summary: 'Print what was created and kept as JSON.', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(InitCommand);
    process.exitCode = await runInit({ dir: flags.dir, name: flags.name, json: flags.json }, { cwd: process.cwd(), io: processIo });
  }
}
