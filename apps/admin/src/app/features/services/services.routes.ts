import { Routes } from '@angular/router';
import { DiagramPage } from './diagram.page';
import { ServiceDetailPage } from './service-detail.page';
import { ServicesListPage } from './services-list.page';

export const servicesRoutes: Routes = [
  { path: '', component: ServicesListPage, title: 'Services · System Context' },
  { path: ':service', component: ServiceDetailPage, title: 'Service · System Context' },
  { path: ':service/diagrams/:name', component: DiagramPage, title: 'Diagram · System Context' },
];
