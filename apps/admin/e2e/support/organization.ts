import type { BrowserContext } from 'playwright-core';
import type { RunningServer } from './server';

/**
 * First-run setup through the API with the browser context's cookie jar (so its pages are signed in as the owner of
 * organization `acme`), then an API token with the sync scope, as the dashboard tells people to create for CI.
 * Returns that token.
 */
export async function setUpOrganization(server: RunningServer, context: BrowserContext): Promise<string> {
  const setup = await context.request.post(`${server.baseUrl}/api/v1/setup`, {
    data: {
      token: new URL(server.setupUrl).searchParams.get('token'),
      organization: { id: 'acme', name: 'Acme' },
      owner: { email: 'owner@acme.test', name: 'Olga Owner' },
    },
  });
  if (setup.status() !== 201) throw new Error(`setup answered ${setup.status()}: ${await setup.text()}`);
  const adminToken = ((await setup.json()) as { apiToken: { token: string } }).apiToken.token;
  const created = await fetch(`${server.baseUrl}/api/v1/orgs/acme/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'CI', scopes: ['sync'] }),
  });
  if (created.status !== 201) throw new Error(`creating the sync token answered ${created.status}: ${await created.text()}`);
  return ((await created.json()) as { token: string }).token;
}

/** Pushes a bundle exactly as service-cli sync does; resolves to the gateway's status and, on failure, its body. */
export async function pushBundle(server: RunningServer, syncToken: string, bundle: unknown): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.baseUrl}/api/v1/gateway/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${syncToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(bundle),
  });
  return { status: response.status, body: response.ok ? 'ok' : await response.text() };
}
