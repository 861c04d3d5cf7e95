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

  it('greets a provider just created', async () => {
    fixture.componentRef.setInput('created', true);
    await settle(fixture);
    expect(query(fixture, '[data-testid=provider-created]').textContent).toContain('Provider created.');
  });
});
