import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { highlightOrGuess, highlightedHtml } from '../../../shared/highlight';

/** Highlighted code nodes by their text (and language): a node drawn again (an expand, a revisit) is not guessed again. */
const highlighted = new Map<string, Promise<string>>();
const KEPT = 200;

/** Resolves when the browser is idle (at the latest after `timeout` ms), or in a later task without requestIdleCallback. */
const idle = (timeout: number) =>
  new Promise<void>((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout }) : setTimeout(resolve)));

/**
 * highlightOrGuess once the page is idle: highlight.js's core and the eight languages a code node is guessed among
 * are nine lazy chunks and a guess, a tenth of a second of the main thread that otherwise ran in the frames that put
 * a diagram on screen (a code node has no language to load just one).
 */
function highlightWhenIdle(code: string, language: string | null | undefined): Promise<string> {
  const key = `${language ?? ''}\n${code}`;
  let result = highlighted.get(key);
  if (!result) {
    result = idle(2000).then(() => highlightOrGuess(code, language));
    result.catch(() => highlighted.delete(key));
    highlighted.set(key, result);
    if (highlighted.size > KEPT) highlighted.delete(highlighted.keys().next().value as string);
  }
  return result;
}

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
  readonly html = highlightedHtml(this.code, this.language, highlightWhenIdle);
}
