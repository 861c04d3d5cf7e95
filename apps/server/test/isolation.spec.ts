import type { ErrorBody } from '@sc/contracts';
import { randomUUID } from 'node:crypto';
import { call, createOrganization, listRoutes, expressRoutes, sessionHeaders, type RouteInfo, type SeededOrganization, useSeededApp } from './support';

/**
 * Organization isolation: a session and an API token of organization A must get 404 organization_not_found
 * on every route of organization B. The route list comes from Nest's metadata, so a route added later
 * is covered without editing this test.
 */
describe('organization isolation', () => {
  const { t, org: orgA } = useSeededApp({ orgId: 'org-a' });
  let orgB: SeededOrganization;
  let orgRoutes: RouteInfo[];
  /** Real ids per route parameter and organization, so a refusal is about the organization, not a missing record. */
  const realIds: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    orgB = await createOrganization(t, orgA, { orgId: 'org-b' });
    orgRoutes = listRoutes(t.app).filter((route) => route.path.includes(':orgId'));
    for (const org of [orgA, orgB]) {
      const draft = await call<{ id: string }>(t.baseUrl, 'POST', `/api/v1/orgs/${org.organizationId}/drafts`, { headers: sessionHeaders(org.owner), body: { name: 'isolation' } });
      realIds[org.organizationId] = { draftId: draft.body.id };
    }
  });

  it('finds every organization route Express serves, including the core ones', () => {
    const fromMetadata = orgRoutes.map((route) => `${route.method} ${route.path}`).sort();
    const fromExpress = expressRoutes(t.app).filter((route) => route.includes(':orgId')).sort();
    expect(fromMetadata).toEqual(fromExpress);
    expect(fromMetadata).toEqual(
      expect.arrayContaining([
        'GET /api/v1/orgs/:orgId',
        'GET /api/v1/orgs/:orgId/members',
        'POST /api/v1/orgs/:orgId/members',
        'PATCH /api/v1/orgs/:orgId/members/:userId',
        'DELETE /api/v1/orgs/:orgId/members/:userId',
        'POST /api/v1/orgs/:orgId/members/:userId/sign-in-link',
        'GET /api/v1/orgs/:orgId/tokens',
        'POST /api/v1/orgs/:orgId/tokens',
        'DELETE /api/v1/orgs/:orgId/tokens/:tokenId',
        'GET /api/v1/orgs/:orgId/members/:userId/tokens',
        'GET /api/v1/orgs/:orgId/audit',
        'GET /api/v1/orgs/:orgId/audit/export',
        'GET /api/v1/orgs/:orgId/services',
        'DELETE /api/v1/orgs/:orgId/services/:service',
        'GET /api/v1/orgs/:orgId/search',
        'GET /api/v1/orgs/:orgId/search/where-used',
        'GET /api/v1/orgs/:orgId/scim-tokens',
        'POST /api/v1/orgs/:orgId/scim-tokens',
        'DELETE /api/v1/orgs/:orgId/scim-tokens/:tokenId',
        'GET /api/v1/orgs/:orgId/scim-config',
        'GET /api/v1/orgs/:orgId/domains',
        'POST /api/v1/orgs/:orgId/domains',
        'POST /api/v1/orgs/:orgId/domains/:domainId/verify',
        'DELETE /api/v1/orgs/:orgId/domains/:domainId',
        'GET /api/v1/orgs/:orgId/embed-links',
        'POST /api/v1/orgs/:orgId/embed-links',
        'DELETE /api/v1/orgs/:orgId/embed-links/:linkId',
      ]),
    );
  });

  it('declares an access rule on every route of the application (the guard refuses routes without one)', () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(orgRoutes.length);
    expect(routes.filter((route) => !route.access).map((route) => `${route.method} ${route.path} (${route.handler})`)).toEqual([]);
  });

  it('declares @OrgAccess on every route with :orgId', () => {
    const unguarded = orgRoutes.filter((route) => route.access?.kind !== 'org').map((route) => `${route.method} ${route.path} (${route.handler})`);
    expect(unguarded).toEqual([]);
  });

  it("refuses an org-A owner session on every org-B route with 404, and the same route works for org B's owner", async () => {
    const failures: string[] = [];
    for (const route of orgRoutes) {
      const path = fillPath(route.path, orgB.organizationId, realIds[orgB.organizationId]);
      const response = await call<ErrorBody>(t.baseUrl, route.method, path, { headers: sessionHeaders(orgA.owner), body: bodyFor(route) });
      if (response.status !== 404 || response.body.error?.code !== 'organization_not_found') failures.push(`${route.method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses an org-A admin token on every org-B route with 404', async () => {
    const failures: string[] = [];
    for (const route of orgRoutes) {
      const path = fillPath(route.path, orgB.organizationId, realIds[orgB.organizationId]);
      const response = await call<ErrorBody>(t.baseUrl, route.method, path, { headers: { authorization: `Bearer ${orgA.adminToken}` }, body: bodyFor(route) });
      if (response.status !== 404 || response.body.error?.code !== 'organization_not_found') failures.push(`${route.method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it("does not find org A's draft from inside org B on any draft route (session or token), and leaves it untouched", async () => {
    const draftRoutes = orgRoutes.filter((route) => route.path.includes(':draftId'));
    expect(draftRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'DELETE /api/v1/orgs/:orgId/drafts/:draftId',
      'GET /api/v1/orgs/:orgId/drafts/:draftId',
      'GET /api/v1/orgs/:orgId/drafts/:draftId/export',
      'PUT /api/v1/orgs/:orgId/drafts/:draftId',
    ]);
    const failures: string[] = [];
    for (const headers of [sessionHeaders(orgB.owner), { authorization: `Bearer ${orgB.adminToken}` }]) {
      for (const route of draftRoutes) {
        const path = fillPath(route.path, orgB.organizationId, realIds[orgA.organizationId]);
        const body = route.method === 'PUT' ? { name: 'taken', graph: { kind: 'flowchart', nodes: [], edges: [], groups: [] }, layout: { nodes: [], groups: [] } } : undefined;
        const response = await call<ErrorBody>(t.baseUrl, route.method, path, { headers: { ...headers, 'if-match': '"1"' }, body });
        if (response.status !== 404 || response.body.error?.code !== 'draft_not_found') failures.push(`${route.method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
    expect(failures).toEqual([]);
    const own = await call<{ version: number; name: string }>(t.baseUrl, 'GET', `/api/v1/orgs/${orgA.organizationId}/drafts/${realIds[orgA.organizationId].draftId}`, { headers: sessionHeaders(orgA.owner) });
    expect(own.body).toMatchObject({ version: 1, name: 'isolation' });
  });

  it("refuses org A's SCIM token, session and API token on every SCIM route of org B (404 for the token, 401 for the others)", async () => {
    // SCIM routes are served outside /api/v1 and authenticate with SCIM tokens only (modules/scim).
    const scimRoutes = listRoutes(t.app)
      .filter((route) => route.path.includes('/scim/v2/orgs/:organizationId'))
      .map((route) => ({ method: route.method, path: route.path }));
    expect(scimRoutes.length).toBeGreaterThanOrEqual(17);
    const created = await call<{ token: string }>(t.baseUrl, 'POST', `/api/v1/orgs/${orgA.organizationId}/scim-tokens`, { headers: sessionHeaders(orgA.owner), body: { name: 'isolation' } });
    const failures: string[] = [];
    for (const route of scimRoutes) {
      const path = route.path.replace(':organizationId', orgB.organizationId).replace(/:([A-Za-z]+)/g, () => randomUUID());
      const body = bodyFor(route as RouteInfo);
      const asToken = await call<{ status?: string }>(t.baseUrl, route.method, path, { headers: { authorization: `Bearer ${created.body.token}` }, body });
      if (asToken.status !== 404 || asToken.body.status !== '404') failures.push(`SCIM token: ${route.method} ${path} → ${asToken.status}`);
      for (const [who, headers] of [['session', sessionHeaders(orgA.owner)], ['API token', { authorization: `Bearer ${orgA.adminToken}` }]] as const) {
        const response = await call(t.baseUrl, route.method, path, { headers, body });
        if (response.status !== 401) failures.push(`${who}: ${route.method} ${path} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers the same for an organization that does not exist (no probing)', async () => {
    const foreign = await call<ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/${orgB.organizationId}`, { headers: sessionHeaders(orgA.owner) });
    const missing = await call<ErrorBody>(t.baseUrl, 'GET', '/api/v1/orgs/no-such-org', { headers: sessionHeaders(orgA.owner) });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.code).toBe(missing.body.error.code);
    expect(foreign.body.error.message.replace(orgB.organizationId, 'X')).toBe(missing.body.error.message.replace('no-such-org', 'X'));
  });

  it("never shows org B's audit entries to org A, in the log or the download", async () => {
    const marker = `isolated-${randomUUID()}@org-b.example`;
    expect((await call(t.baseUrl, 'POST', `/api/v1/orgs/${orgB.organizationId}/members`, { headers: sessionHeaders(orgB.owner), body: { email: marker, role: 'viewer' } })).status).toBe(201);
    const own = await call<Array<{ target: { label: string } }>>(t.baseUrl, 'GET', `/api/v1/orgs/${orgB.organizationId}/audit?target=${marker}`, { headers: sessionHeaders(orgB.owner) });
    expect(own.body.map((entry) => entry.target.label)).toEqual([marker]);

    const page = await call(t.baseUrl, 'GET', `/api/v1/orgs/${orgA.organizationId}/audit?limit=100`, { headers: sessionHeaders(orgA.owner) });
    const download = await call(t.baseUrl, 'GET', `/api/v1/orgs/${orgA.organizationId}/audit/export`, { headers: { authorization: `Bearer ${orgA.adminToken}` } });
    expect(page.status).toBe(200);
    expect(download.status).toBe(200);
    for (const text of [JSON.stringify(page.body), String(download.body)]) {
      expect(text).not.toContain(marker);
      expect(text).not.toContain(orgB.ownerUserId);
    }
  });

  it('still lets org B reach its own routes (the refusals above are about the organization)', async () => {
    const own = await call(t.baseUrl, 'GET', `/api/v1/orgs/${orgB.organizationId}/members`, { headers: sessionHeaders(orgB.owner) });
    expect(own.status).toBe(200);
  });
});

/** Fills :orgId with the target and any other parameter with a real id when one is given, else a syntactically valid one. */
function fillPath(path: string, orgId: string, ids: Record<string, string> = {}): string {
  return path.replace(':orgId', orgId).replace(/:([A-Za-z]+)/g, (_, name: string) => ids[name] ?? randomUUID());
}

/** A plausible body so validation could not be what refuses the call. */
function bodyFor(route: RouteInfo): unknown {
  return ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
}
