import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MAT_DIALOG_DATA, MatDialogModule } from '@angular/material/dialog';
import type { SignInLinkResponse } from '@sc/contracts';
import { mutation } from '../core/mutation';
import { OneTimeSecretComponent } from '../shared/one-time-secret.component';

export interface SignOutWarningData {
  organizationName: string;
  /** Enabled SSO providers of the organization (none of them has had a successful sign-in). */
  enabledProviders: number;
  /** Owners may mint a sign-in link for themselves before leaving; null for everyone else. */
  mintOwnLink: (() => Promise<SignInLinkResponse>) | null;
}

/**
 * Shown before signing out when no enabled SSO provider of the organization has had a successful sign-in: the way
 * back may not work. An owner can get a sign-in link for themselves first (shown once). Closes with true to sign out.
 */
@Component({
  selector: 'sc-sign-out-warning-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, MatButtonModule, MatDialogModule, OneTimeSecretComponent],
  template: `
    <h2 mat-dialog-title>You may not be able to sign in again</h2>
    <mat-dialog-content data-testid="sign-out-warning">
      <p>
        @if (data.enabledProviders === 0) {
          {{ data.organizationName }} has no enabled single sign-on provider, so after signing out the only way back in is a
          sign-in link from an owner.
        } @else {
          None of the single sign-on providers of {{ data.organizationName }} has had a successful sign-in yet. If it does not
          work, the only way back in is a sign-in link from an owner.
        }
      </p>
      @if (link(); as link) {
        <p>Open this link after signing out to get back in. It works once and expires {{ link.expiresAt | date: 'shortTime' }}.</p>
        <sc-one-time-secret
          [value]="link.url"
          label="sign-in link"
          warningTitle="Anyone with this link can sign in as you."
          warning="It works once and for 15 minutes. It is not shown again."
        />
      } @else if (data.mintOwnLink) {
        <p>As an owner you can get a sign-in link for yourself now, before you sign out.</p>
      } @else {
        <p>Make sure an owner of {{ data.organizationName }} can send you a sign-in link before you sign out.</p>
      }
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" [mat-dialog-close]="false" data-testid="sign-out-cancel">Stay signed in</button>
      @if (data.mintOwnLink && !link()) {
        <button mat-stroked-button type="button" (click)="getLink()" [disabled]="minting.pending()" data-testid="sign-out-get-link">Get a sign-in link for myself</button>
      }
      <button mat-flat-button type="button" [mat-dialog-close]="true" data-testid="sign-out-anyway">Sign out</button>
    </mat-dialog-actions>
  `,
})
export class SignOutWarningDialogComponent {
  readonly data = inject<SignOutWarningData>(MAT_DIALOG_DATA);
  /** The link, once minted: shown once, and the button to mint another is gone. */
  readonly link = signal<SignInLinkResponse | null>(null);
  readonly minting = mutation();

  async getLink(): Promise<void> {
    const mint = this.data.mintOwnLink;
    if (!mint) return;
    await this.minting.run(true, mint, { done: (link) => this.link.set(link) });
  }
}
