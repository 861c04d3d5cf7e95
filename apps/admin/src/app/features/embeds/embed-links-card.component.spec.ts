import { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import type { EmbedLinkResponse } from '@sc/contracts';
import { clickDialogButton, dialogOpened, query, rowsText, settle } from '../../../testing/dom';
import { createWithInputs, setUpTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { EmbedLinksCardComponent } from './embed-links-card.component';
import { sample } from '../../../testing/fixtures';

const LIST = '/api/v1/orgs/acme/embed-links?service=orders';

const embedLink = sample<EmbedLinkResponse>(() => ({
  id: 'e1',
  service: 'orders',
  diagram: 'topology',
  revision: null,
  prefix: 'sce_ab12cd34',
  frameAncestors: null,
  createdByUserId: 'u1',
  createdAt: '2026-11-01T10:00:00Z',
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
}));

describe('EmbedLinksCardComponent', () => {
  let fixture: ComponentFixture<EmbedLinksCardComponent>;
  let http: HttpTestingController;

  async function open(links: EmbedLinkResponse[]): Promise<void> {
    fixture = createWithInputs(EmbedLinksCardComponent, { orgId: 'acme', service: 'orders' });
    fixture.detectChanges();
    http.expectOne(LIST).flush(links);
    await settle(fixture);
  }

  beforeEach(() => (http = setUpTestApp()));
  afterEach(() => verifyAndClearOverlays(http));

  it('lists what each link shows, its expiry and status, with Revoke only on active links', async () => {
    await open([
      embedLink(),
      embedLink({ id: 'e2', prefix: 'sce_pinned00', revision: 4, diagram: null, frameAncestors: ['https://wiki.example.com', 'https://*.example.org'] }),
      embedLink({ id: 'e3', prefix: 'sce_revoked0', revokedAt: '2026-11-02T10:00:00Z', frameAncestors: [] }),
      embedLink({ id: 'e4', prefix: 'sce_expired0', expiresAt: '2020-01-01T00:00:00Z' }),
    ]);
    const [latest, pinned, revoked, expired] = rowsText(fixture);
    for (const shown of ['sce_ab12cd34…', 'topology · latest', 'Any site', 'Never', 'Active', 'Revoke']) expect(latest).toContain(shown);
    expect(pinned).toContain('Every diagram · revision 4');
    // The sites that may frame the link's page.
    expect(pinned).toContain('https://wiki.example.com, https://*.example.org');
    expect(revoked).toContain('No site');
    expect(revoked).toContain('Revoked');
    expect(revoked).not.toContain('Revoke ');
    expect(expired).toContain('Expired');
    expect(fixture.nativeElement.querySelector('[data-testid=embed-revoke-e3]')).toBeNull();
  });

  it('shows a loading bar, not "No embed links", until the list has loaded', async () => {
    fixture = createWithInputs(EmbedLinksCardComponent, { orgId: 'acme', service: 'orders' });
    fixture.detectChanges();
    const request = http.expectOne(LIST);
    fixture.detectChanges();
    const shown = (testId: string) => (fixture.nativeElement as HTMLElement).querySelector(`[data-testid=${testId}]`) !== null;
    expect(shown('embed-links-loading')).toBe(true);
    expect(shown('embed-links-empty')).toBe(false);
    request.flush([]);
    await settle(fixture);
    expect(shown('embed-links-loading')).toBe(false);
    expect(shown('embed-links-empty')).toBe(true);
  });

  it('says how links are made when there are none', async () => {
    await open([]);
    expect(query(fixture, '[data-testid=embed-links-empty]').textContent).toContain('Export menu');
  });

  it('revokes a link after confirmation and shows it revoked', async () => {
    await open([embedLink()]);
    query<HTMLButtonElement>(fixture, '[data-testid=embed-revoke-e1]').click();
    await dialogOpened(fixture);
    clickDialogButton('Revoke link');
    await settle(fixture);
    const request = http.expectOne({ method: 'DELETE', url: '/api/v1/orgs/acme/embed-links/e1' });
    request.flush(embedLink({ revokedAt: '2026-11-03T10:00:00Z' }));
    await settle(fixture);
    expect(rowsText(fixture)[0]).toContain('Revoked');
    expect(fixture.nativeElement.querySelector('[data-testid=embed-revoke-e1]')).toBeNull();
  });
});
