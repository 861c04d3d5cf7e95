import { formatDate } from '@angular/common';
import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture } from '@angular/core/testing';
import type { PreviewListItem, ServiceDetail, ServiceRevisionItem } from '@sc/contracts';
import { query, settle } from '../../../testing/dom';
import { createWithInputs, setUpTestApp } from '../../../testing/providers';
import { answerServicePage } from '../../../testing/service-page';
import { ServiceDetailPage } from './service-detail.page';

const FIRST_SYNC = '2026-01-01T09:00:00.000Z';
const SECOND_SYNC = '2026-02-01T09:00:00.000Z';
const LAST_SYNC = '2026-02-05T09:00:00.000Z';

const REVISIONS: ServiceRevisionItem[] = [
  { number: 2, createdAt: SECOND_SYNC, artifactCount: 1, created: [], updated: [{ kind: 'service-summary', name: 'summary' }], removed: [], syncedBy: null, source: null },
  { number: 1, createdAt: FIRST_SYNC, artifactCount: 1, created: [{ kind: 'service-summary', name: 'summary' }], updated: [], removed: [], syncedBy: null, source: null },
];

function detail(revision: number, revisionSyncedAt: string): ServiceDetail {
  return {
    name: 'payments',
    description: 'Takes card payments.',
    repositoryUrl: null,
    currentRevision: 2,
    // The service's latest sync (an unchanged one after revision 2): not the time of any older revision.
    lastSyncedAt: LAST_SYNC,
    createdAt: FIRST_SYNC,
    artifactCount: 1,
    revision,
    revisionSyncedAt,
    artifacts: [],
  };
}

const medium = (iso: string) => formatDate(iso, 'medium', 'en-US');
const BASE = '/api/v1/orgs/acme/services/payments';

describe('ServiceDetailPage', () => {
  let fixture: ComponentFixture<ServiceDetailPage>;
  let http: HttpTestingController;

  beforeEach(() => {
    http = setUpTestApp();
    fixture = createWithInputs(ServiceDetailPage, { orgId: 'acme', service: 'payments' });
  });

  afterEach(() => http.verify());

  const answer = (url: string, body: ServiceDetail) => answerServicePage(fixture, http, url, body, REVISIONS);

  it('shows when an earlier revision was synced, not when the service last was', async () => {
    fixture.componentRef.setInput('revision', '1');
    fixture.detectChanges();
    await answer(`${BASE}?revision=1`, detail(1, FIRST_SYNC));
    expect(query(fixture, '[data-testid=revision-synced]').textContent?.trim()).toBe(medium(FIRST_SYNC));
    expect(query(fixture, '[data-testid=old-revision]').textContent).toContain('You are viewing revision 1 of 2');
  });

  it('shows who synced each revision and the commit, branch and CI run it came from', async () => {
    const withProvenance: ServiceRevisionItem[] = [
      {
        ...REVISIONS[0],
        syncedBy: { tokenId: 't1', tokenName: 'payments CI', tokenPrefix: 'sct_ab12cd34', userId: 'u-olga', email: 'olga@acme.test' },
        source: { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', branch: 'main', ciRunUrl: 'https://github.com/acme/payments/actions/runs/42' },
      },
      { ...REVISIONS[1], source: { branch: 'old', ciRunUrl: 'javascript:alert(1)' } },
    ];
    fixture.detectChanges();
    await answerServicePage(fixture, http, BASE, detail(2, SECOND_SYNC), withProvenance);
    expect(query(fixture, '[data-testid=synced-by-2]').textContent?.trim()).toBe('olga@acme.test with payments CI');
    expect(query(fixture, '[data-testid=synced-by-1]').textContent?.trim()).toBe('Unknown');
    const source = query(fixture, '[data-testid=source-2]');
    expect(source.querySelector('code')?.textContent).toBe('a1b2c3d4e5f6');
    expect(source.querySelector('code')?.getAttribute('title')).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f9012345678');
    expect(source.textContent).toContain('on main');
    expect(source.querySelector('a')?.getAttribute('href')).toBe('https://github.com/acme/payments/actions/runs/42');
    // A link that is not http(s) is never offered.
    expect(query(fixture, '[data-testid=source-1]').querySelector('a')).toBeNull();
  });

  it('shows the last sync on the current revision, without the banner', async () => {
    fixture.detectChanges();
    await answer(BASE, detail(2, SECOND_SYNC));
    expect(query(fixture, '[data-testid=revision-synced]').textContent?.trim()).toBe(medium(LAST_SYNC));
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=old-revision]')).toBeNull();
    expect(query(fixture, '[data-testid=revision-picker]')).not.toBeNull();
  });

  it('lists the open previews with a link to each preview page, or says there are none', async () => {
    fixture.detectChanges();
    const preview: PreviewListItem = {
      id: '0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a',
      label: 'feature/cache',
      url: 'https://context.example.com/orgs/acme/services/payments/previews/0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a',
      createdAt: LAST_SYNC,
      expiresAt: '2026-02-19T09:00:00.000Z',
      baseRevision: 2,
      artifactCount: 1,
      created: [],
      updated: [{ kind: 'architecture-diagram', name: 'topology' }],
      removed: [],
      syncedBy: null,
      source: { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', branch: 'feature/cache' },
    };
    await answerServicePage(fixture, http, BASE, detail(2, SECOND_SYNC), REVISIONS, [preview]);
    const section = query(fixture, '[data-testid=service-previews]');
    const link = section.querySelector<HTMLAnchorElement>('[data-testid="preview-link-feature/cache"]');
    expect(link?.getAttribute('href')).toBe(`/orgs/acme/services/payments/previews/${preview.id}`);
    expect(section.textContent).toContain('2: 1 changed');
    expect(section.textContent).toContain('a1b2c3d4e5f6');
  });

  it('shows a loading bar, not "No open previews", until the previews have loaded', async () => {
    fixture.detectChanges();
    http.expectOne(BASE).flush(detail(2, SECOND_SYNC));
    const previews = http.expectOne(`${BASE}/previews`);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fixture.detectChanges();
    expect(query(fixture, '[data-testid=service-previews]')).not.toBeNull();
    const shown = (testId: string) => (fixture.nativeElement as HTMLElement).querySelector(`[data-testid=${testId}]`) !== null;
    expect(shown('service-previews-loading')).toBe(true);
    expect(shown('service-previews-empty')).toBe(false);
    previews.flush([]);
    for (const request of http.match((candidate) => candidate.url.endsWith('/revisions') || candidate.url.endsWith('/embed-links'))) {
      request.flush(request.request.url.endsWith('/revisions') ? REVISIONS : []);
    }
    await settle(fixture);
    expect(shown('service-previews-loading')).toBe(false);
    expect(shown('service-previews-empty')).toBe(true);
  });

  it('says when the service has no open previews', async () => {
    fixture.detectChanges();
    await answer(BASE, detail(2, SECOND_SYNC));
    expect(query(fixture, '[data-testid=service-previews]').textContent).toContain('No open previews.');
  });

  it('loads older revisions on "Load older revisions" (the Link header names the next page)', async () => {
    fixture.detectChanges();
    http.expectOne(BASE).flush(detail(2, SECOND_SYNC));
    http.expectOne(`${BASE}/previews`).flush([]);
    http.expectOne(`${BASE}/revisions`).flush([REVISIONS[0]], { headers: { Link: `<${BASE}/revisions?limit=1&cursor=WyIyIl0>; rel="next"` } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    fixture.detectChanges();
    http.expectOne(`${BASE}/revisions`).flush(REVISIONS);
    await settle(fixture);
    const table = () => query(fixture, 'table[aria-label=Revisions]').querySelectorAll('tr[mat-row]').length;
    expect(table()).toBe(1);
    query<HTMLButtonElement>(fixture, '[data-testid=revisions-more]').click();
    http.expectOne(`${BASE}/revisions?cursor=WyIyIl0`).flush([REVISIONS[1]]);
    await settle(fixture);
    expect(table()).toBe(2);
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=revisions-more]')).toBeNull();
  });
});
