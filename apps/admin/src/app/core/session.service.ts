import { HttpClient } from '@angular/common/http';
import { Injectable, computed, inject, signal } from '@angular/core';
import { Router } from '@angular/router';
import type { MeResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from './api-error';
import { RecentOrganizationsService } from './recent-organizations.service';

/** The signed-in person and the one organization their session acts in. */
@Injectable({ providedIn: 'root' })
export class SessionService {
  private readonly http = inject(HttpClient);
  private readonly router = inject(Router);
  private readonly recent = inject(RecentOrganizationsService);
  private readonly current = signal<MeResponse | null>(null);
  /** The organization of the session that just ended, so the signed-out page can offer to sign in there again. */
  private readonly ended = signal<{ id: string; name: string } | null>(null);

  readonly me = this.current.asReadonly();
  readonly lastOrganization = this.ended.asReadonly();
  readonly organizationId = computed(() => this.current()?.organization.id ?? null);
  readonly role = computed(() => this.current()?.role ?? null);
  /** Owners and admins manage members, tokens and settings; the server enforces it, the UI hides what would fail. */
  readonly canManage = computed(() => {
    const role = this.role();
    return role === 'owner' || role === 'admin';
  });
  /** Editors and above create, save and delete drafts; viewers read and export (the server enforces it). */
  readonly canEditDrafts = computed(() => this.canManage() || this.role() === 'editor');

  /** Asks the server who is signed in. Resolves null when nobody is (401); other failures are thrown. */
  async load(): Promise<MeResponse | null> {
    try {
      const me = await firstValueFrom(this.http.get<MeResponse>('/api/v1/me'));
      this.adopt(me);
      return me;
    } catch (error: unknown) {
      const apiError = toApiError(error);
      if (apiError.status === 401) {
        this.current.set(null);
        return null;
      }
      throw apiError;
    }
  }

  /** Remembers the session the setup call just created, so the next pages need no extra round trip. */
  adopt(me: MeResponse): void {
    this.current.set(me);
    if (me.kind === 'session') this.recent.remember({ id: me.organization.id, name: me.organization.name });
  }

  async signOut(): Promise<void> {
    try {
      await firstValueFrom(this.http.post<void>('/api/v1/auth/sign-out', {}));
    } catch (error: unknown) {
      // Already signed out on the server is the outcome the person asked for; anything else is reported.
      if (!(error instanceof ApiError && error.status === 401)) throw toApiError(error);
    }
    this.forget();
    await this.router.navigateByUrl('/signed-out');
  }

  /**
   * Creating an organization signed the browser in to it (the server replaced the session): reload who is
   * signed in and open the new organization's home.
   */
  async enterCreated(organizationId: string): Promise<void> {
    await this.load();
    await this.router.navigate(['/orgs', organizationId]);
  }

  private forget(): void {
    const organization = this.current()?.organization;
    this.ended.set(organization ? { id: organization.id, name: organization.name } : null);
    this.current.set(null);
  }

  /** Called when an API call answers 401: the session expired or was revoked. */
  handleExpired(): void {
    if (this.current() === null) return;
    this.forget();
    void this.router.navigate(['/signed-out'], { queryParams: { reason: 'expired' } });
  }
}
