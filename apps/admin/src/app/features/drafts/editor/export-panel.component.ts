import { ClipboardModule } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, computed, inject, input, linkedSignal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { NotifyService } from '../../../core/notify.service';
import { pageResource } from '../../../core/page-resource';
import { downloadText } from '../../../shared/download';
import { LoadErrorComponent } from '../../../shared/load-error.component';
import { DraftsApi, type DraftExportData } from '../drafts.api';

/**
 * Export To Mermaid of a saved draft version: Download both files together, Copy Mermaid, the two files' text,
 * the `.service.yaml` lines that sync them, and for a copy of a synced diagram whether the repository already
 * holds exactly these files. Loads again for every new `version`; `pending` (unsaved changes) holds the
 * download back, so what is downloaded is what was drawn.
 */
@Component({
  selector: 'sc-export-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ClipboardModule, MatButtonModule, MatIconModule, LoadErrorComponent],
  templateUrl: './export-panel.component.html',
  styleUrl: '../drafts.scss',
})
export class ExportPanelComponent {
  private readonly api = inject(DraftsApi);
  private readonly notify = inject(NotifyService);

  readonly orgId = input.required<string>();
  readonly draftId = input.required<string>();
  readonly version = input.required<number>();
  readonly pending = input(false);

  private readonly params = computed(() => ({ orgId: this.orgId(), draftId: this.draftId(), version: this.version() }));
  readonly exported = pageResource({ params: this.params, load: ({ orgId, draftId }) => this.api.export(orgId, draftId), initial: null as DraftExportData | null });
  /** The last export loaded, kept on screen while the next version's loads (no flicker on every autosave). */
  readonly shown = linkedSignal<DraftExportData | null, DraftExportData | null>({ source: this.exported.value, computation: (value, previous) => value ?? previous?.value ?? null });
  /** The export shown is of the version saved now (not of an earlier one still on screen while reloading). */
  readonly current = computed(() => {
    const exported = this.shown();
    return exported && exported.version === this.version() ? exported : null;
  });

  /** The two exported files, each shown with its Copy and Download buttons. */
  readonly fileViews = computed(() => {
    const exported = this.shown();
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
