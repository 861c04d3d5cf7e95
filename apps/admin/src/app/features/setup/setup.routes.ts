import { Routes } from '@angular/router';
import { SetupPage } from './setup.page';

export const setupRoutes: Routes = [{ path: '', component: SetupPage, title: 'Set up · System Context' }];
