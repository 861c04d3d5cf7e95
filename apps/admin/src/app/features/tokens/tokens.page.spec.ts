import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { SessionService } from '../../core/session.service';
import { clickDialogButton, dialogOpened, query, rowsText, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { ME, apiToken, errorBody, gatewayInfo } from '../../../testing/fixtures';
import { createWithInputs, setUpTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { TokensPage } from './tokens.page';

const BASE = '/api/v1/orgs/acme/tokens';

describe('TokensPage', () => {
  let fixture: ComponentFixture<TokensPage>;
  let http: HttpTestingController;

  async function open(tokens = [apiToken()], role: 'owner' | 'viewer' = 'owner'): Promise<void> {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = createWithInputs(TokensPage, { orgId: 'acme' });
    fixture.detectChanges();
    http.expectOne(BASE).flush(tokens);
    http.expectOne('/api/v1/gateway/info').flush(gatewayInfo());
    await settle(fixture);
  }

  /** Opens the page without tokens, with its create form shown. */
  async function openEmptyWithForm(): Promise<void> {
    await open([]);
    fixture.componentInstance.openForm();
    fixture.detectChanges();
  }

  beforeEach(() => (http = setUpTestApp()));

  afterEach(() => verifyAndClearOverlays(http));

  it('lists tokens with prefix, scopes, last use, expiry and status', async () => {
    await open([
      apiToken({ name: 'CI', scopes: ['sync', 'read'], expiresAt: '2999-01-01T00:00:00Z' }),
      apiToken({ id: 't2', name: 'Old', revokedAt: '2026-01-05T00:00:00Z' }),
      apiToken({ id: 't3', name: 'Lapsed', expiresAt: '2020-01-01T00:00:00Z' }),
    ]);
    const [ci, old, lapsed] = rowsText(fixture);
    for (const shown of ['sct_ab12cd34…', 'sync', 'read', 'Never', 'Active', 'Revoke']) expect(ci).toContain(shown);
    expect(old).toContain('Revoked');
    expect(old).not.toContain('Revoke ');
    expect(lapsed).toContain('Expired');
  });

  it('names the member who created each token', async () => {
    await open([apiToken(), apiToken({ id: 't2', createdByUserId: null, createdBy: null }), apiToken({ id: 't3', createdByUserId: 'u-gone', createdBy: null })]);
    expect(query(fixture, '[data-testid=created-by-t1]').textContent?.trim()).toBe('Olga');
    expect(query(fixture, '[data-testid=created-by-t1]').getAttribute('title')).toBe('olga@acme.test');
    expect(query(fixture, '[data-testid=created-by-t2]').textContent?.trim()).toBe('Unknown (before creators were recorded)');
    expect(query(fixture, '[data-testid=created-by-t3]').textContent?.trim()).toBe('A removed user');
  });

  it('shows an empty state without tokens', async () => {
    await open([]);
    expect(query(fixture, '[data-testid=tokens-empty]').textContent).toContain('No API tokens yet');
  });

  it("explains the server's refusal when a viewer opens the page and offers no create button", async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'viewer' });
    fixture = createWithInputs(TokensPage, { orgId: 'acme' });
    fixture.detectChanges();
    http.expectOne(BASE).flush(errorBody('forbidden', 'Your role viewer does not allow this; admin is required.'), {
      status: 403,
      statusText: 'Forbidden',
    });
    http.expectOne('/api/v1/gateway/info').flush(gatewayInfo());
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('admin is required');
    expect(fixture.nativeElement.querySelector('[data-testid=token-new]')).toBeNull();
  });

  it('creates a token with the chosen scopes and expiry and shows the secret once', async () => {
    await open([]);
    query<HTMLButtonElement>(fixture, '[data-testid=token-new]').click();
    fixture.detectChanges();
    typeInto(fixture, 'input[formcontrolname=name]', 'GitHub Actions');
    const form = fixture.componentInstance.form;
    form.controls.read.setValue(true);
    form.controls.expiry.setValue('never');
    submitForm(fixture, '[data-testid=token-form]');

    const request = http.expectOne({ method: 'POST', url: BASE });
    expect(request.request.body).toEqual({ name: 'GitHub Actions', scopes: ['sync', 'read'] });
    request.flush({ token: 'sct_the_secret', apiToken: apiToken({ id: 'new', name: 'GitHub Actions', scopes: ['sync', 'read'] }) }, {
      status: 201,
      statusText: 'Created',
    });
    await settle(fixture);

    expect(query<HTMLInputElement>(fixture, '[data-testid=one-time-secret]').value).toBe('sct_the_secret');
    expect(textOf(fixture)).toContain('shown only once');
    expect(rowsText(fixture)[0]).toContain('GitHub Actions');

    const done = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Done');
    done?.click();
    fixture.detectChanges();
    expect(fixture.nativeElement.querySelector('[data-testid=one-time-secret]')).toBeNull();
  });

  it('sends an expiry for a preset duration', async () => {
    await openEmptyWithForm();
    typeInto(fixture, 'input[formcontrolname=name]', 'Nightly');
    fixture.componentInstance.form.controls.expiry.setValue('30');
    const before = Date.now();
    submitForm(fixture, '[data-testid=token-form]');
    const body = http.expectOne({ method: 'POST', url: BASE }).request.body as { expiresAt: string };
    const days = (new Date(body.expiresAt).getTime() - before) / (24 * 3600 * 1000);
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
  });

  it('requires a name and at least one scope', async () => {
    await openEmptyWithForm();
    fixture.componentInstance.form.controls.sync.setValue(false);
    submitForm(fixture, '[data-testid=token-form]');
    const text = textOf(fixture);
    expect(text).toContain('Enter a name for the token.');
    expect(text).toContain('Choose at least one scope.');
    http.expectNone({ method: 'POST', url: BASE });
  });

  it('refuses a custom expiry date in the past', async () => {
    await openEmptyWithForm();
    typeInto(fixture, 'input[formcontrolname=name]', 'x');
    fixture.componentInstance.form.controls.expiry.setValue('custom');
    fixture.componentInstance.form.controls.customDate.setValue('2001-01-01');
    submitForm(fixture, '[data-testid=token-form]');
    expect(textOf(fixture)).toContain('Pick an expiry date in the future.');
    http.expectNone({ method: 'POST', url: BASE });
  });

  it("shows the server's refusal inside the form", async () => {
    await openEmptyWithForm();
    typeInto(fixture, 'input[formcontrolname=name]', 'x');
    submitForm(fixture, '[data-testid=token-form]');
    http
      .expectOne({ method: 'POST', url: BASE })
      .flush(errorBody('validation_failed', 'The request is invalid.', [{ path: 'expiresAt', message: 'must be in the future' }]), {
        status: 400,
        statusText: 'Bad Request',
      });
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('expiresAt: must be in the future');
  });

  it('revokes a token after confirmation and shows it as revoked', async () => {
    const token = apiToken();
    await open([token]);
    const revoking = fixture.componentInstance.revoke(token);
    await dialogOpened(fixture);
    expect(document.body.textContent).toContain('Revoke “CI”?');
    clickDialogButton('Revoke token');
    await settle(fixture);
    http.expectOne({ method: 'DELETE', url: `${BASE}/t1` }).flush({ ...token, revokedAt: '2026-03-01T00:00:00Z' });
    await revoking;
    fixture.detectChanges();
    expect(rowsText(fixture)[0]).toContain('Revoked');
  });

  it('does nothing when revocation is cancelled', async () => {
    const token = apiToken();
    await open([token]);
    const revoking = fixture.componentInstance.revoke(token);
    await dialogOpened(fixture);
    clickDialogButton('Cancel');
    await revoking;
    http.expectNone({ method: 'DELETE', url: `${BASE}/t1` });
  });
});
