import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { SessionService } from '../core/session.service';
import { query, settle, textOf } from '../../testing/dom';
import { ME, errorBody } from '../../testing/fixtures';
import { provideTestApp } from '../../testing/providers';
import { ShellComponent } from './shell.component';

describe('ShellComponent', () => {
  let fixture: ComponentFixture<ShellComponent>;
  let http: HttpTestingController;

  function render(role: 'owner' | 'editor'): void {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = TestBed.createComponent(ShellComponent);
    fixture.detectChanges();
  }

  function navLabels(): string[] {
    return Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('nav a')).map((a) => (a.textContent ?? '').trim());
  }

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
  });

  afterEach(() => {
    http.verify();
    document.querySelectorAll('.cdk-overlay-container').forEach((element) => (element.innerHTML = ''));
  });

  it('shows the organization and the signed-in person', () => {
    render('owner');
    expect(query(fixture, '[data-testid=org-name]').textContent?.trim()).toBe('Acme');
    expect(textOf(fixture)).toContain('Olga');
  });

  it('offers API tokens, single sign-on and the audit log to owners and admins only', () => {
    render('owner');
    expect(navLabels()).toEqual(['Overview', 'Services', 'Members', 'API tokens', 'Single sign-on', 'Audit log']);
    fixture.destroy();
    render('editor');
    // Editors see only the sections whose API they may use.
    expect(navLabels()).toEqual(['Overview', 'Services', 'Members']);
  });

  it('signs out and shows the signed-out page', async () => {
    render('owner');
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigateByUrl').mockResolvedValue(true);
    const signingOut = fixture.componentInstance.signOut();
    expect(fixture.componentInstance.signingOut()).toBe(true);
    http.expectOne({ method: 'POST', url: '/api/v1/auth/sign-out' }).flush(null, { status: 204, statusText: 'No Content' });
    await signingOut;
    expect(navigate).toHaveBeenCalledWith('/signed-out');
    expect(TestBed.inject(SessionService).me()).toBeNull();
  });

  it('tells the person when signing out failed', async () => {
    render('owner');
    const signingOut = fixture.componentInstance.signOut();
    http
      .expectOne({ method: 'POST', url: '/api/v1/auth/sign-out' })
      .flush(errorBody('csrf_failed', 'The request was refused because its CSRF token is missing.'), { status: 403, statusText: 'Forbidden' });
    await signingOut;
    await settle(fixture);
    expect(document.body.textContent).toContain('CSRF token is missing');
    expect(fixture.componentInstance.signingOut()).toBe(false);
    expect(TestBed.inject(SessionService).me()).not.toBeNull();
  });

  it('offers switching to the other organizations of the person', async () => {
    TestBed.inject(SessionService).adopt({
      ...ME,
      organizations: [...ME.organizations, { id: 'globex', name: 'Globex', role: 'viewer' }],
    });
    fixture = TestBed.createComponent(ShellComponent);
    fixture.detectChanges();
    expect(fixture.componentInstance.otherOrganizations().map((org) => org.id)).toEqual(['globex']);
    expect(fixture.componentInstance.canCreateOrganization()).toBe(true);
  });

  it('does not offer creating organizations to someone who owns none', () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'admin', organizations: [{ id: 'acme', name: 'Acme', role: 'admin' }] });
    fixture = TestBed.createComponent(ShellComponent);
    fixture.detectChanges();
    expect(fixture.componentInstance.canCreateOrganization()).toBe(false);
    expect(fixture.componentInstance.otherOrganizations()).toEqual([]);
  });
});
