import { ChangeDetectionStrategy, Component, output } from '@angular/core';
import { NODE_TYPES, SHAPES, shapeDrawing } from '@sc/diagram';
import { NODE_TYPE_NAMES, shapeName } from './editor-doc';
import { startPaletteDrag, type PaletteDrop } from './palette-drop';

interface PaletteItem {
  item: PaletteDrop;
  name: string;
  /** What a screen reader announces: "Add an image node", "Add a diamond shape". */
  label: string;
  /** Outline of the shape, for shape items. */
  path?: string;
}

/**
 * The 11 node types and the 23 shapes: drag one onto the canvas, or press it (keyboard: Enter) to add it in the
 * middle of the view. Hooks: data-palette-type (and data-palette-shape for shapes).
 */
@Component({
  selector: 'sc-editor-palette',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h2 class="palette-title" id="palette-nodes">Nodes</h2>
    <ul class="palette-grid" aria-labelledby="palette-nodes">
      @for (entry of types; track entry.item.type) {
        <li>
          <button type="button" class="palette-item" draggable="true" [attr.data-palette-type]="entry.item.type"
            [attr.aria-label]="entry.label" [title]="entry.name" (dragstart)="dragStart($event, entry.item)" (click)="add.emit(entry.item)">
            {{ entry.name }}
          </button>
        </li>
      }
    </ul>
    <h2 class="palette-title" id="palette-shapes">Shapes</h2>
    <ul class="palette-grid shapes" aria-labelledby="palette-shapes">
      @for (entry of shapes; track entry.item.shape) {
        <li>
          <button type="button" class="palette-item shape" draggable="true" data-palette-type="shape" [attr.data-palette-shape]="entry.item.shape"
            [attr.aria-label]="entry.label" [title]="entry.name" (dragstart)="dragStart($event, entry.item)" (click)="add.emit(entry.item)">
            <svg width="40" height="26" viewBox="-2 -2 44 30" aria-hidden="true"><path [attr.d]="entry.path" /></svg>
            <span class="shape-name">{{ entry.name }}</span>
          </button>
        </li>
      }
    </ul>
  `,
  styles: `
    :host { display: block; overflow: auto; padding: 8px; }
    .palette-title { font: var(--mat-sys-title-small); margin: 8px 0 6px; }
    .palette-grid { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; list-style: none; margin: 0; padding: 0; }
    .palette-grid > li { display: flex; }
    .palette-item {
      display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 2px; flex: 1;
      min-height: 36px; padding: 4px; border: 1px solid #c5cfdb; border-radius: 6px; background: #fff;
      font: inherit; font-size: 12px; cursor: grab; text-align: center;
      &:hover, &:focus-visible { border-color: #0b57d0; background: #eef3fb; outline: none; }
    }
    .shape svg path { fill: #eef3fb; stroke: #4a5a70; stroke-width: 1.5; }
    .shape-name { font-size: 11px; line-height: 13px; }
  `,
})
export class PaletteComponent {
  /** Pressed (click or keyboard): add in the middle of the view. */
  readonly add = output<PaletteDrop>();

  readonly types: PaletteItem[] = NODE_TYPES.map((type) => ({ item: { type }, name: NODE_TYPE_NAMES[type], label: addLabel(NODE_TYPE_NAMES[type], 'node') }));
  readonly shapes: PaletteItem[] = SHAPES.map((shape) => ({
    item: { type: 'shape', shape },
    name: shapeName(shape),
    label: addLabel(shapeName(shape), 'shape'),
    path: shapeDrawing(shape, 40, 26).fills.join(' '),
  }));

  readonly dragStart = startPaletteDrag;
}

/** "Add an image node": the name in lower case, with "an" before a vowel (every palette name reads that way). */
function addLabel(name: string, what: 'node' | 'shape'): string {
  const lower = name.toLowerCase();
  return `Add ${/^[aeiou]/.test(lower) ? 'an' : 'a'} ${lower} ${what}`;
}
