import { ChangeDetectionStrategy, Component, computed, inject, input, output } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { isColor, type CanvasEdge, type CanvasNode, type DataField } from '@sc/diagram';
import { SessionService } from '../../core/session.service';
import { WhereUsedComponent } from '../search/where-used.component';
import { CodeBlockComponent } from './nodes/code-block.component';

export type SelectedElement = { kind: 'node'; node: CanvasNode } | { kind: 'edge'; edge: CanvasEdge };

/** A data field as the panel shows it, by its input type. */
export type FieldView =
  | { label: string; as: 'chips'; items: string[] }
  | { label: string; as: 'link'; href: string; text: string }
  | { label: string; as: 'date'; iso: string; text: string }
  | { label: string; as: 'boolean'; value: boolean }
  | { label: string; as: 'colour'; value: string }
  | { label: string; as: 'pairs'; pairs: { key: string; value: string }[] }
  | { label: string; as: 'code'; text: string }
  | { label: string; as: 'text'; text: string; options?: string[] };

/** http(s) and mailto links only: a `javascript:` or `data:` value is shown as text. */
export function safeLink(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return ['https:', 'http:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function formatDate(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', ...(value.length === 10 ? { timeZone: 'UTC' } : {}) });
}

const list = (value: DataField['value']): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : String(value).split(/\s*,\s*/).filter(Boolean);

/** How each input type of the spec is shown. */
export function fieldView(label: string, field: DataField): FieldView {
  const text = Array.isArray(field.value) ? field.value.join(', ') : field.value === undefined ? '' : String(field.value);
  switch (field.type) {
    case 'Tag Input':
    case 'Multi Select':
    case 'Checkbox Group':
      return { label, as: 'chips', items: list(field.value) };
    case 'URL Input':
    case 'Link or File Upload':
    case 'File Upload': {
      const href = safeLink(text);
      return href ? { label, as: 'link', href, text } : { label, as: 'text', text };
    }
    case 'Date Picker': {
      const formatted = formatDate(text);
      return formatted ? { label, as: 'date', iso: text, text: formatted } : { label, as: 'text', text };
    }
    case 'Date Range Picker': {
      const [from, to] = Array.isArray(field.value) ? field.value.map(String) : text.split(/\s*(?:\/|–|—|\bto\b)\s*/);
      const range = [from, to].filter(Boolean).map((part) => formatDate(part) ?? part);
      return { label, as: 'text', text: range.join(' – ') };
    }
    case 'Boolean Toggle':
      return { label, as: 'boolean', value: text === 'true' || text === 'yes' || text === '1' };
    case 'Color Picker':
      return isColor(text.trim()) ? { label, as: 'colour', value: text.trim() } : { label, as: 'text', text };
    case 'Key-Value List': {
      const entries = Array.isArray(field.value) ? field.value.map(String) : text.split(/\r?\n|;\s*/);
      const pairs = entries
        .filter((entry) => entry.trim())
        .map((entry) => {
          const match = /^\s*([^:=]+?)\s*[:=]\s*(.*)$/.exec(entry);
          return match ? { key: match[1], value: match[2] } : { key: entry.trim(), value: '' };
        });
      return { label, as: 'pairs', pairs };
    }
    case 'Code Editor':
      return { label, as: 'code', text };
    case 'Dropdown':
    case 'Search Select':
      return { label, as: 'text', text, ...(field.options?.length ? { options: field.options.map(String) } : {}) };
    default:
      return { label, as: 'text', text };
  }
}

/** What was clicked: a node (id, name, type, its content and every data field) or an edge. */
@Component({
  selector: 'sc-details-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatIconModule, RouterLink, CodeBlockComponent, WhereUsedComponent],
  host: { role: 'complementary', '[attr.aria-label]': 'heading()', 'data-testid': 'details-panel' },
  templateUrl: './details-panel.component.html',
  styleUrl: './details-panel.component.scss',
})
export class DetailsPanelComponent {
  readonly selection = input.required<SelectedElement>();
  readonly serviceLink = input('');
  readonly revision = input<number>();
  readonly labelOf = input<(id: string) => string>((id) => id);
  readonly closed = output<void>();
  /** The session's organization: "Where is this used" lists its diagrams binding a db-table node's table. */
  readonly orgId = inject(SessionService).organizationId;

  readonly node = computed(() => {
    const selected = this.selection();
    return selected.kind === 'node' ? selected.node : null;
  });
  readonly edge = computed(() => {
    const selected = this.selection();
    return selected.kind === 'edge' ? selected.edge : null;
  });
  readonly heading = computed(() => {
    const node = this.node();
    if (node) return node.title;
    const edge = this.edge();
    return edge ? `${this.labelOf()(edge.source)} → ${this.labelOf()(edge.target)}` : '';
  });
  readonly fields = computed(() => Object.entries(this.node()?.source?.overlay?.data ?? {}).map(([label, field]) => fieldView(label, field)));
  readonly typeName = computed(() => {
    const node = this.node();
    if (!node) return '';
    if (node.kind === 'mermaid') return `Mermaid node${node.source?.shape ? ` (${node.source.shape})` : ''}`;
    if (node.kind === 'c4') return `C4 ${node.body.c4?.external ? 'external ' : ''}${node.body.c4?.type.replace(/_/g, ' ') ?? 'element'}`;
    if (node.kind === 'start' || node.kind === 'end') return `State diagram ${node.kind} mark`;
    return node.kind;
  });
  readonly databaseLink = computed(() => `${this.serviceLink()}/databases/${encodeURIComponent(this.node()?.body.database?.name ?? '')}`);
  readonly imageLink = computed(() => {
    const src = this.node()?.source?.overlay?.src;
    return src ? safeLink(src) : null;
  });
}
