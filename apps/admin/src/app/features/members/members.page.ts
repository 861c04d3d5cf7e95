import { ChangeDetectionStrategy, Component, computed, inject, input, viewChild } from '@angular/core';
import { FormBuilder, FormGroupDirective, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIconModule } from '@angular/material/icon';
import { MatMenuModule } from '@angular/material/menu';
import { MatSelectModule } from '@angular/material/select';
import { MatTooltipModule } from '@angular/material/tooltip';
import { describeAddedBy, FIELD_LIMITS, ROLES, type ApiTokenResponse, type MemberResponse, type Role } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { SessionService } from '../../core/session.service';
import { confirmation } from '../../shared/confirm-dialog.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { cursorPages } from '../../core/cursor-pages';
import { PagedListCardComponent } from '../../shared/paged-list-card.component';
import { MembersApi } from './members.api';
import { ROLE_DESCRIPTIONS, assignableRoles, describeToken, revokedTokensSentence, sortMembers } from './member-rules';
import { SignInLinkDialogComponent, type SignInLinkDialogData } from './sign-in-link-dialog.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { FORM_FIELDS } from '../../shared/form-fields';
import { SectionCardComponent } from '../../shared/section-card.component';

@Component({
  selector: 'sc-members-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    FORM_FIELDS,
    MatButtonModule,
    SectionCardComponent,
    MatIconModule,
    MatMenuModule,
    MatSelectModule,
    DATA_TABLE,
    MatTooltipModule,
    ErrorBannerComponent,
    PagedListCardComponent,
  ],
  templateUrl: './members.page.html',
  styleUrl: './members.page.scss',
})
export class MembersPage {
  private readonly api = inject(MembersApi);
  private readonly dialog = inject(MatDialog);
  private readonly session = inject(SessionService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  readonly canManage = this.session.canManage;
  readonly isOwner = computed(() => this.session.role() === 'owner');
  readonly myUserId = computed(() => this.session.me()?.user?.id ?? null);
  /** Oldest first, as the API pages them; "Load more" appends the next page. */
  readonly members = cursorPages<string, MemberResponse>({ params: this.orgId, load: (orgId, cursor) => this.api.list(orgId, { cursor }) });
  readonly sortedMembers = computed(() => sortMembers(this.members.value()));
  private readonly addition = mutation({ report: 'inline' });
  readonly adding = this.addition.pending;
  readonly addError = this.addition.error;
  private readonly confirm = confirmation();
  /** Row actions: the member being changed. */
  private readonly change = mutation<string>();
  readonly busyUserId = this.change.busy;

  readonly roleDescriptions = ROLE_DESCRIPTIONS;
  readonly assignableRoles = computed(() => assignableRoles(this.session.role()));
  readonly allRoles = ROLES;
  /** Disabled members, and people whose account is disabled everywhere, are greyed out. */
  readonly isDimmed = (member: MemberResponse) => member.disabled || member.userDisabled;

  /** Resetting through the directive also clears its "submitted" state, so the emptied form shows no errors. */
  private readonly addFormDirective = viewChild(FormGroupDirective);

  readonly addForm = inject(FormBuilder).nonNullable.group({
    email: ['', [Validators.required, Validators.email, Validators.maxLength(FIELD_LIMITS.email)]],
    role: ['viewer' as Role, [Validators.required]],
    displayName: ['', [Validators.maxLength(FIELD_LIMITS.personName)]],
  });

  /** "First-run setup", "Added by ada@…", "SSO sign-up through Acme Login", "API token ci (created by …)". */
  addedBy(member: MemberResponse): string {
    return describeAddedBy(member.addedBy);
  }

  async add(): Promise<void> {
    if (this.addForm.invalid) {
      this.addForm.markAllAsTouched();
      return;
    }
    const value = this.addForm.getRawValue();
    const displayName = value.displayName.trim();
    await this.addition.run(
      true,
      () => this.api.create(this.orgId(), { email: value.email.trim(), role: value.role, ...(displayName ? { displayName } : {}) }),
      {
        success: (member) => `${member.displayName} was added as ${member.role}.`,
        done: (member) => {
          this.members.update((members) => [...members.filter((m) => m.userId !== member.userId), member]);
          this.addFormDirective()?.resetForm({ email: '', role: value.role, displayName: '' });
        },
      },
    );
  }

  async changeRole(member: MemberResponse, role: Role): Promise<void> {
    if (role === member.role) return;
    if (role === 'owner') {
      const confirmed = await this.confirm({
        title: `Make ${member.displayName} an owner?`,
        message: 'Owners have full control of the organization, including removing other owners.',
        confirmLabel: 'Make owner',
      });
      if (!confirmed) {
        this.replace(member); // puts the select back on the old role
        return;
      }
    }
    await this.update(member, { role }, `${member.displayName} is now ${role}.`);
  }

  async toggleDisabled(member: MemberResponse): Promise<void> {
    if (!member.disabled) {
      const tokens = await this.tokensRevokedWith(member);
      if (tokens === null) return;
      const confirmed = await this.confirm({
        title: `Disable ${member.displayName}?`,
        message: `${member.displayName} keeps their role but cannot sign in to this organization or use it until you enable them again. Their current sessions stop working. ${revokedTokensSentence(tokens)}`,
        items: tokens.map(describeToken),
        confirmLabel: 'Disable member',
        destructive: true,
      });
      if (!confirmed) return;
    }
    const disabled = !member.disabled;
    await this.update(member, { disabled }, `${member.displayName} was ${disabled ? 'disabled' : 'enabled'}.`);
  }

  async remove(member: MemberResponse): Promise<void> {
    const tokens = await this.tokensRevokedWith(member);
    if (tokens === null) return;
    const confirmed = await this.confirm({
      title: `Remove ${member.displayName}?`,
      message: `${member.email} loses access to this organization. You can add them again later. ${revokedTokensSentence(tokens)}`,
      items: tokens.map(describeToken),
      confirmLabel: 'Remove member',
      destructive: true,
    });
    if (!confirmed) return;
    await this.change.run(member.userId, () => this.api.remove(this.orgId(), member.userId), {
      success: `${member.displayName} was removed.`,
      done: () => this.members.update((members) => members.filter((m) => m.userId !== member.userId)),
    });
  }

  async createSignInLink(member: MemberResponse): Promise<void> {
    await this.change.run(member.userId, () => this.api.createSignInLink(this.orgId(), member.userId), {
      done: (link) => {
        this.dialog.open<SignInLinkDialogComponent, SignInLinkDialogData>(SignInLinkDialogComponent, {
          data: { memberName: member.displayName, link },
          width: '560px',
        });
      },
    });
  }

  /** The API tokens removing or disabling the member revokes, for the confirmation; null when they could not be read. */
  private async tokensRevokedWith(member: MemberResponse): Promise<ApiTokenResponse[] | null> {
    return (await this.change.run(member.userId, () => this.api.tokensRevokedWithMember(this.orgId(), member.userId))) ?? null;
  }

  private async update(member: MemberResponse, change: { role?: Role; disabled?: boolean }, done: string): Promise<void> {
    await this.change.run(member.userId, () => this.api.update(this.orgId(), member.userId, change), {
      success: done,
      done: (updated) => this.replace(updated),
      failed: () => this.replace(member),
    });
  }

  private replace(member: MemberResponse): void {
    this.members.update((members) => members.map((m) => (m.userId === member.userId ? { ...member } : m)));
  }
}
