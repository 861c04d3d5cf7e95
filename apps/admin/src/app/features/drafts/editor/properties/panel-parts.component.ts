import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import type { OverlaidGraph } from '@sc/diagram';
import { elementIdProblem } from './element-checks';

/**
 * The id of a node or group, checked as it is typed (Mermaid can write it, no other node or group of `graph` has it):
 * the problem replaces the hint. The new id is emitted when it is committed (Enter or leaving the field), and only
 * without a problem. Test hooks: `<testId>`, `<testId>-error`.
 */
@Component({
  selector: 'sc-element-id-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatFormFieldModule, MatInputModule],
  template: `
    <mat-form-field>
      <mat-label>Id</mat-label>
      <input matInput class="mono" [value]="text()" (input)="text.set($any($event.target).value)" (change)="commit($any($event.target).value)" [attr.data-testid]="testId()" spellcheck="false" autocomplete="off" />
      @if (problem(); as text) {
        <mat-hint class="error-text" [attr.data-testid]="testId() + '-error'">{{ text }}</mat-hint>
      } @else {
        <mat-hint>{{ hint() }}</mat-hint>
      }
    </mat-form-field>
  `,
})
export class ElementIdFieldComponent {
  /** The node or group; each new version of it resets the field to its id (discarding an id typed but refused). */
  readonly element = input.required<{ id: string }>();
  readonly graph = input.required<OverlaidGraph>();
  readonly hint = input.required<string>();
  readonly testId = input.required<string>();
  /** The new id when the field is left or Enter is pressed: only then is it applied (one rename, one undo step). */
  readonly renamed = output<string>();

  /** The id as typed. */
  readonly text = linkedSignal(() => this.element().id);
  readonly problem = computed(() => elementIdProblem(this.graph(), this.text(), this.element().id));

  commit(text: string): void {
    this.text.set(text);
    if (this.problem() !== undefined || text === this.element().id) return;
    this.renamed.emit(text);
  }
}

/** The edits a panel refused, with the reasons (shown until the next accepted edit). Test hook: `<testId>`. */
@Component({
  selector: 'sc-refused-edits',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  template: `
    @if (problems().length > 0) {
      <div class="problems" role="alert" [attr.data-testid]="testId()">
        <p>Not applied:</p>
        <ul>
          @for (problem of problems(); track $index) {
            <li>{{ problem }}</li>
          }
        </ul>
      </div>
    }
  `,
  styles: `
    .problems {
      padding: 8px 12px;
      border-radius: 8px;
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
    }
    p,
    ul {
      margin: 0;
    }
  `,
})
export class RefusedEditsComponent {
  readonly problems = input.required<readonly string[]>();
  readonly testId = input.required<string>();
}

/**
 * A one-line text property (label, name, URLs, a node type's text fields), applied when the field is left or Enter
 * is pressed (the input's change event). Test hook: `<testId>` on the input.
 */
@Component({
  selector: 'sc-text-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatFormFieldModule, MatInputModule],
  template: `
    <mat-form-field>
      <mat-label>{{ label() }}</mat-label>
      <input matInput [value]="value()" (change)="changed.emit($any($event.target).value)" [placeholder]="placeholder()" [attr.data-testid]="testId()" />
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
    </mat-form-field>
  `,
})
export class TextFieldComponent {
  readonly label = input.required<string>();
  readonly value = input.required<string>();
  readonly placeholder = input('');
  readonly hint = input('');
  readonly testId = input.required<string>();
  readonly changed = output<string>();
}

/**
 * A choice among fixed values (node types, shapes, input types, languages, link strokes…), with an optional first
 * option for "nothing" whose value is ''. Test hook: `<testId>` on the mat-select.
 */
@Component({
  selector: 'sc-choice-field',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatFormFieldModule, MatSelectModule],
  template: `
    <mat-form-field>
      <mat-label>{{ label() }}</mat-label>
      <mat-select [value]="value()" [disabled]="disabled()" (selectionChange)="picked.emit($event.value)" [attr.data-testid]="testId()">
        @if (none() !== null) {
          <mat-option value="">{{ none() }}</mat-option>
        }
        @for (option of options(); track option) {
          <mat-option [value]="option">{{ option }}</mat-option>
        }
      </mat-select>
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
    </mat-form-field>
  `,
})
export class ChoiceFieldComponent {
  readonly label = input.required<string>();
  readonly options = input.required<readonly string[]>();
  readonly value = input.required<string>();
  /** Text of the '' option, or null for none. */
  readonly none = input<string | null>(null);
  readonly hint = input('');
  readonly disabled = input(false);
  readonly testId = input.required<string>();
  readonly picked = output<string>();
}

/**
 * The CSS a synced diagram gave the element (classDef, style, linkStyle lines), which export writes back. The
 * style fields above take precedence on the canvas; clearing drops the Mermaid CSS from the draft.
 * Test hooks: `<testId>`, `<testId>-clear`.
 */
@Component({
  selector: 'sc-mermaid-styles',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatButtonModule],
  template: `
    @if (styles().length > 0) {
      <div class="row" [attr.data-testid]="testId()">
        <p class="muted">Mermaid CSS: <span class="mono">{{ styles().join(', ') }}</span></p>
        <button mat-button type="button" class="clear" (click)="cleared.emit()" [attr.data-testid]="testId() + '-clear'">Clear</button>
      </div>
    }
  `,
  styles: `
    .row {
      align-items: center;
    }
    .clear {
      flex: 0 0 auto;
    }
  `,
})
export class MermaidStylesComponent {
  readonly styles = input.required<readonly string[]>();
  readonly testId = input.required<string>();
  readonly cleared = output<void>();
}
