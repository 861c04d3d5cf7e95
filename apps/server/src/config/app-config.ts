import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { makePrivateDir } from '../database/data-dir-permissions';
import type { HttpTimeouts } from '../common/http/server-timeouts';
import { Env, EnvReader } from './env';

/** Where the data lives: a PostgreSQL server, or embedded PGlite in a directory (null = in memory, tests only). */
export type DatabaseConfig = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Injection token of the raw environment the configuration was read from (other config classes read it too). */
export const APP_ENV = Symbol('APP_ENV');

/**
 * The validated core configuration. Built once at boot by `loadAppConfig`; inject the class itself.
 * Feature modules parse their own variables from `APP_ENV` with the helpers in `config/env.ts`.
 */
export class AppConfig {
  /** Absolute base URL without trailing slash, e.g. `https://context.example.com`. */
  publicUrl!: string;
  /** True when publicUrl is https: cookies get the Secure attribute. */
  secureCookies!: boolean;
  port!: number;
  /** Address the HTTP server binds to (HOST): loopback by default, `0.0.0.0` in the container image. */
  host!: string;
  dataDir!: string;
  database!: DatabaseConfig;
  /** 32-byte key that encrypts secrets at rest (SecretBox). */
  secretKey!: Buffer;
  /** Fixed first-run setup token from SERVICE_SETUP_TOKEN (automation); otherwise one is generated at boot. */
  setupToken?: string;
  bodyLimitBytes!: number;
  sessionIdleTtlMs!: number;
  sessionAbsoluteTtlMs!: number;
  /** Requests per window and per client address on the rate-limited auth endpoints. */
  authRateLimit!: { limit: number; windowMs: number };
  /** Failed authentications (unknown token or session) per window and client address before 429. */
  authFailureLimit!: { limit: number; windowMs: number };
  /** Node HTTP server limits against slow clients: whole request, headers, idle keep-alive connection. */
  httpTimeouts!: HttpTimeouts;
  logLevel!: LogLevel;
  /** Express `trust proxy`: false, true, or the number of proxy hops in front of the service. */
  trustProxy!: boolean | number;
  /** `pretty` (human-readable, needs the pino-pretty dev dependency) or `json` (one object per line). */
  logFormat!: 'json' | 'pretty';
  /** Directory of the built admin SPA served at `/`, or null when the API runs alone. */
  adminDir!: string | null;
}

/**
 * Loopback unless told otherwise: a bare `npm start` on a laptop or a host behind a local reverse proxy is not
 * reachable from the network by accident. The container image sets HOST=0.0.0.0 (a container's port is only
 * published through Docker's own mapping).
 */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
const SECRET_KEY_FILE = 'secret.key';

/** Reads and validates the core configuration; throws ConfigError listing every problem. */
export function loadAppConfig(env: Env, { cwd = process.cwd() }: { cwd?: string } = {}): AppConfig {
  const read = new EnvReader(env);
  const port = read.integer('PORT', 3000, { min: 0, max: 65535 });
  // Without a public URL the service is used locally: links it prints must point at the port it listens on.
  const publicUrl = read.httpUrl('SERVICE_PUBLIC_URL', `http://localhost:${port}`);
  const databaseUrl = read.string('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    read.problem('DATABASE_URL must be a postgres:// or postgresql:// connection URL.');
  }
  const host = read.string('HOST', DEFAULT_HOST);
  if (!isIP(host) && !/^[a-z0-9.-]+$/i.test(host)) read.problem(`HOST must be an IP address (0.0.0.0 for every interface) or a host name (got "${host}").`);
  const dataDir = resolve(cwd, read.string('SERVICE_DATA_DIR', './data'));
  const setupToken = read.string('SERVICE_SETUP_TOKEN');
  if (setupToken !== undefined && setupToken.length < 16) {
    read.problem('SERVICE_SETUP_TOKEN must be at least 16 characters long.');
  }
  const config = new AppConfig();
  config.publicUrl = publicUrl;
  config.secureCookies = publicUrl.startsWith('https://');
  config.port = port;
  config.host = host;
  config.dataDir = dataDir;
  config.database = databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir: join(dataDir, 'pglite') };
  config.setupToken = setupToken;
  config.bodyLimitBytes = read.byteSize('SERVICE_BODY_LIMIT', DEFAULT_BODY_LIMIT_BYTES);
  config.sessionIdleTtlMs = read.durationMs('SERVICE_SESSION_IDLE_TIMEOUT', 8 * 3_600_000, { minMs: 60_000 });
  config.sessionAbsoluteTtlMs = read.durationMs('SERVICE_SESSION_MAX_AGE', 7 * 86_400_000, { minMs: 60_000 });
  config.authRateLimit = {
    limit: read.integer('SERVICE_AUTH_RATE_LIMIT', 20, { min: 1 }),
    windowMs: read.durationMs('SERVICE_AUTH_RATE_WINDOW', 60_000),
  };
  config.authFailureLimit = {
    limit: read.integer('SERVICE_AUTH_FAILURE_LIMIT', 20, { min: 1 }),
    windowMs: read.durationMs('SERVICE_AUTH_FAILURE_WINDOW', 60_000),
  };
  config.httpTimeouts = readHttpTimeouts(read);
  config.logLevel = read.oneOf<LogLevel>('SERVICE_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info');
  config.trustProxy = parseTrustProxy(read);
  config.logFormat = read.oneOf('SERVICE_LOG_FORMAT', ['json', 'pretty'], 'json');
  config.adminDir = resolveAdminDir(read, cwd);
  config.secretKey = resolveSecretKey(read, databaseUrl === undefined, dataDir) ?? Buffer.alloc(0);
  read.assertValid();
  return config;
}

/**
 * SERVICE_SECRET_KEY wins. Without it the embedded mode keeps a generated key in the data directory so
 * a plain `npm start` works; with DATABASE_URL the key is required, because a key living on one
 * container's disk would be lost (and every stored secret with it) when the container is replaced.
 */
function resolveSecretKey(read: EnvReader, embedded: boolean, dataDir: string): Buffer | undefined {
  const fromEnv = read.raw('SERVICE_SECRET_KEY');
  if (fromEnv !== undefined) {
    const key = decodeKey(fromEnv);
    if (!key) read.problem('SERVICE_SECRET_KEY must be 32 bytes encoded as base64 (44 characters) or hex (64 characters). Generate one with: openssl rand -base64 32');
    return key;
  }
  if (!embedded) {
    read.problem('SERVICE_SECRET_KEY is required when DATABASE_URL is set (generate one with: openssl rand -base64 32).');
    return undefined;
  }
  const file = join(dataDir, SECRET_KEY_FILE);
  if (existsSync(file)) {
    const key = decodeKey(readFileSync(file, 'utf8').trim());
    if (!key) read.problem(`${file} does not hold a 32-byte base64 key; restore it or remove it only if no secrets were stored yet.`);
    return key;
  }
  const key = randomBytes(32);
  makePrivateDir(dataDir);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

function decodeKey(value: string): Buffer | undefined {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  return key && key.length === 32 ? key : undefined;
}

function resolveAdminDir(read: EnvReader, cwd: string): string | null {
  const configured = read.raw('SERVICE_ADMIN_DIR');
  if (configured !== undefined) {
    const dir = resolve(cwd, configured);
    if (!existsSync(join(dir, 'index.html'))) read.problem(`SERVICE_ADMIN_DIR (${dir}) must contain the built admin app (index.html).`);
    return dir;
  }
  // The build layout puts main.js at dist/apps/server/apps/server/src/main.js and the SPA at dist/apps/admin/browser.
  const candidates = [resolve(cwd, 'dist/apps/admin/browser'), resolve(__dirname, '../../../../../admin/browser')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}

/**
 * The request timeout bounds how long a client may take to send a whole request, body included: 2 minutes
 * lets a 32 MB sync (SERVICE_SYNC_MAX_BYTES) through at about 2 Mbit/s (the CLI also compresses it), while
 * a client that never finishes is dropped instead of being held for Node's 300 s.
 * Keep-alive: a load balancer reuses its idle connections for up to its own idle timeout (60 s is common); a server
 * that closes them sooner races the balancer's next request on them, which answers 502. So 65 s, and the headers
 * timeout above it, the usual advice for Node behind a balancer (on Node 20 an idle connection's wait does not
 * count against the headers timeout, but the order keeps that true whatever the runtime does).
 */
function readHttpTimeouts(read: EnvReader): HttpTimeouts {
  const requestMs = read.durationMs('SERVICE_REQUEST_TIMEOUT', 120_000, { minMs: 100 });
  const headersMs = read.durationMs('SERVICE_HEADERS_TIMEOUT', 66_000, { minMs: 100 });
  const keepAliveMs = read.durationMs('SERVICE_KEEP_ALIVE_TIMEOUT', 65_000, { minMs: 100 });
  if (headersMs > requestMs) read.problem('SERVICE_HEADERS_TIMEOUT must not be longer than SERVICE_REQUEST_TIMEOUT (the headers are part of the request).');
  return { requestMs, headersMs, keepAliveMs };
}

function parseTrustProxy(read: EnvReader): boolean | number {
  const value = read.raw('SERVICE_TRUST_PROXY');
  if (value !== undefined && /^\d+$/.test(value)) return read.integer('SERVICE_TRUST_PROXY', 0, { min: 0, max: 10 });
  return read.boolean('SERVICE_TRUST_PROXY', false);
}
