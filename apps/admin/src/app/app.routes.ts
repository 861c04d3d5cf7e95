import { Routes } from '@angular/router';
import { authGuard, homeRedirectGuard } from './core/auth.guard';

/**
 * One lazy route file per feature. Pages under orgs/:orgId share the shell (toolbar, navigation) and the
 * auth guard; public pages (setup, signed-out, sign-in) sit outside it.
 */
export const appRoutes: Routes = [
  { path: '', pathMatch: 'full', canActivate: [homeRedirectGuard], children: [] },
  { path: 'setup', loadChildren: () => import('./features/setup/setup.routes').then((m) => m.setupRoutes) },
  {
    path: 'signed-out',
    loadChildren: () => import('./features/signed-out/signed-out.routes').then((m) => m.signedOutRoutes),
  },
  // Public: confirms and redeems a break-glass sign-in link (token in the fragment).
  {
    path: 'sign-in-link',
    loadChildren: () => import('./features/sign-in-link/sign-in-link.routes').then((m) => m.signInLinkRoutes),
  },
  // Public: sign in by work email (routes to the organization that verified the domain).
  {
    path: 'sign-in',
    loadChildren: () => import('./features/sign-in-by-email/sign-in-by-email.routes').then((m) => m.signInByEmailRoutes),
  },
  // Public: the organization's SSO buttons. Before orgs/:orgId, whose guard requires a session.
  {
    path: 'orgs/:orgId/sign-in',
    loadChildren: () => import('./features/sign-in/sign-in.routes').then((m) => m.signInRoutes),
  },
  {
    path: 'orgs/:orgId',
    canActivate: [authGuard],
    loadComponent: () => import('./shell/shell.component').then((m) => m.ShellComponent),
    children: [
      {
        path: '',
        loadChildren: () => import('./features/organization/organization.routes').then((m) => m.organizationRoutes),
      },
      { path: 'members', loadChildren: () => import('./features/members/members.routes').then((m) => m.membersRoutes) },
      { path: 'tokens', loadChildren: () => import('./features/tokens/tokens.routes').then((m) => m.tokensRoutes) },
      { path: 'services', loadChildren: () => import('./features/services/services.routes').then((m) => m.servicesRoutes) },
      { path: 'drafts', loadChildren: () => import('./features/drafts/drafts.routes').then((m) => m.draftsRoutes) },
      { path: 'settings/sso', loadChildren: () => import('./features/sso/sso.routes').then((m) => m.ssoRoutes) },
      { path: 'audit', loadChildren: () => import('./features/audit/audit.routes').then((m) => m.auditRoutes) },
    ],
  },
  {
    path: '**',
    loadComponent: () => import('./features/not-found/not-found.page').then((m) => m.NotFoundPage),
  },
];
