import type { CreatedEmbedLinkResponse } from '@sc/contracts';
import { COLD_WORKER_TIMEOUT, TOPOLOGY, bundle, postSync, sampleArtifacts, withContent } from '../artifacts/bundles';
import { call, createToken, sessionHeaders, type SeededOrganization, type SessionCredentials, type TestApp } from '../support';

export { COLD_WORKER_TIMEOUT };

/** The second revision's topology: one node more ("Billing"), so latest and pinned links draw different images. */
export const TOPOLOGY_V2 = `${TOPOLOGY}  api --> billing[Billing]\n`;

/** Syncs the sample service `orders` (its diagram `topology`) as revision 1, or with TOPOLOGY_V2 as the next one. */
export async function syncOrders(t: TestApp, org: SeededOrganization, { second = false } = {}): Promise<void> {
  const { token } = await createToken(t, org.owner, org.organizationId, { name: `ci-${Math.random().toString(36).slice(2, 8)}`, scopes: ['sync'] });
  const artifacts = second ? withContent(sampleArtifacts(), 'topology', TOPOLOGY_V2) : sampleArtifacts();
  const result = await postSync(t.baseUrl, token, bundle(artifacts));
  if (result.status !== 200 && result.status !== 201) throw new Error(`sync failed: ${result.status} ${JSON.stringify(result.body)}`);
}

/** POST /embed-links as `as`; the whole answer. */
export function createLink(t: TestApp, as: SessionCredentials, orgId: string, body: Record<string, unknown>) {
  return call<CreatedEmbedLinkResponse>(t.baseUrl, 'POST', `/api/v1/orgs/${orgId}/embed-links`, { headers: sessionHeaders(as), body });
}

/** A public GET without any credentials: status, headers and body text. */
export async function publicGet(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
