import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { FormBuilder } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditFilter } from '@sc/contracts';
import { cursorPages } from '../../core/cursor-pages';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { AuditApi } from './audit.api';
import { EMPTY_FILTER, actionLabel, actorLabel, changeLines, targetTypeLabel, toAuditFilter } from './audit-rules';
import { ListStateComponent } from '../../shared/list-state.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { FORM_FIELDS } from '../../shared/form-fields';

const PAGE_SIZE = 50;

/**
 * Who changed members, roles, API tokens, SSO providers or the organization: newest first, filtered, read page
 * by page, and downloadable as JSON lines with the same filters.
 */
@Component({
  selector: 'sc-audit-log-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    FORM_FIELDS,
    MatButtonModule,
    MatIconModule,
    MatSelectModule,
    DATA_TABLE,
    LoadMoreComponent,
    ListStateComponent,
  ],
  templateUrl: './audit-log.page.html',
  styleUrl: './audit-log.page.scss',
})
export class AuditLogPage {
  private readonly api = inject(AuditApi);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  readonly actions = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));
  readonly form = inject(FormBuilder).nonNullable.group({ ...EMPTY_FILTER });

  /** The filters last applied (the form applies on submit, so typing does not read the log on every key). */
  readonly filter = signal<AuditFilter>({});
  readonly audit = cursorPages({
    params: () => ({ orgId: this.orgId(), filter: this.filter() }),
    load: ({ orgId, filter }, before) => this.api.page(orgId, filter, { limit: PAGE_SIZE, before }),
  });
  readonly entries = this.audit.items;
  readonly exportUrl = computed(() => this.api.exportUrl(this.orgId(), this.filter()));
  readonly filtered = computed(() => Object.keys(this.filter()).length > 0);

  readonly actionLabel = actionLabel;
  readonly actorLabel = actorLabel;
  readonly changeLines = changeLines;
  readonly targetTypeLabel = targetTypeLabel;
  /** Longer change lists (a new SSO provider's settings) show this many lines and fold the rest. */
  readonly shownChanges = 4;

  apply(): void {
    this.filter.set(toAuditFilter(this.form.getRawValue()));
  }

  clear(): void {
    this.form.reset({ ...EMPTY_FILTER });
    this.filter.set({});
  }
}
