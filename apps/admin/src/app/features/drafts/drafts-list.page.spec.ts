import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { DraftSummary } from '@sc/contracts';
import { SessionService } from '../../core/session.service';
import { clickDialogButton, dialogOpened, query, rowsText, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { ME, errorBody, sample } from '../../../testing/fixtures';
import { expectFirstPage } from '../../../testing/http';
import { createWithInputs, setUpTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { DraftsListPage } from './drafts-list.page';

const BASE = '/api/v1/orgs/acme/drafts';

const summary = sample<DraftSummary>(() => ({
  id: 'd1',
  name: 'Orders topology',
  kind: 'flowchart',
  version: 3,
  nodeCount: 4,
  edgeCount: 3,
  createdAt: '2026-11-01T10:00:00Z',
  createdBy: { kind: 'user', id: 'u1', name: 'Ann', email: 'ann@acme.test' },
  updatedAt: '2026-11-01T11:00:00Z',
  updatedBy: { kind: 'token', id: 't1', name: 'ci' },
  source: null,
}));

describe('DraftsListPage', () => {
  let fixture: ComponentFixture<DraftsListPage>;
  let http: HttpTestingController;

  /** Opens the page on a first page of `items`; `next` is the cursor of a next page (none by default). */
  async function open(items: DraftSummary[], role: 'owner' | 'editor' | 'viewer' = 'editor', next?: string): Promise<void> {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = createWithInputs(DraftsListPage, { orgId: 'acme' });
    fixture.detectChanges();
    const first = expectFirstPage(http, BASE, 50);
    first.flush(items, next === undefined ? {} : { headers: { Link: `<${BASE}?limit=50&cursor=${next}>; rel="next"` } });
    await settle(fixture);
  }

  /** Opens the page without items, with its create form shown. */
  async function openEmptyWithForm(): Promise<void> {
    await open([]);
    fixture.componentInstance.openForm();
    fixture.detectChanges();
  }

  /** Lets effects start the requests they make, without waiting for the answers (settle would). */
  async function started(): Promise<void> {
    fixture.detectChanges();
    await new Promise((resolve) => setTimeout(resolve, 0));
    fixture.detectChanges();
  }

  const submit = () => submitForm(fixture, '[data-testid=draft-form]');

  beforeEach(() => (http = setUpTestApp()));

  afterEach(() => verifyAndClearOverlays(http));

  it('lists drafts with size, version, who saved last and where a copy came from', async () => {
    await open([summary(), summary({ id: 'd2', name: 'Copy', updatedBy: null, source: { service: 'orders', diagram: 'topology', revision: 2, path: 'x.mmd', sha256: 'a', contextPath: null, contextSha256: null } })]);
    const [first, second] = rowsText(fixture);
    expect(first).toContain('Orders topology');
    expect(first).toContain('4 nodes, 3 edges');
    expect(first).toContain('API token “ci”');
    expect(second).toContain('Copy of orders / topology (revision 2)');
    expect(second).toContain('a removed member or token');
    expect(query<HTMLAnchorElement>(fixture, '[data-testid=draft-open-d1]').getAttribute('href')).toBe('/d1');
  });

  it('offers no create or delete to viewers, and an empty state', async () => {
    await open([], 'viewer');
    expect(query(fixture, '[data-testid=drafts-empty]').textContent).toContain('No drafts yet');
    expect(fixture.nativeElement.querySelector('[data-testid=draft-new]')).toBeNull();
  });

  it('creates an empty draft and opens it', async () => {
    await open([]);
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    query<HTMLButtonElement>(fixture, '[data-testid=draft-new]').click();
    fixture.detectChanges();
    typeInto(fixture, '[data-testid=draft-name]', '  Checkout ');
    submit();
    const request = http.expectOne({ method: 'POST', url: BASE });
    expect(request.request.body).toEqual({ name: 'Checkout' });
    request.flush({ ...summary({ id: 'new', name: 'Checkout' }), graph: {}, layout: { nodes: [], groups: [] }, warnings: [] }, { status: 201, statusText: 'Created' });
    await settle(fixture);
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme', 'drafts', 'new']);
  });

  it('shows every problem of pasted Mermaid and context with its file, line, column and JSON path', async () => {
    await openEmptyWithForm();
    typeInto(fixture, '[data-testid=draft-name]', 'Pasted');
    fixture.componentInstance.form.controls.start.setValue('mermaid');
    fixture.detectChanges();
    typeInto(fixture, '[data-testid=draft-mermaid]', 'flowchart LR\n  a -->\n');
    typeInto(fixture, '[data-testid=draft-context]', '{"nodes":{"a":{"type":"blob"}}}');
    submit();
    const request = http.expectOne({ method: 'POST', url: BASE });
    expect(request.request.body).toEqual({ name: 'Pasted', mermaid: 'flowchart LR\n  a -->\n', context: '{"nodes":{"a":{"type":"blob"}}}' });
    request.flush(
      errorBody('draft_source_invalid', 'The pasted diagram is invalid: 2 problems, listed in details', [
        // What the server answers for this paste (apps/server/test/drafts.spec.ts): the sentence, the caret, the parser's report apart.
        {
          code: 'mermaid_syntax_error',
          file: 'pasted.mmd',
          line: 2,
          column: 5,
          message: 'line 2, column 5: the link `-->` has no node after it (expected a node id, as in `a --> b`).',
          excerpt: '2 |   a -->\n  |     ^',
          detail: "Mermaid's parser at line 2, column 4: found end of file, expected one of AMP, COLON, NODE_STRING.",
        },
        { code: 'context_invalid_value', file: 'pasted.context.json', line: 1, column: 20, path: '$.nodes.a.type', message: '$.nodes.a.type: "blob" is not a valid node type.' },
      ] as never),
      { status: 422, statusText: 'Unprocessable Entity' },
    );
    await settle(fixture);
    const problems = query(fixture, '[data-testid=draft-problems]').textContent ?? '';
    expect(problems).toContain('pasted.mmd, line 2, column 5 — the link `-->` has no node after it (expected a node id, as in `a --> b`).');
    expect(query(fixture, '[data-testid=draft-problems] [data-testid=problem-excerpt]').textContent).toBe('2 |   a -->\n  |     ^');
    const parserDetail = query(fixture, '[data-testid=draft-problems] details[data-testid=problem-detail]') as HTMLDetailsElement;
    expect(parserDetail.open).toBe(false);
    expect(parserDetail.textContent).toContain('expected one of AMP, COLON, NODE_STRING');
    expect(problems.match(/NODE_STRING/g)).toHaveLength(1);
    expect(problems).toContain('pasted.context.json, line 1, column 20 — $.nodes.a.type: "blob" is not a valid node type.');
  });

  it('copies a synced flowchart: picks the service, then one of its flowcharts', async () => {
    await openEmptyWithForm();
    typeInto(fixture, '[data-testid=draft-name]', 'Copy');
    fixture.componentInstance.form.controls.start.setValue('synced');
    // Settling would wait for the very requests the test answers, so the test only lets them start.
    await started();
    http.expectOne('/api/v1/orgs/acme/services').flush([{ name: 'orders' }]);
    fixture.componentInstance.form.controls.service.setValue('orders');
    await started();
    http.expectOne((req) => req.url === '/api/v1/orgs/acme/services/orders').flush({
      name: 'orders',
      artifacts: [
        { kind: 'architecture-diagram', name: 'topology', diagramKind: 'flowchart' },
        { kind: 'architecture-diagram', name: 'calls', diagramKind: 'sequence' },
        { kind: 'flow', name: 'checkout', diagramKind: 'sequence' },
      ],
    });
    await settle(fixture);
    expect(fixture.componentInstance.diagrams.value().map((d) => d.name)).toEqual(['topology', 'calls']);
    fixture.componentInstance.form.controls.diagram.setValue('topology');
    submit();
    expect(http.expectOne({ method: 'POST', url: BASE }).request.body).toEqual({ name: 'Copy', from: { service: 'orders', diagram: 'topology' } });
  });

  it('asks before deleting and deletes only the listed version', async () => {
    await open([summary()]);
    query<HTMLButtonElement>(fixture, '[data-testid=draft-delete-d1]').click();
    await dialogOpened(fixture);
    expect(document.querySelector('mat-dialog-container')?.textContent).toContain('Delete “Orders topology”?');
    clickDialogButton('Delete draft');
    await settle(fixture);
    const request = http.expectOne({ method: 'DELETE', url: `${BASE}/d1` });
    expect(request.request.headers.get('If-Match')).toBe('"3"');
    request.flush(null, { status: 204, statusText: 'No Content' });
    // The list reloads after the delete.
    await started();
    http.expectOne((req) => req.url === BASE && req.method === 'GET').flush([]);
    await settle(fixture);
    expect(textOf(fixture)).toContain('No drafts yet');
  });

  it('appends the next page of drafts on "Load more drafts" (cursor from the Link header)', async () => {
    await open([summary()], 'viewer', 'abc');
    expect(rowsText(fixture)).toHaveLength(1);
    query<HTMLButtonElement>(fixture, '[data-testid=drafts-more]').click();
    http.expectOne(`${BASE}?limit=50&cursor=abc`).flush([summary({ id: 'd2', name: 'Older' })]);
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(2);
    expect(rowsText(fixture)[1]).toContain('Older');
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=drafts-more]')).toBeNull();
  });
});
