import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { c4TypeLine, type CanvasNode } from '@sc/diagram';
import { NodeFieldsComponent } from './node-fields.component';

/**
 * C4 elements drawn on the canvas (not by Mermaid's C4 renderer, which has no groups to collapse, no overlays and
 * no interaction): person, system, container, component, database and queue, internal or external, with their
 * type, technology and description as C4 writes them, and their data fields.
 */
@Component({
  selector: 'sc-c4-node',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NodeFieldsComponent],
  // Data rows left-aligned under the centred text, their labels in the element's own ink.
  styles: `
    sc-node-fields {
      align-self: stretch;
      text-align: left;
      --canvas-muted: currentColor;
    }
  `,
  template: `
    @let n = node();
    @let c4 = n.body.c4;
    <div class="c4" [attr.data-c4-type]="c4?.type" [class.external]="c4?.external">
      @if (c4?.type === 'person') {
        <svg class="c4-person" width="28" height="22" viewBox="0 0 28 22" aria-hidden="true"><circle cx="14" cy="7" r="6" /><path d="M2,22 Q14,8 26,22Z" /></svg>
      }
      @for (line of n.titleLines; track $index) {
        <span class="line title">{{ line }}</span>
      }
      <span class="line small c4-type">{{ typeLine() }}</span>
      @for (line of c4?.description; track $index) {
        <span class="line">{{ line }}</span>
      }
      <sc-node-fields [fields]="n.fields" />
    </div>
  `,
})
export class C4NodeComponent {
  readonly node = input.required<CanvasNode>();
  protected readonly typeLine = computed(() => c4TypeLine(this.node().body.c4));
}
