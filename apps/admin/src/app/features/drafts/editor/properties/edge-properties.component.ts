import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { FLOWCHART_LINK_STROKES, type ContextEdge, type EdgeStyle, type Marker, type OverlaidEdge, type OverlaidGraph } from '@sc/diagram';
import { ColorFieldComponent } from './color-field.component';
import { EDGE_RULES, compact, elementEdits } from './element-checks';
import { ChoiceFieldComponent, MermaidStylesComponent, RefusedEditsComponent, TextFieldComponent } from './panel-parts.component';
import { StyleFieldsComponent } from './style-fields.component';

/** Marker types the canvas draws (markerType in @sc/diagram's canvas/edge-look.ts); "none" hides Mermaid's own arrow. */
export const MARKER_TYPES = ['arrow', 'arrow-open', 'circle', 'cross', 'diamond', 'none'] as const;

/**
 * Properties of one edge: its Mermaid label, link type and stroke (normal, thick, dotted, invisible), and the
 * context overlay: stroke colour, width, solid/dashed/dotted, animation, and start/end markers with colours.
 * Emits the whole new edge with the one it replaces; an edit that would break validateDrawnGraph is shown and not
 * emitted. Test hooks: `edge-label`, `edge-link-type`, `edge-link-stroke` (mat-selects), `edge-style-stroke` (colour
 * text; `edge-style-stroke-picker`), `edge-style-stroke-width`, `edge-style-stroke-style` (mat-select),
 * `edge-style-border-animation` (toggle), `edge-marker-start`, `edge-marker-end` (mat-selects),
 * `edge-marker-start-color`, `edge-marker-end-color`, `edge-mermaid-styles` (+ `-clear`), `edge-problems`.
 */
@Component({
  selector: 'sc-edge-properties',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ChoiceFieldComponent, ColorFieldComponent, MermaidStylesComponent, RefusedEditsComponent, StyleFieldsComponent, TextFieldComponent],
  template: `
    <h3 class="heading">Edge {{ current().source }} → {{ current().target }}</h3>
    <sc-text-field label="Label" testId="edge-label" [value]="current().label ?? ''" (changed)="setLabel($event)" />
    <div class="row">
      <sc-choice-field label="Mermaid link" testId="edge-link-type" [options]="linkTypes" [value]="linkType()" (picked)="setLinkType($event)" />
      <sc-choice-field label="Link stroke" testId="edge-link-stroke" [options]="linkStrokes()" [value]="current().stroke ?? 'normal'" (picked)="setLinkStroke($event)" />
    </div>
    <h4 class="subheading">Style</h4>
    <sc-style-fields prefix="edge-style" [forNode]="false" [value]="style()" (styleChange)="setStyle($event)" />
    <sc-mermaid-styles testId="edge-mermaid-styles" [styles]="current().styles ?? []" (cleared)="edits.set('styles', undefined)" />
    <h4 class="subheading">Markers</h4>
    @for (end of ends; track end.key) {
      <div class="row">
        <sc-choice-field [label]="end.label" [testId]="end.testId" [options]="markerTypes" [value]="overlay()[end.key]?.type ?? ''" none="(Mermaid's)" (picked)="setMarker(end.key, { type: $event })" />
        @if (overlay()[end.key]; as marker) {
          <sc-color-field label="Colour" [testId]="end.testId + '-color'" [value]="marker.color ?? ''" (valueChange)="setMarker(end.key, { color: $event })" />
        }
      </div>
    }
    <sc-refused-edits testId="edge-problems" [problems]="edits.refused()" />
  `,
  styleUrls: ['./fields.scss', './properties.scss'],
  host: { class: 'sc-properties', 'data-testid': 'edge-properties' },
})
export class EdgePropertiesComponent {
  readonly edge = input.required<OverlaidEdge>();
  readonly graph = input.required<OverlaidGraph>();
  readonly edgeChange = output<{ previous: OverlaidEdge; edge: OverlaidEdge }>();
  readonly edits = elementEdits(this.edge, this.graph, EDGE_RULES, (previous, edge) => this.edgeChange.emit({ previous, edge }));
  readonly current = this.edits.current;

  readonly linkTypes = Object.keys(FLOWCHART_LINK_STROKES);
  readonly markerTypes = MARKER_TYPES;
  readonly ends = [
    { key: 'markerStart', label: 'Start marker', testId: 'edge-marker-start' },
    { key: 'markerEnd', label: 'End marker', testId: 'edge-marker-end' },
  ] as const;

  readonly overlay = computed<ContextEdge>(() => this.current().overlay ?? {});
  readonly style = computed<EdgeStyle>(() => this.overlay().style ?? {});
  readonly linkType = computed(() => this.current().type ?? 'arrow_point');
  readonly linkStrokes = computed(() => FLOWCHART_LINK_STROKES[this.linkType()] ?? FLOWCHART_LINK_STROKES['arrow_point']);

  setLabel(text: string): void {
    this.edits.set('label', text.trim() || undefined);
  }

  /** A link type that cannot be drawn with the current stroke (circle ends are never invisible) falls back to normal. */
  setLinkType(type: string): void {
    const { type: _type, stroke, ...rest } = this.current();
    const strokes = FLOWCHART_LINK_STROKES[type] ?? [];
    this.edits.apply({ ...rest, ...(type !== 'arrow_point' ? { type } : {}), ...(stroke !== undefined && stroke !== 'normal' && strokes.includes(stroke) ? { stroke } : {}) });
  }

  setLinkStroke(stroke: string): void {
    this.edits.set('stroke', stroke === 'normal' ? undefined : stroke);
  }

  /** Edge styles have no fill or border radius; the shared style fields never offer them for edges. */
  setStyle(patch: Partial<EdgeStyle>): void {
    this.patch({ style: compact({ ...this.style(), ...patch }) });
  }

  /** A marker type of '' removes the marker (Mermaid's arrowheads show); an empty colour removes the colour. */
  setMarker(key: 'markerStart' | 'markerEnd', patch: Partial<Marker>): void {
    const current = this.overlay()[key];
    const next = { ...current, ...patch };
    if (next.type === undefined || next.type === '') return this.patch({ [key]: undefined });
    this.patch({ [key]: compact({ type: next.type, color: next.color || undefined }) });
  }

  private patch(patch: Partial<ContextEdge>): void {
    this.edits.set('overlay', compact({ ...this.overlay(), ...patch }));
  }
}
