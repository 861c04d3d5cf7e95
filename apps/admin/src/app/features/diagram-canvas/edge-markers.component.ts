import type { MarkerDef } from '@sc/diagram';
import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/**
 * The `<marker>` definitions the edges of a canvas refer to (see usedMarkers and markerUrl), in a zero-size SVG.
 * Shared by the viewer's canvas and the draft editor's.
 */
@Component({
  // An element selector cannot work here: the host must be an <svg> element for its children to be created in the SVG
  // namespace, so this component is an attribute (still prefixed) on one.
  // eslint-disable-next-line @angular-eslint/component-selector
  selector: 'svg[scEdgeMarkers]',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'marker-defs', width: '0', height: '0', 'aria-hidden': 'true' },
  template: `
    <svg:defs>
      @for (marker of markers(); track marker.id) {
        <svg:marker [attr.id]="marker.id" viewBox="-1 -1 12 12" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" [attr.orient]="marker.start ? 'auto-start-reverse' : 'auto'">
          <svg:path [attr.d]="marker.d" [attr.fill]="marker.filled ? marker.color : 'none'" [attr.stroke]="marker.color" stroke-width="1.5" />
        </svg:marker>
      }
    </svg:defs>
  `,
})
export class EdgeMarkersComponent {
  readonly markers = input.required<readonly MarkerDef[]>();
}
