import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import type { OverlaidGraph, OverlaidGroup } from '@sc/diagram';
import { elementIdProblem, groupProblems } from './element-checks';

/**
 * Properties of one group (a Mermaid subgraph): its id, validated live like a node id (Mermaid can write it, no other
 * node or group has it), and its label. Emits the whole new group with the id it had; renaming is the editor's to
 * propagate (members' parent, edges to the group). Test hooks: `group-id`, `group-id-error`, `group-label`,
 * `group-problems`.
 */
@Component({
  selector: 'sc-group-properties',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatFormFieldModule, MatInputModule],
  template: `
    <h3 class="heading">Group</h3>
    <mat-form-field appearance="outline" subscriptSizing="dynamic">
      <mat-label>Id</mat-label>
      <input matInput class="mono" [value]="idText()" (input)="setId($any($event.target).value)" data-testid="group-id" spellcheck="false" autocomplete="off" />
      @if (idProblem(); as problem) {
        <mat-hint class="error-text" data-testid="group-id-error">{{ problem }}</mat-hint>
      } @else {
        <mat-hint>The Mermaid subgraph id.</mat-hint>
      }
    </mat-form-field>
    <mat-form-field appearance="outline" subscriptSizing="dynamic">
      <mat-label>Label</mat-label>
      <input matInput [value]="group().label" (change)="setLabel($any($event.target).value)" data-testid="group-label" />
    </mat-form-field>
    @if (refused().length > 0) {
      <div class="problems" role="alert" data-testid="group-problems">
        <p>Not applied:</p>
        <ul>
          @for (problem of refused(); track $index) {
            <li>{{ problem }}</li>
          }
        </ul>
      </div>
    }
  `,
  styleUrl: './properties.scss',
  host: { class: 'sc-properties', 'data-testid': 'group-properties' },
})
export class GroupPropertiesComponent {
  readonly group = input.required<OverlaidGroup>();
  readonly graph = input.required<OverlaidGraph>();
  readonly groupChange = output<{ previousId: string; group: OverlaidGroup }>();

  readonly idText = linkedSignal(() => this.group().id);
  readonly idProblem = computed(() => elementIdProblem(this.graph(), this.idText(), this.group().id));
  readonly refused = linkedSignal<OverlaidGroup, string[]>({ source: this.group, computation: () => [] });

  setId(text: string): void {
    this.idText.set(text);
    if (this.idProblem() !== undefined || text === this.group().id) return;
    this.emit({ ...this.group(), id: text });
  }

  setLabel(text: string): void {
    this.emit({ ...this.group(), label: text });
  }

  private emit(group: OverlaidGroup): void {
    const problems = groupProblems(group);
    if (problems.length > 0) {
      this.refused.set(problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)));
      return;
    }
    this.refused.set([]);
    this.groupChange.emit({ previousId: this.group().id, group });
  }
}
