import { TestBed } from '@angular/core/testing';
import type { DraftSummary, ServiceListItem } from '@sc/contracts';
import { SessionService } from '../../core/session.service';
import { query, settle, textOf } from '../../../testing/dom';
import { ME, gatewayInfo } from '../../../testing/fixtures';
import { createWithInputs, setUpTestApp } from '../../../testing/providers';
import { OrganizationHomePage } from './organization-home.page';

const SERVICE: ServiceListItem = {
  name: 'payments',
  description: 'Takes money',
  repositoryUrl: null,
  currentRevision: 3,
  lastSyncedAt: '2026-11-20T10:00:00Z',
  createdAt: '2026-11-01T10:00:00Z',
  artifactCount: 12,
};

const DRAFTS: DraftSummary[] = [
  {
    id: 'd1',
    name: 'Checkout ideas',
    kind: 'flowchart',
    version: 4,
    nodeCount: 3,
    edgeCount: 2,
    createdAt: '2026-11-02T10:00:00Z',
    createdBy: null,
    updatedAt: '2026-11-21T10:00:00Z',
    updatedBy: null,
    source: null,
  },
];

/** The install card is drawn with the organization, so its request starts once that answer is rendered. */
async function rendered(fixture: { detectChanges(): void }): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  fixture.detectChanges();
}

describe('OrganizationHomePage (Overview)', () => {
  it("shows the organization's services with their last sync, its recent drafts and the CLI install line", async () => {
    const http = setUpTestApp();
    TestBed.inject(SessionService).adopt({ ...ME, role: 'viewer' });
    const fixture = createWithInputs(OrganizationHomePage, { orgId: 'acme' });
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/acme').flush(ME.organization);
    http.expectOne('/api/v1/orgs/acme/services').flush([SERVICE, { ...SERVICE, name: 'ledger', currentRevision: 0, lastSyncedAt: null }]);
    http.expectOne((request) => request.url === '/api/v1/orgs/acme/drafts' && request.params.get('limit') === '5').flush(DRAFTS);
    await rendered(fixture);
    http.expectOne('/api/v1/gateway/info').flush(gatewayInfo());
    await settle(fixture);

    const services = query(fixture, '[data-testid=overview-services]');
    const payments = services.querySelector<HTMLAnchorElement>('a[href="/orgs/acme/services/payments"]');
    expect(payments?.textContent).toContain('payments');
    expect(payments?.closest('li')?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-20T10:00:00Z');
    expect(services.textContent).toMatch(/ledger\s*Never synced/);

    const drafts = query(fixture, '[data-testid=overview-drafts]');
    expect(drafts.querySelector<HTMLAnchorElement>('a[href="/orgs/acme/drafts/d1"]')?.textContent).toContain('Checkout ideas');
    expect(drafts.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-21T10:00:00Z');

    expect(query<HTMLInputElement>(fixture, '[data-testid=cli-install-command]').value).toBe('npm install -g https://context.example.com/downloads/service-cli.tgz');
    http.verify();
  });

  it('says when nothing has synced and no draft exists yet', async () => {
    const http = setUpTestApp();
    TestBed.inject(SessionService).adopt(ME);
    const fixture = createWithInputs(OrganizationHomePage, { orgId: 'acme' });
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/acme').flush(ME.organization);
    http.expectOne('/api/v1/orgs/acme/services').flush([]);
    http.expectOne((request) => request.url === '/api/v1/orgs/acme/drafts').flush([]);
    await rendered(fixture);
    http.expectOne('/api/v1/gateway/info').flush(gatewayInfo());
    await settle(fixture);
    expect(textOf(fixture)).toContain('No service has synced yet');
    expect(textOf(fixture)).toContain('No drafts yet');
    http.verify();
  });
});
