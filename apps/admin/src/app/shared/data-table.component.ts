import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, Directive, TemplateRef, booleanAttribute, computed, contentChildren, inject, input } from '@angular/core';
import { MatTableModule } from '@angular/material/table';

/**
 * One column of an <sc-data-table>: the template is the cell of a row (`let-row`), the header its title.
 * `cellClass` takes the table's cell styles: `end` (actions, right-aligned), `nowrap`, `long-text` (wraps anywhere, 48ch at most).
 */
@Directive({ selector: 'ng-template[scColumn]' })
export class DataColumnDirective {
  /** The column's name (mat-table's `mat-column-<name>` class on its cells). */
  readonly name = input.required<string>({ alias: 'scColumn' });
  readonly header = input.required<string>();
  /** For columns of buttons: the header is read to screen readers but not shown. */
  readonly hideHeader = input(false, { transform: booleanAttribute });
  readonly cellClass = input('');
  readonly template = inject<TemplateRef<{ $implicit: unknown }>>(TemplateRef);

  // Rows are as loosely typed as mat-table's `let row`: the page knows what it passed in.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  static ngTemplateContextGuard(_column: DataColumnDirective, context: unknown): context is { $implicit: any } {
    return true;
  }
}

/**
 * The list tables of the admin pages: a mat-table whose columns are the projected `<ng-template scColumn>`, in
 * their order, so that a page writes only what its cells show.
 */
@Component({
  selector: 'sc-data-table',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatTableModule, NgTemplateOutlet],
  template: `
    <table mat-table [dataSource]="rows()" class="data-table" [attr.aria-label]="label()" [attr.data-testid]="testId()">
      @for (column of columns(); track column) {
        <ng-container [matColumnDef]="column.name()">
          <th mat-header-cell *matHeaderCellDef><span [class.visually-hidden]="column.hideHeader()">{{ column.header() }}</span></th>
          <td mat-cell *matCellDef="let row" [class]="column.cellClass()">
            <ng-container [ngTemplateOutlet]="column.template" [ngTemplateOutletContext]="{ $implicit: row }" />
          </td>
        </ng-container>
      }
      <tr mat-header-row *matHeaderRowDef="names()"></tr>
      <tr mat-row *matRowDef="let row; columns: names()" [class.dimmed]="dimRow()(row)" [attr.data-testid]="rowTestId()(row)"></tr>
    </table>
  `,
  styles: `
    .end {
      text-align: right;
      white-space: nowrap;
    }
    .nowrap {
      white-space: nowrap;
    }
    .long-text {
      max-width: 48ch;
      overflow-wrap: anywhere;
    }
    .dimmed td {
      color: var(--mat-sys-on-surface-variant);
    }
  `,
})
export class DataTableComponent<Row> {
  readonly rows = input.required<readonly Row[]>();
  /** The table's accessible name. */
  readonly label = input.required<string>();
  readonly testId = input<string | null>(null);
  readonly rowTestId = input<(row: Row) => string | null>(() => null);
  /** Rows shown greyed out, e.g. disabled members. */
  readonly dimRow = input<(row: Row) => boolean>(() => false);

  readonly columns = contentChildren(DataColumnDirective);
  readonly names = computed(() => this.columns().map((column) => column.name()));
}

/** What a page imports to write an <sc-data-table> with its columns. */
export const DATA_TABLE = [DataTableComponent, DataColumnDirective] as const;
