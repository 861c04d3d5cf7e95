import { Component } from '@angular/core';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { provideTestApp } from '../../testing/providers';
import { ME, errorBody } from '../../testing/fixtures';
import { authGuard, homeRedirectGuard } from './auth.guard';

@Component({ template: '' })
class BlankComponent {}

describe('route guards', () => {
  let http: HttpTestingController;
  let router: Router;

  beforeEach(() => {
    TestBed.configureTestingModule({
      providers: provideTestApp([
          { path: '', pathMatch: 'full', canActivate: [homeRedirectGuard], children: [] },
          { path: 'setup', component: BlankComponent },
          { path: 'signed-out', component: BlankComponent },
          { path: 'orgs/:orgId/sign-in', component: BlankComponent },
          { path: 'orgs/:orgId', canActivate: [authGuard], children: [{ path: 'members', component: BlankComponent }, { path: '', component: BlankComponent }] },
      ]),
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
  });

  afterEach(() => http.verify());

  /** Starts a navigation, answers the API calls it makes in order, and resolves with the final URL. */
  async function navigate(url: string, answers: [string, object, number][]): Promise<string> {
    const navigation = router.navigateByUrl(url);
    for (const [expectedUrl, body, status] of answers) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      http.expectOne(expectedUrl).flush(body, { status, statusText: String(status) });
    }
    await navigation;
    return router.url;
  }

  it('lets a member of the organization in', async () => {
    await expect(navigate('/orgs/acme/members', [['/api/v1/me', ME, 200]])).resolves.toBe('/orgs/acme/members');
  });

  it("sends a visitor without session to the organization's sign-in page, remembering where they wanted to go", async () => {
    const url = await navigate('/orgs/acme/members', [['/api/v1/me', errorBody('unauthenticated', 'Sign in.'), 401]]);
    expect(url).toBe('/orgs/acme/sign-in?redirect=%2Forgs%2Facme%2Fmembers');
  });

  it("sends a session of another organization to the requested organization's sign-in page (sessions never move)", async () => {
    const url = await navigate('/orgs/globex/members', [['/api/v1/me', ME, 200]]);
    expect(url).toBe('/orgs/globex/sign-in?redirect=%2Forgs%2Fglobex%2Fmembers');
  });

  it('sends "/" to the organization of a signed-in caller', async () => {
    const url = await navigate('/', [
      ['/api/v1/me', ME, 200],
      ['/api/v1/me', ME, 200],
    ]);
    expect(url).toBe('/orgs/acme');
  });

  it('sends "/" to first-run setup while no organization exists', async () => {
    const url = await navigate('/', [
      ['/api/v1/me', errorBody('unauthenticated', 'Sign in.'), 401],
      ['/api/v1/setup', { required: true }, 200],
    ]);
    expect(url).toBe('/setup');
  });

  it('sends "/" to the signed-out page once setup is done', async () => {
    const url = await navigate('/', [
      ['/api/v1/me', errorBody('unauthenticated', 'Sign in.'), 401],
      ['/api/v1/setup', { required: false }, 200],
    ]);
    expect(url).toBe('/signed-out');
  });
});
