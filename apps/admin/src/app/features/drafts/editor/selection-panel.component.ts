import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import type { OverlaidEdge, OverlaidGroup, OverlaidNode } from '@sc/diagram';

/**
 * The side panel for what is selected: its id and its label. Emits whole new elements, in the same shape as the
 * properties components, so each change goes through the editor's history.
 */
@Component({
  selector: 'sc-selection-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatFormFieldModule, MatInputModule],
  template: `
    @if (node(); as n) {
      <h2>Node <code data-testid="selected-id">{{ n.id }}</code></h2>
      <p class="muted small">{{ n.overlay?.type ?? 'Mermaid node' }}{{ n.overlay?.shape ? ' · ' + n.overlay?.shape : '' }}</p>
      <mat-form-field appearance="outline" class="wide">
        <mat-label>Label</mat-label>
        <input matInput data-testid="panel-label" [value]="n.overlay?.name ?? n.label" (change)="nodeLabel(n, $any($event.target).value)" />
      </mat-form-field>
    } @else if (edge(); as e) {
      <h2>Edge {{ e.source }} → {{ e.target }}</h2>
      <mat-form-field appearance="outline" class="wide">
        <mat-label>Label</mat-label>
        <input matInput data-testid="panel-label" [value]="e.overlay?.label ?? e.label ?? ''" (change)="edgeLabel(e, $any($event.target).value)" />
      </mat-form-field>
    } @else if (group(); as g) {
      <h2>Group <code data-testid="selected-id">{{ g.id }}</code></h2>
      <mat-form-field appearance="outline" class="wide">
        <mat-label>Label</mat-label>
        <input matInput data-testid="panel-label" [value]="g.overlay?.name ?? g.label" (change)="groupLabel(g, $any($event.target).value)" />
      </mat-form-field>
    }
  `,
  styles: `
    :host { display: block; }
    h2 { font: var(--mat-sys-title-small); margin: 0 0 4px; }
    .wide { width: 100%; }
  `,
})
export class SelectionPanelComponent {
  readonly node = input<OverlaidNode | null>(null);
  readonly edge = input<OverlaidEdge | null>(null);
  readonly group = input<OverlaidGroup | null>(null);
  readonly nodeChange = output<{ previousId: string; node: OverlaidNode }>();
  readonly edgeChange = output<{ previous: OverlaidEdge; edge: OverlaidEdge }>();
  readonly groupChange = output<{ previousId: string; group: OverlaidGroup }>();

  nodeLabel(node: OverlaidNode, value: string): void {
    const label = value.trim();
    if (!label) return;
    this.nodeChange.emit({ previousId: node.id, node: node.overlay?.name !== undefined ? { ...node, label, overlay: { ...node.overlay, name: label } } : { ...node, label } });
  }

  edgeLabel(edge: OverlaidEdge, value: string): void {
    const label = value.trim();
    const { label: _label, ...rest } = edge;
    const next: OverlaidEdge = edge.overlay?.label !== undefined ? { ...edge, overlay: { ...edge.overlay, label } } : label ? { ...rest, label } : rest;
    this.edgeChange.emit({ previous: edge, edge: next });
  }

  groupLabel(group: OverlaidGroup, value: string): void {
    const label = value.trim();
    if (!label) return;
    this.groupChange.emit({ previousId: group.id, group: group.overlay?.name !== undefined ? { ...group, label, overlay: { ...group.overlay, name: label } } : { ...group, label } });
  }
}
