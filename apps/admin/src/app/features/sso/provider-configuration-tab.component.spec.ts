import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { query, settle, textOf } from '../../../testing/dom';
import { errorBody, ssoProvider } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { ProviderConfigurationTabComponent } from './provider-configuration-tab.component';
import { provideSsoIcons } from './sso-icons';

describe('ProviderConfigurationTabComponent', () => {
  let fixture: ComponentFixture<ProviderConfigurationTabComponent>;
  let http: HttpTestingController;

  beforeEach(async () => {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), provideSsoIcons()] });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(ProviderConfigurationTabComponent);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.componentRef.setInput('provider', ssoProvider());
    fixture.componentRef.setInput('callbackUrl', ssoProvider().callbackUrl);
    await settle(fixture);
  });

  afterEach(() => http.verify());

  const testButton = (): HTMLButtonElement => query<HTMLButtonElement>(fixture, '[data-testid=provider-test]');

  it('waits with the test sign-in while the form has unsaved changes', async () => {
    fixture.componentRef.setInput('unsaved', true);
    await settle(fixture);
    expect(testButton().disabled).toBe(true);
    expect(query(fixture, '[data-testid=test-unsaved]').textContent).toContain('Save your changes first');
  });

  it('shows why the test could not start and lets the admin try again', async () => {
    testButton().click();
    fixture.detectChanges();
    expect(testButton().disabled).toBe(true);
    http
      .expectOne({ method: 'POST', url: '/api/v1/orgs/acme/sso/providers/kc/test' })
      .flush(errorBody('sso_provider_not_found', 'There is no SSO provider kc.'), { status: 404, statusText: 'Not Found' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('There is no SSO provider kc.');
    expect(testButton().disabled).toBe(false);
  });

  it('shows a SAML provider’s entity ID, ACS URL and metadata link to copy, and its IdP', async () => {
    const sp = { spEntityId: 'https://sc.test/api/v1/auth/orgs/acme/saml/corp/metadata', acsUrl: 'https://sc.test/api/v1/auth/orgs/acme/saml/corp/acs', metadataUrl: 'https://sc.test/api/v1/auth/orgs/acme/saml/corp/metadata' };
    fixture.componentRef.setInput('saml', sp);
    fixture.componentRef.setInput('provider', ssoProvider({ type: 'saml', slug: 'corp', saml: { ...sp, idpEntityId: 'https://idp.test/entity', idpSsoUrl: 'https://idp.test/sso', idpSigningCertificates: 1 } }));
    await settle(fixture);
    expect(textOf(fixture)).toContain('Service provider (SAML)');
    expect(textOf(fixture)).not.toContain('Callback URL');
    expect(query<HTMLInputElement>(fixture, '[data-testid=saml-acs-url]').value).toBe(sp.acsUrl);
    expect(query<HTMLInputElement>(fixture, '[data-testid=saml-entity-id]').value).toBe(sp.spEntityId);
    expect(query<HTMLAnchorElement>(fixture, '[data-testid=saml-metadata-open]').href).toBe(sp.metadataUrl);
    expect(query(fixture, '[data-testid=saml-idp]').textContent).toContain('https://idp.test/sso');
  });

  it('greets a provider just created', async () => {
    fixture.componentRef.setInput('created', true);
    await settle(fixture);
    expect(query(fixture, '[data-testid=provider-created]').textContent).toContain('Provider created.');
  });
});
