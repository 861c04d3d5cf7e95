import { Routes } from '@angular/router';
import { DraftPage } from './draft.page';
import { DraftsListPage } from './drafts-list.page';

export const draftsRoutes: Routes = [
  { path: '', component: DraftsListPage, title: 'Drafts · System Context' },
  // Leaving the editor saves what is pending and asks when something could not be saved.
  { path: ':draftId', component: DraftPage, title: 'Draft · System Context', canDeactivate: [(page: DraftPage) => page.canLeave()] },
];
