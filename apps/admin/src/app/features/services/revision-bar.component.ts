import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { ActivatedRoute, Router, RouterLink } from '@angular/router';
import type { ServiceRevisionItem, SyncArtifactRef } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { ServicesApi } from './services.api';

interface RevisionChoice {
  number: number;
  syncedAt: string;
  /** False when the artifact this page shows is not part of that revision. */
  available: boolean;
}

/**
 * The revision picker of a service page or an artifact page, and the banner shown on an earlier revision:
 * "You are viewing revision N of M, synced <time> — view latest". Picking a revision sets `?revision=` (none for
 * the latest), which the page reads.
 */
@Component({
  selector: 'sc-revision-bar',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class.compact]': 'compact()' },
  imports: [DatePipe, MatFormFieldModule, MatIconModule, MatSelectModule, RouterLink],
  template: `
    @if (choices().length > 0 && revision(); as shown) {
      <div class="revision-bar" [class.compact]="compact()">
        <mat-form-field subscriptSizing="dynamic">
          @if (!compact()) {
            <mat-label>Revision</mat-label>
          }
          <mat-select [value]="shown" [attr.aria-label]="compact() ? 'Revision' : null" (selectionChange)="pick($event.value)" panelWidth="auto" data-testid="revision-picker">
            <mat-select-trigger>Revision {{ shown }} of {{ latest() }}</mat-select-trigger>
            @for (choice of choices(); track choice.number) {
              <mat-option [value]="choice.number" [disabled]="!choice.available">
                Revision {{ choice.number }}{{ choice.number === latest() ? ' (latest)' : '' }} · {{ choice.syncedAt | date: 'medium' }}
                @if (!choice.available) {
                  · not in this revision
                }
              </mat-option>
            }
          </mat-select>
        </mat-form-field>
      </div>
      @if (shown !== latest()) {
        <div class="warning-banner" [class.compact]="compact()" role="status" data-testid="old-revision">
          <mat-icon svgIcon="info" aria-hidden="true" />
          <div>
            You are viewing revision {{ shown }} of {{ latest() }}@if (syncedAt(); as time) {, synced {{ time | date: 'medium' }}} —
            <a [routerLink]="[]" [queryParams]="{ revision: null }" queryParamsHandling="merge">view latest</a>
          </div>
        </div>
      }
    }
  `,
  styles: `
    /* On the service page: the picker and the banner are items of the page's row of facts (the banner a row of its own). */
    :host(:not(.compact)) {
      display: contents;
    }
    .revision-bar {
      display: flex;
      margin-left: auto;
    }
    .warning-banner:not(.compact) {
      flex-basis: 100%;
      margin: 16px 0 0;
    }

    mat-form-field {
      width: 200px;
    }

    /*
     * In a page's one-line header (the diagram page): the picker as a dense field, the banner as one line beside it.
     * Short of room, the banner gives way and the field does not (a field wider than its host ran under the next button).
     */
    :host(.compact) {
      display: flex;
      align-items: center;
      gap: 8px;
      --picker-width: 180px;
      min-width: var(--picker-width);
    }
    .revision-bar.compact {
      flex: none;
      margin: 0;
      --mat-form-field-container-height: 40px;
      --mat-form-field-container-vertical-padding: 8px;
      --mat-form-field-filled-with-label-container-padding-top: 8px;
      --mat-form-field-filled-with-label-container-padding-bottom: 8px;
    }
    .revision-bar.compact mat-form-field {
      width: var(--picker-width);
    }
    .warning-banner.compact {
      align-items: center;
      margin: 0;
      padding: 4px 10px;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      min-width: 0;
      font-size: 13px;
    }

  `,
})
export class RevisionBarComponent {
  private readonly api = inject(ServicesApi);
  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);

  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** The revision the page shows (from its loaded data); nothing is shown until it is known. */
  readonly revision = input<number | undefined>();
  /** The artifact the page shows; revisions without it cannot be picked. None on the service page. */
  readonly artifact = input<SyncArtifactRef | null>(null);
  /** In a page's one-line header: a dense picker without its label, the earlier-revision banner on the same line. */
  readonly compact = input(false);

  private readonly loaded = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service() }),
    load: ({ orgId, service }) => this.api.revisions(orgId, service),
    initial: [] as ServiceRevisionItem[],
  });

  /** Newest first, as the API lists them. */
  readonly choices = computed<RevisionChoice[]>(() => {
    const revisions = this.loaded.value();
    const present = presence(revisions, this.artifact());
    return revisions.map((revision) => ({ number: revision.number, syncedAt: revision.createdAt, available: present(revision.number) }));
  });
  readonly latest = computed(() => this.choices()[0]?.number);
  readonly syncedAt = computed(() => this.choices().find((choice) => choice.number === this.revision())?.syncedAt ?? null);

  pick(revision: number): void {
    void this.router.navigate([], {
      relativeTo: this.route,
      queryParams: { revision: revision === this.latest() ? null : revision },
      queryParamsHandling: 'merge',
    });
  }
}

/**
 * Which revisions hold the artifact, from each revision's created/removed lists (oldest first: it exists from the
 * revision that created it until one removes it). Without an artifact every revision qualifies.
 */
function presence(revisions: readonly ServiceRevisionItem[], artifact: SyncArtifactRef | null): (revision: number) => boolean {
  if (artifact === null) return () => true;
  const same = (ref: SyncArtifactRef) => ref.kind === artifact.kind && ref.name === artifact.name;
  const holding = new Set<number>();
  let exists = false;
  for (const revision of [...revisions].sort((a, b) => a.number - b.number)) {
    if (revision.created.some(same)) exists = true;
    if (revision.removed.some(same)) exists = false;
    if (exists) holding.add(revision.number);
  }
  return (revision) => holding.has(revision);
}
