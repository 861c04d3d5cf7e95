import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import type { DiagramView, OverlaidGroup } from '@sc/diagram';
import { plural } from '../../shared/plural';

export interface GroupTreeItem {
  id: string;
  label: string;
  collapsed: boolean;
  /** Direct members that are nodes (nested groups are listed as children). */
  nodeCount: number;
  /** Label of the outermost collapsed group this one is inside; it cannot be toggled until that one is expanded. */
  hiddenBy: string | null;
  children: GroupTreeItem[];
}

/**
 * The diagram's groups as the tree they form (nested groups under their parent, each level sorted by name), each
 * with its collapse/expand toggle. A group inside a collapsed group cannot be toggled, and says why.
 */
@Component({
  selector: 'sc-group-list',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [NgTemplateOutlet, MatButtonModule, MatIconModule],
  template: `
    <ng-template #level let-items>
      <ul class="group-tree">
        @for (group of items; track group.id) {
          <li [attr.data-group-item]="group.id">
            <div class="group-row">
              <span class="group-name" [class.muted]="group.hiddenBy !== null">
                {{ group.label }}
                <span class="muted small">{{ describe(group) }}</span>
                @if (group.hiddenBy !== null) {
                  <span class="muted small hidden-note" [id]="'group-hidden-' + group.id">Inside collapsed “{{ group.hiddenBy }}”: expand it first.</span>
                }
              </span>
              <button
                mat-stroked-button
                type="button"
                (click)="groupToggle.emit(group.id)"
                [disabled]="group.hiddenBy !== null"
                [attr.aria-pressed]="group.collapsed"
                [attr.aria-label]="(group.collapsed ? 'Expand ' : 'Collapse ') + group.label"
                [attr.aria-describedby]="group.hiddenBy !== null ? 'group-hidden-' + group.id : null"
                [attr.data-testid]="'toggle-' + group.id"
              >
                <mat-icon [svgIcon]="group.collapsed ? 'unfold_more' : 'unfold_less'" aria-hidden="true" />
                {{ group.collapsed ? 'Expand' : 'Collapse' }}
              </button>
            </div>
            @if (group.children.length > 0) {
              <ng-container [ngTemplateOutlet]="level" [ngTemplateOutletContext]="{ $implicit: group.children }" />
            }
          </li>
        }
      </ul>
    </ng-template>
    <ng-container [ngTemplateOutlet]="level" [ngTemplateOutletContext]="{ $implicit: tree() }" />
  `,
  styles: `
    .group-tree {
      list-style: none;
      margin: 0;
      padding: 0;

      .group-tree {
        padding-left: 16px;
        border-left: 2px solid var(--mat-sys-outline-variant);
        margin-left: 4px;
      }
    }

    .group-row {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      padding: 6px 0;
      border-top: 1px solid var(--mat-sys-outline-variant);
    }

    .group-name {
      overflow-wrap: anywhere;
    }

    .small {
      font-size: 12px;
    }

    .hidden-note {
      display: block;
    }
  `,
})
export class GroupListComponent {
  readonly view = input.required<DiagramView>();
  /** The id of the group to collapse or expand. */
  readonly groupToggle = output<string>();

  readonly tree = computed(() => groupTree(this.view()));

  describe(group: GroupTreeItem): string {
    const parts = [group.nodeCount > 0 ? plural(group.nodeCount, 'node') : '', group.children.length > 0 ? plural(group.children.length, 'group') : ''];
    return parts.filter(Boolean).join(', ');
  }
}

/** One collator for every sort: `localeCompare` with options builds a new one per comparison (over 100 ms per tree of 20 groups). */
const byLabel = new Intl.Collator(undefined, { numeric: true });

/** The groups of the view as a tree; a group whose parent is unknown is a root. Each level is sorted by label. */
export function groupTree(view: DiagramView): GroupTreeItem[] {
  const groups = view.graph.groups;
  const byId = new Map(groups.map((group) => [group.id, group]));
  const collapsed = new Set(view.collapsed);
  const groupIds = new Set(byId.keys());
  const childrenOf = new Map<string | undefined, OverlaidGroup[]>();
  for (const group of groups) {
    const parent = group.parent !== undefined && byId.has(group.parent) ? group.parent : undefined;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), group]);
  }
  const labelOf = (group: OverlaidGroup) => group.label || group.id;
  const build = (parent: string | undefined, hiddenBy: string | null, path: Set<string>): GroupTreeItem[] =>
    [...(childrenOf.get(parent) ?? [])]
      // A malformed graph with a parent cycle must not recurse forever.
      .filter((group) => !path.has(group.id))
      .sort((a, b) => byLabel.compare(labelOf(a), labelOf(b)) || a.id.localeCompare(b.id))
      .map((group) => {
        const isCollapsed = collapsed.has(group.id);
        return {
          id: group.id,
          label: labelOf(group),
          collapsed: isCollapsed,
          nodeCount: group.nodes.filter((member) => !groupIds.has(member)).length,
          hiddenBy,
          children: build(group.id, hiddenBy ?? (isCollapsed ? labelOf(group) : null), new Set([...path, group.id])),
        };
      });
  return build(undefined, null, new Set());
}
