import type { CanvasModel, LayoutResult, Point } from '@sc/diagram';
import { ChangeDetectionStrategy, Component, ElementRef, effect, input, output, viewChild } from '@angular/core';

export const MINIMAP_WIDTH = 200;
export const MINIMAP_HEIGHT = 130;
const WIDTH = MINIMAP_WIDTH;
const HEIGHT = MINIMAP_HEIGHT;

/**
 * An overview of the whole drawing with the visible part framed; click or drag in it to move the view there.
 * Drawn on a <canvas> (one rectangle per node and group), so it costs the same for 20 or 1,000 nodes — ngx-vflow's
 * own minimap renders every node again as HTML.
 */
@Component({
  selector: 'sc-canvas-minimap',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { 'aria-hidden': 'true', class: 'canvas-minimap' },
  template: `<canvas #surface [width]="width * ratio" [height]="height * ratio" [style.width.px]="width" [style.height.px]="height"
    (pointerdown)="press($event)" (pointermove)="drag($event)" (pointerup)="release($event)"></canvas>`,
})
export class CanvasMinimapComponent {
  readonly model = input.required<CanvasModel>();
  readonly layout = input.required<LayoutResult>();
  /** The flow's viewport (translation and zoom) and the size of the element showing it. */
  readonly viewport = input.required<{ x: number; y: number; zoom: number }>();
  readonly viewSize = input.required<{ width: number; height: number }>();
  /** A point of the drawing to centre the view on. */
  readonly centre = output<Point>();

  readonly width = WIDTH;
  readonly height = HEIGHT;
  readonly ratio = typeof devicePixelRatio === 'number' ? Math.min(devicePixelRatio, 2) : 1;
  private readonly surface = viewChild.required<ElementRef<HTMLCanvasElement>>('surface');
  private dragging = false;

  constructor() {
    effect(() => this.draw());
  }

  private scale(): { factor: number; left: number; top: number } {
    const layout = this.layout();
    const factor = Math.min((WIDTH - 8) / Math.max(layout.width, 1), (HEIGHT - 8) / Math.max(layout.height, 1));
    return { factor, left: (WIDTH - layout.width * factor) / 2, top: (HEIGHT - layout.height * factor) / 2 };
  }

  private draw(): void {
    const context = this.surface().nativeElement.getContext('2d');
    if (!context) return;
    const model = this.model();
    const boxes = this.layout().boxes;
    const { x, y, zoom } = this.viewport();
    const view = this.viewSize();
    const { factor, left, top } = this.scale();
    context.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    context.clearRect(0, 0, WIDTH, HEIGHT);
    context.fillStyle = '#f7f9fc';
    context.fillRect(0, 0, WIDTH, HEIGHT);
    const rect = (box: { x: number; y: number; width: number; height: number }) =>
      [left + box.x * factor, top + box.y * factor, Math.max(box.width * factor, 1), Math.max(box.height * factor, 1)] as const;
    context.strokeStyle = '#9aa8ba';
    context.lineWidth = 0.5;
    for (const group of model.groups) {
      const box = boxes[group.id];
      if (!box) continue;
      context.fillStyle = group.collapsed ? '#dbe4f0' : 'rgba(31, 111, 235, 0.06)';
      context.fillRect(...rect(box));
      context.strokeRect(...rect(box));
    }
    // One path per colour, filled once: a thousand fillRect calls, each switching the fill, cost tens of ms.
    const byColour = new Map<string, Path2D>();
    for (const node of model.nodes) {
      const box = boxes[node.id];
      if (!box) continue;
      const fill = node.status === 'added' ? '#1a7f37' : node.status === 'changed' ? '#b7791f' : node.status === 'removed' ? '#c62828' : (node.look.fill ?? '#8796aa');
      let path = byColour.get(fill);
      if (!path) {
        path = new Path2D();
        byColour.set(fill, path);
      }
      path.rect(...rect(box));
    }
    for (const [fill, path] of byColour) {
      context.fillStyle = fill;
      context.fill(path);
    }
    if (zoom > 0 && view.width > 0) {
      context.strokeStyle = '#0b57d0';
      context.lineWidth = 1.5;
      context.strokeRect(...rect({ x: -x / zoom, y: -y / zoom, width: view.width / zoom, height: view.height / zoom }));
    }
  }

  press(event: PointerEvent): void {
    this.dragging = true;
    (event.target as HTMLElement).setPointerCapture?.(event.pointerId);
    this.move(event);
  }

  drag(event: PointerEvent): void {
    if (this.dragging) this.move(event);
  }

  release(event: PointerEvent): void {
    this.dragging = false;
    (event.target as HTMLElement).releasePointerCapture?.(event.pointerId);
  }

  private move(event: PointerEvent): void {
    const bounds = this.surface().nativeElement.getBoundingClientRect();
    const { factor, left, top } = this.scale();
    this.centre.emit({ x: (event.clientX - bounds.left - left) / factor, y: (event.clientY - bounds.top - top) / factor });
  }
}
