import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { EmbedLinkResponse } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { confirmation } from '../../shared/confirm-dialog.component';
import { DATA_TABLE } from '../../shared/data-table.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { relativeTime } from '../../shared/time';
import { tokenStatus } from '../tokens/token-rules';
import { EmbedLinksApi } from './embeds.api';

const STATUS_LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

/** Which sites may frame the link's page: `frameAncestors` null is any site, [] none. */
export function framingText(frameAncestors: string[] | null): string {
  if (frameAncestors === null) return 'Any site';
  return frameAncestors.length ? frameAncestors.join(', ') : 'No site';
}

/**
 * The service page's "Embed links" card (admins): every link to the service's images, with what it shows, the sites
 * that may frame its page, its expiry and last use, and Revoke. Links are created from a diagram's export menu.
 */
@Component({
  selector: 'sc-embed-links-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, MatButtonModule, MatCardModule, MatProgressBarModule, DATA_TABLE, ErrorBannerComponent],
  template: `
    <mat-card appearance="outlined" class="section" data-testid="embed-links">
      <mat-card-header>
        <mat-card-title><h2>Embed links</h2></mat-card-title>
      </mat-card-header>
      <sc-error-banner [error]="links.error()" />
      <!-- "No embed links" only once the list has loaded: while it loads, that would be untrue. -->
      @if (rows().length === 0 && links.isLoading()) {
        <mat-progress-bar mode="indeterminate" aria-label="Loading embed links" data-testid="embed-links-loading" />
      } @else if (rows().length === 0) {
        <mat-card-content>
          <p class="muted" data-testid="embed-links-empty">No embed links. A diagram's Export menu copies an image link, Markdown or an iframe for a README, wiki or portal.</p>
        </mat-card-content>
      } @else {
        <sc-data-table [rows]="rows()" label="Embed links" [dimRow]="dimmed" [rowTestId]="rowTestId">
          <ng-template scColumn="link" header="Link" let-r><code>{{ r.link.prefix }}…</code></ng-template>
          <ng-template scColumn="shows" header="Shows" let-r>{{ r.shows }}</ng-template>
          <ng-template scColumn="framing" header="Framed by" let-r>{{ r.framing }}</ng-template>
          <ng-template scColumn="created" header="Created" let-r>{{ r.link.createdAt | date: 'medium' }}</ng-template>
          <ng-template scColumn="expires" header="Expires" let-r>{{ r.link.expiresAt ? (r.link.expiresAt | date: 'medium') : 'Never' }}</ng-template>
          <ng-template scColumn="used" header="Last used" let-r>{{ r.lastUsed }}</ng-template>
          <ng-template scColumn="status" header="Status" let-r>{{ r.status }}</ng-template>
          <ng-template scColumn="actions" header="Actions" hideHeader cellClass="end" let-r>
            @if (r.status === 'Active') {
              <button mat-button type="button" (click)="revoke(r.link)" [disabled]="busyId() === r.link.id" [attr.data-testid]="'embed-revoke-' + r.link.id">Revoke</button>
            }
          </ng-template>
        </sc-data-table>
      }
    </mat-card>
  `,
})
export class EmbedLinksCardComponent {
  private readonly api = inject(EmbedLinksApi);
  private readonly confirm = confirmation();
  private readonly revocation = mutation<string>();
  readonly busyId = this.revocation.busy;

  readonly orgId = input.required<string>();
  readonly service = input.required<string>();

  readonly links = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service() }),
    load: ({ orgId, service }) => this.api.list(orgId, service),
    initial: [] as EmbedLinkResponse[],
  });

  readonly rows = computed(() => {
    const now = new Date();
    return this.links.value().map((link) => ({
      link,
      shows: `${link.diagram ?? 'Every diagram'} · ${link.revision === null ? 'latest' : `revision ${link.revision}`}`,
      framing: framingText(link.frameAncestors),
      status: STATUS_LABELS[tokenStatus(link, now)],
      lastUsed: link.lastUsedAt ? relativeTime(link.lastUsedAt, now) : 'Never',
    }));
  });
  readonly dimmed = (row: { status: string }) => row.status !== 'Active';
  readonly rowTestId = (row: { link: EmbedLinkResponse }) => `embed-link-${row.link.prefix}`;

  async revoke(link: EmbedLinkResponse): Promise<void> {
    const confirmed = await this.confirm({
      title: `Revoke ${link.prefix}…?`,
      message: 'Every README, wiki or portal showing this link shows a broken image from now on. This cannot be undone.',
      confirmLabel: 'Revoke link',
      destructive: true,
    });
    if (!confirmed) return;
    await this.revocation.run(link.id, () => this.api.revoke(this.orgId(), link.id), {
      success: `Embed link ${link.prefix}… revoked.`,
      done: (revoked) => this.links.update((links) => links.map((item) => (item.id === revoked.id ? revoked : item))),
    });
  }
}
