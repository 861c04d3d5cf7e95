import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialogModule } from '@angular/material/dialog';
import type { SignInLinkResponse } from '@sc/contracts';
import { OneTimeSecretComponent } from '../../shared/one-time-secret.component';

export interface SignInLinkDialogData {
  memberName: string;
  link: SignInLinkResponse;
}

/** Shows a freshly minted break-glass sign-in link once, for the owner to hand over. */
@Component({
  selector: 'sc-sign-in-link-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, MatButtonModule, MatDialogModule, OneTimeSecretComponent],
  template: `
    <h2 mat-dialog-title>Sign-in link for {{ data.memberName }}</h2>
    <mat-dialog-content>
      <p>
        Send this link to {{ data.memberName }} over a trusted channel. It signs them in to this organization once
        and expires {{ data.link.expiresAt | date: 'shortTime' }}.
      </p>
      <sc-one-time-secret
        [value]="data.link.url"
        label="sign-in link"
        warningTitle="Anyone with this link can sign in as this member."
        warning="It works once and for 15 minutes. It is not shown again."
      />
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-flat-button type="button" mat-dialog-close>Done</button>
    </mat-dialog-actions>
  `,
})
export class SignInLinkDialogComponent {
  readonly data = inject<SignInLinkDialogData>(MAT_DIALOG_DATA);
}
