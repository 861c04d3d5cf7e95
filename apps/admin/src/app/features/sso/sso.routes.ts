import { Routes } from '@angular/router';
import { managersOnlyGuard } from '../../core/auth.guard';
import { ProviderEditorPage } from './provider-editor.page';
import { provideSsoIcons } from './sso-icons';
import { SsoSettingsPage } from './sso-settings.page';

/** SSO settings are for owners and admins (the server refuses the API to others). */
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
