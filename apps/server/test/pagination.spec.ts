import type { ApiTokenResponse, AuditEntry, DraftSummary, EmbedLinkResponse, ErrorBody, MemberResponse, ServiceListItem, ServiceRevisionItem, SsoAuditEntry } from '@sc/contracts';
import { MAX_PAGE_LIMIT, nextCursorFromLink } from '@sc/contracts';
import { SsoAuditService } from '../src/modules/sso/sso-audit.service';
import { bundle, postSync, syncFile } from './artifacts/bundles';
import { addMember, bearer, call, createToken, setupOrganization, type JsonResponse, type SeededOrganization, useTestApp } from './support';

/**
 * The one paging contract of every list (libs/contracts list-page.ts): the body is the page's items, a
 * `Link: <…>; rel="next"` header names the next page (absent on the last), `?limit=` is 1–100 (anything else 400
 * `validation_failed`, never clamped), and a cursor the list did not hand out is 400 `invalid_cursor`.
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
describe('paged lists', () => {
  const t = useTestApp();
  let acme: SeededOrganization;
  const COUNT = 7;

  interface Walked<T> {
    pages: T[][];
    links: Array<string | null>;
  }

  /** Follows the Link rel="next" headers from `path?query` (with `limit`) as given; every page's items and Link header. */
  async function walk<T>(path: string, limit: number, query = ''): Promise<Walked<T>> {
    const walked: Walked<T> = { pages: [], links: [] };
    let next: string | null = `${path}?${query}${query ? '&' : ''}limit=${limit}`;
    while (next !== null && walked.pages.length < 50) {
      const response: JsonResponse<T[]> = await call<T[]>(t.baseUrl, 'GET', next, { headers: bearer(acme.adminToken) });
      expect([next, response.status]).toEqual([next, 200]);
      walked.pages.push(response.body);
      const link: string | null = response.headers.get('link');
      walked.links.push(link);
      next = link === null ? null : link.slice(1, link.indexOf('>'));
    }
    return walked;
  }

  /** Every item once and in order, full pages but the last, no Link on the last page, each link the request's own path and query. */
  function expectWalk<T, K>(walked: Walked<T>, all: K[], limit: number, keyOf: (item: T) => K, path: string, query = ''): void {
    expect(walked.pages.flat().map(keyOf)).toEqual(all);
    expect(walked.pages.length).toBe(Math.ceil(all.length / limit));
    expect(walked.pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    expect(walked.links[walked.links.length - 1]).toBeNull();
    for (const link of walked.links.slice(0, -1)) {
      expect(link).toMatch(new RegExp(`^<${path.replace(/[/?]/g, '\\$&')}\\?${query ? `${query}&` : ''}limit=${limit}&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
    }
  }

  const get = async <T>(path: string) => (await call<T>(t.baseUrl, 'GET', path, { headers: bearer(acme.adminToken) })).body;

  const LISTS = [
    '/api/v1/orgs/acme/services',
    '/api/v1/orgs/acme/services/history/revisions',
    '/api/v1/orgs/acme/members',
    '/api/v1/orgs/acme/tokens',
    '/api/v1/orgs/acme/embed-links',
    '/api/v1/orgs/acme/drafts',
    '/api/v1/orgs/acme/audit',
    '/api/v1/orgs/acme/sso/audit',
  ];

  beforeAll(async () => {
    acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    const ssoAudit = t.app.get(SsoAuditService);
    for (let index = 0; index < COUNT; index++) {
      await addMember(t, acme.owner, 'acme', { email: `member-${index}@acme.example`, role: 'viewer' });
      await createToken(t, acme.owner, 'acme', { name: `token-${index}`, scopes: ['read'] });
      const sync = await postSync(t.baseUrl, syncToken, bundle([{ kind: 'doc', name: 'readme', file: syncFile('README.md', `# ${index}\n`) }], `service-${String.fromCharCode(103 - index)}`));
      expect(sync.status).toBe(201);
      // Revisions of one service.
      expect((await postSync(t.baseUrl, syncToken, bundle([{ kind: 'doc', name: 'readme', file: syncFile('README.md', `# revision ${index}\n`) }], 'history'))).status).toBe(201);
      const draft = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/drafts', { headers: bearer(acme.adminToken), body: { name: `draft ${index}` } });
      expect(draft.status).toBe(201);
      const link = await call(t.baseUrl, 'POST', '/api/v1/orgs/acme/embed-links', { headers: bearer(acme.adminToken), body: { service: 'history' } });
      expect(link.status).toBe(201);
      await ssoAudit.record({ organizationId: 'acme', providerId: null, providerSlug: index % 2 ? 'corp' : 'lab', test: true, errorCode: index % 2 ? 'no_email' : null, message: `attempt ${index}`, client: { ipAddress: null, userAgent: null } });
      // Entries at the same instant must still page exactly: the id breaks the tie. Every other one moves the clock.
      if (index % 2) t.clock.advance(1000);
    }
  });

  it('walks the services by name, each once', async () => {
    const path = '/api/v1/orgs/acme/services';
    const all = (await get<ServiceListItem[]>(path)).map((service) => service.name);
    expect(all).toHaveLength(COUNT + 1);
    expect(all).toEqual([...all].sort());
    for (const limit of [1, 3, COUNT + 1]) expectWalk(await walk<ServiceListItem>(path, limit), all, limit, (service) => service.name, path);
  });

  it('walks the revisions newest first', async () => {
    const path = '/api/v1/orgs/acme/services/history/revisions';
    expectWalk(await walk<ServiceRevisionItem>(path, 3), [7, 6, 5, 4, 3, 2, 1], 3, (revision) => revision.number, path);
  });

  it('walks the members oldest first and the API tokens newest first, each once', async () => {
    const members = (await get<MemberResponse[]>('/api/v1/orgs/acme/members')).map((member) => member.userId);
    expect(members).toHaveLength(COUNT + 1);
    expectWalk(await walk<MemberResponse>('/api/v1/orgs/acme/members', 3), members, 3, (member) => member.userId, '/api/v1/orgs/acme/members');

    const tokens = await get<ApiTokenResponse[]>('/api/v1/orgs/acme/tokens');
    // setup's admin token, the sync token and COUNT read tokens.
    expect(tokens).toHaveLength(COUNT + 2);
    expect(tokens.map((token) => token.createdAt)).toEqual([...tokens.map((token) => token.createdAt)].sort().reverse());
    expectWalk(await walk<ApiTokenResponse>('/api/v1/orgs/acme/tokens', 2), tokens.map((token) => token.id), 2, (token) => token.id, '/api/v1/orgs/acme/tokens');
  });

  it('walks the drafts (latest change first) and the embed links (newest first, filtered), each once', async () => {
    const drafts = (await get<DraftSummary[]>('/api/v1/orgs/acme/drafts')).map((draft) => draft.id);
    expect(drafts).toHaveLength(COUNT);
    expectWalk(await walk<DraftSummary>('/api/v1/orgs/acme/drafts', 2), drafts, 2, (draft) => draft.id, '/api/v1/orgs/acme/drafts');

    const links = (await get<EmbedLinkResponse[]>('/api/v1/orgs/acme/embed-links?service=history')).map((link) => link.id);
    expect(links).toHaveLength(COUNT);
    expectWalk(await walk<EmbedLinkResponse>('/api/v1/orgs/acme/embed-links', 3, 'service=history'), links, 3, (link) => link.id, '/api/v1/orgs/acme/embed-links', 'service=history');
  });

  it('walks the audit log and the SSO audit log newest first, the Link keeping the filters', async () => {
    const audit = (await get<AuditEntry[]>('/api/v1/orgs/acme/audit?action=member.added')).map((entry) => entry.id);
    expect(audit).toHaveLength(COUNT + 1);
    expectWalk(await walk<AuditEntry>('/api/v1/orgs/acme/audit', 3, 'action=member.added'), audit, 3, (entry) => entry.id, '/api/v1/orgs/acme/audit', 'action=member.added');

    // Pairs of attempts share an instant (their order within the pair is the ids'): the pairs come newest first.
    const attempts = (await get<SsoAuditEntry[]>('/api/v1/orgs/acme/sso/audit')).map((entry) => entry.message);
    expect(attempts.map((message) => Math.floor(Number(message.split(' ')[1]) / 2))).toEqual([3, 2, 2, 1, 1, 0, 0]);
    expectWalk(await walk<SsoAuditEntry>('/api/v1/orgs/acme/sso/audit', 2), attempts, 2, (entry) => entry.message, '/api/v1/orgs/acme/sso/audit');
    const failures = await walk<SsoAuditEntry>('/api/v1/orgs/acme/sso/audit', 1, 'outcome=failure');
    expectWalk(failures, ['attempt 5', 'attempt 3', 'attempt 1'], 1, (entry) => entry.message, '/api/v1/orgs/acme/sso/audit', 'outcome=failure');
  });

  it(`refuses a limit outside 1–${MAX_PAGE_LIMIT} on every list with 400 validation_failed naming limit (never clamped)`, async () => {
    for (const path of LISTS) {
      for (const limit of ['0', String(MAX_PAGE_LIMIT + 1), '200', 'ten', '-1', '2.5']) {
        const refused = await call<ErrorBody>(t.baseUrl, 'GET', `${path}?limit=${limit}`, { headers: bearer(acme.adminToken) });
        expect([path, limit, refused.status, refused.body.error.code]).toEqual([path, limit, 400, 'validation_failed']);
        expect(refused.body.error.details.map((detail) => detail.path)).toContain('limit');
      }
      const largest = await call<unknown[]>(t.baseUrl, 'GET', `${path}?limit=${MAX_PAGE_LIMIT}`, { headers: bearer(acme.adminToken) });
      expect([path, largest.status, largest.headers.get('link')]).toEqual([path, 200, null]);
    }
  });

  it('answers a cursor the list did not hand out with 400 invalid_cursor naming cursor, on every list', async () => {
    const encoded = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    const malformed = ['%25%25%25', 'bm90LWpzb24', encoded([1, 2, 3]), encoded({ at: 'x' }), encoded(['not-a-date', 'x']), encoded(['']), 'A'.repeat(600)];
    for (const path of LISTS) {
      for (const cursor of malformed) {
        const refused = await call<ErrorBody>(t.baseUrl, 'GET', `${path}?cursor=${cursor}`, { headers: bearer(acme.adminToken) });
        // A cursor longer than any the server hands out is refused by the query's own rule (validation_failed).
        const code = cursor.length > 512 ? 'validation_failed' : 'invalid_cursor';
        expect([path, cursor, refused.status, refused.body.error.code]).toEqual([path, cursor, 400, code]);
        expect(refused.body.error.details[0]?.path).toBe('cursor');
        if (code === 'invalid_cursor') expect(refused.body.error.message).toMatch(/"cursor" is not one this list handed out/);
      }
    }
  });

  it('hands out a cursor only its own list reads: a services cursor is refused by the members list', async () => {
    const first = await call<ServiceListItem[]>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services?limit=1', { headers: bearer(acme.adminToken) });
    const cursor = nextCursorFromLink(first.headers.get('link'));
    expect(cursor).not.toBeNull();
    const refused = await call<ErrorBody>(t.baseUrl, 'GET', `/api/v1/orgs/acme/members?cursor=${cursor}`, { headers: bearer(acme.adminToken) });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_cursor']);
  });

  it('refuses the retired paging parameters by name (offset of drafts, before of revisions and audit logs)', async () => {
    for (const [path, parameter] of [
      ['/api/v1/orgs/acme/drafts', 'offset=2'],
      ['/api/v1/orgs/acme/services/history/revisions', 'before=3'],
      ['/api/v1/orgs/acme/audit', 'before=17'],
      ['/api/v1/orgs/acme/sso/audit', 'before=abc'],
    ] as const) {
      const refused = await call<ErrorBody>(t.baseUrl, 'GET', `${path}?${parameter}`, { headers: bearer(acme.adminToken) });
      expect([path, refused.status, refused.body.error.code, refused.body.error.details[0]?.path]).toEqual([path, 400, 'validation_failed', parameter.split('=')[0]]);
    }
  });

  it('describes limit, cursor and the Link header of every list in the OpenAPI document', async () => {
    interface Operation {
      parameters?: Array<{ name: string; in: string; schema?: { maximum?: number } }>;
      responses: Record<string, { headers?: Record<string, unknown> }>;
    }
    const document = await get<{ paths: Record<string, { get: Operation }> }>('/api/docs-json');
    for (const path of LISTS) {
      const operation = document.paths[path.replace('/acme/', '/{orgId}/').replace('/history/', '/{service}/')]?.get;
      const query = (operation?.parameters ?? []).filter((parameter) => parameter.in === 'query');
      expect([path, query.map((parameter) => parameter.name).sort()]).toEqual([path, ['cursor', 'limit']]);
      expect(query.find((parameter) => parameter.name === 'limit')?.schema?.maximum).toBe(MAX_PAGE_LIMIT);
      expect(Object.keys(operation?.responses['200']?.headers ?? {})).toEqual(['Link']);
    }
  });
});
