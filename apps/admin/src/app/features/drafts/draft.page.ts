import { ClipboardModule } from '@angular/cdk/clipboard';
import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import { NotifyService } from '../../core/notify.service';
import { pageResource } from '../../core/page-resource';
import { downloadText } from '../../shared/download';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { relativeTime } from '../../shared/time';
import { DraftsApi, type DraftData, type DraftExportData } from './drafts.api';
import { actorName } from './draft-labels';

/**
 * One draft: who saved it last, and its Export To Mermaid files with Copy and Download. The drawing editor
 * (issue 11, part 2) replaces this view; the export panel is what it keeps.
 */
@Component({
  selector: 'sc-draft-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ClipboardModule, DatePipe, RouterLink, MatButtonModule, MatCardModule, MatIconModule, MatProgressBarModule, LoadErrorComponent],
  templateUrl: './draft.page.html',
  styleUrl: './drafts.scss',
})
export class DraftPage {
  private readonly api = inject(DraftsApi);
  private readonly notify = inject(NotifyService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly draftId = input.required<string>();

  private readonly params = computed(() => ({ orgId: this.orgId(), draftId: this.draftId() }));
  readonly draft = pageResource({ params: this.params, load: ({ orgId, draftId }) => this.api.get(orgId, draftId), initial: null as DraftData | null });
  readonly exported = pageResource({ params: this.params, load: ({ orgId, draftId }) => this.api.export(orgId, draftId), initial: null as DraftExportData | null });

  readonly savedBy = computed(() => {
    const draft = this.draft.value();
    return draft ? `${relativeTime(draft.updatedAt)} by ${actorName(draft.updatedBy)}` : '';
  });

  /** The two exported files, each shown with its Copy and Download buttons. */
  readonly fileViews = computed(() => {
    const exported = this.exported.value();
    if (!exported) return [];
    return [
      { role: 'diagram', name: exported.fileNames.diagram, text: exported.mermaid, what: 'Mermaid', testid: 'mermaid' },
      { role: 'context', name: exported.fileNames.context, text: exported.contextText, what: 'context', testid: 'context' },
    ] as const;
  });

  copied(what: string, done: boolean): void {
    if (done) this.notify.success(`Copied the ${what} to the clipboard.`);
    else this.notify.error(new Error(`The browser did not allow copying the ${what}; select the text and copy it instead.`));
  }

  download(exported: DraftExportData, file: 'diagram' | 'context' | 'both'): void {
    if (file !== 'context') downloadText(exported.fileNames.diagram, exported.mermaid, 'text/plain');
    if (file !== 'diagram') downloadText(exported.fileNames.context, exported.contextText, 'application/json');
  }
}
