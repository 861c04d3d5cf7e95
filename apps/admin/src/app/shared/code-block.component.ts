import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { highlightedHtml } from './highlight';

/**
 * Source text (an API spec, a schema, a `code` node) shown as written, highlighted once its language has loaded
 * (lazily, see highlightCode). Until then, or for a language this app does not highlight, the text is plain.
 */
@Component({
  selector: 'sc-code-block',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <pre class="sc-code"><code [class.hljs]="highlighted() !== null" [attr.data-language]="language()">@if (highlighted(); as html) {<span [innerHTML]="html"></span>} @else {{{ code() }}}</code></pre>
  `,
  styleUrl: './code-block.component.scss',
})
export class CodeBlockComponent {
  readonly code = input.required<string>();
  /** What the author called the language (`ts`, `yaml`, `graphql`…); null shows plain text. */
  readonly language = input<string | null>(null);

  /** highlight.js's HTML for the current code, or null while loading or when not highlighted. */
  readonly highlighted = highlightedHtml(this.code, this.language);
}
