import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { withComponentInputBinding } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';
import { previewDiagramUrl } from '@sc/contracts/core';
import { query, settle } from '../../../testing/dom';
import { createWithInputs, provideTestApp, setUpTestApp } from '../../../testing/providers';
import { PreviewPage } from './preview.page';
import type { PreviewData } from './services.api';

const ID = '0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a';
const URL = `/api/v1/orgs/acme/services/payments/previews/${ID}`;

function preview(diagrams: PreviewData['diagrams']): PreviewData {
  return {
    id: ID,
    label: 'feature/cache',
    url: `https://context.example.com/orgs/acme/services/payments/previews/${ID}`,
    createdAt: '2026-02-05T09:00:00.000Z',
    expiresAt: '2026-02-19T09:00:00.000Z',
    baseRevision: 2,
    artifactCount: 3,
    created: [],
    updated: [],
    removed: [],
    syncedBy: null,
    source: null,
    service: 'payments',
    currentRevision: 2,
    diagrams,
  };
}

describe('PreviewPage', () => {
  let fixture: ComponentFixture<PreviewPage>;
  let http: HttpTestingController;

  beforeEach(() => {
    http = setUpTestApp();
    fixture = createWithInputs(PreviewPage, { orgId: 'acme', service: 'payments', id: ID });
  });
  afterEach(() => http.verify());

  it('says it is not synced, links to the current revision, lists changes of a sequence diagram and the removed and unchanged diagrams', async () => {
    fixture.detectChanges();
    const none = { added: 0, changed: 0, removed: 0 };
    const sequence = {
      name: 'checkout',
      kind: 'sequence',
      revision: 2,
      path: '.service/diagrams/checkout.mmd',
      mermaid: 'sequenceDiagram\n  web->>api: POST\n',
      contextPath: null,
      context: null,
      graph: { kind: 'sequence', nodes: [{ id: 'web', label: 'web' }, { id: 'api', label: 'api' }], edges: [], groups: [] },
      report: null,
    } as unknown as NonNullable<PreviewData['diagrams'][number]['diagram']>;
    http.expectOne(URL).flush(
      preview([
        {
          name: 'checkout',
          status: 'changed',
          counts: { added: 1, changed: 0, removed: 0 },
          diagram: sequence,
          changes: { changed: true, nodes: { added: [{ id: 'api', label: 'api' }], removed: [], changed: [] }, edges: { added: [], removed: [], changed: [] }, groups: { added: [], removed: [], changed: [] } },
        } as unknown as PreviewData['diagrams'][number],
        { name: 'legacy', status: 'removed', counts: { added: 0, changed: 0, removed: 2 }, diagram: null, changes: null },
        { name: 'stable', status: 'unchanged', counts: none, diagram: null, changes: null },
      ]),
    );
    await settle(fixture);

    const banner = query(fixture, '[data-testid=preview-banner]');
    expect(banner.textContent).toContain('Preview of feature/cache, not synced');
    expect(query(fixture, '[data-testid=preview-current-link]').getAttribute('href')).toBe('/orgs/acme/services/payments');
    const changed = query(fixture, '[data-testid=preview-diagram][data-name=checkout]');
    expect(changed.textContent).toContain('1 added (1 element)');
    expect(changed.querySelector('li[data-status=added]')?.textContent).toContain('api');
    expect(query(fixture, '[data-testid=preview-removed]').textContent).toContain('legacy — 2 removed');
    const unchanged = query(fixture, '[data-testid=preview-unchanged]').querySelector('a');
    expect(unchanged?.textContent?.trim()).toBe('stable');
    expect(unchanged?.getAttribute('href')).toBe('/orgs/acme/services/payments/diagrams/stable');
  });

  it('shows the load error of an expired preview', async () => {
    fixture.detectChanges();
    http.expectOne(URL).flush({ error: { code: 'preview_not_found', message: 'Service payments has no preview with id "x".' } }, { status: 404, statusText: 'Not Found' });
    await settle(fixture);
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=preview-banner]')).toBeNull();
    expect((fixture.nativeElement as HTMLElement).textContent).toContain('has no preview');
  });

  it('scrolls to the diagram a #diagram-<name> link names (service-cli diff --format markdown) once the preview has loaded', async () => {
    TestBed.resetTestingModule();
    TestBed.configureTestingModule({ providers: provideTestApp([{ path: 'orgs/:orgId/services/:service/previews/:id', component: PreviewPage }], withComponentInputBinding()) });
    const routed = TestBed.inject(HttpTestingController);
    // jsdom lays nothing out and has no scrollIntoView: record which element the page asks the browser to show.
    const scrolledTo: string[] = [];
    const jsdomScroll = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolledTo.push(this.id);
    };
    const link = previewDiagramUrl(`/orgs/acme/services/payments/previews/${ID}`, 'checkout');
    expect(link).toBe(`/orgs/acme/services/payments/previews/${ID}#diagram-checkout`);
    const harness = await RouterTestingHarness.create();
    await harness.navigateByUrl(link);
    const sequence = { name: 'checkout', kind: 'sequence', revision: 2, path: 'c.mmd', mermaid: '', contextPath: null, context: null, graph: { kind: 'sequence', nodes: [], edges: [], groups: [] }, report: null };
    const changes = { changed: true, nodes: { added: [{ id: 'api', label: 'api' }], removed: [], changed: [] }, edges: { added: [], removed: [], changed: [] }, groups: { added: [], removed: [], changed: [] } };
    harness.detectChanges();
    expect(scrolledTo).toEqual([]);
    routed.expectOne(URL).flush(preview([{ name: 'checkout', status: 'changed', counts: { added: 1, changed: 0, removed: 0 }, diagram: sequence, changes } as unknown as PreviewData['diagrams'][number]]));
    await harness.fixture.whenStable();
    harness.detectChanges();
    const section = (harness.routeNativeElement as HTMLElement).querySelector('[data-testid=preview-diagram]');
    expect(section?.id).toBe('diagram-checkout');
    expect(section?.classList.contains('targeted')).toBe(true);
    expect(scrolledTo).toEqual(['diagram-checkout']);
    routed.verify();
    Element.prototype.scrollIntoView = jsdomScroll;
  });
});
