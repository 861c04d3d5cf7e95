import { Routes } from '@angular/router';
import { DatabasePage } from './database.page';
import { DiagramPage } from './diagram.page';
import { ServiceDetailPage } from './service-detail.page';
import { ServicesListPage } from './services-list.page';
import { TextArtifactPage } from './text-artifact.page';

/** `data.source` tells the shared pages which artifact API to read; the router binds it to their `source` input. */
export const servicesRoutes: Routes = [
  { path: '', component: ServicesListPage, title: 'Services · System Context' },
  { path: ':service', component: ServiceDetailPage, title: 'Service · System Context' },
  { path: ':service/diagrams/:name', component: DiagramPage, data: { source: 'diagram' }, title: 'Diagram · System Context' },
  { path: ':service/flows/:name', component: DiagramPage, data: { source: 'flow' }, title: 'Flow · System Context' },
  { path: ':service/jobs', component: DiagramPage, data: { source: 'jobs' }, title: 'Jobs · System Context' },
  { path: ':service/databases/:name', component: DatabasePage, title: 'Database · System Context' },
  { path: ':service/summary', component: TextArtifactPage, data: { source: 'summary' }, title: 'Summary · System Context' },
  { path: ':service/docs/:name', component: TextArtifactPage, data: { source: 'docs' }, title: 'Document · System Context' },
  { path: ':service/api-specs/:name', component: TextArtifactPage, data: { source: 'api-specs' }, title: 'API spec · System Context' },
];
