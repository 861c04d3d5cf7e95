import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TABLE_NOT_FOUND, type CanvasNode } from '@sc/diagram';
import { NodeFieldsComponent } from './node-fields.component';

/**
 * `data-source` and `db-table` nodes: the database (and table) they name, with the table's columns — or the
 * database's tables — from the schema synced in the same revision, and a link to the database page.
 */
@Component({
  selector: 'sc-database-node',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NodeFieldsComponent, MatIconModule, RouterLink],
  template: `
    @let n = node();
    @let db = n.body.database;
    <div class="card-title">
      <mat-icon [svgIcon]="n.kind === 'db-table' ? 'table' : 'database'" aria-hidden="true" />
      <span class="line">{{ n.title }}</span>
    </div>
    <div class="card-body">
      @if (db) {
        <a class="db-link small" [routerLink]="databaseLink()" [queryParams]="revision() ? { revision: revision() } : {}" (click)="$event.stopPropagation()">
          {{ db.name }}{{ db.table ? '.' + db.table : '' }}
        </a>
        @if (db.columns; as columns) {
          <ul class="columns" [attr.aria-label]="'Columns of ' + db.table">
            @for (column of columns.slice(0, 12); track column.name) {
              <li>
                <span class="column-name">
                  @if (column.primaryKey) {
                    <abbr title="Primary key">PK</abbr>
                  } @else if (column.references) {
                    <abbr [title]="'References ' + column.references">FK</abbr>
                  }
                  {{ column.name }}
                </span>
                <code class="column-type">{{ column.type }}</code>
              </li>
            }
            @if (columns.length > 12) {
              <li class="muted">… {{ columns.length - 12 }} more</li>
            }
          </ul>
        } @else if (db.table) {
          <span class="muted small">{{ tableNotFound }}</span>
        } @else if (db.tables.length) {
          <ul class="columns" [attr.aria-label]="'Tables of ' + db.name">
            @for (table of db.tables.slice(0, 8); track table) {
              <li><span class="column-name">{{ table }}</span></li>
            }
            @if (db.tables.length > 8) {
              <li class="muted">… {{ db.tables.length - 8 }} more</li>
            }
          </ul>
        }
      }
      <sc-node-fields [fields]="n.fields" />
    </div>
  `,
})
export class DatabaseNodeComponent {
  readonly node = input.required<CanvasNode>();
  /** `/orgs/:org/services/:service`, where the database page lives. */
  readonly serviceLink = input.required<string>();
  readonly revision = input<number>();
  readonly tableNotFound = TABLE_NOT_FOUND;
  readonly databaseLink = computed(() => `${this.serviceLink()}/databases/${encodeURIComponent(this.node().body.database?.name ?? '')}`);
}
