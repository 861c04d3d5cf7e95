import { inject } from '@angular/core';
import { CanActivateFn, Router, Routes } from '@angular/router';
import { SessionService } from '../../core/session.service';
import { ProviderEditorPage } from './provider-editor.page';
import { provideSsoIcons } from './sso-icons';
import { SsoSettingsPage } from './sso-settings.page';

/** SSO settings are for owners and admins (the server refuses the API to others); others go to the overview. */
export const managersOnlyGuard: CanActivateFn = (route) => {
  if (inject(SessionService).canManage()) return true;
  const orgId = route.paramMap.get('orgId');
  return inject(Router).createUrlTree(orgId ? ['/orgs', orgId] : ['/']);
};

export const ssoRoutes: Routes = [
  {
    path: '',
    canActivate: [managersOnlyGuard],
    providers: [provideSsoIcons()],
    children: [
      { path: '', component: SsoSettingsPage, title: 'Single sign-on · System Context' },
      { path: 'new', component: ProviderEditorPage, title: 'New SSO provider · System Context' },
      { path: ':slug', component: ProviderEditorPage, title: 'SSO provider · System Context' },
    ],
  },
];
