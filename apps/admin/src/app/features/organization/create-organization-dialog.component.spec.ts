import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialogRef } from '@angular/material/dialog';
import { query, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { errorBody } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { CreateOrganizationDialogComponent } from './create-organization-dialog.component';

describe('CreateOrganizationDialogComponent', () => {
  let fixture: ComponentFixture<CreateOrganizationDialogComponent>;
  let http: HttpTestingController;
  const close = jest.fn();

  beforeEach(() => {
    close.mockReset();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), { provide: MatDialogRef, useValue: { close } }] });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(CreateOrganizationDialogComponent);
    fixture.detectChanges();
  });

  afterEach(() => http.verify());

  const submit = () => submitForm(fixture);

  it('creates the organization with the suggested id and closes with it', async () => {
    typeInto(fixture, 'input[formcontrolname=name]', 'Globex Research');
    expect(query<HTMLInputElement>(fixture, 'input[formcontrolname=id]').value).toBe('globex-research');
    submit();
    const request = http.expectOne({ method: 'POST', url: '/api/v1/orgs' });
    expect(request.request.body).toEqual({ id: 'globex-research', name: 'Globex Research' });
    const created = { id: 'globex-research', name: 'Globex Research', createdAt: '2026-01-01T00:00:00Z' };
    request.flush(created, { status: 201, statusText: 'Created' });
    await settle(fixture);
    expect(close).toHaveBeenCalledWith(created);
  });

  it('refuses an id that is not URL-safe without calling the server', () => {
    typeInto(fixture, 'input[formcontrolname=name]', 'Globex');
    typeInto(fixture, 'input[formcontrolname=id]', 'Globex Inc');
    submit();
    expect(textOf(fixture)).toContain('Use 2–63 lowercase letters');
    http.expectNone('/api/v1/orgs');
  });

  it('stays open and explains a taken id', async () => {
    typeInto(fixture, 'input[formcontrolname=name]', 'Acme');
    submit();
    http.expectOne('/api/v1/orgs').flush(errorBody('organization_exists', 'The organization id "acme" is taken.'), {
      status: 409,
      statusText: 'Conflict',
    });
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('is taken');
    expect(close).not.toHaveBeenCalled();
  });
});
