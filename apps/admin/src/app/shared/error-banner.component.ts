import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import type { ErrorDetail } from '@sc/contracts';
import { ApiError, describeDetail } from '../core/api-error';

/** An inline, announced error for a page or form, listing the server's per-field details. */
@Component({
  selector: 'sc-error-banner',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatIconModule],
  template: `
    @if (error(); as err) {
      <div class="error-banner" role="alert" [attr.data-testid]="testId()">
        <mat-icon svgIcon="error" aria-hidden="true" />
        <div>
          <div>{{ err.message }}</div>
          @if (details().length > 0) {
            <ul>
              @for (detail of details(); track $index) {
                <li>
                  {{ detail.text }}
                  @if (detail.excerpt) {
                    <pre class="excerpt mono" data-testid="problem-excerpt">{{ detail.excerpt }}</pre>
                  }
                  @if (detail.parserDetail) {
                    <details data-testid="problem-detail">
                      <summary>Parser details</summary>
                      <code>{{ detail.parserDetail }}</code>
                    </details>
                  }
                </li>
              }
            </ul>
          }
        </div>
      </div>
    }
  `,
  styles: `
    ul {
      margin: 4px 0 0;
      padding-left: 20px;
    }
    pre.excerpt {
      margin: 4px 0;
      font-size: 12px;
      line-height: 1.35;
      overflow-x: auto;
    }
    details {
      font-size: 12px;
    }
  `,
})
export class ErrorBannerComponent {
  readonly error = input<ApiError | null>(null);
  /** How a detail reads; a form whose details point into files it was given (e.g. pasted Mermaid) says line and column. */
  readonly describe = input<(detail: ErrorDetail) => string>(describeDetail);
  readonly testId = input<string | null>(null);
  /**
   * Each detail's sentence, and for a Mermaid problem the source line with its caret (`excerpt`, shown monospaced)
   * and the parser's own report (`detail`, folded away under "Parser details").
   */
  readonly details = computed(() =>
    (this.error()?.details ?? [])
      // A detail that only repeats the message (to name its field for a form) would say the same thing twice.
      .filter((detail) => detail.message !== this.error()?.message)
      .map((detail) => ({
        text: this.describe()(detail),
        excerpt: typeof detail['excerpt'] === 'string' ? detail['excerpt'] : undefined,
        parserDetail: typeof detail['detail'] === 'string' ? detail['detail'] : undefined,
      })),
  );
}
