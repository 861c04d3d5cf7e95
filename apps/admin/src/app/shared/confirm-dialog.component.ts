import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialog, MatDialogModule } from '@angular/material/dialog';
import { firstValueFrom } from 'rxjs';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  /** Destructive actions get a warning-coloured button. */
  destructive?: boolean;
  /** What else the action affects, listed under the message (e.g. the API tokens a removal revokes). */
  items?: string[];
}

@Component({
  selector: 'sc-confirm-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatDialogModule, MatButtonModule],
  template: `
    <h2 mat-dialog-title>{{ data.title }}</h2>
    <mat-dialog-content>
      <p>{{ data.message }}</p>
      @if (data.items?.length) {
        <ul data-testid="confirm-items">
          @for (item of data.items; track $index) {
            <li>{{ item }}</li>
          }
        </ul>
      }
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" [mat-dialog-close]="false">Cancel</button>
      <button
        mat-flat-button
        type="button"
        [class.destructive]="data.destructive"
        [mat-dialog-close]="true"
        cdkFocusInitial
      >
        {{ data.confirmLabel }}
      </button>
    </mat-dialog-actions>
  `,
  styles: `
    .destructive {
      --mat-button-filled-container-color: var(--mat-sys-error);
      --mat-button-filled-label-text-color: var(--mat-sys-on-error);
    }
    p,
    ul {
      max-width: 50ch;
    }
  `,
})
export class ConfirmDialogComponent {
  readonly data = inject<ConfirmOptions>(MAT_DIALOG_DATA);
}

/** Asks the person to confirm an action; resolves true only when they confirmed. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

/**
 * The confirmation step of a page's destructive or far-reaching actions, set up once per page beside its
 * mutation()s: `private readonly confirm = confirmation();` then `if (!(await this.confirm({ … }))) return;`.
 * Must be called in an injection context.
 */
export function confirmation(): Confirm {
  const dialog = inject(MatDialog);
  return async (options) => {
    const ref = dialog.open<ConfirmDialogComponent, ConfirmOptions, boolean>(ConfirmDialogComponent, {
      data: options,
      autoFocus: 'dialog',
    });
    return (await firstValueFrom(ref.afterClosed())) === true;
  };
}
