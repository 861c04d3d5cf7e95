import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { OverlaidGraph, OverlaidGroup } from '@sc/diagram';
import { GROUP_RULES, elementEdits, withField } from './element-checks';
import { ElementIdFieldComponent, RefusedEditsComponent, TextFieldComponent } from './panel-parts.component';

/**
 * Properties of one group (a Mermaid subgraph): its id, validated live like a node id (Mermaid can write it, no other
 * node or group has it), its label and its context name. Emits the whole new group with the id it had; renaming is the editor's to
 * propagate (members' parent, edges to the group). Test hooks: `group-id`, `group-id-error`, `group-label`,
 * `group-name`, `group-problems`.
 */
@Component({
  selector: 'sc-group-properties',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [ElementIdFieldComponent, RefusedEditsComponent, TextFieldComponent],
  template: `
    <h3 class="heading">Group</h3>
    <sc-element-id-field testId="group-id" [element]="current()" [graph]="graph()" hint="The Mermaid subgraph id." (renamed)="edits.set('id', $event)" />
    <sc-text-field label="Label" testId="group-label" [value]="current().label" (changed)="edits.set('label', $event)" />
    <sc-text-field label="Name" testId="group-name" [value]="current().overlay?.name ?? ''" hint="Display name in the context file." (changed)="setName($event)" />
    <sc-refused-edits testId="group-problems" [problems]="edits.refused()" />
  `,
  styleUrls: ['./fields.scss', './properties.scss'],
  host: { class: 'sc-properties', 'data-testid': 'group-properties' },
})
export class GroupPropertiesComponent {
  readonly group = input.required<OverlaidGroup>();
  readonly graph = input.required<OverlaidGraph>();
  readonly groupChange = output<{ previousId: string; group: OverlaidGroup }>();
  /** A rename (`edits.set('id', …)`, checked by the id field) is the editor's to propagate to the group's references. */
  readonly edits = elementEdits(this.group, this.graph, GROUP_RULES, (previous, group) => this.groupChange.emit({ previousId: previous.id, group }));
  readonly current = this.edits.current;

  /** `overlay.name`; an overlay left empty is dropped (a context-only group keeps its member list there). */
  setName(text: string): void {
    const overlay = withField(this.current().overlay ?? {}, 'name', text.trim() || undefined);
    this.edits.set('overlay', Object.keys(overlay).length === 0 ? undefined : overlay);
  }
}
