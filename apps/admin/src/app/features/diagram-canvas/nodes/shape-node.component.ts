import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { rowsUnderOutline, shapeDrawing, textOffset, type CanvasNode } from '@sc/diagram';
import { NodeFieldsComponent } from './node-fields.component';

/** A node drawn as an outline (context `shape` nodes and Mermaid's own shapes) with its title inside. */
@Component({
  selector: 'sc-shape-node',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NodeFieldsComponent],
  template: `
    @let n = node();
    <svg class="outline" [attr.width]="n.width" [attr.height]="outlineHeight()" aria-hidden="true">
      @for (d of drawing().fills; track $index) {
        <path
          [attr.d]="d"
          [attr.fill]="n.look.fill ?? null"
          [attr.stroke]="n.look.stroke ?? null"
          [attr.stroke-width]="n.look.strokeWidth ?? null"
          [class.dashed]="n.look.dash === 'dashed'"
          [class.dotted]="n.look.dash === 'dotted'"
          [class.animated]="n.look.animated"
        />
      }
      @for (d of drawing().lines; track $index) {
        <path class="inner" [attr.d]="d" [attr.stroke]="n.look.stroke ?? null" />
      }
    </svg>
    <div class="label" [style.height.px]="outlineHeight()" [style.padding-top.px]="offset().top" [style.padding-bottom.px]="offset().bottom" [style.color]="n.look.color ?? null">
      @for (line of n.titleLines; track $index) {
        <span class="line">{{ line }}</span>
      }
    </div>
    <sc-node-fields [fields]="n.fields" />
  `,
})
export class ShapeNodeComponent {
  readonly node = input.required<CanvasNode>();
  /** The outline's height: the node's box less the data rows below it. */
  readonly outlineHeight = computed(() => {
    const node = this.node();
    return node.height - rowsUnderOutline(node);
  });
  readonly drawing = computed(() => {
    const node = this.node();
    // Inset by half the stroke so wide strokes stay inside the box.
    return shapeDrawing(node.shape, node.width, this.outlineHeight(), node.look.radius);
  });
  readonly offset = computed(() => textOffset(this.node().shape, this.outlineHeight()));
}
