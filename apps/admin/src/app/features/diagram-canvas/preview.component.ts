import { ChangeDetectionStrategy, Component, ElementRef, effect, input, viewChild } from '@angular/core';
import type { Box, CanvasModel, LayoutResult } from '@sc/diagram';
import type { Size, Viewport } from './fit';

/**
 * The zoomed-out drawing of a large diagram (groups and nodes as boxes in their colours; no text, no edges), painted
 * on one <canvas> from the layout's plain boxes. It replaces ngx-vflow's own preview canvas, which redrew from five
 * signals per node: on a collapse that removed nodes from the middle of the list, Angular re-linked every read after
 * them, and with the drawing of each node as its own path that was the largest part of a collapse's main-thread time.
 * Boxes of one look are added to one path and filled and stroked once.
 */
@Component({
  selector: 'sc-canvas-preview',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { 'aria-hidden': 'true', class: 'canvas-preview' },
  template: `<canvas #surface [width]="size().width * ratio" [height]="size().height * ratio" [style.width.px]="size().width" [style.height.px]="size().height"></canvas>`,
})
export class CanvasPreviewComponent {
  readonly model = input.required<CanvasModel>();
  readonly layout = input.required<LayoutResult>();
  readonly viewport = input.required<Viewport>();
  readonly size = input.required<Size>();

  readonly ratio = typeof devicePixelRatio === 'number' ? Math.min(devicePixelRatio, 2) : 1;
  private readonly surface = viewChild.required<ElementRef<HTMLCanvasElement>>('surface');

  constructor() {
    effect(() => this.draw());
  }

  private draw(): void {
    const { width, height } = this.size();
    const { x, y, zoom } = this.viewport();
    const model = this.model();
    const boxes = this.layout().boxes;
    const context = this.surface().nativeElement.getContext('2d');
    if (!context) return;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, width * this.ratio, height * this.ratio);
    context.setTransform(zoom * this.ratio, 0, 0, zoom * this.ratio, x * this.ratio, y * this.ratio);
    context.lineWidth = 1;
    // Outer frames first, so inner ones are drawn over them (as ngx-vflow layers its group nodes).
    const groups = [...model.groups].sort((a, b) => a.depth - b.depth);
    for (const group of groups) {
      const box = boxes[group.id];
      if (!box) continue;
      const path = new Path2D();
      path.roundRect(box.x, box.y, box.width, box.height, 10);
      context.fillStyle = 'rgba(31, 111, 235, 0.04)';
      context.fill(path);
      context.strokeStyle = '#9aa8ba';
      context.stroke(path);
    }
    const byLook = new Map<string, { fill: string; stroke: string; path: Path2D }>();
    for (const node of model.nodes) {
      const box: Box | undefined = boxes[node.id];
      if (!box) continue;
      const fill = node.look.fill ?? '#ffffff';
      const stroke = node.look.stroke ?? '#5f6b7a';
      const key = `${fill}\u0000${stroke}`;
      let look = byLook.get(key);
      if (!look) {
        look = { fill, stroke, path: new Path2D() };
        byLook.set(key, look);
      }
      look.path.roundRect(box.x, box.y, box.width, box.height, 6);
    }
    for (const { fill, stroke, path } of byLook.values()) {
      context.fillStyle = fill;
      context.fill(path);
      context.strokeStyle = stroke;
      context.stroke(path);
    }
  }
}
