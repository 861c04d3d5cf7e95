import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { markerUrl, type CanvasEdge } from '@sc/diagram';

/**
 * One edge of a canvas (the viewer's and the draft editor's), inside ngx-vflow's edge template: the wide transparent
 * hit line, then the drawn line with its stroke, dash and markers (defined once by EdgeMarkersComponent). What each
 * canvas adds (its label, arrange mode's bend handles) is projected after the line. The host is the edge's
 * `<g class="canvas-edge">` with the test hooks `data-edge-source` and `data-edge-target`.
 */
@Component({
  // An element selector cannot work here: the host must be an SVG <g> for its children to be created in the SVG
  // namespace (as EdgeMarkersComponent), so this component is an attribute (still prefixed) on one.
  // eslint-disable-next-line @angular-eslint/component-selector
  selector: 'g[scCanvasEdge]',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    class: 'canvas-edge',
    '[attr.data-edge-source]': 'edge().source',
    '[attr.data-edge-target]': 'edge().target',
    '[attr.data-status]': 'edge().status ?? null',
  },
  template: `
    <svg:path class="edge-hit" [attr.d]="path()" (click)="hit.emit($event)" />
    <svg:path
      class="edge-line"
      [class.dashed]="edge().dash === 'dashed'"
      [class.dotted]="edge().dash === 'dotted'"
      [class.animated]="edge().animated"
      [attr.d]="path()"
      [attr.stroke]="edge().color"
      [attr.stroke-width]="edge().width"
      [attr.marker-start]="markerUrl(edge(), 'start')"
      [attr.marker-end]="markerUrl(edge(), 'end')"
    />
    <ng-content />
  `,
})
export class CanvasEdgeComponent {
  readonly edge = input.required<CanvasEdge>();
  /** The SVG path the edge is drawn along. */
  readonly path = input.required<string>();
  /** A click on the edge's hit line. */
  readonly hit = output<MouseEvent>();

  readonly markerUrl = markerUrl;
}
