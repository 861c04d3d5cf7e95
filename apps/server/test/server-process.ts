import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Env } from '../src/config/env';
import { freePort } from './support';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');

/** The server started as an operator starts it (main.ts, its own process), here from the sources through ts-node. */
export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote (pino JSON lines), for failure messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export async function startServerProcess(env: Env, { readyTimeoutMs = 180_000 } = {}): Promise<ServerProcess> {
  const port = await freePort();
  // Only what the server needs: no SERVICE_* variables of the developer's shell leak into the run.
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SERVICE_') && key !== 'NODE_OPTIONS' && key !== 'DATABASE_URL'));
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(WORKSPACE_ROOT, 'apps/server/src/main.ts')], {
    cwd: WORKSPACE_ROOT,
    env: { ...baseEnv, TS_NODE_PROJECT: join(WORKSPACE_ROOT, 'apps/server/tsconfig.app.json'), PORT: String(port), SERVICE_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let stopped = false;
  void exited.then(() => (stopped = true));
  while (!stopped && Date.now() < deadline) {
    const status = await fetch(`${baseUrl}/api/v1/health/ready`).then((response) => response.status, () => 0);
    if (status === 200) return { baseUrl, child, output: () => output, exited };
    await new Promise((wait) => setTimeout(wait, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`The server process did not become ready:\n${output}`);
}
