import { ChangeDetectionStrategy, Component, ViewEncapsulation, input, output } from '@angular/core';
import type { CanvasNode } from '@sc/diagram';
import { C4NodeComponent } from './nodes/c4-node.component';
import { CardNodeComponent } from './nodes/card-node.component';
import { DatabaseNodeComponent } from './nodes/database-node.component';
import { ShapeNodeComponent } from './nodes/shape-node.component';

/**
 * One drawn node: the focusable, clickable element carrying the test hooks (`data-node-id`, `data-node-type`),
 * with the component for its kind inside.
 */
@Component({
  selector: 'sc-canvas-node',
  changeDetection: ChangeDetectionStrategy.OnPush,
  // Styles for every node kind, scoped under .sc-diagram-canvas (see the file).
  encapsulation: ViewEncapsulation.None,
  styleUrl: './canvas-node.component.scss',
  imports: [ShapeNodeComponent, CardNodeComponent, DatabaseNodeComponent, C4NodeComponent],
  host: {
    class: 'sc-node',
    role: 'button',
    tabindex: '0',
    '[attr.data-node-id]': 'node().id',
    '[attr.data-node-type]': 'node().kind',
    '[attr.data-status]': 'node().status ?? null',
    '[attr.aria-label]': 'ariaLabel()',
    '[attr.aria-pressed]': 'selected()',
    '[class]': "'sc-node kind-' + node().kind + (node().status ? ' status-' + node().status : '') + (selected() ? ' selected' : '')",
    '[style.width.px]': 'node().width',
    '[style.height.px]': 'node().height',
    '(click)': 'activate.emit(node().id)',
    '(keydown.enter)': 'activate.emit(node().id); $event.preventDefault()',
    '(keydown.space)': 'activate.emit(node().id); $event.preventDefault()',
  },
  template: `
    @let n = node();
    @switch (n.kind) {
      @case ('mermaid') {
        <sc-shape-node [node]="n" />
      }
      @case ('shape') {
        <sc-shape-node [node]="n" />
      }
      @case ('c4') {
        <sc-c4-node [node]="n" />
      }
      @case ('start') {
        <span class="state-mark start" aria-hidden="true"></span>
      }
      @case ('end') {
        <span class="state-mark end" aria-hidden="true"></span>
      }
      @default {
        <div class="card" [style.background]="n.look.fill ?? null" [style.border-color]="n.look.stroke ?? null"
          [style.border-width.px]="n.look.strokeWidth ?? null" [style.border-style]="n.look.dash ?? null"
          [style.border-radius.px]="n.look.radius ?? null" [class.animated]="n.look.animated">
          @if (n.kind === 'data-source' || n.kind === 'db-table') {
            <sc-database-node [node]="n" [serviceLink]="serviceLink()" [revision]="revision()" />
          } @else {
            <sc-card-node [node]="n" />
          }
        </div>
      }
    }
  `,
})
export class CanvasNodeComponent {
  readonly node = input.required<CanvasNode>();
  readonly serviceLink = input('');
  readonly revision = input<number>();
  readonly selected = input(false);
  readonly activate = output<string>();

  ariaLabel(): string {
    const node = this.node();
    const status = node.status ? `, ${node.status}` : '';
    return `${node.title} (${node.kind === 'mermaid' ? 'node' : node.kind}${status})`;
  }
}
