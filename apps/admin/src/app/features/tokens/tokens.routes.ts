import { Routes } from '@angular/router';
import { TokensPage } from './tokens.page';

export const tokensRoutes: Routes = [{ path: '', component: TokensPage, title: 'API tokens · System Context' }];
