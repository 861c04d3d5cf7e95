import { ChangeDetectionStrategy, Component, ElementRef, computed, input, output, signal, viewChild } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import { searchMatches, type Searchable } from './canvas-search';

/**
 * The canvas toolbar's search box: finds a node or group by id or title (searchMatches) and hands the one chosen
 * (a click, or Enter for the first match) to the canvas, which centres and focuses it. Ctrl+K (⌘K) anywhere on the
 * page comes here. Styled by the canvas's stylesheet (.canvas-search, .search-results).
 */
@Component({
  selector: 'sc-canvas-search',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatIconModule],
  host: { class: 'canvas-search', '(document:keydown)': 'shortcut($event)' },
  template: `
    <mat-icon svgIcon="search" aria-hidden="true" />
    <input
      #search
      type="search"
      placeholder="Find a node (Ctrl+K)"
      aria-label="Find a node by id or label"
      autocomplete="off"
      data-testid="diagram-search"
      [value]="query()"
      (input)="query.set(search.value)"
      (keydown)="searchKey($event)"
    />
    @if (matches().length > 0) {
      <ul class="search-results" aria-label="Matching nodes">
        @for (match of matches(); track match.id) {
          <li>
            <button type="button" (click)="choose(match.id)">
              <span class="line">{{ match.title }}</span>
              <span class="muted small">{{ match.id }} · {{ match.kind }}</span>
            </button>
          </li>
        }
      </ul>
    } @else if (query().trim()) {
      <ul class="search-results"><li class="muted small none">No node matches “{{ query().trim() }}”.</li></ul>
    }
  `,
})
export class CanvasSearchComponent {
  /** What can be found: the drawing's nodes and groups. */
  readonly items = input.required<readonly Searchable[]>();
  /** The id of the node or group chosen. */
  readonly chosen = output<string>();

  readonly query = signal('');
  readonly matches = computed(() => searchMatches(this.items(), this.query()));
  private readonly searchBox = viewChild.required<ElementRef<HTMLInputElement>>('search');

  /** Ctrl+K (⌘K) anywhere on the page goes to the search box. */
  shortcut(event: KeyboardEvent): void {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      this.searchBox().nativeElement.focus();
    }
  }

  searchKey(event: KeyboardEvent): void {
    if (event.key === 'Enter') {
      const first = this.matches()[0];
      if (first) this.choose(first.id);
    } else if (event.key === 'Escape') {
      this.clear();
    }
  }

  choose(id: string): void {
    this.clear();
    this.chosen.emit(id);
  }

  /**
   * Empties the query and the box itself: typed and answered (Enter) before change detection ran, the box's `[value]`
   * binding still holds '' from its last update, so setting the query back to '' would leave the typed text there.
   */
  private clear(): void {
    this.query.set('');
    this.searchBox().nativeElement.value = '';
  }
}
