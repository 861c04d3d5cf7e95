import { ChangeDetectionStrategy, Component, input, linkedSignal, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatInputModule } from '@angular/material/input';
import { INPUT_TYPE_LABELS, type DataField, type InputTypeLabel } from '@sc/diagram';
import { DataFieldEditorComponent } from './data-field-editor.component';
import { convertField } from './data-field-values';
import { ChoiceFieldComponent } from './panel-parts.component';
import type { DataFieldEntry } from './node-edits';

/** Labels the server's JSON parsing drops (validateDrawnGraph refuses them too). */
const RESERVED_LABELS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A node's data fields in order: add, remove, move up/down, rename, change the input type (the value is carried
 * over when it fits, see convertField) and edit the value with the type's editor. Labels are the keys of the
 * context's `data` object, so they must be unique and non-empty. Test hooks: see node-properties.component.ts.
 */
@Component({
  selector: 'sc-data-fields',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatButtonModule, MatFormFieldModule, MatIconModule, MatInputModule, ChoiceFieldComponent, DataFieldEditorComponent],
  template: `
    @for (entry of current(); track $index; let i = $index; let last = $last) {
      <section class="field" [attr.aria-label]="'Data field ' + entry.label" [attr.data-testid]="'data-field-' + i">
        <div class="head">
          <mat-form-field>
            <mat-label>Label</mat-label>
            <input matInput [value]="entry.label" (change)="rename(i, $any($event.target).value)" [attr.data-testid]="'data-field-' + i + '-label'" />
            @if (labelProblems()[i]; as problem) {
              <mat-hint class="error-text" [attr.data-testid]="'data-field-' + i + '-label-error'">{{ problem }}</mat-hint>
            }
          </mat-form-field>
          <sc-choice-field label="Input type" [testId]="'data-field-' + i + '-type'" [options]="inputTypes" [value]="entry.field.type" (picked)="retype(i, $any($event))" />
        </div>
        <sc-data-field-editor [field]="entry.field" [index]="i" [label]="entry.label" (fieldChange)="replace(i, $event)" />
        <div class="actions">
          <button mat-button type="button" (click)="move(i, -1)" [disabled]="i === 0" [attr.aria-label]="'Move ' + entry.label + ' up'" [attr.data-testid]="'data-field-' + i + '-up'">↑ Up</button>
          <button mat-button type="button" (click)="move(i, 1)" [disabled]="last" [attr.aria-label]="'Move ' + entry.label + ' down'" [attr.data-testid]="'data-field-' + i + '-down'">↓ Down</button>
          <button mat-button type="button" (click)="remove(i)" [attr.aria-label]="'Remove ' + entry.label" [attr.data-testid]="'data-field-' + i + '-remove'"><mat-icon svgIcon="delete" />Remove</button>
        </div>
      </section>
    } @empty {
      <p class="muted">No data fields.</p>
    }
    <button mat-stroked-button type="button" (click)="add()" data-testid="data-field-add"><mat-icon svgIcon="add" />Data field</button>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 12px;
      align-items: stretch;
    }
    .field {
      display: flex;
      flex-direction: column;
      gap: 8px;
      padding: 8px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 8px;
    }
    .head {
      display: flex;
      gap: 8px;
      > * {
        flex: 1 1 0;
        min-width: 0;
      }
    }
    .actions {
      display: flex;
      gap: 4px;
      justify-content: flex-end;
    }
    button[mat-stroked-button] {
      align-self: flex-start;
    }
  `,
})
export class DataFieldsComponent {
  readonly entries = input.required<readonly DataFieldEntry[]>();
  /** The latest entries: ahead of the input until the parent renders again, so quick successive edits build on each other. */
  readonly current = linkedSignal(() => this.entries());
  readonly entriesChange = output<DataFieldEntry[]>();

  readonly inputTypes = INPUT_TYPE_LABELS;
  /** Why the label last typed into field i was not applied. */
  readonly labelProblems = linkedSignal<readonly DataFieldEntry[], Record<number, string>>({ source: this.entries, computation: () => ({}) });

  add(): void {
    const labels = new Set(this.current().map((entry) => entry.label));
    let n = labels.size + 1;
    while (labels.has(`Field ${n}`)) n++;
    this.changed([...this.current(), { label: `Field ${n}`, field: { type: 'Text Input' } }]);
  }

  rename(index: number, text: string): void {
    const label = text.trim();
    const problem =
      label === ''
        ? 'A label is required.'
        : RESERVED_LABELS.has(label)
          ? `"${label}" cannot be a label (it would be lost on saving).`
          : this.current().some((entry, i) => i !== index && entry.label === label)
            ? `Another field is labelled "${label}".`
            : '';
    if (problem) {
      this.labelProblems.set({ [index]: problem });
      return;
    }
    this.changed(this.current().map((entry, i) => (i === index ? { ...entry, label } : entry)));
  }

  retype(index: number, type: InputTypeLabel): void {
    this.replace(index, convertField(this.current()[index].field, type));
  }

  replace(index: number, field: DataField): void {
    this.changed(this.current().map((entry, i) => (i === index ? { ...entry, field } : entry)));
  }

  move(index: number, by: -1 | 1): void {
    const entries = [...this.current()];
    const [moved] = entries.splice(index, 1);
    entries.splice(index + by, 0, moved);
    this.changed(entries);
  }

  remove(index: number): void {
    this.changed(this.current().filter((_, i) => i !== index));
  }

  /** Emits `next`, and shows it at once (see current). */
  private changed(next: DataFieldEntry[]): void {
    this.current.set(next);
    this.entriesChange.emit(next);
  }
}
