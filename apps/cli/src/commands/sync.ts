import { Command, Flags } from '@oclif/core';
import { DEFAULT_ENTERPRISE_GATEWAY_URL } from '../lib/gateway';
import { processIo } from '../lib/io';
import { runSync } from '../lib/run-sync';
import { DEFAULT_TRANSPORT_OPTIONS } from '../lib/transport';

export default class SyncCommand extends Command {
  static override summary = 'Validate .service.yaml and its files, then send them to the gateway.';

  static override description = `Reads .service.yaml (or --config), checks it and every file it names, parses every Mermaid file and context JSON with the same library the server uses, and only then posts the bundle to {gateway}/api/v1/gateway/sync. CI fails fast with every problem listed (file, line, JSON path).

Before anything is sent, the CLI asks {gateway}/api/v1/gateway/info (no token) which versions the gateway works with: a CLI older than the gateway accepts stops with exit 2 and the command that installs the gateway's own release (npm install -g {gateway}/downloads/service-cli.tgz); a gateway older than the CLI gets a warning. A sync ends with a link to the service's page in the dashboard.

When the gateway already holds exactly these files (it compares a digest of the config's metadata and every file's path and SHA-256, POST {gateway}/api/v1/gateway/sync/check), the sync reports "unchanged" without parsing or sending anything. If that check is unavailable, the full sync runs (set SERVICE_CLI_DEBUG=1 to see why).

Environment variables:

SERVICE_TOKEN: an API token with the "sync" scope, created in the dashboard under your organization → API tokens. It is sent as a Bearer token and never printed.

SERVICE_GATEWAY_URL: your installation's address, e.g. https://context.example.com (the CLI posts to /api/v1/gateway/sync below it).

SERVICE_ENTERPRISE_GATEWAY_URL: overrides the hosted gateway that --enterprise uses (default ${DEFAULT_ENTERPRISE_GATEWAY_URL}). With --enterprise, SERVICE_GATEWAY_URL is ignored and the CLI says so.

Exit codes: 0 synced (or dry run valid), 1 validation failed (locally, or 400/413/422 from the gateway), 2 authentication or configuration (token missing or refused, gateway or config missing, CLI too old for the gateway), 3 server or network error after retries.`;

  static override examples = [
    { description: 'Preview what would be sent; opens no network connection', command: '<%= config.bin %> <%= command.id %> --dry-run' },
    { description: 'Sync to a self-hosted installation (typical CI step)', command: 'SERVICE_GATEWAY_URL=https://context.example.com SERVICE_TOKEN=$TOKEN <%= config.bin %> <%= command.id %>' },
    { description: 'Sync to the hosted service', command: 'SERVICE_TOKEN=$TOKEN <%= config.bin %> <%= command.id %> --enterprise' },
    { description: 'Config elsewhere, machine-readable result', command: '<%= config.bin %> <%= command.id %> --config services/payments/.service.yaml --json' },
  ];

  static override flags = {
    config: Flags.string({ char: 'c', summary: 'Path of .service.yaml (or of the directory holding it).', helpValue: '<path>' }),
    'dry-run': Flags.boolean({ summary: 'Validate and print the artifact table; send nothing.', default: false }),
    enterprise: Flags.boolean({ summary: 'Use the hosted gateway instead of SERVICE_GATEWAY_URL.', default: false }),
    json: Flags.boolean({ summary: 'Print one JSON document on stdout instead of text.', default: false }),
    timeout: Flags.integer({ summary: 'Seconds per attempt before giving up on the gateway.', default: DEFAULT_TRANSPORT_OPTIONS.timeoutMs / 1000, min: 1 }),
    retries: Flags.integer({ summary: 'Retries on network errors and 5xx answers (with backoff).', default: DEFAULT_TRANSPORT_OPTIONS.retries, min: 0, max: 10 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SyncCommand);
    process.exitCode = await runSync(
      { config: flags.config, dryRun: flags['dry-run'], enterprise: flags.enterprise, json: flags.json, timeoutMs: flags.timeout * 1000, retries: flags.retries },
      { cwd: process.cwd(), env: process.env, io: processIo, userAgent: this.config.userAgent, cliVersion: this.config.version },
    );
  }
}
