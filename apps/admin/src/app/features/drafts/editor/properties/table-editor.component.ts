import { ChangeDetectionStrategy, Component, linkedSignal, computed, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';

type Table = { columns?: string[]; rows?: string[][] };

/**
 * Columns and rows of a `table` node. Rows always have one cell per column (padded or cut when columns change).
 * Test hooks: `table-column-<c>`, `table-cell-<r>-<c>`, `table-add-column`, `table-add-row`,
 * `table-remove-column-<c>`, `table-remove-row-<r>`.
 */
@Component({
  selector: 'sc-table-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatIconModule],
  template: `
    <table class="grid" aria-label="Table content">
      <thead>
        <tr>
          @for (column of columns(); track $index; let c = $index) {
            <th>
              <input [value]="column" (change)="setColumn(c, $any($event.target).value)" [attr.aria-label]="'Column ' + (c + 1)" [attr.data-testid]="'table-column-' + c" />
              <button mat-icon-button type="button" (click)="removeColumn(c)" [attr.aria-label]="'Remove column ' + (c + 1)" [attr.data-testid]="'table-remove-column-' + c">
                <mat-icon svgIcon="delete" />
              </button>
            </th>
          }
          <th></th>
        </tr>
      </thead>
      <tbody>
        @for (row of rows(); track $index; let r = $index) {
          <tr>
            @for (cell of row; track $index; let c = $index) {
              <td>
                <input [value]="cell" (change)="setCell(r, c, $any($event.target).value)" [attr.aria-label]="'Row ' + (r + 1) + ', column ' + (c + 1)" [attr.data-testid]="'table-cell-' + r + '-' + c" />
              </td>
            }
            <td>
              <button mat-icon-button type="button" (click)="removeRow(r)" [attr.aria-label]="'Remove row ' + (r + 1)" [attr.data-testid]="'table-remove-row-' + r">
                <mat-icon svgIcon="delete" />
              </button>
            </td>
          </tr>
        }
      </tbody>
    </table>
    <div class="actions">
      <button mat-stroked-button type="button" (click)="addColumn()" data-testid="table-add-column"><mat-icon svgIcon="add" />Column</button>
      <button mat-stroked-button type="button" (click)="addRow()" [disabled]="columns().length === 0" data-testid="table-add-row"><mat-icon svgIcon="add" />Row</button>
    </div>
  `,
  styles: `
    :host {
      display: block;
      overflow-x: auto;
    }
    .grid {
      border-collapse: collapse;
    }
    th,
    td {
      padding: 2px;
      white-space: nowrap;
    }
    input {
      width: 96px;
      padding: 4px 6px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 4px;
      background: var(--mat-sys-surface);
      color: var(--mat-sys-on-surface);
    }
    th input {
      font-weight: 600;
    }
    .actions {
      display: flex;
      gap: 8px;
      margin-top: 8px;
    }
  `,
})
export class TableEditorComponent {
  readonly table = input.required<Table>();
  /** The latest table: ahead of the input until the parent renders again, so quick successive edits build on each other. */
  readonly current = linkedSignal(() => this.table());
  /** The new table, or undefined when it has no columns and no rows. */
  readonly tableChange = output<Table | undefined>();

  readonly columns = computed(() => this.current().columns ?? []);
  /** Rows as wide as the header (a row of a synced file may be shorter or longer). */
  readonly rows = computed(() => {
    const width = this.columns().length;
    return (this.current().rows ?? []).map((row) => Array.from({ length: width }, (_, c) => row[c] ?? ''));
  });

  setColumn(index: number, name: string): void {
    this.emit(this.columns().map((column, c) => (c === index ? name : column)), this.rows());
  }

  setCell(row: number, column: number, text: string): void {
    this.emit(this.columns(), this.rows().map((cells, r) => (r === row ? cells.map((cell, c) => (c === column ? text : cell)) : cells)));
  }

  addColumn(): void {
    this.emit([...this.columns(), `Column ${this.columns().length + 1}`], this.rows().map((row) => [...row, '']));
  }

  removeColumn(index: number): void {
    this.emit(this.columns().filter((_, c) => c !== index), this.rows().map((row) => row.filter((_, c) => c !== index)));
  }

  addRow(): void {
    this.emit(this.columns(), [...this.rows(), this.columns().map(() => '')]);
  }

  removeRow(index: number): void {
    this.emit(this.columns(), this.rows().filter((_, r) => r !== index));
  }

  private emit(columns: string[], rows: string[][]): void {
    this.changed(columns.length === 0 && rows.length === 0 ? undefined : { columns, ...(rows.length > 0 ? { rows } : {}) });
  }

  /** Emits `next`, and shows it at once (see current). */
  private changed(next: Table | undefined): void {
    this.current.set(next ?? {});
    this.tableChange.emit(next);
  }
}
