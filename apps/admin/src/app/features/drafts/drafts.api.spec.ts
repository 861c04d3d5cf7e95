import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { DraftConflictDetail } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { errorBody } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { DraftsApi, describeProblem, draftConflict, type DraftData } from './drafts.api';

const BASE = '/api/v1/orgs/acme%20co/drafts';
const GRAPH = { kind: 'flowchart' as const, nodes: [{ id: 'a', label: 'A' }], edges: [], groups: [] };
const LAYOUT = { nodes: [{ id: 'a', x: 1, y: 2 }], groups: [] };

describe('DraftsApi', () => {
  let api: DraftsApi;
  let http: HttpTestingController;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    api = TestBed.inject(DraftsApi);
    http = TestBed.inject(HttpTestingController);
  });
  afterEach(() => http.verify());

  it('lists with paging parameters and reads, creates and exports under the organization', async () => {
    const listed = firstValueFrom(api.list('acme co', { limit: 20, cursor: 'abc' }));
    const list = http.expectOne((req) => req.url === BASE);
    expect(list.request.params.get('limit')).toBe('20');
    expect(list.request.params.get('cursor')).toBe('abc');
    list.flush([], { headers: { Link: `<${BASE}?limit=20&cursor=def>; rel="next"` } });
    await expect(listed).resolves.toEqual({ items: [], nextCursor: 'def' });

    void firstValueFrom(api.get('acme co', 'd/1'));
    http.expectOne(`${BASE}/d%2F1`).flush({});

    void firstValueFrom(api.create('acme co', { name: 'copy', from: { service: 'orders', diagram: 'topology', revision: 2 } }));
    const created = http.expectOne(BASE);
    expect(created.request.method).toBe('POST');
    expect(created.request.body).toEqual({ name: 'copy', from: { service: 'orders', diagram: 'topology', revision: 2 } });
    created.flush({});

    void firstValueFrom(api.export('acme co', 'd1'));
    http.expectOne(`${BASE}/d1/export`).flush({});
  });

  it('sends the edited version in If-Match when saving and, when asked, when deleting', async () => {
    const saved = firstValueFrom(api.save('acme co', 'd1', 7, { name: 'n', graph: GRAPH, layout: LAYOUT }));
    const put = http.expectOne(`${BASE}/d1`);
    expect(put.request.method).toBe('PUT');
    expect(put.request.headers.get('If-Match')).toBe('"7"');
    expect(put.request.body).toEqual({ name: 'n', graph: GRAPH, layout: LAYOUT });
    put.flush({ id: 'd1', version: 8 } as Partial<DraftData>);
    await expect(saved).resolves.toMatchObject({ version: 8 });

    void firstValueFrom(api.remove('acme co', 'd1', 8));
    expect(http.expectOne(`${BASE}/d1`).request.headers.get('If-Match')).toBe('"8"');
    void firstValueFrom(api.remove('acme co', 'd2'));
    expect(http.expectOne(`${BASE}/d2`).request.headers.has('If-Match')).toBe(false);
  });

  it('reads a version conflict: who saved last, when, and the current version', async () => {
    const saved = firstValueFrom(api.save('acme co', 'd1', 1, { name: 'n', graph: GRAPH, layout: LAYOUT }));
    const detail: DraftConflictDetail = {
      path: 'If-Match',
      message: 'The draft was saved by Ann',
      currentVersion: 2,
      updatedAt: '2026-11-24T10:00:00.000Z',
      updatedBy: { kind: 'user', id: 'u1', name: 'Ann', email: 'ann@acme.example' },
    };
    http.expectOne(`${BASE}/d1`).flush(errorBody('draft_version_conflict', 'The draft was saved by Ann', [detail]), { status: 409, statusText: 'Conflict' });
    const error = await saved.catch((e: unknown) => e);
    expect(draftConflict(error)).toEqual(detail);

    const other = firstValueFrom(api.get('acme co', 'd1'));
    http.expectOne(`${BASE}/d1`).flush(errorBody('draft_not_found', 'There is no draft'), { status: 404, statusText: 'Not Found' });
    expect(draftConflict(await other.catch((e: unknown) => e))).toBeNull();
  });
});

describe('describeProblem', () => {
  it('puts file, line and column before the message, and the JSON path when the message lacks it', () => {
    expect(describeProblem({ code: 'mermaid_syntax_error', file: 'x.mmd', line: 3, column: 4, message: 'Syntax error on line 3' })).toBe('x.mmd, line 3, column 4 — Syntax error on line 3');
    // A Mermaid sentence that starts with its own position says it once.
    expect(describeProblem({ code: 'mermaid_syntax_error', file: 'x.mmd', line: 3, column: 4, message: 'line 3, column 4: the node label opened with `[` is not closed (expected `]`).' })).toBe(
      'x.mmd, line 3, column 4 — the node label opened with `[` is not closed (expected `]`).',
    );
    expect(describeProblem({ file: 'x.context.json', line: 2, column: 9, path: '$.nodes.a.type', message: '$.nodes.a.type: "blob" is not a valid node type.' })).toBe(
      'x.context.json, line 2, column 9 — $.nodes.a.type: "blob" is not a valid node type.',
    );
    expect(describeProblem({ path: '$.graph.nodes[3].id', message: 'must not be empty.' })).toBe('$.graph.nodes[3].id: must not be empty.');
    expect(describeProblem({ message: 'Too large.' })).toBe('Too large.');
  });
});
