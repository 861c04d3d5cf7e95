import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { OverlaidGraph, OverlaidGroup } from '@sc/diagram';
import { GROUP_RULES, elementEdits } from './element-checks';
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
    <sc-element-id-field testId="group-id" [element]="current()" [graph]="graph()" hint="The Mermaid subgraph id." (renamed)="setId($event)" />
    <sc-text-field label="Label" testId="group-label" [value]="current().label" (changed)="setLabel($event)" />
    <sc-text-field label="Name" testId="group-name" [value]="current().overlay?.name ?? ''" hint="Display name in the context file." (changed)="setName($event)" />
    <sc-refused-edits testId="group-problems" [problems]="refused()" />
  `,
  styleUrls: ['./fields.scss', './properties.scss'],
  host: { class: 'sc-properties', 'data-testid': 'group-properties' },
})
export class GroupPropertiesComponent {
  readonly group = input.required<OverlaidGroup>();
  readonly graph = input.required<OverlaidGraph>();
  readonly groupChange = output<{ previousId: string; group: OverlaidGroup }>();
  private readonly edits = elementEdits(this.group, this.graph, GROUP_RULES);
  readonly current = this.edits.current;
  readonly refused = this.edits.refused;

  /** A rename the id field checked; the editor propagates it to the element's references. */
  setId(id: string): void {
    this.emit({ ...this.current(), id });
  }

  setLabel(text: string): void {
    this.emit({ ...this.current(), label: text });
  }

  /** `overlay.name`; an overlay left empty is dropped (a context-only group keeps its member list there). */
  setName(text: string): void {
    const { overlay, ...rest } = this.current();
    const name = text.trim();
    const { name: _name, ...others } = overlay ?? {};
    const next = name === '' ? others : { ...others, name };
    this.emit(Object.keys(next).length === 0 ? rest : { ...rest, overlay: next });
  }

  private emit(group: OverlaidGroup): void {
    const previous = this.edits.apply(group);
    if (previous) this.groupChange.emit({ previousId: previous.id, group });
  }
}
