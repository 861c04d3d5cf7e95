import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { NODE_TYPES, SHAPES, type ContextNode, type ContextShape, type NodeStyle, type NodeType, type OverlaidGraph, type OverlaidNode } from '@sc/diagram';
import { HIGHLIGHT_LANGUAGES } from '../../../../shared/highlight';
import { DataFieldsComponent } from './data-fields.component';
import { DbConfigPickerComponent } from './db-config-picker.component';
import { NODE_RULES, elementEdits } from './element-checks';
import { dataEntries, withData, withOverlay, withStyle, withType, type DataFieldEntry } from './node-edits';
import { ChoiceFieldComponent, ElementIdFieldComponent, MermaidStylesComponent, RefusedEditsComponent, TextFieldComponent } from './panel-parts.component';
import { StyleFieldsComponent } from './style-fields.component';
import { TableEditorComponent } from './table-editor.component';

/** The one-line text fields of some node types: overlay key, label, test hook, placeholder, hint. */
const TEXT_FIELDS: Partial<Record<NodeType, { key: 'cloud' | 'service' | 'animatedIcon' | 'componentId'; label: string; testId: string; placeholder?: string; hint?: string }[]>> = {
  cloud: [
    { key: 'cloud', label: 'Cloud provider', testId: 'prop-cloud', placeholder: 'AWS' },
    { key: 'service', label: 'Cloud service', testId: 'prop-service', placeholder: 'S3' },
  ],
  gif: [{ key: 'animatedIcon', label: 'Animated icon', testId: 'prop-animated-icon', hint: 'An icon name, or give a GIF URL below.' }],
  component: [{ key: 'componentId', label: 'Component id', testId: 'prop-component-id' }],
};

/**
 * Properties of one node of a draft: id, label, name, type with its type's fields, shape, style and data fields.
 * Every edit emits the whole new node (`nodeChange`, with the id it had); an edit that would make the node invalid
 * (an id Mermaid cannot write or that another element has, a bad colour, …) is shown and not emitted, so whatever
 * the editor receives passes validateDrawnGraph. Renaming the id is the editor's to propagate (edges, groups).
 *
 * Test hooks (data-testid):
 * - `prop-id`, `prop-id-error`, `prop-label`, `prop-name`, `prop-type` (mat-select), `prop-problems`
 * - type fields: `prop-value` (text/code), `prop-code-language`, `prop-cloud`, `prop-service`, `prop-src`,
 *   `prop-animated-icon`, `prop-component-id`, `prop-shape` (mat-select); table: `table-column-<c>`,
 *   `table-cell-<r>-<c>`, `table-add-column`, `table-add-row`, `table-remove-column-<c>`, `table-remove-row-<r>`;
 *   dbConfig: `db-service`, `db-database`, `db-table` (mat-selects)
 * - style: `style-fill`, `style-stroke` (text; `-picker` for the colour input), `style-stroke-width`,
 *   `style-border-radius`, `style-stroke-style` (mat-select), `style-border-animation` (toggle); the CSS of a synced
 *   copy: `prop-mermaid-styles`, `prop-mermaid-styles-clear`
 * - data fields: `data-field-add`, and per field i: `data-field-<i>`, `data-field-<i>-label`, `data-field-<i>-type`
 *   (mat-select), `data-field-<i>-value` (the value control; multi-part editors add `-<part>` suffixes, see
 *   data-field-editor.component.ts), `data-field-<i>-up`, `data-field-<i>-down`, `data-field-<i>-remove`
 */
@Component({
  selector: 'sc-node-properties',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatFormFieldModule, MatInputModule, ChoiceFieldComponent, DataFieldsComponent, DbConfigPickerComponent, ElementIdFieldComponent, MermaidStylesComponent, RefusedEditsComponent, StyleFieldsComponent, TableEditorComponent, TextFieldComponent],
  templateUrl: './node-properties.component.html',
  styleUrls: ['./fields.scss', './properties.scss'],
  host: { class: 'sc-properties', 'data-testid': 'node-properties' },
})
export class NodePropertiesComponent {
  readonly node = input.required<OverlaidNode>();
  readonly graph = input.required<OverlaidGraph>();
  readonly orgId = input.required<string>();
  readonly nodeChange = output<{ previousId: string; node: OverlaidNode }>();
  /** A rename (`edits.set('id', …)`, checked by the id field) is the editor's to propagate to the node's references. */
  readonly edits = elementEdits(this.node, this.graph, NODE_RULES, (previous, node) => this.nodeChange.emit({ previousId: previous.id, node }));
  readonly current = this.edits.current;

  readonly nodeTypes = NODE_TYPES;
  readonly shapes = SHAPES;
  readonly textFields = computed(() => TEXT_FIELDS[this.type() ?? 'shape'] ?? []);
  readonly codeLanguages = HIGHLIGHT_LANGUAGES;

  readonly overlay = computed<ContextNode>(() => this.current().overlay ?? {});
  readonly type = computed(() => this.overlay().type);
  readonly style = computed<NodeStyle>(() => this.overlay().style ?? {});
  readonly entries = computed(() => dataEntries(this.current()));
  /** Images and GIFs. */
  readonly hasSrc = computed(() => this.type() === 'image' || this.type() === 'gif');
  /** `type=shape` only; with no type set, choosing a shape makes the node a shape node. */
  readonly showsShape = computed(() => this.type() === undefined || this.type() === 'shape');
  readonly codeLanguage = computed(() => {
    const field = this.overlay().data?.[LANGUAGE_FIELD];
    return typeof field?.value === 'string' ? field.value : '';
  });

  patch(patch: Partial<ContextNode>): void {
    this.edits.apply(withOverlay(this.current(), patch));
  }

  setText(key: 'cloud' | 'service' | 'animatedIcon' | 'componentId', value: string): void {
    this.patch({ [key]: this.text(value) });
  }

  text(value: string): string | undefined {
    return value === '' ? undefined : value;
  }

  /** Images: https or data: URLs only (the canvas shows nothing else); http is refused here though the context allows it. */
  setSrc(value: string): void {
    const src = value.trim();
    if (src !== '' && !/^(https:|data:)/i.test(src)) {
      this.edits.refused.set([`src: use an https:// or data: URL, not ${JSON.stringify(src)}.`]);
      return;
    }
    this.patch({ src: src === '' ? undefined : src });
  }

  setType(type: NodeType | '' | undefined): void {
    this.edits.apply(withType(this.current(), type === '' ? undefined : type));
  }

  setShape(shape: ContextShape | ''): void {
    const node = this.current();
    if (shape === '') return this.patch({ shape: undefined });
    // The Mermaid shape read from a synced diagram wins over the context shape on export; a shape picked here replaces it.
    const { shape: _mermaidShape, ...rest } = node;
    this.edits.apply(withOverlay(rest, { type: 'shape', shape }));
  }

  setStyle(patch: Partial<NodeStyle>): void {
    this.edits.apply(withStyle(this.current(), patch));
  }

  setEntries(entries: DataFieldEntry[]): void {
    this.edits.apply(withData(this.current(), entries));
  }

  /** The code node's language: the spec has no key for it, so it travels as a data field named "Language". */
  setCodeLanguage(language: string): void {
    const entries = this.entries().filter((entry) => entry.label !== LANGUAGE_FIELD);
    this.edits.apply(withData(this.current(), language === '' ? entries : [...entries, { label: LANGUAGE_FIELD, field: { type: 'Dropdown', value: language } }]));
  }
}

/** Name of the data field that carries a code node's language. */
export const LANGUAGE_FIELD = 'Language';
