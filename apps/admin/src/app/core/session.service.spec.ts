import { HttpClient } from '@angular/common/http';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { provideTestApp } from '../../testing/providers';
import { ME, errorBody } from '../../testing/fixtures';
import { ApiError } from './api-error';
import { RecentOrganizationsService } from './recent-organizations.service';
import { SessionService } from './session.service';

const ERROR_401 = errorBody('unauthenticated', 'Sign in first.');

describe('SessionService', () => {
  let service: SessionService;
  let http: HttpTestingController;
  let router: Router;

  beforeEach(() => {
    localStorage.clear();
    TestBed.configureTestingModule({
      providers: provideTestApp(),
    });
    service = TestBed.inject(SessionService);
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
  });

  afterEach(() => http.verify());

  it('loads the caller and exposes organization and management rights', async () => {
    const loading = service.load();
    http.expectOne('/api/v1/me').flush(ME);
    await expect(loading).resolves.toEqual(ME);
    expect(service.organizationId()).toBe('acme');
    expect(service.canManage()).toBe(true);
  });

  it('does not give editors management rights', async () => {
    const loading = service.load();
    http.expectOne('/api/v1/me').flush({ ...ME, role: 'editor' });
    await loading;
    expect(service.canManage()).toBe(false);
  });

  it('resolves null without a session and does not redirect (the guard decides)', async () => {
    const loading = service.load();
    http.expectOne('/api/v1/me').flush(ERROR_401, { status: 401, statusText: 'Unauthorized' });
    await expect(loading).resolves.toBeNull();
    expect(service.me()).toBeNull();
    expect(router.navigate).not.toHaveBeenCalled();
  });

  it('throws other failures as readable errors', async () => {
    const loading = service.load();
    http.expectOne('/api/v1/me').flush('down', { status: 503, statusText: 'Unavailable' });
    await expect(loading).rejects.toMatchObject({ status: 503, code: 'server_error' });
  });

  it('signs out on the server, forgets the caller and shows the signed-out page', async () => {
    service.adopt(ME);
    const signingOut = service.signOut();
    const request = http.expectOne('/api/v1/auth/sign-out');
    expect(request.request.method).toBe('POST');
    request.flush(null, { status: 204, statusText: 'No Content' });
    await signingOut;
    expect(service.me()).toBeNull();
    expect(service.lastOrganization()).toEqual({ id: 'acme', name: 'Acme' });
    expect(router.navigateByUrl).toHaveBeenCalledWith('/signed-out');
  });

  it('treats an already ended session as signed out', async () => {
    service.adopt(ME);
    const signingOut = service.signOut();
    http.expectOne('/api/v1/auth/sign-out').flush(ERROR_401, { status: 401, statusText: 'Unauthorized' });
    await signingOut;
    expect(service.me()).toBeNull();
  });

  it('keeps the session and reports when sign-out fails', async () => {
    service.adopt(ME);
    const signingOut = service.signOut();
    http.expectOne('/api/v1/auth/sign-out').flush('x', { status: 500, statusText: 'Error' });
    await expect(signingOut).rejects.toBeInstanceOf(ApiError);
    expect(service.me()).toEqual(ME);
  });

  it('forgets the session and explains when an ordinary call answers 401', async () => {
    service.adopt(ME);
    const failure = new Promise((resolve) => TestBed.inject(HttpClient).get('/api/v1/orgs/acme/members').subscribe({ error: resolve }));
    http.expectOne('/api/v1/orgs/acme/members').flush(ERROR_401, { status: 401, statusText: 'Unauthorized' });
    await expect(failure).resolves.toMatchObject({ code: 'unauthenticated', message: 'Sign in first.' });
    expect(service.me()).toBeNull();
    expect(router.navigate).toHaveBeenCalledWith(['/signed-out'], { queryParams: { reason: 'expired' } });
  });

  it('remembers the organizations this browser had a session in, for the switcher (not for API tokens)', async () => {
    const loading = service.load();
    http.expectOne('/api/v1/me').flush({ ...ME, organization: { id: 'globex', name: 'Globex', createdAt: '' } });
    await loading;
    service.adopt(ME);
    service.adopt({ ...ME, kind: 'token', user: null, role: null, organization: { id: 'initech', name: 'Initech', createdAt: '' } });
    expect(TestBed.inject(RecentOrganizationsService).list()).toEqual([
      { id: 'acme', name: 'Acme' },
      { id: 'globex', name: 'Globex' },
    ]);
  });

  it('enters an organization it just created: reloads the session the server started there and opens its home', async () => {
    service.adopt(ME);
    const entering = service.enterCreated('globex');
    http.expectOne('/api/v1/me').flush({ ...ME, organization: { id: 'globex', name: 'Globex', createdAt: '' } });
    await entering;
    expect(service.organizationId()).toBe('globex');
    expect(router.navigate).toHaveBeenCalledWith(['/orgs', 'globex']);
  });
});
