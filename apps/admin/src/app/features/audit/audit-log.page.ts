import { ChangeDetectionStrategy, Component, computed, effect, inject, input } from '@angular/core';
import { FormBuilder } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { ActivatedRoute, Router } from '@angular/router';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditEntry } from '@sc/contracts';
import { map } from 'rxjs';
import { pageResource } from '../../core/page-resource';
import { MembersApi } from '../members/members.api';
import { RelativeTimeComponent } from '../../shared/relative-time.component';
import { cursorPages } from '../../core/cursor-pages';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { AuditApi } from './audit.api';
import { EMPTY_FILTER, actionLabel, actorLabel, changeLines, formFromParams, paramsFromForm, targetTypeLabel, toAuditFilter, type NameOf } from './audit-rules';
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
    FORM_FIELDS,
    RelativeTimeComponent,
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
  private readonly membersApi = inject(MembersApi);
  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);

  /** Bound from the route by the router: the organization, and the filters from the query string. */
  readonly orgId = input.required<string>();
  readonly action = input<string | undefined>();
  readonly actor = input<string | undefined>();
  readonly target = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();

  readonly actions = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));
  readonly form = inject(FormBuilder).nonNullable.group({ ...EMPTY_FILTER });

  /** The filters in the URL (the form applies on submit, so typing does not read the log on every key). */
  private readonly applied = computed(() => formFromParams({ action: this.action(), actor: this.actor(), target: this.target(), from: this.from(), to: this.to() }));
  readonly filter = computed(() => toAuditFilter(this.applied()));
  readonly audit = cursorPages({
    params: () => ({ orgId: this.orgId(), filter: this.filter() }),
    load: ({ orgId, filter }, cursor) => this.api.page(orgId, filter, { limit: PAGE_SIZE, cursor }),
  });
  readonly entries = this.audit.items;
  readonly exportUrl = computed(() => this.api.exportUrl(this.orgId(), this.filter()));
  readonly filtered = computed(() => Object.keys(this.filter()).length > 0);

  /** Members by user id, to show names instead of ids (the first page of members; others keep their email). */
  private readonly members = pageResource({
    params: this.orgId,
    load: (orgId) => this.membersApi.list(orgId).pipe(map((page) => page.items)),
    initial: [],
  });
  private readonly names = computed(() => new Map(this.members.value().map((member) => [member.userId, member.displayName])));
  private readonly nameOf: NameOf = (userId) => this.names().get(userId) ?? null;

  readonly actionLabel = actionLabel;
  readonly targetTypeLabel = targetTypeLabel;
  readonly actorLabel = (entry: AuditEntry) => actorLabel(entry, this.nameOf);
  readonly changeLines = (entry: AuditEntry) => changeLines(entry, this.nameOf);
  /** Longer change lists (a new SSO provider's settings) show this many lines and fold the rest. */
  readonly shownChanges = 4;

  constructor() {
    // The form shows the filters the URL holds (also after Back, or a shared link).
    effect(() => this.form.reset(this.applied()));
  }

  apply(): Promise<boolean> {
    return this.router.navigate([], { relativeTo: this.route, queryParams: paramsFromForm(this.form.getRawValue()), queryParamsHandling: 'merge' });
  }

  clear(): Promise<boolean> {
    return this.router.navigate([], { relativeTo: this.route, queryParams: paramsFromForm(EMPTY_FILTER), queryParamsHandling: 'merge' });
  }
}
