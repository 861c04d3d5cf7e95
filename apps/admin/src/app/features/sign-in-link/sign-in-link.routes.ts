import { Routes } from '@angular/router';
import { SignInLinkPage } from './sign-in-link.page';

export const signInLinkRoutes: Routes = [{ path: '', component: SignInLinkPage, title: 'Sign in with a one-time link · System Context' }];
