import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { MatDialog } from '@angular/material/dialog';
import { RecentOrganizationsService } from '../core/recent-organizations.service';
import { SessionService } from '../core/session.service';
import { query, settle, textOf } from '../../testing/dom';
import { ME, errorBody } from '../../testing/fixtures';
import { provideTestApp, verifyAndClearOverlays } from '../../testing/providers';
import { ShellComponent } from './shell.component';

describe('ShellComponent', () => {
  let fixture: ComponentFixture<ShellComponent>;
  let http: HttpTestingController;

  function render(role: 'owner' | 'admin' | 'editor' | 'viewer'): void {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = TestBed.createComponent(ShellComponent);
    fixture.detectChanges();
  }

  function navLabels(): string[] {
    return Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('nav a')).map((a) => (a.textContent ?? '').trim());
  }

  beforeEach(() => {
    localStorage.clear();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
  });

  afterEach(() => verifyAndClearOverlays(http));

  it('shows the organization and the signed-in person', () => {
    render('owner');
    expect(query(fixture, '[data-testid=org-name]').textContent?.trim()).toBe('Acme');
    expect(textOf(fixture)).toContain('Olga');
  });

  it('offers API tokens, single sign-on and the audit log to owners and admins only', () => {
    render('owner');
    expect(navLabels()).toEqual(['Overview', 'Services', 'Drafts', 'Members', 'API tokens', 'Single sign-on', 'Audit log']);
    fixture.destroy();
    render('editor');
    // Editors see only the sections whose API they may use.
    expect(navLabels()).toEqual(['Overview', 'Services', 'Drafts', 'Members']);
  });

  it('puts every destination of the navigation in the Tab order, and marks the current one', () => {
    render('owner');
    const links = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll<HTMLAnchorElement>('nav a'));
    expect(links).toHaveLength(7);
    for (const link of links) {
      // Links, not tabs: a tab list lets Tab reach only its selected tab (the others need the arrow keys).
      expect(link.getAttribute('href')).toBeTruthy();
      expect(link.tabIndex).toBe(0);
      expect(link.getAttribute('tabindex')).not.toBe('-1');
      expect(link.getAttribute('role')).toBeNull();
    }
    expect((fixture.nativeElement as HTMLElement).querySelector('nav [role=tablist]')).toBeNull();
    expect(query(fixture, 'nav').getAttribute('aria-label')).toBe('Organization sections');
  });

  const STATUS_URL = '/api/v1/orgs/acme/sso/sign-in-status';

  /** Answers the sign-out's question whether SSO has proven it lets people back in. */
  async function answerStatus(enabledProviders: number, provenProviders: number): Promise<void> {
    await settle(fixture);
    http.expectOne({ method: 'GET', url: STATUS_URL }).flush({ enabledProviders, provenProviders });
    await settle(fixture);
  }

  it('signs out and shows the signed-out page', async () => {
    render('owner');
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigateByUrl').mockResolvedValue(true);
    const signingOut = fixture.componentInstance.signOut();
    await answerStatus(1, 1);
    expect(fixture.componentInstance.signingOut()).toBe(true);
    http.expectOne({ method: 'POST', url: '/api/v1/auth/sign-out' }).flush(null, { status: 204, statusText: 'No Content' });
    await signingOut;
    expect(navigate).toHaveBeenCalledWith('/signed-out');
    expect(TestBed.inject(SessionService).me()).toBeNull();
  });

  it('tells the person when signing out failed', async () => {
    render('owner');
    const signingOut = fixture.componentInstance.signOut();
    await answerStatus(2, 1);
    http
      .expectOne({ method: 'POST', url: '/api/v1/auth/sign-out' })
      .flush(errorBody('csrf_failed', 'The request was refused because its CSRF token is missing.'), { status: 403, statusText: 'Forbidden' });
    await signingOut;
    await settle(fixture);
    expect(document.body.textContent).toContain('CSRF token is missing');
    expect(fixture.componentInstance.signingOut()).toBe(false);
    expect(TestBed.inject(SessionService).me()).not.toBeNull();
  });

  it('warns before signing out when no enabled SSO provider has had a successful sign-in, and offers an owner a sign-in link once', async () => {
    render('owner');
    jest.spyOn(TestBed.inject(Router), 'navigateByUrl').mockResolvedValue(true);
    const signingOut = fixture.componentInstance.signOut();
    await answerStatus(1, 0);
    const warning = document.querySelector('[data-testid=sign-out-warning]');
    expect(warning?.textContent).toContain('None of the single sign-on providers of Acme has had a successful sign-in yet');
    document.querySelector<HTMLButtonElement>('[data-testid=sign-out-get-link]')?.click();
    await settle(fixture);
    http.expectOne({ method: 'POST', url: '/api/v1/orgs/acme/members/u-olga/sign-in-link' }).flush({ url: 'http://localhost/sign-in-link#secret-token', expiresAt: '2026-03-10T12:15:00Z' });
    await settle(fixture);
    expect(document.querySelector<HTMLInputElement>('sc-one-time-secret input')?.value).toBe('http://localhost/sign-in-link#secret-token');
    // Shown once: no second link.
    expect(document.querySelector('[data-testid=sign-out-get-link]')).toBeNull();
    document.querySelector<HTMLButtonElement>('[data-testid=sign-out-anyway]')?.click();
    await settle(fixture);
    http.expectOne({ method: 'POST', url: '/api/v1/auth/sign-out' }).flush(null, { status: 204, statusText: 'No Content' });
    await signingOut;
    expect(TestBed.inject(SessionService).me()).toBeNull();
  });

  it('stays signed in when the person changes their mind, and offers no link to a non-owner', async () => {
    render('editor');
    const signingOut = fixture.componentInstance.signOut();
    await answerStatus(0, 0);
    expect(document.querySelector('[data-testid=sign-out-warning]')?.textContent).toContain('Acme has no enabled single sign-on provider');
    expect(document.querySelector('[data-testid=sign-out-get-link]')).toBeNull();
    document.querySelector<HTMLButtonElement>('[data-testid=sign-out-cancel]')?.click();
    await signingOut;
    http.expectNone('/api/v1/auth/sign-out');
    expect(TestBed.inject(SessionService).me()).not.toBeNull();
  });

  it('switches by sending the person to the other organization\'s sign-in page, for organizations this browser signed in to', async () => {
    TestBed.inject(RecentOrganizationsService).remember({ id: 'globex', name: 'Globex' });
    render('owner');
    expect(fixture.componentInstance.otherOrganizations()).toEqual([{ id: 'globex', name: 'Globex' }]);
    query(fixture, '[data-testid=user-menu]').click();
    await settle(fixture);
    const item = document.querySelector<HTMLAnchorElement>('[data-testid=switch-globex]');
    expect(item?.getAttribute('href')).toBe('/orgs/globex/sign-in');
    expect(item?.textContent).toContain('Globex');
    // The current organization is not offered, and nothing asks the server to move the session.
    expect(document.querySelector('[data-testid=switch-acme]')).toBeNull();
  });

  it('opens the sign-in page of any other organization by its id', async () => {
    render('viewer');
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    const choosing = fixture.componentInstance.signInElsewhere();
    await settle(fixture);
    const input = document.querySelector<HTMLInputElement>('sc-sign-in-elsewhere-dialog input');
    if (!input) throw new Error('dialog not open');
    input.value = 'Not An Id';
    input.dispatchEvent(new Event('input'));
    document.querySelector<HTMLButtonElement>('sc-sign-in-elsewhere-dialog button[type=submit]')?.click();
    await settle(fixture);
    expect(document.body.textContent).toContain('Use 2–63 lowercase letters');
    input.value = ' initech ';
    input.dispatchEvent(new Event('input'));
    document.querySelector<HTMLButtonElement>('sc-sign-in-elsewhere-dialog button[type=submit]')?.click();
    await choosing;
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'initech', 'sign-in']);
  });

  it('offers creating organizations to owners of this organization only', () => {
    render('owner');
    expect(fixture.componentInstance.canCreateOrganization()).toBe(true);
    fixture.destroy();
    render('admin');
    expect(fixture.componentInstance.canCreateOrganization()).toBe(false);
  });

  it('enters a created organization: the server signed the browser in there', async () => {
    render('owner');
    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    const creating = fixture.componentInstance.createOrganization();
    await settle(fixture);
    TestBed.inject(MatDialog).openDialogs[0].close({ id: 'globex', name: 'Globex', createdAt: '' });
    await settle(fixture);
    http.expectOne('/api/v1/me').flush({ ...ME, organization: { id: 'globex', name: 'Globex', createdAt: '' } });
    await creating;
    expect(navigate).toHaveBeenCalledWith(['/orgs', 'globex']);
    expect(TestBed.inject(SessionService).organizationId()).toBe('globex');
    expect(document.body.textContent).toContain('Globex was created');
  });
});
