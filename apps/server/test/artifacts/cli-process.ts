import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { SYNC_CHECK_PATH } from '@sc/contracts';
import { outputOf, type ChildOutput } from '../support/child-output';

/** Runs the BUILT `service-cli` (apps/cli/bin/run.js → apps/cli/dist) as a child process, like a CI job does. */

export const WORKSPACE_ROOT = resolve(__dirname, '../../../..');
export const CLI_BIN = join(WORKSPACE_ROOT, 'apps/cli/bin/run.js');
export const SAMPLE_REPO = join(WORKSPACE_ROOT, 'apps/cli/test/fixtures/sample-repo');

/**
 * The built CLI is there: the integration run builds it once before its workers start (test/global-setup.cjs), so no
 * spec runs a stale binary and no two workers build it at the same time.
 */
export async function requireBuiltCli(): Promise<void> {
  if (!existsSync(join(WORKSPACE_ROOT, 'apps/cli/dist'))) throw new Error('apps/cli/dist is missing: run the integration tests through jest.integration.cjs, whose global setup builds the CLI.');
}

export interface CliRun extends ChildOutput {
  /** stdout parsed as the `--json` document. */
  json: Record<string, unknown>;
}

/**
 * `bin` runs another service-cli (an installed package's bin/run.js); `isolated` passes `env` alone instead of this
 * process's environment (minus SERVICE_* and NODE_OPTIONS).
 */
export async function runCli(args: string[], env: Record<string, string>, cwd: string, options: { bin?: string; isolated?: boolean } = {}): Promise<CliRun> {
  // Only what the CLI needs: no SERVICE_* variables of the developer's shell leak into the run.
  const baseEnv = options.isolated ? {} : Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SERVICE_') && key !== 'NODE_OPTIONS'));
  const output = await outputOf(spawn(process.execPath, [options.bin ?? CLI_BIN, ...args], { cwd, env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(output.stdout) as Record<string, unknown>;
  } catch {
    // Not --json, or the CLI crashed: the assertions on `code` and `stderr` tell.
  }
  return { ...output, json };
}

/** A private copy of the fixture repository that a test may edit. */
export function copySampleRepo(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sc-sample-repo-'));
  cpSync(SAMPLE_REPO, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A pass-through proxy in front of the gateway that keeps every POST body (decompressed), so a test can
 * re-post exactly what the CLI sent, altered.
 */
export async function recordingProxy(targetBaseUrl: string, options: { withoutSyncCheck?: boolean } = {}): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const target = new URL(targetBaseUrl);
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (options.withoutSyncCheck && req.url === SYNC_CHECK_PATH) {
        // Like a gateway that predates the digest check: the CLI then validates and posts the whole bundle.
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'not_found', message: `Cannot POST ${SYNC_CHECK_PATH}`, details: [] } }));
        return;
      }
      // Bodies of the POSTs only: the version handshake (GET /gateway/info) sends none.
      if (req.method === 'POST') {
        try {
          bodies.push(JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')));
        } catch {
          bodies.push(undefined);
        }
      }
      const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(raw);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((closed) => server.close(() => closed())) };
}
