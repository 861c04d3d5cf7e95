import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatAutocompleteModule } from '@angular/material/autocomplete';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { MatSliderModule } from '@angular/material/slider';
import type { DataField, InputTypeLabel } from '@sc/diagram';
import { HIGHLIGHT_LANGUAGES } from '../../../../shared/highlight';
import { ColorFieldComponent } from './color-field.component';
import { CHOICE_TYPES, choices, isIsoDate, isWebUrl, listOf, sliderBounds, textOf } from './data-field-values';
import { KeyValueEditorComponent } from './key-value-editor.component';
import { ChoiceFieldComponent } from './panel-parts.component';
import { RichTextEditorComponent } from './rich-text-editor.component';
import { StringListEditorComponent } from './string-list-editor.component';

/**
 * The value editor of one data field, by its input type (data-field-values.ts says how each is stored). Emits the
 * whole new field; a value the type cannot hold (a malformed URL or date, a range that ends before it starts) is
 * shown as a problem and not emitted.
 *
 * Test hooks, with p = `data-field-<index>-value`:
 * - single control: `p` (text, URL, number, date, textarea, colour text, select, toggle, search input, slider input)
 * - Dropdown / Multi Select / Search Select / Checkbox Group: `p-options` (chip input for the choices),
 *   Checkbox Group boxes `p-option-<i>`
 * - Date Range Picker: `p-from`, `p-to`; Key-Value List: `p-key-<i>`, `p-val-<i>`, `p-add`, `p-remove-<i>`
 * - Code Editor: `p-language`; Slider: `p-min`, `p-max`, `p-step`; Colour: `p-picker`
 * - Link or File Upload / File Upload: `p` (URL or name) and `p-file` (file chooser; only the name is kept)
 * - Rich Text Editor: `p` (Markdown), `p-bold` … `p-heading`, `p-preview-toggle`; problems: `p-error`
 */
@Component({
  selector: 'sc-data-field-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    MatAutocompleteModule,
    MatCheckboxModule,
    MatFormFieldModule,
    MatInputModule,
    MatSelectModule,
    MatSlideToggleModule,
    MatSliderModule,
    ChoiceFieldComponent,
    ColorFieldComponent,
    KeyValueEditorComponent,
    RichTextEditorComponent,
    StringListEditorComponent,
  ],
  templateUrl: './data-field-editor.component.html',
  styleUrls: ['./fields.scss', './data-field-editor.component.scss'],
})
export class DataFieldEditorComponent {
  readonly field = input.required<DataField>();
  /** The latest field: ahead of the input until the parent renders again, so quick successive edits build on each other. */
  readonly current = linkedSignal(() => this.field());
  readonly index = input.required<number>();
  /** The field's label, for screen readers. */
  readonly label = input.required<string>();
  readonly fieldChange = output<DataField>();

  readonly id = computed(() => `data-field-${this.index()}-value`);
  /** The types edited in one plain input: its label, HTML input type, placeholder and how a typed value is kept. */
  private readonly simpleInputs: Partial<Record<InputTypeLabel, { label: string; inputType: string; placeholder: string; commit: (text: string) => void }>> = {
    'Text Input': { label: 'Value', inputType: 'text', placeholder: '', commit: (text) => this.setValue(text) },
    'URL Input': { label: 'URL', inputType: 'url', placeholder: 'https://…', commit: (text) => this.setUrl(text) },
    'Number Input': { label: 'Number', inputType: 'number', placeholder: '', commit: (text) => this.setNumber(text) },
    'Date Picker': { label: 'Date', inputType: 'date', placeholder: '', commit: (text) => this.setDate(text) },
  };
  readonly simple = computed(() => this.simpleInputs[this.current().type]);
  readonly text = computed(() => textOf(this.current().value));
  readonly list = computed(() => listOf(this.current().value));
  readonly choices = computed(() => choices(this.current()));
  readonly hasChoices = computed(() => CHOICE_TYPES.includes(this.current().type));
  readonly bounds = computed(() => sliderBounds(this.current()));
  readonly languages = HIGHLIGHT_LANGUAGES;
  readonly language = computed(() => {
    const [language] = this.current().options ?? [];
    return typeof language === 'string' ? language : '';
  });
  /** The range as picked so far: the first day is kept while the last one is still to be picked. */
  readonly range = linkedSignal(() => {
    const [from = '', to = ''] = this.list();
    return { from, to };
  });
  readonly number = computed(() => (typeof this.current().value === 'number' ? (this.current().value as number) : null));
  /** Search Select: what is typed to filter the options. */
  readonly search = linkedSignal(() => this.text());
  readonly matches = computed(() => {
    const query = this.search().toLowerCase();
    return this.choices().filter((choice) => choice.toLowerCase().includes(query));
  });
  /** Why the last typed value was not applied. Cleared when the field changes. */
  readonly problem = linkedSignal<DataField, string>({ source: this.field, computation: () => '' });

  /** Sets the value (undefined or '' removes it), keeping type and options. */
  setValue(value: DataField['value'] | ''): void {
    const { value: _old, ...rest } = this.current();
    this.changed(value === undefined || value === '' ? rest : { ...rest, value });
  }

  setOptions(options: unknown[] | undefined): void {
    const { options: _old, ...rest } = this.current();
    this.changed(options === undefined ? rest : { ...rest, options });
  }

  /** Dropdown and friends: new choices; a chosen value that is no longer a choice is dropped. */
  setChoices(options: string[]): void {
    const field = this.current();
    const value = Array.isArray(field.value) ? field.value.filter((item) => options.includes(item)) : field.value !== undefined && options.includes(String(field.value)) ? field.value : undefined;
    const { value: _value, options: _options, ...rest } = field;
    this.changed({ ...rest, ...(value !== undefined ? { value } : {}), ...(options.length > 0 ? { options } : {}) });
  }

  setUrl(text: string): void {
    const url = text.trim();
    if (url !== '' && !isWebUrl(url)) return this.problem.set(`"${url}" is not an absolute http(s) URL.`);
    this.setValue(url);
  }

  setNumber(text: string): void {
    const trimmed = text.trim();
    if (trimmed === '') return this.setValue(undefined);
    const number = Number(trimmed);
    if (!Number.isFinite(number)) return this.problem.set(`"${text}" is not a number.`);
    this.setValue(number);
  }

  setDate(text: string): void {
    if (text !== '' && !isIsoDate(text)) return this.problem.set(`"${text}" is not a date (YYYY-MM-DD).`);
    this.setValue(text);
  }

  setRange(part: 'from' | 'to', text: string): void {
    const range = { ...this.range(), [part]: text };
    this.range.set(range);
    if (range.from === '' && range.to === '') return this.setValue(undefined);
    if (!isIsoDate(range.from) || !isIsoDate(range.to)) return this.problem.set('Pick both the first and the last day.');
    if (range.from > range.to) return this.problem.set('The range ends before it starts.');
    this.setValue([range.from, range.to]);
  }

  toggleChoice(choice: string, checked: boolean): void {
    const chosen = new Set(this.list());
    if (checked) chosen.add(choice);
    else chosen.delete(choice);
    // Kept in the order of the options.
    this.setValue(this.choices().filter((option) => chosen.has(option)));
  }

  /** Search Select accepts one of its options only (the text typed filters them). */
  pickSearch(text: string): void {
    if (text === '') return this.setValue(undefined);
    if (!this.choices().includes(text)) return this.problem.set(`"${text}" is not one of the options.`);
    this.setValue(text);
  }

  setSlider(part: 'min' | 'max' | 'step', text: string): void {
    const number = Number(text);
    const bounds = { ...this.bounds(), [part]: number };
    if (text.trim() === '' || !Number.isFinite(number)) return this.problem.set(`The ${part} must be a number.`);
    if (bounds.min >= bounds.max) return this.problem.set('The minimum must be below the maximum.');
    if (bounds.step <= 0) return this.problem.set('The step must be above 0.');
    const value = this.number();
    const clamped = value === null ? undefined : Math.min(bounds.max, Math.max(bounds.min, value));
    const { value: _value, options: _options, ...rest } = this.current();
    this.changed({ ...rest, ...(clamped !== undefined ? { value: clamped } : {}), options: [bounds.min, bounds.max, bounds.step] });
  }

  setLanguage(language: string): void {
    this.setOptions(language === '' ? undefined : [language]);
  }

  /** Tab in the code editor inserts two spaces instead of leaving the field (Esc first to leave it with Tab). */
  indent(event: Event): void {
    const area = event.target as HTMLTextAreaElement;
    if (this.escaped) {
      this.escaped = false;
      return;
    }
    event.preventDefault();
    area.setRangeText('  ', area.selectionStart, area.selectionEnd, 'end');
  }

  /** Set by Escape in the code editor, so that the next Tab moves focus (keyboard users are never trapped). */
  escaped = false;

  /** File inputs keep the chosen file's name only: the service has no upload endpoint for data fields. */
  pickFile(input: HTMLInputElement): void {
    const file = input.files?.[0];
    if (file) this.setValue(file.name);
  }

  /** Emits `next`, and shows it at once (see current); an applied change clears the last refusal. */
  private changed(next: DataField): void {
    this.problem.set('');
    this.current.set(next);
    this.fieldChange.emit(next);
  }
}
