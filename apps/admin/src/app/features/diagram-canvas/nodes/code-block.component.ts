import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { highlightOrGuess, highlightedHtml } from '../../../shared/highlight';

/** Code shown as written at once, then with syntax highlighting once highlight.js (loaded lazily) has run. */
@Component({
  selector: 'sc-canvas-code',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (html(); as html) {
      <pre class="code hljs"><code [innerHTML]="html"></code></pre>
    } @else {
      <pre class="code"><code>{{ code() }}</code></pre>
    }
  `,
})
export class CodeBlockComponent {
  readonly code = input.required<string>();
  readonly language = input<string>();
  /** highlight.js output: the code HTML-escaped inside span elements (Angular sanitizes it again on binding). */
  readonly html = highlightedHtml(this.code, this.language, highlightOrGuess);
}
