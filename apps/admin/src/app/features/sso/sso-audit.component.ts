import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { MatTooltipModule } from '@angular/material/tooltip';
import type { SsoAuditOutcome } from '@sc/contracts';
import { cursorPages } from '../../core/cursor-pages';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { SsoApi } from './sso.api';
import { ListStateComponent } from '../../shared/list-state.component';
import { DATA_TABLE } from '../../shared/data-table.component';

const PAGE_SIZE = 25;

interface AuditParams {
  orgId: string;
  provider: string;
  outcome: SsoAuditOutcome | '';
}

/** The organization's sign-in audit log, newest first, read page by page (the API pages by cursor). */
@Component({
  selector: 'sc-sso-audit',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    FormsModule,
    MatButtonModule,
    MatFormFieldModule,
    MatIconModule,
    MatSelectModule,
    DATA_TABLE,
    MatTooltipModule,
    LoadMoreComponent,
    ListStateComponent,
  ],
  template: `
    <div class="filters">
      <mat-form-field>
        <mat-label>Provider</mat-label>
        <mat-select [ngModel]="provider()" (ngModelChange)="provider.set($event)" data-testid="audit-provider">
          <mat-option value="">All providers</mat-option>
          @for (slug of providerSlugs(); track slug) {
            <mat-option [value]="slug">{{ slug }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
      <mat-form-field>
        <mat-label>Outcome</mat-label>
        <mat-select [ngModel]="outcome()" (ngModelChange)="outcome.set($event)" data-testid="audit-outcome">
          <mat-option value="">All outcomes</mat-option>
          <mat-option value="success">Success</mat-option>
          <mat-option value="failure">Failure</mat-option>
        </mat-select>
      </mat-form-field>
      <button mat-stroked-button type="button" (click)="audit.reload()" [disabled]="loading()">
        <mat-icon svgIcon="refresh" aria-hidden="true" />
        Refresh
      </button>
    </div>
    <sc-list-state [loading]="loading()" loadingLabel="Loading sign-in attempts" [error]="audit.error()" (retry)="audit.reload()" [empty]="entries().length === 0"
      emptyIcon="info" emptyHeading="No sign-in attempts yet" emptyTestId="audit-empty">Every SSO sign-in and test sign-in, successful or not, is listed here.</sc-list-state>
    @if (entries().length > 0) {
      <sc-data-table [rows]="entries()" label="Sign-in attempts" testId="audit-table">
        <ng-template scColumn="time" header="Time" cellClass="nowrap" let-entry>{{ entry.createdAt | date: 'medium' }}</ng-template>
        <ng-template scColumn="provider" header="Provider" let-entry>
          <code>{{ entry.providerSlug }}</code>
          @if (entry.test) {
            <span class="status-chip test-chip">test</span>
          }
        </ng-template>
        <ng-template scColumn="outcome" header="Outcome" let-entry>
          <div [matTooltip]="entry.message">
            <span class="status-chip" [class.ok]="entry.outcome === 'success'" [class.off]="entry.outcome !== 'success'">
              {{ entry.outcome === 'success' ? 'success' : entry.errorCode }}
            </span>
            <div class="muted small message">{{ entry.message }}</div>
          </div>
        </ng-template>
        <ng-template scColumn="email" header="Email" let-entry>
          {{ entry.email ?? '—' }}
          @if (entry.role) {
            <div class="muted small">role {{ entry.role }}</div>
          }
        </ng-template>
        <ng-template scColumn="warnings" header="Warnings" let-entry>
          @for (warning of entry.warnings; track warning) {
            <div class="small warning-text">{{ warning }}</div>
          } @empty {
            <span class="muted">—</span>
          }
        </ng-template>
      </sc-data-table>
      <sc-load-more [pages]="audit" label="Show older attempts" testId="audit-more" />
    }
  `,
  styles: `
    .filters {
      display: flex;
      gap: 12px;
      flex-wrap: wrap;
      align-items: flex-start;
      padding: 16px 16px 0;

      button {
        margin-top: 8px;
      }
    }
    .small {
      font-size: 12px;
    }
    .message {
      max-width: 40ch;
      margin-top: 2px;
    }
    .test-chip {
      margin-left: 6px;
    }
    .warning-text {
      color: #7a4d00;
      max-width: 40ch;
    }
  `,
})
export class SsoAuditComponent {
  private readonly api = inject(SsoApi);

  readonly orgId = input.required<string>();
  readonly providerSlugs = input<string[]>([]);

  readonly provider = signal('');
  readonly outcome = signal<SsoAuditOutcome | ''>('');

  /** The newest entries for the organization and filters; changing either reads from the first page again. */
  readonly audit = cursorPages({
    params: (): AuditParams => ({ orgId: this.orgId(), provider: this.provider(), outcome: this.outcome() }),
    load: ({ orgId, provider, outcome }, cursor) => this.api.audit(orgId, { limit: PAGE_SIZE, provider: provider || undefined, outcome: outcome || undefined }, cursor),
  });
  readonly entries = this.audit.items;
  readonly loading = this.audit.loading;
}
