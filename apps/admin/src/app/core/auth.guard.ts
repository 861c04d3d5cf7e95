import { HttpClient } from '@angular/common/http';
import { inject } from '@angular/core';
import { CanActivateFn, Router, UrlTree } from '@angular/router';
import type { SetupStatusResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { SessionService } from './session.service';

/**
 * Guards /orgs/:orgId/**. Asks the server who is signed in (GET /api/v1/me). Without a session of that
 * organization the person is sent to its sign-in page, which returns them to the page they asked for: a
 * session acts in exactly one organization, so a session of another organization does not open this one and
 * is never moved here (signing in there replaces it).
 */
export const authGuard: CanActivateFn = async (route, state): Promise<boolean | UrlTree> => {
  const session = inject(SessionService);
  const router = inject(Router);
  const me = await session.load();
  const requested = route.paramMap.get('orgId');
  if (me === null && requested === null) return router.createUrlTree(['/signed-out']);
  if (requested !== null && requested !== me?.organization.id) {
    return router.createUrlTree(['/orgs', requested, 'sign-in'], { queryParams: { redirect: state.url } });
  }
  return true;
};

/** The bare URL "/" goes to the organization home, first-run setup, or the signed-out page, in that order. */
export const homeRedirectGuard: CanActivateFn = async (): Promise<UrlTree> => {
  const session = inject(SessionService);
  const router = inject(Router);
  const http = inject(HttpClient);
  const me = await session.load();
  if (me !== null) return router.createUrlTree(['/orgs', me.organization.id]);
  const setup = await firstValueFrom(http.get<SetupStatusResponse>('/api/v1/setup'));
  return router.createUrlTree([setup.required ? '/setup' : '/signed-out']);
};

/** Pages for owners and admins only (the server refuses their API to others); others go to the overview. */
export const managersOnlyGuard: CanActivateFn = (route) => {
  if (inject(SessionService).canManage()) return true;
  const orgId = route.paramMap.get('orgId');
  return inject(Router).createUrlTree(orgId ? ['/orgs', orgId] : ['/']);
};
