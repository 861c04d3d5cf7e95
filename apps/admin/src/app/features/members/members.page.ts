import { ChangeDetectionStrategy, Component, computed, inject, input, signal, viewChild } from '@angular/core';
import { FormBuilder, FormGroupDirective, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatDialog } from '@angular/material/dialog';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatInputModule } from '@angular/material/input';
import { MatMenuModule } from '@angular/material/menu';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { MatSelectModule } from '@angular/material/select';
import { MatTableModule } from '@angular/material/table';
import { MatTooltipModule } from '@angular/material/tooltip';
import { ROLES, type ApiTokenResponse, type MemberResponse, type Role } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { cursorPages } from '../../core/cursor-pages';
import { NotifyService } from '../../core/notify.service';
import { SessionService } from '../../core/session.service';
import { confirmAction } from '../../shared/confirm-dialog.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { LoadMoreComponent } from '../../shared/load-more.component';
import { MembersApi } from './members.api';
import { ROLE_DESCRIPTIONS, assignableRoles, describeToken, revokedTokensSentence, sortMembers } from './member-rules';
import { SignInLinkDialogComponent, type SignInLinkDialogData } from './sign-in-link-dialog.component';

@Component({
  selector: 'sc-members-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    ReactiveFormsModule,
    MatButtonModule,
    MatCardModule,
    MatFormFieldModule,
    MatIconModule,
    MatInputModule,
    MatMenuModule,
    MatProgressBarModule,
    MatSelectModule,
    MatTableModule,
    MatTooltipModule,
    ErrorBannerComponent,
    LoadErrorComponent,
    LoadMoreComponent,
  ],
  templateUrl: './members.page.html',
  styleUrl: './members.page.scss',
})
export class MembersPage {
  private readonly api = inject(MembersApi);
  private readonly dialog = inject(MatDialog);
  private readonly notify = inject(NotifyService);
  private readonly session = inject(SessionService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();

  readonly canManage = this.session.canManage;
  readonly isOwner = computed(() => this.session.role() === 'owner');
  readonly myUserId = computed(() => this.session.me()?.user?.id ?? null);
  /** Oldest first, as the API pages them; "Load more" appends the next page. */
  readonly members = cursorPages<string, MemberResponse>({ params: this.orgId, load: (orgId, cursor) => this.api.list(orgId, cursor) });
  readonly sortedMembers = computed(() => sortMembers(this.members.value()));
  readonly adding = signal(false);
  readonly addError = signal<ApiError | null>(null);
  readonly busyUserId = signal<string | null>(null);

  readonly roleDescriptions = ROLE_DESCRIPTIONS;
  readonly assignableRoles = computed(() => assignableRoles(this.session.role()));
  readonly allRoles = ROLES;
  readonly columns = ['member', 'role', 'source', 'status', 'actions'];

  /** Resetting through the directive also clears its "submitted" state, so the emptied form shows no errors. */
  private readonly addFormDirective = viewChild(FormGroupDirective);

  readonly addForm = inject(FormBuilder).nonNullable.group({
    email: ['', [Validators.required, Validators.email, Validators.maxLength(320)]],
    role: ['viewer' as Role, [Validators.required]],
    displayName: ['', [Validators.maxLength(200)]],
  });

  async add(): Promise<void> {
    if (this.addForm.invalid) {
      this.addForm.markAllAsTouched();
      return;
    }
    const value = this.addForm.getRawValue();
    this.adding.set(true);
    this.addError.set(null);
    try {
      const displayName = value.displayName.trim();
      const member = await firstValueFrom(
        this.api.add(this.orgId(), {
          email: value.email.trim(),
          role: value.role,
          ...(displayName ? { displayName } : {}),
        }),
      );
      this.members.update((members) => [...members.filter((m) => m.userId !== member.userId), member]);
      this.notify.success(`${member.displayName} was added as ${member.role}.`);
      this.addFormDirective()?.resetForm({ email: '', role: value.role, displayName: '' });
    } catch (error: unknown) {
      this.addError.set(toApiError(error));
    } finally {
      this.adding.set(false);
    }
  }

  async changeRole(member: MemberResponse, role: Role): Promise<void> {
    if (role === member.role) return;
    if (role === 'owner') {
      const confirmed = await confirmAction(this.dialog, {
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
      const confirmed = await confirmAction(this.dialog, {
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
    const confirmed = await confirmAction(this.dialog, {
      title: `Remove ${member.displayName}?`,
      message: `${member.email} loses access to this organization. You can add them again later. ${revokedTokensSentence(tokens)}`,
      items: tokens.map(describeToken),
      confirmLabel: 'Remove member',
      destructive: true,
    });
    if (!confirmed) return;
    this.busyUserId.set(member.userId);
    try {
      await firstValueFrom(this.api.remove(this.orgId(), member.userId));
      this.members.update((members) => members.filter((m) => m.userId !== member.userId));
      this.notify.success(`${member.displayName} was removed.`);
    } catch (error: unknown) {
      this.notify.error(error);
    } finally {
      this.busyUserId.set(null);
    }
  }

  async createSignInLink(member: MemberResponse): Promise<void> {
    this.busyUserId.set(member.userId);
    try {
      const link = await firstValueFrom(this.api.createSignInLink(this.orgId(), member.userId));
      this.dialog.open<SignInLinkDialogComponent, SignInLinkDialogData>(SignInLinkDialogComponent, {
        data: { memberName: member.displayName, link },
        width: '560px',
      });
    } catch (error: unknown) {
      this.notify.error(error);
    } finally {
      this.busyUserId.set(null);
    }
  }

  /** The API tokens removing or disabling the member revokes, for the confirmation; null when they could not be read. */
  private async tokensRevokedWith(member: MemberResponse): Promise<ApiTokenResponse[] | null> {
    this.busyUserId.set(member.userId);
    try {
      return await firstValueFrom(this.api.tokensRevokedWithMember(this.orgId(), member.userId));
    } catch (error: unknown) {
      this.notify.error(error);
      return null;
    } finally {
      this.busyUserId.set(null);
    }
  }

  private async update(member: MemberResponse, change: { role?: Role; disabled?: boolean }, done: string): Promise<void> {
    this.busyUserId.set(member.userId);
    try {
      const updated = await firstValueFrom(this.api.update(this.orgId(), member.userId, change));
      this.replace(updated);
      this.notify.success(done);
    } catch (error: unknown) {
      this.replace(member);
      this.notify.error(error);
    } finally {
      this.busyUserId.set(null);
    }
  }

  private replace(member: MemberResponse): void {
    this.members.update((members) => members.map((m) => (m.userId === member.userId ? { ...member } : m)));
  }
}
