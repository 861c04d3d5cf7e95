import { Routes } from '@angular/router';
import { SignInPage } from './sign-in.page';

export const signInRoutes: Routes = [{ path: '', component: SignInPage, title: 'Sign in · System Context' }];
