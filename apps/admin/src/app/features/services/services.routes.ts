import { Routes } from '@angular/router';
import { DatabasePage } from './database.page';
import { ServiceDetailPage } from './service-detail.page';
import { ServicesListPage } from './services-list.page';
import { TextArtifactPage } from './text-artifact.page';

/**
 * The diagram page (canvas, ngx-vflow, the diagram library) is its own lazy chunk: the services list and detail
 * pages do not load it.
 */
const diagramPage = () => import('./diagram.page').then((m) => m.DiagramPage);
/** The preview page draws diagrams on the same canvas: a lazy chunk too. */
const previewPage = () => import('./preview.page').then((m) => m.PreviewPage);

/** `data.source` tells the shared pages which artifact API to read; the router binds it to their `source` input. */
export const servicesRoutes: Routes = [
  { path: '', component: ServicesListPage, title: 'Services · System Context' },
  { path: ':service', component: ServiceDetailPage, title: 'Service · System Context' },
  { path: ':service/previews/:id', loadComponent: previewPage, title: 'Preview · System Context' },
  { path: ':service/diagrams/:name', loadComponent: diagramPage, data: { source: 'diagram' }, title: 'Diagram · System Context' },
  { path: ':service/flows/:name', loadComponent: diagramPage, data: { source: 'flow' }, title: 'Flow · System Context' },
  { path: ':service/jobs', loadComponent: diagramPage, data: { source: 'jobs' }, title: 'Jobs · System Context' },
  { path: ':service/databases/:name', component: DatabasePage, title: 'Database · System Context' },
  { path: ':service/summary', component: TextArtifactPage, data: { source: 'summary' }, title: 'Summary · System Context' },
  { path: ':service/docs/:name', component: TextArtifactPage, data: { source: 'docs' }, title: 'Document · System Context' },
  { path: ':service/api-specs/:name', component: TextArtifactPage, data: { source: 'api-specs' }, title: 'API spec · System Context' },
];
