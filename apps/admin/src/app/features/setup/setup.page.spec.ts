import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { provideTestApp } from '../../../testing/providers';
import { ME, errorBody } from '../../../testing/fixtures';
import { query, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { SetupPage } from './setup.page';

describe('SetupPage', () => {
  let fixture: ComponentFixture<SetupPage>;
  let http: HttpTestingController;

  async function open(token: string | undefined, required = true): Promise<void> {
    fixture = TestBed.createComponent(SetupPage);
    fixture.componentRef.setInput('token', token);
    fixture.detectChanges();
    http.expectOne('/api/v1/setup').flush({ required });
    await settle(fixture);
  }

  function fillForm(): void {
    typeInto(fixture, 'input[formcontrolname=organizationName]', 'Acme Corp');
    typeInto(fixture, 'input[formcontrolname=ownerEmail]', 'olga@acme.test');
    typeInto(fixture, 'input[formcontrolname=ownerName]', 'Olga');
    fixture.detectChanges();
  }

  const submit = () => submitForm(fixture);

  beforeEach(() => {
    TestBed.configureTestingModule({
      providers: provideTestApp(),
    });
    http = TestBed.inject(HttpTestingController);
  });

  afterEach(() => http.verify());

  it('suggests the organization id from the name and sends the setup call with the URL token', async () => {
    await open('setup-token-123');
    expect(fixture.nativeElement.querySelector('input[formcontrolname=setupToken]')).toBeNull();
    fillForm();
    expect(query<HTMLInputElement>(fixture, 'input[formcontrolname=organizationId]').value).toBe('acme-corp');

    submit();
    const request = http.expectOne('/api/v1/setup');
    expect(request.request.method).toBe('POST');
    expect(request.request.body).toEqual({
      token: 'setup-token-123',
      organization: { id: 'acme-corp', name: 'Acme Corp' },
      owner: { email: 'olga@acme.test', name: 'Olga' },
    });
    request.flush(
      {
        organization: { id: 'acme-corp', name: 'Acme Corp', createdAt: '2026-01-01T00:00:00Z' },
        user: ME.user,
        apiToken: { token: 'sct_secret_value', apiToken: { id: 't1', name: 'Setup', prefix: 'sct_secr', scopes: ['admin'] } },
      },
      { status: 201, statusText: 'Created' },
    );
    await settle(fixture);

    expect(textOf(fixture)).toContain('shown only once');
    expect(query<HTMLInputElement>(fixture, '[data-testid=one-time-secret]').value).toBe('sct_secret_value');
  });

  it('keeps an id the person typed instead of overwriting it from the name', async () => {
    await open('t');
    typeInto(fixture, 'input[formcontrolname=organizationId]', 'acme');
    typeInto(fixture, 'input[formcontrolname=organizationName]', 'Acme Corporation');
    expect(query<HTMLInputElement>(fixture, 'input[formcontrolname=organizationId]').value).toBe('acme');
  });

  it('shows validation messages and sends nothing while the form is incomplete', async () => {
    await open(undefined);
    typeInto(fixture, 'input[formcontrolname=ownerEmail]', 'not-an-email');
    submit();
    const text = textOf(fixture);
    expect(text).toContain('Enter the setup token.');
    expect(text).toContain("Enter the organization's name.");
    expect(text).toContain('Enter a valid email address');
    http.expectNone('/api/v1/setup');
  });

  it("shows the server's validation details next to the form", async () => {
    await open('t');
    fillForm();
    submit();
    http
      .expectOne('/api/v1/setup')
      .flush(errorBody('validation_failed', 'The request is invalid.', [{ path: 'organization.id', message: 'id is taken' }]), {
        status: 400,
        statusText: 'Bad Request',
      });
    await settle(fixture);
    const alert = query(fixture, '[role=alert]');
    expect(alert.textContent).toContain('The request is invalid.');
    expect(alert.textContent).toContain('organization.id: id is taken');
  });

  it('says the server is already set up when setup is no longer required', async () => {
    await open('t', false);
    expect(textOf(fixture)).toContain('already set up');
    expect(fixture.nativeElement.querySelector('form')).toBeNull();
  });

  it('switches to "already set up" when someone else finished setup first (409)', async () => {
    await open('t');
    fillForm();
    submit();
    http.expectOne('/api/v1/setup').flush(errorBody('setup_already_done', 'An organization already exists.'), {
      status: 409,
      statusText: 'Conflict',
    });
    await settle(fixture);
    expect(textOf(fixture)).toContain('An organization already exists.');
    expect(fixture.nativeElement.querySelector('form')).toBeNull();
  });

  it('continues to the new organization after loading the session', async () => {
    const router = TestBed.inject(Router);
    const navigate = jest.spyOn(router, 'navigate').mockResolvedValue(true);
    await open('t');
    fillForm();
    submit();
    http.expectOne('/api/v1/setup').flush({
      organization: { id: 'acme-corp', name: 'Acme Corp', createdAt: '2026-01-01T00:00:00Z' },
      user: ME.user,
      apiToken: { token: 'sct_x', apiToken: {} },
    });
    await settle(fixture);
    query<HTMLButtonElement>(fixture, '[data-testid=setup-continue]').click();
    http.expectOne('/api/v1/me').flush({ ...ME, organization: { id: 'acme-corp', name: 'Acme Corp', createdAt: '' } });
    await settle(fixture);
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'acme-corp']);
  });
});
