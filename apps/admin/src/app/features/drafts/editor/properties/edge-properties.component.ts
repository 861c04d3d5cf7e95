import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSelectModule } from '@angular/material/select';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { FLOWCHART_LINK_STROKES, STROKE_STYLES, type ContextEdge, type EdgeStyle, type Marker, type OverlaidEdge, type OverlaidGraph, type StrokeStyle } from '@sc/diagram';
import { ColorFieldComponent } from './color-field.component';
import { compact, edgeProblems } from './element-checks';

/** Marker types the canvas draws (diagram-canvas/canvas-model.ts markerType); "none" hides Mermaid's own arrow. */
export const MARKER_TYPES = ['arrow', 'arrow-open', 'circle', 'cross', 'diamond', 'none'] as const;

/**
 * Properties of one edge: its Mermaid label, link type and stroke (normal, thick, dotted, invisible), and the
 * context overlay: stroke colour, width, solid/dashed/dotted, animation, and start/end markers with colours.
 * Emits the whole new edge with the one it replaces; an edit that would break validateDrawnGraph is shown and not
 * emitted. Test hooks: `edge-label`, `edge-link-type`, `edge-link-stroke` (mat-selects), `edge-stroke` (colour text;
 * `edge-stroke-picker`), `edge-stroke-width`, `edge-stroke-style`, `edge-animated`, `edge-marker-start`,
 * `edge-marker-end` (mat-selects), `edge-marker-start-color`, `edge-marker-end-color`, `edge-problems`.
 */
@Component({
  selector: 'sc-edge-properties',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatFormFieldModule, MatInputModule, MatSelectModule, MatSlideToggleModule, ColorFieldComponent],
  template: `
    <h3 class="heading">Edge {{ edge().source }} → {{ edge().target }}</h3>
    <mat-form-field appearance="outline" subscriptSizing="dynamic">
      <mat-label>Label</mat-label>
      <input matInput [value]="edge().label ?? ''" (change)="setLabel($any($event.target).value)" data-testid="edge-label" />
    </mat-form-field>
    <div class="row">
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>Mermaid link</mat-label>
        <mat-select [value]="linkType()" (selectionChange)="setLinkType($event.value)" data-testid="edge-link-type">
          @for (type of linkTypes; track type) {
            <mat-option [value]="type">{{ type }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>Link stroke</mat-label>
        <mat-select [value]="edge().stroke ?? 'normal'" (selectionChange)="setLinkStroke($event.value)" data-testid="edge-link-stroke">
          @for (stroke of linkStrokes(); track stroke) {
            <mat-option [value]="stroke">{{ stroke }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
    </div>
    <h4 class="subheading">Style</h4>
    <sc-color-field label="Stroke colour" testId="edge-stroke" [value]="style().stroke ?? ''" (valueChange)="setStyle({ stroke: $event || undefined })" />
    <div class="row">
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>Stroke width</mat-label>
        <input matInput type="number" min="0" step="0.5" [value]="style().strokeWidth ?? ''" (change)="setWidth($any($event.target).value)" data-testid="edge-stroke-width" />
      </mat-form-field>
      <mat-form-field appearance="outline" subscriptSizing="dynamic">
        <mat-label>Line</mat-label>
        <mat-select [value]="style().strokeStyle ?? ''" (selectionChange)="setStrokeStyle($event.value)" data-testid="edge-stroke-style">
          <mat-option value="">(default)</mat-option>
          @for (s of strokeStyles; track s) {
            <mat-option [value]="s">{{ s }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
    </div>
    <mat-slide-toggle [checked]="style().borderAnimationEnabled ?? false" (change)="setStyle({ borderAnimationEnabled: $event.checked || undefined })" data-testid="edge-animated">Animated</mat-slide-toggle>
    <h4 class="subheading">Markers</h4>
    @for (end of ends; track end.key) {
      <div class="row">
        <mat-form-field appearance="outline" subscriptSizing="dynamic">
          <mat-label>{{ end.label }}</mat-label>
          <mat-select [value]="overlay()[end.key]?.type ?? ''" (selectionChange)="setMarker(end.key, { type: $event.value })" [attr.data-testid]="end.testId">
            <mat-option value="">(Mermaid's)</mat-option>
            @for (type of markerTypes; track type) {
              <mat-option [value]="type">{{ type }}</mat-option>
            }
          </mat-select>
        </mat-form-field>
        @if (overlay()[end.key]; as marker) {
          <sc-color-field label="Colour" [testId]="end.testId + '-color'" [value]="marker.color ?? ''" (valueChange)="setMarker(end.key, { color: $event })" />
        }
      </div>
    }
    @if (refused().length > 0) {
      <div class="problems" role="alert" data-testid="edge-problems">
        <p>Not applied:</p>
        <ul>
          @for (problem of refused(); track $index) {
            <li>{{ problem }}</li>
          }
        </ul>
      </div>
    }
  `,
  styleUrl: './properties.scss',
  host: { class: 'sc-properties', 'data-testid': 'edge-properties' },
})
export class EdgePropertiesComponent {
  readonly edge = input.required<OverlaidEdge>();
  readonly graph = input.required<OverlaidGraph>();
  readonly edgeChange = output<{ previous: OverlaidEdge; edge: OverlaidEdge }>();

  readonly linkTypes = Object.keys(FLOWCHART_LINK_STROKES);
  readonly strokeStyles = STROKE_STYLES;
  readonly markerTypes = MARKER_TYPES;
  readonly ends = [
    { key: 'markerStart', label: 'Start marker', testId: 'edge-marker-start' },
    { key: 'markerEnd', label: 'End marker', testId: 'edge-marker-end' },
  ] as const;

  readonly overlay = computed<ContextEdge>(() => this.edge().overlay ?? {});
  readonly style = computed<EdgeStyle>(() => this.overlay().style ?? {});
  readonly linkType = computed(() => this.edge().type ?? 'arrow_point');
  readonly linkStrokes = computed(() => FLOWCHART_LINK_STROKES[this.linkType()] ?? FLOWCHART_LINK_STROKES['arrow_point']);
  readonly refused = linkedSignal<OverlaidEdge, string[]>({ source: this.edge, computation: () => [] });

  setLabel(text: string): void {
    const { label: _label, ...rest } = this.edge();
    this.emit(text.trim() === '' ? rest : { ...rest, label: text.trim() });
  }

  /** A link type that cannot be drawn with the current stroke (circle ends are never invisible) falls back to normal. */
  setLinkType(type: string): void {
    const { type: _type, stroke, ...rest } = this.edge();
    const strokes = FLOWCHART_LINK_STROKES[type] ?? [];
    this.emit({ ...rest, ...(type !== 'arrow_point' ? { type } : {}), ...(stroke !== undefined && stroke !== 'normal' && strokes.includes(stroke) ? { stroke } : {}) });
  }

  setLinkStroke(stroke: string): void {
    const { stroke: _stroke, ...rest } = this.edge();
    this.emit(stroke === 'normal' ? rest : { ...rest, stroke });
  }

  setStyle(patch: Partial<EdgeStyle>): void {
    this.patch({ style: compact({ ...this.style(), ...patch }) });
  }

  setWidth(text: string): void {
    this.setStyle({ strokeWidth: text.trim() === '' ? undefined : Number(text) });
  }

  setStrokeStyle(value: StrokeStyle | ''): void {
    this.setStyle({ strokeStyle: value === '' ? undefined : value });
  }

  /** A marker type of '' removes the marker (Mermaid's arrowheads show); an empty colour removes the colour. */
  setMarker(key: 'markerStart' | 'markerEnd', patch: Partial<Marker>): void {
    const current = this.overlay()[key];
    const next = { ...current, ...patch };
    if (next.type === undefined || next.type === '') return this.patch({ [key]: undefined });
    this.patch({ [key]: compact({ type: next.type, color: next.color || undefined }) });
  }

  private patch(patch: Partial<ContextEdge>): void {
    const { overlay: _overlay, ...rest } = this.edge();
    const overlay = compact({ ...this.overlay(), ...patch });
    this.emit(overlay ? { ...rest, overlay } : rest);
  }

  private emit(edge: OverlaidEdge): void {
    const problems = edgeProblems(edge);
    if (problems.length > 0) {
      this.refused.set(problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)));
      return;
    }
    this.refused.set([]);
    this.edgeChange.emit({ previous: this.edge(), edge });
  }
}
