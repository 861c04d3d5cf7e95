import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './env';
import { DEFAULT_BODY_LIMIT_BYTES, loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sc-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('derives the default public URL from PORT', () => {
    const config = loadAppConfig({ PORT: '3999' }, { cwd: dir });
    expect(config.publicUrl).toBe('http://localhost:3999');
  });

  it('defaults to embedded PGlite under ./data on http://localhost:3000', () => {
    const config = loadAppConfig({}, { cwd: dir });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.port).toBe(3000);
    expect(config.secureCookies).toBe(false);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: join(dir, 'data', 'pglite') });
    expect(config.bodyLimitBytes).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(config.sessionIdleTtlMs).toBe(8 * 3_600_000);
    expect(config.sessionAbsoluteTtlMs).toBe(7 * 86_400_000);
  });

  it('binds to loopback unless HOST says otherwise, and refuses a malformed HOST', () => {
    expect(loadAppConfig({}, { cwd: dir }).host).toBe('127.0.0.1');
    expect(loadAppConfig({ HOST: '0.0.0.0' }, { cwd: dir }).host).toBe('0.0.0.0');
    expect(loadAppConfig({ HOST: '::' }, { cwd: dir }).host).toBe('::');
    expect(() => loadAppConfig({ HOST: 'http://0.0.0.0' }, { cwd: dir })).toThrow(/HOST must be an IP address/);
  });

  it('creates the data directory 0700', () => {
    loadAppConfig({ SERVICE_DATA_DIR: 'state' }, { cwd: dir });
    expect(statSync(join(dir, 'state')).mode & 0o777).toBe(0o700);
  });

  it('generates the secret key once into the data directory with mode 0600 and reuses it', () => {
    const first = loadAppConfig({ SERVICE_DATA_DIR: 'state' }, { cwd: dir });
    const file = join(dir, 'state', 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretKey).toHaveLength(32);
    const second = loadAppConfig({ SERVICE_DATA_DIR: 'state' }, { cwd: dir });
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first.secretKey)).toBe(true);
  });

  it('accepts SERVICE_SECRET_KEY as base64 or hex and then writes no key file', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadAppConfig({ SERVICE_SECRET_KEY: key.toString('base64') }, { cwd: dir }).secretKey.equals(key)).toBe(true);
    expect(loadAppConfig({ SERVICE_SECRET_KEY: key.toString('hex') }, { cwd: dir }).secretKey.equals(key)).toBe(true);
    expect(() => statSync(join(dir, 'data', 'secret.key'))).toThrow();
  });

  it('requires SERVICE_SECRET_KEY with DATABASE_URL and uses PostgreSQL', () => {
    expect(() => loadAppConfig({ DATABASE_URL: 'postgres://db/app' }, { cwd: dir })).toThrow(/SERVICE_SECRET_KEY is required when DATABASE_URL is set/);
    const config = loadAppConfig({ DATABASE_URL: 'postgres://db/app', SERVICE_SECRET_KEY: Buffer.alloc(32).toString('base64') }, { cwd: dir });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://db/app' });
  });

  it('lists every invalid variable in one readable error', () => {
    let error: ConfigError | undefined;
    try {
      loadAppConfig({ SERVICE_PUBLIC_URL: 'localhost:3000', PORT: 'eighty', SERVICE_SECRET_KEY: 'short', SERVICE_BODY_LIMIT: 'lots', DATABASE_URL: 'mysql://x' }, { cwd: dir });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems.map((problem) => problem.split(' ')[0]).sort()).toEqual(['DATABASE_URL', 'PORT', 'SERVICE_BODY_LIMIT', 'SERVICE_PUBLIC_URL', 'SERVICE_SECRET_KEY']);
  });

  it('sets Secure cookies for an https public URL', () => {
    expect(loadAppConfig({ SERVICE_PUBLIC_URL: 'https://context.example.com/' }, { cwd: dir })).toMatchObject({ publicUrl: 'https://context.example.com', secureCookies: true });
  });

  it('reads the HTTP server timeouts, with defaults that let a large sync through on a slow link', () => {
    expect(loadAppConfig({}, { cwd: dir }).httpTimeouts).toEqual({ requestMs: 120_000, headersMs: 66_000, keepAliveMs: 65_000 });
    expect(loadAppConfig({ SERVICE_REQUEST_TIMEOUT: '5m', SERVICE_HEADERS_TIMEOUT: '10s', SERVICE_KEEP_ALIVE_TIMEOUT: '65s' }, { cwd: dir }).httpTimeouts).toEqual({
      requestMs: 300_000,
      headersMs: 10_000,
      keepAliveMs: 65_000,
    });
    expect(() => loadAppConfig({ SERVICE_REQUEST_TIMEOUT: '10s', SERVICE_HEADERS_TIMEOUT: '30s' }, { cwd: dir })).toThrow(/SERVICE_HEADERS_TIMEOUT must not be longer than SERVICE_REQUEST_TIMEOUT/);
  });

  it('refuses a corrupted key file instead of silently replacing it', () => {
    loadAppConfig({}, { cwd: dir });
    writeFileSync(join(dir, 'data', 'secret.key'), 'garbage');
    expect(() => loadAppConfig({}, { cwd: dir })).toThrow(/does not hold a 32-byte base64 key/);
  });
});
