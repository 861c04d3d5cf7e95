import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { query, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { errorBody, ssoProvider as provider } from '../../../testing/fixtures';
import { setUpTestApp } from '../../../testing/providers';
import { ProviderEditorPage } from './provider-editor.page';
import { provideSsoIcons } from './sso-icons';

const BASE = '/api/v1/orgs/acme/sso';

describe('ProviderEditorPage', () => {
  let fixture: ComponentFixture<ProviderEditorPage>;
  let http: HttpTestingController;

  /** Renders the page; a provider being loaded keeps the app unstable until its request is answered. */
  function create(inputs: Record<string, string>): void {
    fixture = TestBed.createComponent(ProviderEditorPage);
    fixture.componentRef.setInput('orgId', 'acme');
    for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
    fixture.detectChanges();
  }

  function labels(): string[] {
    return Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('mat-label')).map((label) => (label.textContent ?? '').trim());
  }

  function chooseType(label: string): void {
    const toggles = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLButtonElement>('mat-button-toggle button'));
    const toggle = toggles.find((button) => button.textContent?.includes(label));
    if (!toggle) throw new Error(`no type ${label}`);
    toggle.click();
    fixture.detectChanges();
  }

  function inputLabelled(label: string): HTMLInputElement {
    const field = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('mat-form-field')).find(
      (candidate) => candidate.querySelector('mat-label')?.textContent?.trim() === label,
    );
    const input = field?.querySelector<HTMLInputElement>('input, textarea');
    if (!input) throw new Error(`no field ${label}; have ${labels().join(', ')}`);
    return input;
  }

  function type(label: string, value: string): void {
    const input = inputLabelled(label);
    input.value = value;
    input.dispatchEvent(new Event('input'));
    input.dispatchEvent(new Event('blur'));
    fixture.detectChanges();
  }

  const submit = () => submitForm(fixture, '[data-testid=provider-form]');

  beforeEach(() => (http = setUpTestApp([provideSsoIcons()])));

  afterEach(() => http.verify());

  describe('creating', () => {
    beforeEach(async () => {
      create({});
      http.expectOne(`${BASE}/public-url`).flush({ publicUrl: 'https://context.example.com' });
      await settle(fixture);
    });

    it('shows the callback URL on the Configuration tab as soon as the slug is typed', async () => {
      const tabLabelled = (label: string) =>
        Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLElement>('[role=tab]')).find((tab) => tab.textContent?.includes(label)) as HTMLElement;
      const configurationTab = () => tabLabelled('Configuration');
      expect(configurationTab().getAttribute('aria-disabled')).toBe('true');
      type('Slug', 'corp-kc');
      await settle(fixture);
      expect(configurationTab().getAttribute('aria-disabled')).toBe('false');
      configurationTab().click();
      await settle(fixture);
      expect(query<HTMLInputElement>(fixture, '[data-testid=callback-url]').value).toBe('https://context.example.com/api/v1/auth/orgs/acme/callback/corp-kc');
      expect(query(fixture, '[data-testid=configuration-after-save]').textContent).toContain('once the provider is saved');
      expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=provider-test]')).toBeNull();
      // An invalid slug has no callback URL yet.
      tabLabelled('Settings').click();
      await settle(fixture);
      type('Slug', 'Not A Slug');
      await settle(fixture);
      expect(configurationTab().getAttribute('aria-disabled')).toBe('true');
    });

    it('shows only the chosen type’s fields and previews its endpoints as the admin types', async () => {
      expect(labels()).toEqual(expect.arrayContaining(['Authorization URL', 'Token URL', 'UserInfo URL']));
      expect(labels()).not.toContain('Okta domain');

      chooseType('Okta');
      expect(labels()).toContain('Okta domain');
      expect(labels()).not.toContain('Authorization URL');
      expect(labels()).not.toContain('Directory (tenant) ID');
      type('Okta domain', 'acme.okta.com');
      await settle(fixture);
      expect(query(fixture, '[data-testid=endpoint-preview]').textContent).toContain('https://acme.okta.com/oauth2/v1/token');

      chooseType('Microsoft Entra ID');
      expect(labels()).toEqual(expect.arrayContaining(['Directory (tenant) ID', 'Cloud']));
      expect(labels()).not.toContain('Okta domain');
      type('Directory (tenant) ID', 'contoso.onmicrosoft.com');
      await settle(fixture);
      expect(query(fixture, '[data-testid=endpoint-preview]').textContent).toContain(
        'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize',
      );
    });

    it('SAML: asks for the IdP metadata instead of a client, and shows the SP values to register', async () => {
      chooseType('SAML 2.0');
      await settle(fixture);
      expect(labels()).toEqual(expect.arrayContaining(['IdP metadata URL', '…or IdP metadata XML']));
      for (const gone of ['Client ID', 'Client secret', 'Scopes', 'Authorization URL']) expect(labels()).not.toContain(gone);
      expect(inputLabelled('Subject claim').value).toBe('nameID');
      type('Display name', 'Corp SAML');
      type('IdP metadata URL', 'https://idp.test/metadata');
      await settle(fixture);
      const configurationTab = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLElement>('[role=tab]')).find((tab) => tab.textContent?.includes('Configuration')) as HTMLElement;
      configurationTab.click();
      await settle(fixture);
      expect(query<HTMLInputElement>(fixture, '[data-testid=saml-acs-url]').value).toBe('https://context.example.com/api/v1/auth/orgs/acme/saml/corp-saml/acs');
      expect(query<HTMLInputElement>(fixture, '[data-testid=saml-entity-id]').value).toBe('https://context.example.com/api/v1/auth/orgs/acme/saml/corp-saml/metadata');
    });

    it('hints at user:email while the UserInfo URL is GitHub’s', async () => {
      type('UserInfo URL', 'https://api.github.com/user');
      await settle(fixture);
      expect(query(fixture, '[data-testid=github-hint]').textContent).toContain('user:email');
      type('Scopes', 'read:user user:email');
      await settle(fixture);
      expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=github-hint]')).toBeNull();
    });

    it('imports discovery into the form and says whether client_secret_post is supported', async () => {
      typeInto(fixture, '[data-testid=discovery] input', 'https://kc.test/realms/acme');
      fixture.detectChanges();
      query<HTMLButtonElement>(fixture, '[data-testid=discovery-import]').click();
      const request = http.expectOne(`${BASE}/discovery`);
      expect(request.request.body).toEqual({ issuer: 'https://kc.test/realms/acme' });
      request.flush({
        issuer: 'https://kc.test/realms/acme',
        authorization_endpoint: 'https://kc.test/realms/acme/auth',
        token_endpoint: 'https://kc.test/realms/acme/token',
        userinfo_endpoint: 'https://kc.test/realms/acme/userinfo',
        jwks_uri: 'https://kc.test/realms/acme/certs',
        client_secret_post_supported: false,
        scopes_supported: ['openid'],
        warnings: ['The token endpoint does not list client_secret_post.'],
      });
      await settle(fixture);
      expect(inputLabelled('Authorization URL').value).toBe('https://kc.test/realms/acme/auth');
      expect(inputLabelled('JWKS URI (optional)').value).toBe('https://kc.test/realms/acme/certs');
      // Said once: the server's warning (with the methods it does list), not a second sentence of the page's own.
      expect(textOf(fixture)).toContain('The token endpoint does not list client_secret_post.');
      expect(textOf(fixture).match(/does not list client_secret_post/g)).toHaveLength(1);
    });

    it('shows a refused issuer once, though the answer also names the field in its details', async () => {
      typeInto(fixture, '[data-testid=discovery] input', 'http://kc.test/realms/acme');
      fixture.detectChanges();
      query<HTMLButtonElement>(fixture, '[data-testid=discovery-import]').click();
      const message = 'http://kc.test uses plain http; use https (no host may use http unless an operator lists it in SERVICE_SSO_ALLOW_HTTP_HOSTS).';
      http.expectOne(`${BASE}/discovery`).flush(errorBody('outbound_url_refused', message, [{ path: 'issuer', message }]), { status: 400, statusText: 'Bad Request' });
      await settle(fixture);
      const banner = query(fixture, '[data-testid=discovery] [role=alert]').textContent ?? '';
      expect(banner.split('uses plain http')).toHaveLength(2);
    });

    it('creates the provider with the type’s fields and ordered rules, then opens its Configuration tab', async () => {
      const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
      type('Display name', 'Keycloak');
      type('Slug', 'kc');
      type('Authorization URL', 'https://kc.test/auth');
      type('Token URL', 'https://kc.test/token');
      type('UserInfo URL', 'https://kc.test/userinfo');
      type('Client ID', 'client');
      type('Client secret', 'secret');
      type('Allowed email domains', 'acme.test, Example.com');
      query<HTMLButtonElement>(fixture, '[data-testid=rule-add]').click();
      fixture.detectChanges();
      type('Value', 'admins');
      submit();

      const request = http.expectOne({ method: 'POST', url: `${BASE}/providers` });
      expect(request.request.body).toMatchObject({
        slug: 'kc',
        type: 'generic',
        clientSecret: 'secret',
        allowedDomains: ['acme.test', 'example.com'],
        claimRules: [{ claim: 'groups', operator: 'contains', value: 'admins', role: 'editor' }],
      });
      expect(request.request.body).not.toHaveProperty('domain');
      request.flush(provider());
      await settle(fixture);
      expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme', 'settings', 'sso', 'kc'], { queryParams: { tab: 'configuration', created: '1' } });
    });

    it('does not send an incomplete form', async () => {
      submit();
      await settle(fixture);
      http.expectNone(`${BASE}/providers`);
      expect(textOf(fixture)).toContain('Enter the authorization URL.');
      expect(textOf(fixture)).toContain('Enter the client secret.');
    });

    it('shows the server’s validation details next to their fields', async () => {
      type('Display name', 'Keycloak');
      type('Slug', 'kc');
      type('Authorization URL', 'http://kc.example/auth');
      type('Token URL', 'https://kc.test/token');
      type('UserInfo URL', 'https://kc.test/userinfo');
      type('Client ID', 'client');
      type('Client secret', 'secret');
      type('Allowed email domains', 'not a domain!');
      submit();
      http.expectOne(`${BASE}/providers`).flush(
        errorBody('invalid_provider_config', 'The provider configuration has 2 problems.', [
          { path: 'authUrl', message: 'authUrl: plain http is only allowed for localhost.' },
          { path: 'allowedDomains[0]', message: '"not" is not an email domain.' },
        ]),
        { status: 400, statusText: 'Bad Request' },
      );
      await settle(fixture);
      const authField = inputLabelled('Authorization URL').closest('mat-form-field') as HTMLElement;
      expect(authField.textContent).toContain('plain http is only allowed for localhost');
      const domainsField = inputLabelled('Allowed email domains').closest('mat-form-field') as HTMLElement;
      expect(domainsField.textContent).toContain('"not" is not an email domain.');
      expect(textOf(fixture)).toContain('The provider configuration has 2 problems.');
    });
  });

  describe('editing', () => {
    beforeEach(async () => {
      create({ slug: 'kc' });
      http.expectOne(`${BASE}/providers/kc`).flush(provider());
      await settle(fixture);
    });

    it('loads the provider: slug locked and explained, secret write-only, rules in order', () => {
      expect(inputLabelled('Slug').disabled).toBe(true);
      expect(query(fixture, '[data-testid=slug-immutable]').textContent).toContain('Permanent');
      expect(query(fixture, '[data-testid=secret-state]').textContent).toContain('Set');
      expect(labels()).not.toContain('Client secret');
      const claims = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLInputElement>('[data-testid^=rule-] input[formcontrolname=claim]'));
      expect(claims.map((input) => input.value)).toEqual(['groups', 'email_verified']);
    });

    it('reorders rules with the arrow buttons and saves without slug or secret', async () => {
      query<HTMLButtonElement>(fixture, '[aria-label="Move rule 2 up"]').click();
      fixture.detectChanges();
      submit();
      const request = http.expectOne({ method: 'PATCH', url: `${BASE}/providers/kc` });
      expect(request.request.body).not.toHaveProperty('slug');
      expect(request.request.body).not.toHaveProperty('clientSecret');
      expect(request.request.body.claimRules).toEqual([
        { claim: 'email_verified', operator: 'exists', role: 'editor' },
        { claim: 'groups', operator: 'contains', value: 'admins', role: 'admin' },
      ]);
      request.flush(provider());
      await settle(fixture);
    });

    it('sends a replacement secret only after Replace', async () => {
      query<HTMLButtonElement>(fixture, '[data-testid=secret-replace]').click();
      fixture.detectChanges();
      type('New client secret', 'rotated');
      submit();
      const request = http.expectOne({ method: 'PATCH', url: `${BASE}/providers/kc` });
      expect(request.request.body.clientSecret).toBe('rotated');
      request.flush(provider());
      await settle(fixture);
      expect(labels()).not.toContain('New client secret');
    });

    it('shows the callback URL with a warning when it is http on a public host', async () => {
      fixture.componentInstance.selectedTab.set(1);
      fixture.detectChanges();
      await settle(fixture);
      expect(query<HTMLInputElement>(fixture, '[data-testid=callback-url]').value).toBe('http://sso.acme.test/api/v1/auth/orgs/acme/callback/kc');
      expect(query(fixture, '[data-testid=callback-warning]').textContent).toContain('SERVICE_PUBLIC_URL');
      // The server's own wording of the same advice is not repeated; its other warnings are shown.
      expect(textOf(fixture)).not.toContain('most providers refuse it.');
      expect(textOf(fixture)).toContain('No JWKS URI');
    });
  });
});
