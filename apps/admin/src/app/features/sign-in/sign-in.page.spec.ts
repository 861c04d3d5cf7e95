import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { query, settle, textOf } from '../../../testing/dom';
import { errorBody } from '../../../testing/fixtures';
import { setUpTestApp } from '../../../testing/providers';
import { SignInPage } from './sign-in.page';

const PROVIDERS = '/api/v1/auth/orgs/acme/providers';

describe('SignInPage', () => {
  let fixture: ComponentFixture<SignInPage>;
  let http: HttpTestingController;

  async function open(query: Record<string, string> = {}): Promise<void> {
    fixture = TestBed.createComponent(SignInPage);
    fixture.componentRef.setInput('orgId', 'acme');
    for (const [name, value] of Object.entries(query)) fixture.componentRef.setInput(name, value);
    fixture.detectChanges();
  }

  function links(): { text: string; href: string | null }[] {
    return Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('a')).map((a) => ({
      text: (a.textContent ?? '').trim(),
      href: a.getAttribute('href'),
    }));
  }

  beforeEach(() => (http = setUpTestApp()));

  afterEach(() => http.verify());

  it('shows one button per enabled provider, returning to the requested page', async () => {
    await open({ redirect: '/orgs/acme/members' });
    http.expectOne(PROVIDERS).flush([
      { slug: 'kc', displayName: 'Keycloak', loginUrl: '/api/v1/auth/orgs/acme/login/kc', requireSso: false },
      { slug: 'entra', displayName: 'Microsoft', loginUrl: '/api/v1/auth/orgs/acme/login/entra', requireSso: false },
    ]);
    await settle(fixture);
    expect(links()).toEqual([
      { text: 'Sign in with Keycloak', href: '/api/v1/auth/orgs/acme/login/kc?redirect=%2Forgs%2Facme%2Fmembers' },
      { text: 'Sign in with Microsoft', href: '/api/v1/auth/orgs/acme/login/entra?redirect=%2Forgs%2Facme%2Fmembers' },
    ]);
    // Under the buttons: the way in when SSO fails.
    expect(query(fixture, '[data-testid=sign-in-fallback]').textContent).toContain('ask an owner of this organization for a one-time sign-in link');
  });

  it('says the organization requires single sign-on and offers only its providers', async () => {
    await open();
    http.expectOne(PROVIDERS).flush([{ slug: 'kc', displayName: 'Keycloak', loginUrl: '/api/v1/auth/orgs/acme/login/kc', requireSso: true }]);
    await settle(fixture);
    expect(links()).toEqual([{ text: 'Sign in with Keycloak', href: '/api/v1/auth/orgs/acme/login/kc?redirect=%2Forgs%2Facme' }]);
    expect(query(fixture, '[data-testid=sign-in-sso-required]').textContent).toContain('This organization requires single sign-on');
    expect(textOf(fixture)).not.toMatch(/sign-in link/i);
  });

  it('looks the same for an organization without providers and one that does not exist', async () => {
    await open();
    http.expectOne(PROVIDERS).flush([]);
    await settle(fixture);
    const empty = textOf(fixture);
    expect(empty).toContain('Single sign-on is not available at this address');
    expect(links()).toEqual([]);

    await open();
    http.expectOne(PROVIDERS).flush(errorBody('organization_not_found', 'No organization "acme" exists.'), { status: 404, statusText: 'Not Found' });
    await settle(fixture);
    expect(textOf(fixture)).toBe(empty);
    expect(textOf(fixture)).not.toContain('No organization');
  });

  it('explains why the person was sent back', async () => {
    await open({ error: 'signup_disabled' });
    http.expectOne(PROVIDERS).flush([{ slug: 'kc', displayName: 'Keycloak', loginUrl: '/api/v1/auth/orgs/acme/login/kc', requireSso: false }]);
    await settle(fixture);
    expect(textOf(fixture)).toContain('You are not a member of this organization yet.');
  });

  it('reloads when the router reuses the page for another organization', async () => {
    await open();
    http.expectOne(PROVIDERS).flush([{ slug: 'kc', displayName: 'Keycloak', loginUrl: '/api/v1/auth/orgs/acme/login/kc', requireSso: false }]);
    await settle(fixture);
    fixture.componentRef.setInput('orgId', 'globex');
    fixture.detectChanges();
    http.expectOne('/api/v1/auth/orgs/globex/providers').flush([]);
    await settle(fixture);
    expect(links()).toEqual([]);
    expect(textOf(fixture)).toContain('globex');
  });

  it('offers a retry when the server cannot be reached', async () => {
    await open();
    http.expectOne(PROVIDERS).flush(null, { status: 503, statusText: 'Unavailable' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('The server had a problem (HTTP 503)');
    const retry = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('button')).find((b) => b.textContent?.includes('Try again'));
    retry?.click();
    fixture.detectChanges(); // the resource starts its reload on the next change detection
    http.expectOne(PROVIDERS).flush([]);
    await settle(fixture);
    expect(textOf(fixture)).toContain('not available at this address');
  });
});
