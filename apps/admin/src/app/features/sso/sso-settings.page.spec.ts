import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture } from '@angular/core/testing';
import type { SsoProviderResponse } from '@sc/contracts';
import { clickDialogButton, dialogOpened, rowsText, settle, textOf } from '../../../testing/dom';
import { createWithInputs, setUpTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { provideSsoIcons } from './sso-icons';
import { SsoSettingsPage } from './sso-settings.page';

const PROVIDERS = '/api/v1/orgs/acme/sso/providers';
const DOMAINS = '/api/v1/orgs/acme/domains';
const SETTINGS = '/api/v1/orgs/acme/sso/settings';

function provider(slug: string, overrides: Partial<SsoProviderResponse> = {}): SsoProviderResponse {
  return {
    slug,
    displayName: slug.toUpperCase(),
    type: 'okta',
    enabled: true,
    callbackUrl: `https://sc.acme.test/api/v1/auth/orgs/acme/callback/${slug}`,
    warnings: [],
    ...overrides,
  } as SsoProviderResponse;
}

describe('SsoSettingsPage', () => {
  let fixture: ComponentFixture<SsoSettingsPage>;
  let http: HttpTestingController;

  const rows = () => rowsText(fixture);

  beforeEach(async () => {
    http = setUpTestApp([provideSsoIcons()]);
    fixture = createWithInputs(SsoSettingsPage, { orgId: 'acme' });
    fixture.detectChanges();
  });

  afterEach(() => verifyAndClearOverlays(http));

  it('lists name, slug, type, status and callback URL, and links the public sign-in page', async () => {
    http.expectOne(SETTINGS).flush({ requireSso: false });
    http.expectOne(PROVIDERS).flush([provider('okta-main'), provider('old', { type: 'generic', enabled: false })]);
    http.expectOne(DOMAINS).flush([]);
    await settle(fixture);
    const [okta, old] = rows();
    for (const shown of ['OKTA-MAIN', 'okta-main', 'Okta', 'Enabled', 'https://sc.acme.test/api/v1/auth/orgs/acme/callback/okta-main']) expect(okta).toContain(shown);
    expect(old).toContain('Disabled');
    expect(old).toContain('Generic OpenID Connect');
    expect(textOf(fixture)).toContain('/orgs/acme/sign-in');
  });

  it('shows SAML providers with their ACS URL', async () => {
    http.expectOne(SETTINGS).flush({ requireSso: false });
    const acsUrl = 'https://sc.acme.test/api/v1/auth/orgs/acme/saml/corp/acs';
    http.expectOne(PROVIDERS).flush([provider('corp', { type: 'saml', saml: { acsUrl } as SsoProviderResponse['saml'] })]);
    http.expectOne(DOMAINS).flush([]);
    await settle(fixture);
    expect(rows()[0]).toContain('SAML 2.0');
    expect(rows()[0]).toContain(acsUrl);
  });

  it('turns Require SSO on, and shows why the server refused and goes back when it does', async () => {
    http.expectOne(SETTINGS).flush({ requireSso: false });
    http.expectOne(PROVIDERS).flush([provider('okta-main')]);
    http.expectOne(DOMAINS).flush([]);
    await settle(fixture);
    const toggle = () => (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>('[data-testid=require-sso] button') as HTMLButtonElement;
    toggle().click();
    await settle(fixture);
    http
      .expectOne({ method: 'PUT', url: SETTINGS })
      .flush({ error: { code: 'sso_requirement_unmet', message: 'Require SSO cannot be turned on yet: you did not sign in through SSO.', details: [] } }, { status: 409, statusText: 'Conflict' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('you did not sign in through SSO');
    expect(toggle().getAttribute('aria-checked')).toBe('false');
    toggle().click();
    await settle(fixture);
    const put = http.expectOne({ method: 'PUT', url: SETTINGS });
    expect(put.request.body).toEqual({ requireSso: true });
    put.flush({ requireSso: true });
    await settle(fixture);
    expect(toggle().getAttribute('aria-checked')).toBe('true');
  });

  it('deletes a provider after confirmation', async () => {
    http.expectOne(SETTINGS).flush({ requireSso: false });
    http.expectOne(PROVIDERS).flush([provider('okta-main'), provider('old')]);
    http.expectOne(DOMAINS).flush([]);
    await settle(fixture);
    (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>('[aria-label="Delete OLD"]')?.click();
    await dialogOpened(fixture);
    expect(document.querySelector('mat-dialog-container')?.textContent).toContain('its callback URL stops working');
    clickDialogButton('Delete provider');
    await settle(fixture);
    http.expectOne({ method: 'DELETE', url: `${PROVIDERS}/old` }).flush(null, { status: 204, statusText: 'No Content' });
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('okta-main');
  });

  it('shows each email domain with its state, last check and, until verified, the TXT record to publish', async () => {
    http.expectOne(SETTINGS).flush({ requireSso: false });
    http.expectOne(PROVIDERS).flush([]);
    const base = { verifiedAt: null, lastCheckedAt: null, lastError: null, createdAt: '2026-01-01T00:00:00.000Z' };
    http.expectOne(DOMAINS).flush([
      { ...base, id: 'd1', domain: 'acme.example', state: 'verified', txtRecord: 'service-verification=one', verifiedAt: '2026-01-02T00:00:00.000Z', lastCheckedAt: '2026-01-02T00:00:00.000Z' },
      { ...base, id: 'd2', domain: 'new.example', state: 'failed', txtRecord: 'service-verification=two', lastCheckedAt: '2026-01-02T00:00:00.000Z', lastError: 'new.example has no TXT records (ENOTFOUND).' },
    ]);
    await settle(fixture);
    const card = (fixture.nativeElement as HTMLElement).querySelector('[data-testid="domains-card"]')?.textContent ?? '';
    expect(card).toContain('acme.example');
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid="domain-state-acme.example"]')?.textContent?.trim()).toBe('Verified');
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid="domain-state-new.example"]')?.textContent?.trim()).toBe('Failed');
    expect(card).toContain('has no TXT records');
    const txt = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLInputElement>('[data-testid="domains-card"] input[readonly]')).map((input) => input.value);
    expect(txt).toEqual(['service-verification=two']);
    // Not an owner (the session has no role here): no add form and no SCIM card.
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid="domain-add"]')).toBeNull();
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid="scim-card"]')).toBeNull();
  });
});
