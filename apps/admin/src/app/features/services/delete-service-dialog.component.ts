import { ChangeDetectionStrategy, Component, computed, inject, signal, type Injector } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialog, MatDialogModule, MatDialogRef } from '@angular/material/dialog';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { firstValueFrom } from 'rxjs';
import { toApiError, type ApiError } from '../../core/api-error';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { ServicesApi } from './services.api';

export interface DeleteServiceDialogData {
  orgId: string;
  service: string;
}

/**
 * Confirms the deletion of a service by asking for its name (nothing else can be undone this thoroughly: every
 * revision goes), then deletes it. Closes with true once the service is deleted; an error stays in the dialog.
 */
@Component({
  selector: 'sc-delete-service-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatDialogModule, MatFormFieldModule, MatInputModule, ErrorBannerComponent],
  template: `
    <h2 mat-dialog-title>Delete service {{ data.service }}?</h2>
    <mat-dialog-content>
      <p>
        Every revision of <strong>{{ data.service }}</strong> and all its diagrams, flows, schemas and docs are deleted.
        This cannot be undone; the service comes back only as new, at revision 1, when CI syncs it again.
      </p>
      <mat-form-field class="full">
        <mat-label>Type the service name to confirm</mat-label>
        <input
          matInput
          autocomplete="off"
          spellcheck="false"
          data-testid="delete-service-name"
          [value]="typed()"
          (input)="typed.set($any($event.target).value)"
        />
      </mat-form-field>
      <sc-error-banner [error]="error()" />
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" [mat-dialog-close]="false" [disabled]="deleting()">Cancel</button>
      <button mat-flat-button type="button" class="destructive" data-testid="delete-service-confirm" [disabled]="!matches() || deleting()" (click)="delete()">
        Delete service
      </button>
    </mat-dialog-actions>
  `,
  styles: `
    .destructive:not([disabled]) {
      --mat-button-filled-container-color: var(--mat-sys-error);
      --mat-button-filled-label-text-color: var(--mat-sys-on-error);
    }
    p,
    .full {
      width: 100%;
      max-width: 50ch;
    }
  `,
})
export class DeleteServiceDialogComponent {
  readonly data = inject<DeleteServiceDialogData>(MAT_DIALOG_DATA);
  private readonly api = inject(ServicesApi);
  private readonly ref = inject<MatDialogRef<DeleteServiceDialogComponent, boolean>>(MatDialogRef);

  readonly typed = signal('');
  /** Exactly the name (surrounding spaces forgiven): a near miss does not delete. */
  readonly matches = computed(() => this.typed().trim() === this.data.service);
  readonly deleting = signal(false);
  readonly error = signal<ApiError | null>(null);

  async delete(): Promise<void> {
    if (!this.matches() || this.deleting()) return;
    this.deleting.set(true);
    this.error.set(null);
    try {
      await firstValueFrom(this.api.remove(this.data.orgId, this.data.service), { defaultValue: undefined });
      this.ref.close(true);
    } catch (error: unknown) {
      this.error.set(toApiError(error));
      this.deleting.set(false);
    }
  }
}

/** Opens the dialog with the page's injector; resolves true when the service was deleted. */
export async function deleteServiceWithConfirmation(injector: Injector, data: DeleteServiceDialogData): Promise<boolean> {
  const ref = injector.get(MatDialog).open<DeleteServiceDialogComponent, DeleteServiceDialogData, boolean>(DeleteServiceDialogComponent, { data, autoFocus: 'first-tabbable' });
  return (await firstValueFrom(ref.afterClosed())) === true;
}
