import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { FormBuilder, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatDialogModule, MatDialogRef } from '@angular/material/dialog';
import { ORGANIZATION_ID_PATTERN } from '@sc/contracts';
import { ORGANIZATION_ID_ERRORS } from '../shared/organization-id';
import { FORM_FIELDS } from '../shared/form-fields';

/** Asks for an organization id; closes with it, and the shell opens that organization's sign-in page. */
@Component({
  selector: 'sc-sign-in-elsewhere-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatDialogModule],
  template: `
    <h2 mat-dialog-title>Sign in to another organization</h2>
    <form [formGroup]="form" (ngSubmit)="submit()" novalidate>
      <mat-dialog-content>
        <p class="muted">Each organization has its own sign-in: its single sign-on, or a one-time link from one of its owners.</p>
        <mat-form-field class="full-width">
          <mat-label>Organization ID</mat-label>
          <input matInput formControlName="id" required spellcheck="false" cdkFocusInitial />
          <mat-hint>As in its address: /orgs/<b>organization-id</b></mat-hint>
          <sc-field-errors matError [control]="form.controls.id" [messages]="organizationIdErrors" />
        </mat-form-field>
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" mat-dialog-close>Cancel</button>
        <button mat-flat-button type="submit">Continue to sign-in</button>
      </mat-dialog-actions>
    </form>
  `,
})
export class SignInElsewhereDialogComponent {
  protected readonly organizationIdErrors = ORGANIZATION_ID_ERRORS;
  private readonly dialogRef = inject<MatDialogRef<SignInElsewhereDialogComponent, string>>(MatDialogRef);

  readonly form = inject(FormBuilder).nonNullable.group({
    id: ['', [Validators.required, Validators.pattern(ORGANIZATION_ID_PATTERN)]],
  });

  submit(): void {
    const id = this.form.controls.id.value.trim();
    this.form.controls.id.setValue(id);
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    this.dialogRef.close(id);
  }
}
