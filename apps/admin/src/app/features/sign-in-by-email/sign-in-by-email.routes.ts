import { Routes } from '@angular/router';
import { SignInByEmailPage } from './sign-in-by-email.page';

export const signInByEmailRoutes: Routes = [{ path: '', component: SignInByEmailPage, title: 'Sign in · System Context' }];
