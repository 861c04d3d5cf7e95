import { ChangeDetectionStrategy, Component, computed, inject, input, linkedSignal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { RouterLink } from '@angular/router';
import { WHERE_USED_LIMITS, type WhereUsedAnswer, type WhereUsedHit } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { SearchApi, whereUsedTarget } from './search.api';

/**
 * "Where is this used" for a database table (a db-table node's details, a table card of a schema): a button that
 * opens the list of the organization's current diagrams binding the table (a node's context dbConfig.tableName),
 * each a link to the diagram centred on that node. Loads only when opened; closes when the table changes.
 */
@Component({
  selector: 'sc-where-used',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, RouterLink, ErrorBannerComponent],
  template: `
    <button mat-stroked-button type="button" data-testid="where-used" [attr.aria-expanded]="open()" (click)="open.set(!open())">Where is this used</button>
    @if (open()) {
      <div class="where-used" data-testid="where-used-list" role="region" [attr.aria-label]="'Diagrams using the table ' + table()">
        <sc-error-banner [error]="answer.error()" />
        @if (answer.isLoading()) {
          <p class="muted">Looking for diagrams that bind {{ table() }}…</p>
        } @else if (loaded(); as loaded) {
          @if (loaded.usedIn.length === 0) {
            <p class="muted" data-testid="where-used-empty">No diagram binds the table {{ table() }}.</p>
          } @else {
            <ul>
              @for (hit of loaded.usedIn; track $index) {
                <li>
                  <a data-testid="where-used-hit" [routerLink]="target(hit).commands" [queryParams]="target(hit).queryParams">
                    <span class="service">{{ hit.service }}</span> · {{ hit.diagram }} · {{ hit.node.name ?? hit.node.label }}
                    <code class="muted">{{ hit.node.id }}</code>
                  </a>
                  @if (hit.node.dbConfig?.databaseName; as database) {
                    <span class="muted small"> ({{ database }})</span>
                  }
                </li>
              }
            </ul>
          }
          @if (loaded.truncated) {
            <p class="muted small" data-testid="where-used-truncated">More diagrams may bind it: only the first {{ maxHits }} are listed.</p>
          }
        }
      </div>
    }
  `,
  styles: `
    .where-used { margin-top: 8px; }
    ul { list-style: none; margin: 0; padding: 0; }
    li { padding: 2px 0; }
    .service { font-weight: 500; }
    .small { font-size: 0.85em; }
  `,
})
export class WhereUsedComponent {
  private readonly api = inject(SearchApi);

  readonly orgId = input.required<string>();
  readonly table = input.required<string>();
  /** The table's database: nodes naming another database are left out. */
  readonly database = input<string | null>(null);

  /** Open or not; closed again whenever another table is shown. */
  readonly open = linkedSignal({ source: () => [this.orgId(), this.table(), this.database()], computation: () => false });
  readonly answer = pageResource({
    params: () => (this.open() ? { orgId: this.orgId(), table: this.table(), database: this.database() } : undefined),
    load: ({ orgId, table, database }) => this.api.whereUsed(orgId, table, database),
    initial: null as WhereUsedAnswer | null,
  });
  readonly loaded = computed(() => this.answer.value());
  readonly maxHits = WHERE_USED_LIMITS.maxHits;

  target(hit: WhereUsedHit): ReturnType<typeof whereUsedTarget> {
    return whereUsedTarget(this.orgId(), hit);
  }
}
