import { connect, type Socket } from 'node:net';
import { createTestApp, createToken, setupOrganization, type TestApp } from './support';

/**
 * Slow clients (issue 9 §3): unfinished headers or a body that never ends must not hold a connection for
 * Node's defaults (60 s for headers, 300 s for the request). The limits here are small so the test is quick;
 * Node's own defaults would keep every socket below open far beyond the deadline.
 */
const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1_000;
const KEEP_ALIVE_TIMEOUT_MS = 300;
/** Generous against the limits above, far below what the server held such sockets for before (60 s and 300 s). */
const DEADLINE_MS = 8_000;

interface Closed {
  /** Everything the server wrote before closing. */
  received: string;
}

/** Opens a raw connection, writes `chunks`, and resolves when the server closes it (rejects after `deadlineMs`). */
function holdOpen(baseUrl: string, chunks: string[], deadlineMs = DEADLINE_MS): Promise<Closed> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname, () => chunks.forEach((chunk) => socket.write(chunk)));
    let received = '';
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`The server kept the connection open for ${deadlineMs} ms; received: ${JSON.stringify(received)}`));
    }, deadlineMs);
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (received += data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve({ received });
    });
  });
}

describe('HTTP server timeouts (slow clients)', () => {
  let t: TestApp;
  let syncToken: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SERVICE_HEADERS_TIMEOUT: `${HEADERS_TIMEOUT_MS}ms`, SERVICE_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS}ms`, SERVICE_KEEP_ALIVE_TIMEOUT: `${KEEP_ALIVE_TIMEOUT_MS}ms` },
    });
    const org = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, org.owner, 'acme', { scopes: ['sync'] })).token;
  });
  afterAll(() => t?.close());

  it('closes a connection whose headers never finish with 408 (SERVICE_HEADERS_TIMEOUT)', async () => {
    const { received } = await holdOpen(t.baseUrl, ['GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ']);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a JSON request whose body never finishes (SERVICE_REQUEST_TIMEOUT)', async () => {
    const { received } = await holdOpen(t.baseUrl, [
      'POST /api/v1/setup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"token": "',
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a gateway sync whose body never finishes (the gateway reads its own body)', async () => {
    const { received } = await holdOpen(t.baseUrl, [
      `POST /api/v1/gateway/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${syncToken}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
      '{"version": 1, "service": {"name": "slow"}, "artifacts": [',
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after SERVICE_KEEP_ALIVE_TIMEOUT', async () => {
    // Node's default is 5 s, so this deadline also tells the configured value from the default.
    const { received } = await holdOpen(t.baseUrl, ['GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'], 3_000);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('keeps serving after dropping those clients', async () => {
    const response = await fetch(`${t.baseUrl}/api/v1/health`);
    expect(response.status).toBe(200);
  });
});
