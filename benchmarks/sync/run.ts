/**
 * npm run bench:sync — cost of `service-cli sync` on a large repository, end to end.
 *
 * Starts the BUILT server (dist, embedded PGlite in a temp dir, compiled Mermaid worker threads) and runs the
 * BUILT CLI against a generated repository (200 diagrams of ~60 nodes with contexts, 20 SQL schemas). A
 * pass-through proxy in front of the gateway times every request of a run (the digest check, then the sync POST
 * unless the gateway already has the bundle): their sum is the server-side share of the run.
 * Baselines measured in the same run, printed as ratios:
 *   - reading and hashing every file of the repository (the least any sync must do on the CI side);
 *   - POSTing the same gzip bytes to the health endpoint (transport + JSON parse, no sync work).
 * Not a test: nothing asserts a target; docs/benchmarks.md records a run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateRepo } from './generate';

const ROOT = resolve(__dirname, '../..');
const SERVER_MAIN = join(ROOT, 'dist/apps/server/apps/server/src/main.js');
const CLI_BIN = join(ROOT, 'apps/cli/bin/run.js');
const SYNC_PATH = '/api/v1/gateway/sync';
const SETUP_TOKEN = `bench-${randomBytes(12).toString('hex')}`;

const progress = (message: string) => process.stderr.write(`bench:sync: ${message}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(1)}x`;

interface Timed {
  totalMs: number;
  serverMs: number;
  /** The gateway's Server-Timing header: validation and storage inside the server. */
  phases: string;
  status: string;
}

interface ProxiedRequest {
  path: string;
  ms: number;
  serverTiming: string;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'sc-bench-sync-'));
  let server: ChildProcess | undefined;
  try {
    progress('generating the repository');
    const repo = generateRepo(join(work, 'repo'));
    const port = await freePort();
    progress('starting the built server (embedded PGlite)');
    server = startServer(port, join(work, 'data'));
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, server);
    const token = await syncToken(baseUrl);
    const proxy = await timingProxy(baseUrl);

    const hashMs = median(await repeat(5, async () => readAndHash(repo.dir, repo.files)));
    progress('cold sync');
    const cold = await cliSync(repo.dir, token, proxy);
    progress('no-change re-sync');
    const unchanged = await cliSync(repo.dir, token, proxy);
    progress('no-change re-sync (again)');
    const unchangedAgain = await cliSync(repo.dir, token, proxy);
    const rawPostMs = median(await repeat(5, () => postToHealth(baseUrl, proxy.lastSyncBody)));
    proxy.close();

    const bytes = repo.files.reduce((sum, file) => sum + readFileSync(join(repo.dir, file)).length, 0);
    console.log(`\nbench:sync — ${repo.files.length} files, ${(bytes / 1024 / 1024).toFixed(2)} MiB (gzip on the wire: ${(proxy.lastSyncBody.length / 1024).toFixed(0)} KiB); ${availableParallelism()} CPU(s), ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
    console.log(`baseline: read + SHA-256 of every file ${seconds(hashMs)}; raw POST of the same gzip body to /api/v1/health ${seconds(rawPostMs)}\n`);
    const rows = [
      ['cold sync (first revision)', cold],
      ['no-change re-sync', unchanged],
      ['no-change re-sync (again)', unchangedAgain],
    ] as const;
    console.log('run                         | CLI total | server (HTTP) | server share | total vs read+hash | server vs raw POST | inside the server              | result');
    console.log('----------------------------|-----------|---------------|--------------|--------------------|--------------------|--------------------------------|---------');
    for (const [name, run] of rows) {
      console.log(
        `${name.padEnd(28)}| ${seconds(run.totalMs).padStart(9)} | ${seconds(run.serverMs).padStart(13)} | ${`${((run.serverMs / run.totalMs) * 100).toFixed(0)} %`.padStart(12)} | ${ratio(run.totalMs, hashMs).padStart(18)} | ${ratio(run.serverMs, rawPostMs).padStart(18)} | ${run.phases.padEnd(30)} | ${run.status}`,
      );
    }
    const verdict = (ms: number, limitMs: number) => (ms < limitMs ? 'met' : 'NOT met');
    console.log(
      `\nTargets (issue 5, 2 cores, end to end): cold sync under 10 s — ${verdict(cold.totalMs, 10_000)}; ` +
        `no-change re-sync under 1 s — ${verdict(Math.max(unchanged.totalMs, unchangedAgain.totalMs), 1_000)}.`,
    );
  } finally {
    server?.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

function startServer(port: number, dataDir: string): ChildProcess {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`, SERVICE_DATA_DIR: dataDir, SERVICE_SETUP_TOKEN: SETUP_TOKEN, SERVICE_LOG_LEVEL: 'error', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}; build it first (npx nx run-many -t build -p server cli).`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  throw new Error('The server did not become healthy within 60 s.');
}

/** First-run setup, then a token with the sync scope minted by the setup's admin token. */
async function syncToken(baseUrl: string): Promise<string> {
  const setup = await fetch(`${baseUrl}/api/v1/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: SETUP_TOKEN, organization: { id: 'bench', name: 'Benchmark' }, owner: { email: 'owner@bench.example', name: 'Owner' } }),
  });
  const admin = ((await setup.json()) as { apiToken: { token: string } }).apiToken.token;
  const created = await fetch(`${baseUrl}/api/v1/orgs/bench/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    body: JSON.stringify({ name: 'bench', scopes: ['sync'] }),
  });
  if (created.status !== 201) throw new Error(`Creating the sync token failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { token: string }).token;
}

async function cliSync(dir: string, token: string, proxy: Awaited<ReturnType<typeof timingProxy>>): Promise<Timed> {
  const before = proxy.requests.length;
  const start = performance.now();
  const output = await new Promise<string>((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, 'sync', '--config', join(dir, '.service.yaml'), '--json'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', SERVICE_TOKEN: token, SERVICE_GATEWAY_URL: proxy.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolveRun(stdout) : reject(new Error(`service-cli sync exited with ${code}: ${stdout.slice(0, 2000)}`))));
  });
  const totalMs = performance.now() - start;
  const calls = proxy.requests.slice(before);
  if (calls.length === 0) throw new Error('The CLI sent nothing to the gateway.');
  const result = (JSON.parse(output) as { result: { status: string; revision: number } }).result;
  const phases = calls
    .map((call) => (call.path === SYNC_PATH ? call.serverTiming.replace(/;dur=([\d.]+)/g, (_, dur: string) => ` ${seconds(Number(dur))}`) : `${call.path.replace(`${SYNC_PATH}/`, '')} ${seconds(call.ms)}`))
    .join(', ');
  const serverMs = calls.reduce((sum, call) => sum + call.ms, 0);
  return { totalMs, serverMs, phases, status: `${result.status} (revision ${result.revision})` };
}

function readAndHash(dir: string, files: string[]): void {
  for (const file of files) createHash('sha256').update(readFileSync(join(dir, file))).digest('hex');
}

async function postToHealth(baseUrl: string, body: Buffer): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1/health`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: new Uint8Array(body),
  });
  await response.arrayBuffer();
}

/** Forwards to the server and records, per request, the time from its first byte to the last byte of the answer. */
async function timingProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const requests: ProxiedRequest[] = [];
  // The last sync POST's gzip body: the raw-POST baseline sends the same bytes.
  const state = { lastSyncBody: Buffer.alloc(0) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === SYNC_PATH) state.lastSyncBody = body;
      const start = performance.now();
      const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers as IncomingHttpHeaders }, (answer) => {
        const answerChunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
        answer.on('end', () => {
          requests.push({ path: req.url ?? '', ms: performance.now() - start, serverTiming: String(answer.headers['server-timing'] ?? '') });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(answerChunks));
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get lastSyncBody() {
      return state.lastSyncBody;
    },
    close: () => server.close(),
  };
}

async function repeat(times: number, work: () => Promise<unknown> | unknown): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await work();
    durations.push(performance.now() - start);
  }
  return durations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

