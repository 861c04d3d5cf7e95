import { Injectable, inject } from '@angular/core';
import { MatSnackBar } from '@angular/material/snack-bar';
import { toApiError } from './api-error';

/** Short confirmations and failures of actions that have no form to show them in. */
@Injectable({ providedIn: 'root' })
export class NotifyService {
  private readonly snackBar = inject(MatSnackBar);

  success(message: string): void {
    this.snackBar.open(message, 'Dismiss', { duration: 4000, politeness: 'polite' });
  }

  /** Closes any message, e.g. when the person signs out and the old context no longer applies. */
  dismiss(): void {
    this.snackBar.dismiss();
  }

  error(error: unknown): void {
    const apiError = toApiError(error);
    // Errors stay until dismissed: a person should not miss why their action failed.
    this.snackBar.open(apiError.fullMessage, 'Dismiss', { politeness: 'assertive', panelClass: 'snack-error' });
  }
}
