import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { MatIconModule } from '@angular/material/icon';
import type { CanvasNode } from '@sc/diagram';
import { CodeBlockComponent } from './code-block.component';
import { NodeFieldsComponent } from './node-fields.component';

/**
 * Context node types drawn as cards: title bar, then the type's content — text, code, table, comment, cloud,
 * image, gif and component. (Shapes, C4 elements and database nodes have their own components.)
 */
@Component({
  selector: 'sc-card-node',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NodeFieldsComponent, MatIconModule, CodeBlockComponent],
  template: `
    @let n = node();
    @switch (n.kind) {
      @case ('text') {
        <div class="text-node" [style.color]="n.look.color ?? null">
          <span class="caption">{{ n.title }}</span>
          @for (line of n.body.lines; track $index) {
            <span class="line big">{{ line }}</span>
          }
        </div>
        <sc-node-fields [fields]="n.fields" />
      }
      @case ('comment') {
        <div class="note">
          @for (line of n.body.lines; track $index) {
            <span class="line">{{ line }}</span>
          }
        </div>
        <sc-node-fields [fields]="n.fields" />
      }
      @default {
        <div class="card-title">
          <mat-icon [svgIcon]="icon()" aria-hidden="true" />
          <span class="line">{{ n.title }}</span>
        </div>
        <div class="card-body">
          @switch (n.kind) {
            @case ('code') {
              <sc-canvas-code [code]="n.body.code ?? ''" />
            }
            @case ('table') {
              @if (n.body.table; as table) {
                <table class="grid">
                  @if (table.columns.length) {
                    <thead>
                      <tr>
                        @for (column of table.columns; track $index) {
                          <th [style.width.px]="table.widths[$index]">{{ column }}</th>
                        }
                      </tr>
                    </thead>
                  }
                  <tbody>
                    @for (row of table.rows; track $index) {
                      <tr>
                        @for (cell of row; track $index) {
                          <td>{{ cell }}</td>
                        }
                      </tr>
                    }
                  </tbody>
                </table>
              }
            }
            @case ('cloud') {
              <div class="cloud">
                <span class="provider">{{ n.body.cloud?.provider }}</span>
                <span class="service">{{ n.body.cloud?.service }}</span>
              </div>
            }
            @case ('image') {
              @if (n.body.imageSrc; as src) {
                <img class="picture" [src]="src" [alt]="n.title" loading="lazy" referrerpolicy="no-referrer" />
              } @else {
                <span class="muted small">Image not shown: only https and data URLs are loaded.</span>
              }
            }
            @case ('gif') {
              @if (n.body.imageSrc; as src) {
                <img class="picture" [src]="src" [alt]="n.title" loading="lazy" referrerpolicy="no-referrer" />
              } @else {
                <div class="animated-icon" [attr.data-icon]="n.body.animatedIcon" role="img" [attr.aria-label]="'Animated icon ' + (n.body.animatedIcon ?? '')">
                  <span class="pulse" aria-hidden="true"></span>
                  <span class="small">{{ n.body.animatedIcon }}</span>
                </div>
              }
            }
            @case ('component') {
              <span class="component-id"><mat-icon svgIcon="widgets" aria-hidden="true" /><code>{{ n.body.componentId }}</code></span>
            }
          }
          <sc-node-fields [fields]="n.fields" />
        </div>
      }
    }
  `,
})
export class CardNodeComponent {
  readonly node = input.required<CanvasNode>();
  readonly icon = computed(() => CARD_ICONS[this.node().kind] ?? 'widgets');
}

const CARD_ICONS: Record<string, string> = {
  code: 'code',
  table: 'table',
  cloud: 'cloud',
  image: 'image',
  gif: 'animation',
  component: 'widgets',
};
