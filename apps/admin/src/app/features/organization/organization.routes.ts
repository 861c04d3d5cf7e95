import { Routes } from '@angular/router';
import { OrganizationHomePage } from './organization-home.page';

export const organizationRoutes: Routes = [{ path: '', component: OrganizationHomePage, title: 'Overview · System Context' }];
