import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { DiagramIssueCode, type ApplyReport, type DiagramIssue } from '@sc/diagram';
import { plural } from '../../shared/plural';

interface ShownIssue {
  path: string | null;
  message: string;
}

/**
 * The Context card of a diagram: how many overlays applied, the keys that matched nothing (once each), and the
 * other problems of the context file. The report also carries each unmatched key as an issue (that is how the
 * CLI prints it); those are listed under "Not matched" only.
 */
@Component({
  selector: 'sc-context-summary',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatCardModule],
  template: `
    <mat-card appearance="outlined" class="section" data-testid="context-report">
      <mat-card-header>
        <mat-card-title><h2>Context</h2></mat-card-title>
      </mat-card-header>
      <mat-card-content>
        <p>{{ applied() }} applied.</p>
        @if (report().unmatched.length > 0) {
          <h3>Not matched</h3>
          <ul class="issues" data-testid="context-unmatched">
            @for (item of report().unmatched; track item.path) {
              <li>
                <code>{{ item.key }}</code>: {{ item.reason }}
                @if (item.hint) {
                  <span class="muted">({{ item.hint }})</span>
                }
              </li>
            }
          </ul>
        }
        @for (list of lists(); track list.title) {
          <h3>{{ list.title }}</h3>
          <ul class="issues" [attr.data-testid]="'context-' + list.title.toLowerCase()">
            @for (issue of list.issues; track $index) {
              <li>
                @if (issue.path) {
                  <code>{{ issue.path }}</code>:
                }
                {{ issue.message }}
              </li>
            }
          </ul>
        }
      </mat-card-content>
    </mat-card>
  `,
  styles: `
    h3 {
      font: var(--mat-sys-title-small);
      margin: 12px 0 4px;
    }

    .issues {
      padding-left: 18px;
      margin: 0;
    }
  `,
})
export class ContextSummaryComponent {
  readonly report = input.required<ApplyReport>();

  readonly applied = computed(() => plural(this.report().applied.length, 'overlay'));
  readonly lists = computed(() => {
    const report = this.report();
    const unmatched = new Set(report.unmatched.map((item) => item.path));
    const shown = (issues: readonly DiagramIssue[]) => issues.filter((issue) => !isUnmatchedKey(issue, unmatched)).map(withoutPathPrefix);
    return [
      { title: 'Errors', issues: shown(report.errors) },
      { title: 'Warnings', issues: shown(report.warnings) },
    ].filter((list) => list.issues.length > 0);
  });
}

/** An issue that repeats an entry of `unmatched` (same JSON path). */
function isUnmatchedKey(issue: DiagramIssue, unmatchedPaths: ReadonlySet<string>): boolean {
  const repeats = issue.code === DiagramIssueCode.ContextUnmatchedKey || issue.code === DiagramIssueCode.ContextAmbiguousKey;
  return repeats && issue.path !== undefined && unmatchedPaths.has(issue.path);
}

/** Issue messages start with their path ("$.nodes.x.style: …") for the CLI; the card shows the path once. */
function withoutPathPrefix(issue: DiagramIssue): ShownIssue {
  const path = issue.path ?? null;
  const message = path !== null && issue.message.startsWith(`${path}: `) ? issue.message.slice(path.length + 2) : issue.message;
  return { path, message };
}
