import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The compiled binary as CI runs it (`npx nx run cli:build` first; `nx run cli:test` depends on the build). */
export const CLI_ROOT = path.join(__dirname, '../..');
export const BIN = path.join(CLI_ROOT, 'bin/run.js');
export const COMPILED_COMMANDS = path.join(CLI_ROOT, 'dist/apps/cli/src/commands.js');

/** Fails the suite with the command that fixes it when the CLI was not built. */
export function requireBuiltCli(): void {
  if (!existsSync(COMPILED_COMMANDS)) throw new Error(`${COMPILED_COMMANDS} is missing: run \`npx nx run cli:build\` before these tests.`);
}
