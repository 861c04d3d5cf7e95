import { Routes } from '@angular/router';
import { SignedOutPage } from './signed-out.page';

export const signedOutRoutes: Routes = [{ path: '', component: SignedOutPage, title: 'Signed out · System Context' }];
