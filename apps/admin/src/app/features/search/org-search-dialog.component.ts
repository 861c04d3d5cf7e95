import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { MatDialogModule, MatDialogRef, MAT_DIALOG_DATA } from '@angular/material/dialog';
import { Router } from '@angular/router';
import { SEARCH_LIMITS, type SearchHit } from '@sc/contracts';
import { Subject, catchError, distinctUntilChanged, map, of, switchMap } from 'rxjs';
import { SearchApi, hitTarget, snippetParts } from './search.api';

export interface OrgSearchData {
  orgId: string;
}

const ELEMENT_LABELS: Record<SearchHit['element']['kind'], string> = { service: 'Service', node: 'Node', group: 'Group', table: 'Table', column: 'Column', heading: 'Heading' };

/**
 * The organization's search (Ctrl+Shift+K anywhere in its pages, Ctrl+K outside a diagram): type, pick a hit with
 * the mouse, Tab, or ↑/↓ and Enter in the box; a hit opens its diagram centred on the node, or the schema at the table.
 */
@Component({
  selector: 'sc-org-search-dialog',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatDialogModule],
  template: `
    <h2 mat-dialog-title id="org-search-title">Search the organization</h2>
    <mat-dialog-content>
      <input
        class="query"
        type="search"
        data-testid="org-search"
        aria-labelledby="org-search-title"
        placeholder="Node, table, column, heading…"
        [maxLength]="maxLength"
        autocomplete="off"
        (input)="typed($any($event.target).value)"
        (keydown)="key($event)"
      />
      @if (failed()) {
        <p class="muted" role="alert">The search did not answer. Try again.</p>
      } @else if (searched() && hits().length === 0) {
        <p class="muted" data-testid="search-empty">Nothing matches.</p>
      }
      <ul class="hits" aria-label="Search results">
        @for (hit of hits(); track $index) {
          <li>
            <button
              type="button"
              class="hit"
              data-testid="search-hit"
              [attr.aria-current]="$index === active() ? 'true' : null"
              [class.active]="$index === active()"
              (click)="open(hit)"
              (mouseenter)="active.set($index)"
            >
              <div class="title">
                <span class="kind">{{ label(hit) }}</span> <strong>{{ hit.element.title }}</strong>
                <span class="where muted">{{ hit.service }}{{ hit.artifact ? ' · ' + hit.artifact.name : '' }}</span>
              </div>
              <div class="snippet muted">
                @for (part of parts(hit); track $index) {
                  @if (part.marked) {
                    <mark>{{ part.text }}</mark>
                  } @else {
                    {{ part.text }}
                  }
                }
              </div>
            </button>
          </li>
        }
      </ul>
    </mat-dialog-content>
  `,
  styles: `
    .query { width: 100%; font: inherit; padding: 8px; box-sizing: border-box; }
    .hits { list-style: none; margin: 8px 0 0; padding: 0; min-width: min(560px, 80vw); }
    .hit { display: block; width: 100%; text-align: left; font: inherit; color: inherit; background: none; border: 0; padding: 6px 8px; cursor: pointer; border-radius: 4px; }
    .hit.active, .hit:focus-visible { background: rgba(0, 0, 0, 0.06); }
    .kind { font-size: 0.8em; text-transform: uppercase; opacity: 0.7; }
    .where { margin-left: 8px; font-size: 0.9em; }
    .snippet { font-size: 0.9em; }
  `,
})
export class OrgSearchDialogComponent {
  private readonly api = inject(SearchApi);
  private readonly router = inject(Router);
  private readonly dialogRef = inject(MatDialogRef<OrgSearchDialogComponent>);
  private readonly data = inject<OrgSearchData>(MAT_DIALOG_DATA);
  private readonly queries = new Subject<string>();

  readonly maxLength = SEARCH_LIMITS.maxQueryLength;
  readonly hits = signal<SearchHit[]>([]);
  readonly active = signal(0);
  readonly searched = signal(false);
  readonly failed = signal(false);

  constructor() {
    this.queries
      .pipe(
        map((q) => q.trim()),
        // No debounce: each keystroke asks (the answer is bounded and indexed), and switchMap cancels the request
        // a newer keystroke supersedes, so a slow answer never replaces a newer one.
        distinctUntilChanged(),
        switchMap((q) => (q === '' ? of(null) : this.api.search(this.data.orgId, q).pipe(catchError(() => of('failed' as const))))),
        takeUntilDestroyed(),
      )
      .subscribe((answer) => {
        this.failed.set(answer === 'failed');
        this.searched.set(answer !== null && answer !== 'failed');
        this.hits.set(answer && answer !== 'failed' ? answer.hits : []);
        this.active.set(0);
      });
  }

  typed(value: string): void {
    this.queries.next(value);
  }

  key(event: KeyboardEvent): void {
    const count = this.hits().length;
    if (event.key === 'ArrowDown' && count > 0) {
      event.preventDefault();
      this.active.set((this.active() + 1) % count);
    } else if (event.key === 'ArrowUp' && count > 0) {
      event.preventDefault();
      this.active.set((this.active() - 1 + count) % count);
    } else if (event.key === 'Enter') {
      const hit = this.hits()[this.active()];
      if (hit) this.open(hit);
    }
  }

  open(hit: SearchHit): void {
    const target = hitTarget(this.data.orgId, hit);
    this.dialogRef.close();
    void this.router.navigate(target.commands, { queryParams: target.queryParams, fragment: target.fragment });
  }

  label(hit: SearchHit): string {
    return ELEMENT_LABELS[hit.element.kind];
  }

  parts(hit: SearchHit): ReturnType<typeof snippetParts> {
    return snippetParts(hit.snippet);
  }
}
