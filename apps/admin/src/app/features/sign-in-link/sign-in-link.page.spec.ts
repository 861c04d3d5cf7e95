import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { RouterTestingHarness } from '@angular/router/testing';
import { provideTestApp } from '../../../testing/providers';
import { SignInLinkPage } from './sign-in-link.page';

describe('SignInLinkPage', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: provideTestApp([{ path: 'sign-in-link', component: SignInLinkPage }]) }));

  async function open(url: string) {
    const harness = await RouterTestingHarness.create();
    await harness.navigateByUrl(url, SignInLinkPage);
    harness.detectChanges();
    return harness;
  }

  /** What the page shows once the answer it waited for has arrived. */
  async function shown(harness: RouterTestingHarness, selector: string): Promise<string> {
    await harness.fixture.whenStable();
    harness.detectChanges();
    return harness.routeNativeElement?.querySelector(selector)?.textContent ?? '';
  }

  /** Opens the link with `hash`, answers its preview with the server's refusal, and reads the error the page shows. */
  async function refusedPreview(hash: string, code: string, message: string, status: { status: number; statusText: string }) {
    const harness = await open(`/sign-in-link#${hash}`);
    TestBed.inject(HttpTestingController).expectOne('/api/v1/auth/sign-in-link/preview').flush({ error: { code, message, details: [] } }, status);
    return { harness, error: await shown(harness, '[data-testid=sign-in-link-error]') };
  }

  it('uses nothing up on opening: it previews the link, and only redeems it when the person clicks Sign in', async () => {
    const harness = await open('/sign-in-link#the-token');
    const http = TestBed.inject(HttpTestingController);
    const preview = http.expectOne('/api/v1/auth/sign-in-link/preview');
    expect(preview.request.body).toEqual({ token: 'the-token' });
    preview.flush({ organization: { id: 'acme', name: 'Acme' }, email: 'dana@acme.example', expiresAt: '2030-01-01T10:15:00.000Z' });
    expect(await shown(harness, '[data-testid=sign-in-link-question]')).toContain('Sign in to Acme as dana@acme.example?');
    http.expectNone('/api/v1/auth/sign-in-link/redeem');

    (harness.routeNativeElement?.querySelector('[data-testid=sign-in-link-confirm]') as HTMLButtonElement).click();
    const request = http.expectOne('/api/v1/auth/sign-in-link/redeem');
    expect(request.request.method).toBe('POST');
    expect(request.request.body).toEqual({ token: 'the-token' });
    request.flush(
      { error: { code: 'sign_in_link_invalid', message: 'This sign-in link is invalid, expired or was already used; ask an owner for a new one.', details: [] } },
      { status: 400, statusText: 'Bad Request' },
    );
    const error = await shown(harness, '[data-testid=sign-in-link-error]');
    expect(error).toContain('already used');
    expect(error).toContain('Ask an owner of your organization for a new one-time sign-in link.');
    // Said once: the server's message ends with the same advice.
    expect(error.match(/ask an owner/gi)).toHaveLength(1);
    expect(harness.routeNativeElement?.querySelector('[data-testid=sign-in-link-confirm]')).toBeNull();
  });

  it('shows a used link from the preview with what to do, and offers no button', async () => {
    const { harness, error } = await refusedPreview('used', 'sign_in_link_invalid', 'This sign-in link is invalid, expired or was already used; ask an owner for a new one.', {
      status: 400,
      statusText: 'Bad Request',
    });
    expect(error).toContain('Ask an owner of your organization for a new one-time sign-in link.');
    expect(error.match(/ask an owner/gi)).toHaveLength(1);
    expect(error.match(/new one/gi)).toHaveLength(1);
    expect(harness.routeNativeElement?.querySelector('[data-testid=sign-in-link-confirm]')).toBeNull();
  });

  it('tells a disabled member to have the membership re-enabled, not to ask for another link', async () => {
    const { harness, error } = await refusedPreview('disabled', 'account_disabled', 'Your account or your membership in this organization is disabled or was removed.', {
      status: 403,
      statusText: 'Forbidden',
    });
    expect(error).toContain('Your account or your membership in this organization is disabled or was removed.');
    expect(error).toContain('Ask an owner of your organization to re-enable your membership.');
    expect(error).not.toContain('new one');
    expect(harness.routeNativeElement?.querySelector('button')).toBeNull();
  });

  it('explains a link without a token instead of offering a button that cannot work', async () => {
    const harness = await open('/sign-in-link');
    expect(harness.routeNativeElement?.querySelector('[data-testid=sign-in-link-missing]')).not.toBeNull();
    expect(harness.routeNativeElement?.querySelector('[data-testid=sign-in-link-confirm]')).toBeNull();
  });
});
