import { Routes } from '@angular/router';
import { DraftPage } from './draft.page';
import { DraftsListPage } from './drafts-list.page';

export const draftsRoutes: Routes = [
  { path: '', component: DraftsListPage, title: 'Drafts · System Context' },
  { path: ':draftId', component: DraftPage, title: 'Draft · System Context' },
];
