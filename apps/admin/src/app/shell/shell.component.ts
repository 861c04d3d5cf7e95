import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatDividerModule } from '@angular/material/divider';
import { MatIconModule } from '@angular/material/icon';
import { MatMenuModule } from '@angular/material/menu';
import { MatToolbarModule } from '@angular/material/toolbar';
import { Router, RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import type { OrganizationResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { mutation } from '../core/mutation';
import { NotifyService } from '../core/notify.service';
import { RecentOrganizationsService } from '../core/recent-organizations.service';
import { SessionService } from '../core/session.service';
import { CreateOrganizationDialogComponent } from '../features/organization/create-organization-dialog.component';
import { OrgSearchDialogComponent, type OrgSearchData } from '../features/search/org-search-dialog.component';
import { SignInElsewhereDialogComponent } from './sign-in-elsewhere-dialog.component';
import { MembersApi } from '../features/members/members.api';
import { SsoApi } from '../features/sso/sso.api';
import { SignOutWarningDialogComponent, type SignOutWarningData } from './sign-out-warning-dialog.component';

interface NavLink {
  path: string;
  label: string;
  icon: string;
  exact: boolean;
  /** Shown to owners and admins only: the server refuses the page's API to other roles. */
  managersOnly: boolean;
}

const NAV_LINKS: readonly NavLink[] = [
  { path: '.', label: 'Overview', icon: 'home', exact: true, managersOnly: false },
  { path: 'services', label: 'Services', icon: 'account_tree', exact: false, managersOnly: false },
  { path: 'drafts', label: 'Drafts', icon: 'edit', exact: false, managersOnly: false },
  { path: 'members', label: 'Members', icon: 'group', exact: false, managersOnly: false },
  { path: 'tokens', label: 'API tokens', icon: 'key', exact: false, managersOnly: true },
  { path: 'settings/sso', label: 'Single sign-on', icon: 'link', exact: false, managersOnly: true },
  { path: 'audit', label: 'Audit log', icon: 'history', exact: false, managersOnly: true },
];

@Component({
  selector: 'sc-shell',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    RouterOutlet,
    RouterLink,
    RouterLinkActive,
    MatToolbarModule,
    MatButtonModule,
    MatIconModule,
    MatMenuModule,
    MatDividerModule,
  ],
  templateUrl: './shell.component.html',
  styleUrl: './shell.component.scss',
  host: { '(document:keydown)': 'searchShortcut($event)' },
})
export class ShellComponent {
  private readonly session = inject(SessionService);
  private readonly notify = inject(NotifyService);
  private readonly dialog = inject(MatDialog);
  private readonly router = inject(Router);
  private readonly recent = inject(RecentOrganizationsService);
  private readonly sso = inject(SsoApi);
  private readonly members = inject(MembersApi);

  readonly me = this.session.me;
  readonly links = computed(() => NAV_LINKS.filter((link) => !link.managersOnly || this.session.canManage()));
  private readonly signOutAction = mutation();
  private readonly organizationAction = mutation();
  readonly signingOut = this.signOutAction.pending;
  readonly displayName = computed(() => {
    const user = this.me()?.user;
    return user ? user.displayName || user.email : 'API token';
  });

  /**
   * Other organizations this browser signed in to. Switching means signing in there by that organization's own
   * means (its sign-in page), because a session never moves between organizations.
   */
  readonly otherOrganizations = computed(() => {
    const current = this.me()?.organization.id;
    return this.recent.list().filter((org) => org.id !== current);
  });
  /** Only owners of this organization may create organizations (the server checks the same). */
  readonly canCreateOrganization = computed(() => this.me()?.role === 'owner');

  /**
   * Ctrl+Shift+K (⌘⇧K) anywhere, and Ctrl+K (⌘K) on pages without a diagram, open the organization's search. On a
   * diagram page Ctrl+K stays the canvas's own node search (its box is right there); Ctrl+Shift+K still searches
   * the organization.
   */
  searchShortcut(event: KeyboardEvent): void {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'k') return;
    if (!event.shiftKey && document.querySelector('.sc-diagram-canvas')) return;
    event.preventDefault();
    this.openSearch();
  }

  openSearch(): void {
    const orgId = this.me()?.organization.id;
    if (!orgId || this.dialog.openDialogs.some((ref) => ref.componentInstance instanceof OrgSearchDialogComponent)) return;
    this.dialog.open<OrgSearchDialogComponent, OrgSearchData>(OrgSearchDialogComponent, { data: { orgId }, width: '640px', position: { top: '10vh' } });
  }

  /** Any other organization by its id: its sign-in page. */
  async signInElsewhere(): Promise<void> {
    const ref = this.dialog.open<SignInElsewhereDialogComponent, void, string>(SignInElsewhereDialogComponent, { width: '440px' });
    const organizationId = await firstValueFrom(ref.afterClosed());
    if (organizationId) await this.router.navigate(['/orgs', organizationId, 'sign-in']);
  }

  async createOrganization(): Promise<void> {
    const ref = this.dialog.open<CreateOrganizationDialogComponent, void, OrganizationResponse>(CreateOrganizationDialogComponent, {
      width: '480px',
    });
    const created = await firstValueFrom(ref.afterClosed());
    if (!created) return;
    await this.organizationAction.run(true, () => this.session.enterCreated(created.id), {
      success: `${created.name} was created. You are its owner and signed in to it.`,
    });
  }

  async signOut(): Promise<void> {
    if (!(await this.mayLeave())) return;
    await this.signOutAction.run(true, () => this.session.signOut(), { done: () => this.notify.dismiss() });
  }

  /**
   * Before signing out: when no enabled SSO provider of the organization has had a successful sign-in, the way back
   * may not work, so the person is warned first (an owner may get a sign-in link for themselves). When the status
   * cannot be read, signing out goes on: the warning must never keep anyone in.
   */
  private async mayLeave(): Promise<boolean> {
    const me = this.me();
    if (me?.kind !== 'session' || !me.user) return true;
    const { organization, user } = me;
    let status;
    try {
      status = await firstValueFrom(this.sso.signInStatus(organization.id));
    } catch {
      return true;
    }
    if (status.provenProviders > 0) return true;
    const data: SignOutWarningData = {
      organizationName: organization.name,
      enabledProviders: status.enabledProviders,
      mintOwnLink: me.role === 'owner' ? () => firstValueFrom(this.members.createSignInLink(organization.id, user.id)) : null,
    };
    const ref = this.dialog.open<SignOutWarningDialogComponent, SignOutWarningData, boolean>(SignOutWarningDialogComponent, { data, width: '560px' });
    return (await firstValueFrom(ref.afterClosed())) === true;
  }
}
