import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { toObservable, toSignal } from '@angular/core/rxjs-interop';
import { FormArray, FormControl, FormGroup } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';
import { MatTooltipModule } from '@angular/material/tooltip';
import { CLAIM_RULE_OPERATORS, SSO_ROLES, type ClaimRuleOperator, type SsoRole } from '@sc/contracts';
import { startWith, switchMap } from 'rxjs';
import { OPERATOR_LABELS } from './provider-form';
import { FORM_FIELDS } from '../../shared/form-fields';

export type ClaimRuleGroup = FormGroup<{
  claim: FormControl<string>;
  operator: FormControl<ClaimRuleOperator>;
  value: FormControl<string>;
  role: FormControl<SsoRole>;
}>;

interface RuleButton {
  icon: string;
  tooltip: string;
  label: string;
  disabled: boolean;
  press: () => void;
}

/**
 * The ordered role-mapping rules. The first matching rule selects the role, so each rule can be moved up
 * and down; the parent owns the FormArray and the move/add/remove operations (they are part of its form).
 */
@Component({
  selector: 'sc-claim-rules-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatIconModule, MatSelectModule, MatTooltipModule],
  template: `
    @if (controls().length === 0) {
      <p class="muted" data-testid="rules-empty">No rules: every SSO member gets the default role.</p>
    } @else {
      <ol class="rules" aria-label="Claim rules, first match wins">
        @for (rule of controls(); track rule; let i = $index; let last = $last) {
          <li class="rule" [formGroup]="rule" [attr.data-testid]="'rule-' + i">
            <span class="order" aria-hidden="true">{{ i + 1 }}</span>
            <mat-form-field class="claim">
              <mat-label>Claim</mat-label>
              <input matInput formControlName="claim" placeholder="groups or realm_access.roles" autocomplete="off" />
              <sc-field-errors matError [control]="rule.controls.claim" [messages]="{ required: 'Enter a claim name or dot path.' }" />
            </mat-form-field>
            <mat-form-field class="operator">
              <mat-label>Operator</mat-label>
              <mat-select formControlName="operator">
                @for (operator of operators; track operator) {
                  <mat-option [value]="operator">{{ operatorLabels[operator] }}</mat-option>
                }
              </mat-select>
            </mat-form-field>
            <mat-form-field class="value">
              <mat-label>Value</mat-label>
              <input
                matInput
                formControlName="value"
                autocomplete="off"
                [placeholder]="rule.controls.operator.value === 'exists' ? 'not used' : ''"
              />
              <sc-field-errors matError [control]="rule.controls.value" [messages]="{ required: 'Enter the value to compare.' }" />
            </mat-form-field>
            <mat-form-field class="role">
              <mat-label>Role</mat-label>
              <mat-select formControlName="role">
                @for (role of roles; track role) {
                  <mat-option [value]="role">{{ role }}</mat-option>
                }
              </mat-select>
            </mat-form-field>
            <div class="buttons">
              @for (button of rowButtons(i, last); track button.icon) {
                <button mat-icon-button type="button" (click)="button.press()" [disabled]="button.disabled" [attr.aria-label]="button.label" [matTooltip]="button.tooltip">
                  <mat-icon [svgIcon]="button.icon" />
                </button>
              }
            </div>
          </li>
        }
      </ol>
    }
    <button mat-stroked-button type="button" (click)="add.emit()" data-testid="rule-add" [disabled]="controls().length >= max()">
      <mat-icon svgIcon="add" aria-hidden="true" />
      Add rule
    </button>
  `,
  styles: `
    .rules {
      list-style: none;
      padding: 0;
      margin: 0 0 12px;
    }
    .rule {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: flex-start;
      padding: 8px 0;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
    }
    .order {
      width: 28px;
      height: 28px;
      margin-top: 14px;
      border-radius: 50%;
      display: inline-flex;
      align-items: center;
      justify-content: center;
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
      font: var(--mat-sys-label-large);
      flex: 0 0 auto;
    }
    .claim,
    .value {
      flex: 2 1 180px;
    }
    .operator,
    .role {
      flex: 1 1 130px;
    }
    .buttons {
      display: flex;
      margin-top: 4px;
    }
  `,
})
export class ClaimRulesEditorComponent {
  readonly rules = input.required<FormArray<ClaimRuleGroup>>();
  readonly max = input(50);
  readonly add = output<void>();
  readonly remove = output<number>();
  readonly move = output<{ from: number; to: number }>();

  /** Re-read on every change of the array, so rules added, moved or replaced by the parent render (OnPush). */
  private readonly changes = toSignal(
    toObservable(this.rules).pipe(switchMap((array) => array.valueChanges.pipe(startWith(array.value)))),
  );
  readonly controls = computed(() => {
    this.changes();
    return [...this.rules().controls];
  });

  /** Each rule's buttons: move up, move down (the first match wins, so order matters) and remove. */
  rowButtons(index: number, last: boolean): RuleButton[] {
    const rule = index + 1;
    return [
      { icon: 'arrow_upward', tooltip: 'Move up', label: `Move rule ${rule} up`, disabled: index === 0, press: () => this.move.emit({ from: index, to: index - 1 }) },
      { icon: 'arrow_downward', tooltip: 'Move down', label: `Move rule ${rule} down`, disabled: last, press: () => this.move.emit({ from: index, to: index + 1 }) },
      { icon: 'delete', tooltip: 'Remove', label: `Remove rule ${rule}`, disabled: false, press: () => this.remove.emit(index) },
    ];
  }

  readonly operators = CLAIM_RULE_OPERATORS;
  readonly operatorLabels = OPERATOR_LABELS;
  readonly roles = SSO_ROLES;
}
