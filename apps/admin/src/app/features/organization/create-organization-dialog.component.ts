import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { FormBuilder, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatDialogModule, MatDialogRef } from '@angular/material/dialog';
import { FIELD_LIMITS, ORGANIZATION_ID_PATTERN, type OrganizationResponse } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { ORGANIZATION_ID_ERRORS, suggestOrganizationId } from '../../shared/organization-id';
import { OrganizationApi } from './organization.api';
import { FORM_FIELDS } from '../../shared/form-fields';

/** Owners create further organizations; the dialog closes with the created organization. */
@Component({
  selector: 'sc-create-organization-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatDialogModule, ErrorBannerComponent],
  template: `
    <h2 mat-dialog-title>New organization</h2>
    <form [formGroup]="form" (ngSubmit)="create()" novalidate>
      <mat-dialog-content>
        <p class="muted">
          You become its owner and are signed in to it. Members, tokens, settings and sign-in are separate per
          organization: to come back here later, sign in here again (single sign-on, or a one-time link from an owner).
        </p>
        <sc-error-banner [error]="error()" />
        <mat-form-field class="full-width">
          <mat-label>Organization name</mat-label>
          <input matInput formControlName="name" (input)="onNameInput()" required cdkFocusInitial />
          <sc-field-errors matError [control]="form.controls.name" [messages]="nameErrors" />
        </mat-form-field>
        <mat-form-field class="full-width">
          <mat-label>Organization ID</mat-label>
          <input matInput formControlName="id" (input)="idEdited = true" required spellcheck="false" />
          <mat-hint>Appears in URLs. It cannot be changed later.</mat-hint>
          <sc-field-errors matError [control]="form.controls.id" [messages]="organizationIdErrors" />
        </mat-form-field>
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" mat-dialog-close>Cancel</button>
        <button mat-flat-button type="submit" [disabled]="creating()">{{ creating() ? 'Creating…' : 'Create organization' }}</button>
      </mat-dialog-actions>
    </form>
  `,
  styles: `
    mat-form-field {
      margin-bottom: 8px;
    }
  `,
})
export class CreateOrganizationDialogComponent {
  protected readonly nameErrors = { required: "Enter the organization's name." };
  protected readonly organizationIdErrors = ORGANIZATION_ID_ERRORS;
  private readonly api = inject(OrganizationApi);
  private readonly dialogRef = inject<MatDialogRef<CreateOrganizationDialogComponent, OrganizationResponse>>(MatDialogRef);

  private readonly creation = mutation({ report: 'inline' });
  readonly creating = this.creation.pending;
  readonly error = this.creation.error;
  idEdited = false;

  readonly form = inject(FormBuilder).nonNullable.group({
    name: ['', [Validators.required, Validators.maxLength(FIELD_LIMITS.organizationName)]],
    id: ['', [Validators.required, Validators.pattern(ORGANIZATION_ID_PATTERN)]],
  });

  onNameInput(): void {
    if (!this.idEdited) this.form.controls.id.setValue(suggestOrganizationId(this.form.controls.name.value));
  }

  async create(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const { name, id } = this.form.getRawValue();
    await this.creation.run(true, () => this.api.create({ id: id.trim(), name: name.trim() }), {
      done: (organization) => this.dialogRef.close(organization),
    });
  }
}
