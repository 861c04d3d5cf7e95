import type { ApiTokenResponse, AuditPage, MemberResponse, ServiceListItem, ServiceRevisionItem } from '@sc/contracts';
import { MAX_PAGE_LIMIT, nextCursorFromLink } from '@sc/contracts';
import { bundle, postSync, syncFile } from './artifacts/bundles';
import { addMember, bearer, call, createToken, setupOrganization, type SeededOrganization, type TestApp, createTestApp } from './support';

/**
 * Paging of the lists that grow without bound (issue 15): services, revisions, members, API tokens (and the
 * audit log, paged by its own `{items, nextCursor}` body). A walk along the Link rel="next" headers returns every
 * item once, in order; `limit` is bounded; a cursor the server did not hand out is a 400 with a clear code.
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
describe('paged lists', () => {
  let t: TestApp;
  let acme: SeededOrganization;
  const COUNT = 7;

  /** Follows the Link rel="next" headers from `path` with `limit`; returns every page's items. */
  async function walk<T>(path: string, limit: number, param = 'cursor'): Promise<T[][]> {
    const pages: T[][] = [];
    let next: string | null = `${path}?limit=${limit}`;
    while (next !== null && pages.length < 50) {
      const response = await call<T[]>(t.baseUrl, 'GET', next, { headers: bearer(acme.adminToken) });
      expect(response.status).toBe(200);
      pages.push(response.body);
      const link = response.headers.get('link');
      const cursor = nextCursorFromLink(link, param);
      // The link is the request's own path with the cursor and the same limit.
      if (link) expect(link).toContain(`<${path}?`);
      next = cursor === null ? null : `${path}?${param}=${encodeURIComponent(cursor)}&limit=${limit}`;
    }
    return pages;
  }

  const expectWalk = <T>(pages: T[][], all: T[], limit: number) => {
    expect(pages.flat()).toEqual(all);
    expect(pages.every((page) => page.length <= limit)).toBe(true);
    expect(pages.length).toBe(Math.ceil(all.length / limit));
  };

  beforeAll(async () => {
    t = await createTestApp();
    acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    for (let index = 0; index < COUNT; index++) {
      await addMember(t, acme.owner, 'acme', { email: `member-${index}@acme.example`, role: 'viewer' });
      await createToken(t, acme.owner, 'acme', { name: `token-${index}`, scopes: ['read'] });
      const sync = await postSync(t.baseUrl, syncToken, bundle([{ kind: 'doc', name: 'readme', file: syncFile('README.md', `# ${index}\n`) }], `service-${String.fromCharCode(103 - index)}`));
      expect(sync.status).toBe(201);
      // Revisions of one service.
      expect((await postSync(t.baseUrl, syncToken, bundle([{ kind: 'doc', name: 'readme', file: syncFile('README.md', `# revision ${index}\n`) }], 'history'))).status).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('walks the services by name, each once', async () => {
    const all = (await call<ServiceListItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services', { headers: bearer(acme.adminToken) })).body.map((service) => service.name);
    expect(all).toHaveLength(COUNT + 1);
    expect(all).toEqual([...all].sort());
    for (const limit of [1, 3, COUNT + 1]) expectWalk((await walk<ServiceListItem>('/api/v1/orgs/acme/services', limit)).map((page) => page.map((service) => service.name)), all, limit);
  });

  it('walks the members oldest first and the API tokens newest first, each once', async () => {
    const members = (await call<MemberResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/members', { headers: bearer(acme.adminToken) })).body.map((member) => member.userId);
    expect(members).toHaveLength(COUNT + 1);
    expectWalk((await walk<MemberResponse>('/api/v1/orgs/acme/members', 3)).map((page) => page.map((member) => member.userId)), members, 3);

    const tokens = (await call<ApiTokenResponse[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/tokens', { headers: bearer(acme.adminToken) })).body;
    // setup's admin token, the sync token and COUNT read tokens.
    expect(tokens).toHaveLength(COUNT + 2);
    expect(tokens.map((token) => token.createdAt)).toEqual([...tokens.map((token) => token.createdAt)].sort().reverse());
    expectWalk((await walk<ApiTokenResponse>('/api/v1/orgs/acme/tokens', 2)).map((page) => page.map((token) => token.id)), tokens.map((token) => token.id), 2);
  });

  it('walks the revisions newest first with the same Link header (cursor `before`)', async () => {
    const pages = await walk<ServiceRevisionItem>('/api/v1/orgs/acme/services/history/revisions', 3, 'before');
    expectWalk(pages.map((page) => page.map((revision) => revision.number)), [7, 6, 5, 4, 3, 2, 1], 3);
  });

  it('walks the audit log by its nextCursor, each entry once', async () => {
    const all = (await call<AuditPage>(t.baseUrl, 'GET', '/api/v1/orgs/acme/audit?limit=200', { headers: bearer(acme.adminToken) })).body.items.map((entry) => entry.id);
    expect(all.length).toBeGreaterThan(2 * COUNT);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=4' : `limit=4&before=${cursor}`;
      const page = await call<AuditPage>(t.baseUrl, 'GET', `/api/v1/orgs/acme/audit?${query}`, { headers: bearer(acme.adminToken) });
      expect(page.body.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.body.items.map((entry) => entry.id));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all);
  });

  it(`bounds limit to 1–${MAX_PAGE_LIMIT} on every paged list`, async () => {
    for (const path of ['/api/v1/orgs/acme/services', '/api/v1/orgs/acme/members', '/api/v1/orgs/acme/tokens', '/api/v1/orgs/acme/services/history/revisions']) {
      for (const limit of ['0', String(MAX_PAGE_LIMIT + 1), 'ten', '-1', '2.5']) {
        const refused = await call<{ error: { code: string; details: Array<{ path: string }> } }>(t.baseUrl, 'GET', `${path}?limit=${limit}`, { headers: bearer(acme.adminToken) });
        expect([path, limit, refused.status, refused.body.error.code]).toEqual([path, limit, 400, 'validation_failed']);
        expect(refused.body.error.details.map((detail) => detail.path)).toContain('limit');
      }
      const largest = await call<unknown[]>(t.baseUrl, 'GET', `${path}?limit=${MAX_PAGE_LIMIT}`, { headers: bearer(acme.adminToken) });
      expect(largest.status).toBe(200);
      expect(largest.headers.get('link')).toBeNull();
    }
  });

  it('answers a cursor it did not hand out with 400 invalid_cursor', async () => {
    const forged = Buffer.from(JSON.stringify(['not-a-date', 'x'])).toString('base64url');
    for (const path of ['/api/v1/orgs/acme/services', '/api/v1/orgs/acme/members', '/api/v1/orgs/acme/tokens']) {
      for (const cursor of ['%%%', 'bm90LWpzb24', forged, Buffer.from('[1,2,3]').toString('base64url')]) {
        if (path.endsWith('/services') && cursor === forged) continue; // a (name) cursor: any one string is a position
        const refused = await call<{ error: { code: string; message: string; details: Array<{ path: string }> } }>(t.baseUrl, 'GET', `${path}?cursor=${cursor}`, { headers: bearer(acme.adminToken) });
        expect([path, cursor, refused.status, refused.body.error.code]).toEqual([path, cursor, 400, 'invalid_cursor']);
        expect(refused.body.error.message).toMatch(/cursor/);
        expect(refused.body.error.details[0]?.path).toBe('cursor');
      }
    }
    const revisions = await call<{ error: { code: string } }>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/history/revisions?before=abc', { headers: bearer(acme.adminToken) });
    expect([revisions.status, revisions.body.error.code]).toEqual([400, 'validation_failed']);
  });
});
