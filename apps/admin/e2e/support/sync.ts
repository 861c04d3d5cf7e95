import { createHash } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import type { RunningServer } from './server';

/** A file of a sync bundle as the CLI sends it: path, text and the SHA-256 of its UTF-8 bytes. */
export function syncFile(path: string, content: string) {
  return { path, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/**
 * First-run setup of organization `acme` through the API with the browser's cookie jar, so the browser is signed
 * in as its owner; returns an API token with the sync scope, the kind CI pushes with.
 */
export async function setUpWithSyncToken(context: BrowserContext, server: RunningServer): Promise<string> {
  const setup = await context.request.post(`${server.baseUrl}/api/v1/setup`, {
    data: {
      token: new URL(server.setupUrl).searchParams.get('token'),
      organization: { id: 'acme', name: 'Acme' },
      owner: { email: 'owner@acme.test', name: 'Olga Owner' },
    },
  });
  expect(setup.status()).toBe(201);
  const adminToken = ((await setup.json()) as { apiToken: { token: string } }).apiToken.token;
  const created = await fetch(`${server.baseUrl}/api/v1/orgs/acme/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'CI', scopes: ['sync'] }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { token: string }).token;
}

/** Pushes a bundle exactly as service-cli sync does and expects it accepted. */
export async function pushBundle(server: RunningServer, syncToken: string, service: Record<string, string>, artifacts: unknown[]): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/v1/gateway/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${syncToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: 1, service, artifacts }),
  });
  expect({ status: response.status, body: response.ok ? 'ok' : await response.text() }).toMatchObject({ body: 'ok' });
}
