import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { takeUntilDestroyed, toSignal } from '@angular/core/rxjs-interop';
import { FormBuilder, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatButtonToggleModule } from '@angular/material/button-toggle';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { Router, RouterLink } from '@angular/router';
import { DRAFT_NAME_MAX_LENGTH, type ArtifactListItem, type DraftSummary } from '@sc/contracts';
import { ApiError } from '../../core/api-error';
import { cursorPages } from '../../core/cursor-pages';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { confirmation } from '../../shared/confirm-dialog.component';
import { relativeTime } from '../../shared/time';
import { ServicesApi } from '../services/services.api';
import { DraftsApi, describeProblem, type NewDraft } from './drafts.api';
import { actorName } from './draft-labels';
import { FormActionsComponent } from '../../shared/form-actions.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { FORM_FIELDS } from '../../shared/form-fields';
import { SectionCardComponent } from '../../shared/section-card.component';
import { PagedListCardComponent } from '../../shared/paged-list-card.component';

/** Drafts read per page; "Load more drafts" reads the next. */
const PAGE_SIZE = 50;

/** How a new draft starts: empty, as a copy of a synced flowchart, or from pasted Mermaid and context. */
export type DraftStart = 'empty' | 'synced' | 'mermaid';


@Component({
  selector: 'sc-drafts-list-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    FORM_FIELDS,
    RouterLink,
    MatButtonModule,
    MatButtonToggleModule,
    SectionCardComponent,
    MatIconModule,
    MatSelectModule,
    DATA_TABLE,
    ErrorBannerComponent,
    FormActionsComponent,
    PagedListCardComponent,
  ],
  templateUrl: './drafts-list.page.html',
  styleUrl: './drafts.scss',
})
export class DraftsListPage {
  private readonly api = inject(DraftsApi);
  private readonly services = inject(ServicesApi);
  private readonly router = inject(Router);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  readonly canEdit = inject(SessionService).canEditDrafts;
  /** The drafts, most recently saved first, a page at a time ("Load more drafts"). */
  readonly drafts = cursorPages({
    params: () => ({ orgId: this.orgId() }),
    load: ({ orgId }, cursor) => this.api.list(orgId, { limit: PAGE_SIZE, cursor }),
  });
  readonly rows = computed(() => this.drafts.items().map((draft) => ({ draft, savedBy: actorName(draft.updatedBy), savedAgo: relativeTime(draft.updatedAt) })));
  readonly rowTestId = (row: { draft: DraftSummary }) => `draft-row-${row.draft.id}`;

  readonly formOpen = signal(false);
  private readonly creation = mutation({ report: 'inline' });
  readonly creating = this.creation.pending;
  readonly createError = this.creation.error;
  readonly describeProblem = describeProblem;
  private readonly confirm = confirmation();
  /** Row actions: the draft being deleted. */
  private readonly removal = mutation<string>();
  readonly busyId = this.removal.busy;

  readonly form = inject(FormBuilder).nonNullable.group({
    name: ['', [Validators.required, Validators.maxLength(DRAFT_NAME_MAX_LENGTH)]],
    start: ['empty' as DraftStart],
    service: [''],
    diagram: [''],
    mermaid: [''],
    context: [''],
  });
  readonly start = toSignal(this.form.controls.start.valueChanges, { initialValue: this.form.controls.start.value });
  private readonly service = toSignal(this.form.controls.service.valueChanges, { initialValue: '' });

  /** Synced services, loaded when a copy of a synced diagram is asked for. */
  readonly serviceNames = pageResource({
    params: () => (this.formOpen() && this.start() === 'synced' ? this.orgId() : undefined),
    load: (orgId) => this.services.serviceNames(orgId),
    initial: [] as string[],
  });
  /** The architecture diagrams of the chosen service; only flowcharts can become drafts. */
  readonly diagrams = pageResource({
    params: () => (this.service() ? { orgId: this.orgId(), service: this.service() } : undefined),
    load: ({ orgId, service }) => this.services.artifactsOfKind(orgId, service, 'architecture-diagram'),
    initial: [] as ArtifactListItem[],
  });

  constructor() {
    // A diagram of the previously chosen service must not be sent with the next one.
    this.form.controls.service.valueChanges.pipe(takeUntilDestroyed()).subscribe(() => this.form.controls.diagram.setValue(''));
  }

  openForm(): void {
    this.form.reset();
    this.createError.set(null);
    this.formOpen.set(true);
  }

  cancelForm(): void {
    this.formOpen.set(false);
  }

  async create(): Promise<void> {
    const value = this.form.getRawValue();
    const missing = this.missingInput(value);
    if (this.form.invalid || missing) {
      this.form.markAllAsTouched();
      if (missing) this.createError.set(new ApiError(0, 'incomplete', missing));
      return;
    }
    await this.creation.run(true, () => this.api.create(this.orgId(), newDraft(value)), {
      success: (draft) => `Draft “${draft.name}” created.`,
      done: async (draft) => void (await this.router.navigate(['/orgs', this.orgId(), 'drafts', draft.id])),
    });
  }

  async remove(draft: DraftSummary): Promise<void> {
    const confirmed = await this.confirm({
      title: `Delete “${draft.name}”?`,
      message: 'The drawing and its layout are deleted. Files already exported or synced are not affected. This cannot be undone.',
      confirmLabel: 'Delete draft',
      destructive: true,
    });
    if (!confirmed) return;
    // With the version listed: a draft someone saved meanwhile is not deleted unseen.
    await this.removal.run(draft.id, () => this.api.remove(this.orgId(), draft.id, draft.version), {
      success: `Draft “${draft.name}” deleted.`,
      done: () => this.drafts.reload(),
      failed: () => this.drafts.reload(),
    });
  }

  private missingInput(value: DraftFormValue): string | undefined {
    if (value.start === 'synced' && (!value.service || !value.diagram)) return 'Choose a service and one of its flowcharts to copy.';
    if (value.start === 'mermaid' && !value.mermaid.trim()) return 'Paste the Mermaid source of a flowchart.';
    return undefined;
  }
}

interface DraftFormValue {
  name: string;
  start: DraftStart;
  service: string;
  diagram: string;
  mermaid: string;
  context: string;
}

/** The request for the chosen start (the context is optional with pasted Mermaid). */
export function newDraft(value: DraftFormValue): NewDraft {
  const name = value.name.trim();
  if (value.start === 'synced') return { name, from: { service: value.service, diagram: value.diagram } };
  if (value.start === 'mermaid') return { name, mermaid: value.mermaid, ...(value.context.trim() ? { context: value.context } : {}) };
  return { name };
}
