import type { ErrorBody, GatewayInfo } from '@sc/contracts';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_VERSION } from '../../src/modules/cli-package/server-version';
import { call, useTestApp } from '../support';

const WORKSPACE = join(__dirname, '../../../..');
const PACKAGE_FILE = `service-cli-${SERVER_VERSION}.tgz`;
/** The name `curl -O` (and a browser, from Content-Disposition) saves /downloads/service-cli.tgz under. */
const SAVED_FILE = 'service-cli.tgz';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A cache's revalidation (If-None-Match), sent with node:http: fetch() adds `Cache-Control: no-cache` to
 * conditional requests, which asks the server for a full answer.
 */
function revalidate(url: string, etag: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'if-none-match': etag } }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: received }));
    }).on('error', reject);
  });
}

/**
 * The HTTP side of the CLI package: GET /downloads/service-cli.tgz (+ .sha256) and GET /api/v1/gateway/info. The
 * file here is arbitrary bytes under the package's name; packed-cli.spec.ts serves and installs the real package.
 */
describe('CLI package downloads and the version handshake', () => {
  it('gives the repository, the server and the CLI one version (the server serves the package of its own version)', () => {
    const version = (path: string) => (JSON.parse(readFileSync(join(WORKSPACE, path), 'utf8')) as { version: string }).version;
    expect(SERVER_VERSION).toBe(version('package.json'));
    expect(version('apps/cli/package.json')).toBe(SERVER_VERSION);
  });

  describe('when the package was built', () => {
    let packageDir: string;
    let adminDir: string;
    let bytes: Buffer;

    beforeAll(() => {
      packageDir = mkdtempSync(join(tmpdir(), 'sc-cli-package-'));
      bytes = randomBytes(64 * 1024);
      writeFileSync(join(packageDir, PACKAGE_FILE), bytes);
      // With the admin app served, its catch-all for client-side routes must leave the downloads alone.
      adminDir = mkdtempSync(join(tmpdir(), 'sc-admin-'));
      writeFileSync(join(adminDir, 'index.html'), '<!doctype html><title>admin</title>');
    });
    const t = useTestApp(() => ({ env: { SERVICE_CLI_PACKAGE_DIR: packageDir, SERVICE_ADMIN_DIR: adminDir } }));
    afterAll(() => {
      rmSync(packageDir, { recursive: true, force: true });
      rmSync(adminDir, { recursive: true, force: true });
    });

    it('serves the tarball without authentication, with a strong ETag (its SHA-256) and revalidate-always caching', async () => {
      const response = await fetch(`${t.baseUrl}/downloads/service-cli.tgz`);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      expect(response.headers.get('content-type')).toBe('application/gzip');
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(response.headers.get('etag')).toBe(`"sha256-${sha256(bytes)}"`);
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
      expect(response.headers.get('last-modified')).toBeTruthy();
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${SAVED_FILE}"`);

      const head = await fetch(`${t.baseUrl}/downloads/service-cli.tgz`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(`"sha256-${sha256(bytes)}"`);
    });

    it('answers a revalidation of the same package with 304 and no body', async () => {
      const etag = `"sha256-${sha256(bytes)}"`;
      expect(await revalidate(`${t.baseUrl}/downloads/service-cli.tgz`, etag)).toEqual({ status: 304, bytes: 0 });
      expect(await revalidate(`${t.baseUrl}/downloads/service-cli.tgz`, '"sha256-0000"')).toEqual({ status: 200, bytes: bytes.length });
    });

    it('serves the SHA-256 as `sha256sum -c` reads it', async () => {
      const response = await fetch(`${t.baseUrl}/downloads/service-cli.tgz.sha256`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe(`${sha256(bytes)}  ${SAVED_FILE}\n`);
      expect(await revalidate(`${t.baseUrl}/downloads/service-cli.tgz.sha256`, response.headers.get('etag') ?? '')).toEqual({ status: 304, bytes: 0 });
    });

    it('checks with `curl -o service-cli.tgz … && sha256sum -c`, as the README installs it', async () => {
      const work = mkdtempSync(join(tmpdir(), 'sc-cli-download-'));
      try {
        writeFileSync(join(work, 'service-cli.tgz'), Buffer.from(await (await fetch(`${t.baseUrl}/downloads/service-cli.tgz`)).arrayBuffer()));
        writeFileSync(join(work, 'service-cli.tgz.sha256'), await (await fetch(`${t.baseUrl}/downloads/service-cli.tgz.sha256`)).text());
        expect(execFileSync('sha256sum', ['-c', 'service-cli.tgz.sha256'], { cwd: work, encoding: 'utf8' })).toBe('service-cli.tgz: OK\n');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });

    it('answers the handshake without authentication: API version, versions and the package with the public URL', async () => {
      const info = await call<GatewayInfo>(t.baseUrl, 'GET', '/api/v1/gateway/info');
      expect(info.status).toBe(200);
      expect(info.body).toEqual({
        apiVersion: 1,
        serverVersion: SERVER_VERSION,
        minCliVersion: '0.1.0',
        cliPackage: { version: SERVER_VERSION, url: `${t.config.publicUrl}/downloads/service-cli.tgz`, sha256: sha256(bytes) },
      });
    });

    it('serves a package rebuilt while the server runs, with its new hash', async () => {
      const rebuilt = randomBytes(32 * 1024);
      writeFileSync(join(packageDir, PACKAGE_FILE), rebuilt);
      try {
        const response = await fetch(`${t.baseUrl}/downloads/service-cli.tgz`);
        expect(Buffer.from(await response.arrayBuffer()).equals(rebuilt)).toBe(true);
        expect(response.headers.get('etag')).toBe(`"sha256-${sha256(rebuilt)}"`);
        expect(await (await fetch(`${t.baseUrl}/downloads/service-cli.tgz.sha256`)).text()).toBe(`${sha256(rebuilt)}  ${SAVED_FILE}\n`);
      } finally {
        writeFileSync(join(packageDir, PACKAGE_FILE), bytes);
      }
    });
  });

  describe('when the package was not built', () => {
    let emptyDir: string;

    beforeAll(() => {
      emptyDir = mkdtempSync(join(tmpdir(), 'sc-cli-package-'));
    });
    const t = useTestApp(() => ({ env: { SERVICE_CLI_PACKAGE_DIR: emptyDir, SERVICE_CLI_MIN_VERSION: '0.3.0' } }));
    afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

    it.each(['/downloads/service-cli.tgz', '/downloads/service-cli.tgz.sha256'])('answers %s with 404 and a sentence saying how to build it', async (path) => {
      const response = await call<ErrorBody>(t.baseUrl, 'GET', path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('cli_package_not_built');
      expect(response.body.error.message).toBe(
        `The service-cli ${SERVER_VERSION} package was not built on this server: run \`npm run pack:cli\` where the server runs (it writes ${join(emptyDir, PACKAGE_FILE)}), or set SERVICE_CLI_PACKAGE_DIR to the directory holding it.`,
      );
    });

    it('says so in the handshake, with the minimum CLI version the operator set', async () => {
      const info = await call<GatewayInfo>(t.baseUrl, 'GET', '/api/v1/gateway/info');
      expect(info.body).toEqual({ apiVersion: 1, serverVersion: SERVER_VERSION, minCliVersion: '0.3.0', cliPackage: null });
    });
  });
});
