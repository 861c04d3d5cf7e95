import type { DataRow } from '@sc/diagram';
import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/** The first data fields of a node, shown on it as `label: value` lines (all of them are in the details panel). */
@Component({
  selector: 'sc-node-fields',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (fields().length) {
      <dl class="fields">
        @for (row of fields(); track row.label) {
          <div><dt>{{ row.label }}</dt><dd>{{ row.value }}</dd></div>
        }
      </dl>
    }
  `,
})
export class NodeFieldsComponent {
  readonly fields = input.required<readonly DataRow[]>();
}
