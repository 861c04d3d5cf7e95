import type { SqlColumn } from '@sc/contracts';
import { isColor } from '../context/colors';
import type { DataField } from '../context/context-types';
import type { OverlaidGroup, OverlaidNode } from '../overlay';
import type { ChangeStatus, CanvasNode, DataRow, ModelInput, NodeBody, NodeKind, NodeLook } from './canvas-types';
import { mermaidShape, shapeSize, type DrawnShape } from './shapes';
import { linesWidth, textWidth, wrapWords, type Font } from './text-size';

/**
 * How a node and a group frame look and the room they need: kind, text, Mermaid styles reduced to checked values,
 * sizes from libs/diagram's width table. The label helpers (plainLabel, colour, mermaidLook) serve edges too.
 */

const TITLE: Font = { size: 14, weight: 500 };
const BODY: Font = { size: 13 };
export const SMALL: Font = { size: 12 };
/** What a `db-table` node says under its name when the synced schema has no such table. */
export const TABLE_NOT_FOUND = 'Table not found in the synced schema.';
const CODE: Font = { size: 12, mono: true };
const LINE = 18;
export const SMALL_LINE = 16;
const MAX_LABEL = 220;

/** Plain text of a Mermaid label: `<br>` is a line break, other markup is dropped. */
export function plainLabel(label: string): string {
  return label
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .trim();
}

export const colour = (value: string | undefined): string | undefined => (value !== undefined && isColor(value.trim()) ? value.trim() : undefined);

/** `fill:#f96`, `stroke-width:4px`… from Mermaid classDef/style lines, reduced to checked values. */
export function mermaidLook(styles: readonly string[] | undefined): NodeLook {
  const look: NodeLook = {};
  for (const declaration of styles ?? []) {
    const [property, ...rest] = declaration.split(':');
    const value = rest.join(':').replace(/!important/g, '').trim();
    switch (property?.trim().toLowerCase()) {
      case 'fill':
      case 'background':
      case 'background-color':
        look.fill = colour(value) ?? look.fill;
        break;
      case 'stroke':
      case 'border-color':
        look.stroke = colour(value) ?? look.stroke;
        break;
      case 'color':
        look.color = colour(value) ?? look.color;
        break;
      case 'stroke-width': {
        const width = parseFloat(value);
        if (Number.isFinite(width) && width >= 0 && width <= 20) look.strokeWidth = width;
        break;
      }
      case 'stroke-dasharray':
        look.dash = /^0*\s*$/.test(value) ? 'solid' : 'dashed';
        break;
    }
  }
  return look;
}

/** An image source the browser may load: https or an inline data URL of an image. Nothing else, never http. */
export function safeImageSource(src: string | undefined): string | null {
  if (!src) return null;
  const trimmed = src.trim();
  if (/^data:image\/(png|gif|jpe?g|webp|svg\+xml|avif);/i.test(trimmed)) return trimmed;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function fieldText(field: DataField): string {
  const value = field.value;
  if (Array.isArray(value)) return value.join(', ');
  if (value === undefined) return '';
  return String(value);
}

/**
 * The line under a C4 element's name, as C4 writes it (`[external container db: Java, Docker]`): measured here, drawn
 * by the canvas and in images, so what is measured is what is drawn.
 */
export function c4TypeLine(c4: Pick<NonNullable<NodeBody['c4']>, 'type' | 'external' | 'technology'> | undefined): string {
  return `[${c4?.external ? 'external ' : ''}${c4?.type.replace(/_/g, ' ') ?? 'element'}${c4?.technology ? `: ${c4.technology}` : ''}]`;
}

function c4Parts(node: OverlaidNode): NodeBody['c4'] | undefined {
  const type = node.shape ?? 'system';
  const external = type.includes('_ext') || type.startsWith('external');
  return { type: type.replace(/^external_/, '').replace(/_ext$/, ''), external, description: [], ...(node.technology ? { technology: node.technology } : {}) };
}

/** The node as the canvas draws it: kind, text, look and the size it needs. */
export function canvasNode(node: OverlaidNode, graphKind: string, input: ModelInput, status?: ChangeStatus): CanvasNode {
  const overlay = node.overlay;
  const kind: NodeKind = overlay?.type ?? (graphKind === 'c4' ? 'c4' : 'mermaid');
  const title = plainLabel(overlay?.name ?? node.label) || node.id;
  const style = overlay?.style;
  const look: NodeLook = {
    ...mermaidLook(node.styles),
    ...(colour(style?.fill) ? { fill: colour(style?.fill) } : {}),
    ...(colour(style?.stroke) ? { stroke: colour(style?.stroke) } : {}),
    ...(style?.strokeWidth !== undefined ? { strokeWidth: Math.min(Math.max(style.strokeWidth, 0), 20) } : {}),
    ...(style?.strokeStyle ? { dash: style.strokeStyle } : {}),
    ...(style?.borderRadius !== undefined ? { radius: Math.min(Math.max(style.borderRadius, 0), 80) } : {}),
    ...(style?.borderAnimationEnabled ? { animated: true } : {}),
  };
  const fields = Object.entries(overlay?.data ?? {})
    .map(([label, field]) => ({ label, value: fieldText(field) }))
    .filter((row) => row.value !== '')
    .slice(0, 3);
  const shape: DrawnShape = kind === 'shape' ? (overlay?.shape ?? 'rectangle') : mermaidShape(graphKind, node.shape);
  const result: CanvasNode = {
    id: node.id,
    kind,
    title,
    titleLines: wrapWords(title, MAX_LABEL, TITLE),
    shape,
    width: 0,
    height: 0,
    ...(node.parent ? { parent: node.parent } : {}),
    look,
    fields,
    body: {},
    source: node,
    ...(status ? { status } : {}),
  };
  size(result, overlay, input);
  return result;
}

/** Height of the data rows under a node, and the width they need. */
function fieldsBox(fields: readonly DataRow[]): { width: number; height: number } {
  if (fields.length === 0) return { width: 0, height: 0 };
  const width = Math.max(...fields.map((row) => textWidth(`${row.label}: `, { ...SMALL, weight: 500 }) + textWidth(row.value, SMALL)));
  return { width: Math.min(Math.ceil(width) + 24, 320), height: fields.length * SMALL_LINE + 10 };
}

/**
 * Height of the data rows drawn under a shape's outline, outside it (0 for every other kind of node, whose rows are
 * inside its box): edges end on the outline above them, not on the rows, which have no border.
 */
export function rowsUnderOutline(node: Pick<CanvasNode, 'kind' | 'fields'>): number {
  return node.kind === 'mermaid' || node.kind === 'shape' ? dataRowsHeight(node.fields) : 0;
}

/** Height of a node's data rows (none: 0). */
export function dataRowsHeight(fields: readonly DataRow[]): number {
  return fieldsBox(fields).height;
}

const titleBox = (node: CanvasNode) => ({ width: linesWidth(node.titleLines, TITLE), height: node.titleLines.length * LINE });

/** Sets the node's size (and the measured parts of its body) for its kind. */
function size(node: CanvasNode, overlay: OverlaidNode['overlay'], input: ModelInput): void {
  const title = titleBox(node);
  const fields = fieldsBox(node.fields);
  const card = (contentWidth: number, contentHeight: number) => {
    // Title bar: one line (icon 18, gap 6 and padding 2 × 10 beside the text). Height: the card's border (2 × 1), the
    // title bar (34) and the body's padding (2 × 5) around its content, as the card is drawn (canvas-node.component.scss).
    node.width = Math.ceil(Math.max(textWidth(node.title, TITLE) + 50, contentWidth + 24, fields.width, 120));
    node.height = Math.ceil(2 + 34 + contentHeight + fields.height + (contentHeight > 0 ? 10 : 0));
  };
  switch (node.kind) {
    case 'mermaid':
    case 'shape': {
      const box = shapeSize(node.shape, title.width, title.height);
      node.width = Math.max(box.width, fields.width);
      node.height = box.height + fields.height;
      return;
    }
    case 'c4': {
      const source = node.source;
      const c4 = source ? c4Parts(source) : undefined;
      const description = source?.description ? wrapWords(plainLabel(source.description), MAX_LABEL, BODY) : [];
      node.body.c4 = c4 ? { ...c4, description } : undefined;
      const width = Math.max(title.width, linesWidth(description, BODY), textWidth(c4TypeLine(c4), SMALL)) + 32;
      node.width = Math.ceil(Math.max(width, 160));
      node.height = Math.ceil(title.height + SMALL_LINE + description.length * LINE + 28 + (c4?.type === 'person' ? 22 : 0) + fields.height);
      return;
    }
    case 'text': {
      const lines = wrapWords(overlay?.value ?? '', 320, { size: 18, weight: 500 });
      node.body.lines = lines;
      node.width = Math.ceil(Math.max(linesWidth(lines, { size: 18, weight: 500 }) + 16, title.width, 80, fields.width));
      node.height = Math.ceil(lines.length * 24 + SMALL_LINE + 12 + fields.height);
      return;
    }
    case 'code': {
      const code = overlay?.value ?? '';
      const lines = code.split(/\r?\n/);
      node.body.code = code;
      card(Math.min(linesWidth(lines, CODE) + 16, 560), lines.length * SMALL_LINE + 12);
      return;
    }
    case 'table': {
      const columns = overlay?.table?.columns ?? [];
      const rows = overlay?.table?.rows ?? [];
      const count = Math.max(columns.length, ...rows.map((row) => row.length));
      const widths = Array.from({ length: count }, (_, i) =>
        Math.ceil(Math.max(textWidth(columns[i] ?? '', { ...SMALL, weight: 500 }), ...rows.map((row) => textWidth(row[i] ?? '', SMALL))) + 17),
      );
      node.body.table = { columns, rows, widths };
      card(widths.reduce((sum, w) => sum + w, 0), (rows.length + 1) * 24);
      return;
    }
    case 'comment': {
      // The note's text is its name; the title line is not repeated.
      node.body.lines = node.titleLines;
      node.width = Math.ceil(Math.max(title.width + 36, 120, fields.width));
      node.height = Math.ceil(title.height + 24 + fields.height);
      return;
    }
    case 'cloud': {
      const provider = overlay?.cloud ?? '';
      const service = overlay?.service ?? '';
      node.body.cloud = { provider, service };
      card(textWidth(provider, { ...BODY, weight: 500 }) + textWidth(service, BODY) + 48, 26);
      return;
    }
    case 'image': {
      node.body.imageSrc = safeImageSource(overlay?.src);
      card(160, 100);
      return;
    }
    case 'gif': {
      node.body.imageSrc = safeImageSource(overlay?.src);
      if (overlay?.animatedIcon) node.body.animatedIcon = overlay.animatedIcon;
      card(Math.max(96, textWidth(overlay?.animatedIcon ?? '', SMALL) + 16), 72);
      return;
    }
    case 'component': {
      node.body.componentId = overlay?.componentId ?? '';
      card(textWidth(node.body.componentId, CODE) + 44, 24);
      return;
    }
    case 'data-source':
    case 'db-table': {
      const config = overlay?.dbConfig;
      const database = config ? input.databases.get(config.databaseName) : undefined;
      const table = config?.tableName ?? '';
      const columns = database && table ? (database.tables.find((t) => t.name === table || t.name.endsWith(`.${table}`))?.columns ?? null) : null;
      const tables = database ? [...database.tables.map((t) => t.name), ...database.collections] : [];
      node.body.database = { name: config?.databaseName ?? '', table, columns, tables };
      // Under the name: the table's columns, the note that the table is missing, or the database's tables.
      const missing = Boolean(table) && !columns;
      const listed = columns ? columns.slice(0, 12) : missing ? [] : tables.slice(0, 8);
      const rowWidth = columns
        ? Math.max(0, ...listed.map((c) => textWidth((c as SqlColumn).name, SMALL) + textWidth((c as SqlColumn).type, CODE) + 48))
        : missing
          ? textWidth(TABLE_NOT_FOUND, SMALL)
          : Math.max(0, ...listed.map((name) => textWidth(name as string, SMALL) + 24));
      const more = columns ? columns.length > 12 : !missing && tables.length > 8;
      const rows = listed.length + (more || missing ? 1 : 0) + 1;
      card(Math.max(rowWidth, textWidth(`${config?.databaseName ?? ''}${table ? `.${table}` : ''}`, SMALL) + 40), rows * 20);
      return;
    }
    case 'start':
    case 'end':
      node.width = 28;
      node.height = 28;
      return;
  }
}

/** Fonts of a group frame's header row (.group-title, .group-type, .group-toggle in the canvas's stylesheet). */
export const GROUP_TITLE_FONT: Font = { size: 13, weight: 600 };
const GROUP_TYPE_FONT: Font = { size: 12 };
const GROUP_BUTTON_FONT: Font = { size: 12 };
/** A name up to this wide is always shown in full, whatever the members' widths. */
export const GROUP_NAME_ROOM = 320;
/** The header row's padding (12 left, 8 right) and the gaps between its parts (8). */
const HEADER_PADDING_LEFT = 12;
const HEADER_PADDING_RIGHT = 8;
const HEADER_GAP = 8;
/** The button's padding (2 × 10) and border (2 × 1), around the wider of its two texts so a toggle never narrows it. */
const BUTTON_WIDTH = Math.ceil(Math.max(textWidth('Hide details', GROUP_BUTTON_FONT), textWidth('Show details', GROUP_BUTTON_FONT)) + 22);
const COLLAPSED_HEIGHT = 44;

/**
 * A group frame's title, C4 type label and least width: its header row holds the name, the type and the Hide/Show
 * details button side by side, so the button never covers the name. The name is cut (with an ellipsis, the full name
 * in its tooltip) only when it is wider than GROUP_NAME_ROOM and than the widest member (`widestMember`, 0 for a
 * collapsed group): a long name does not stretch a frame far beyond what it holds.
 */
export function groupBox(
  group: OverlaidGroup,
  graphKind: string,
  collapsed: boolean,
  widestMember = 0,
): { width: number; height: number; title: string; typeLabel?: string; header: { left: number; right: number } } {
  const title = plainLabel(group.overlay?.name ?? group.label) || group.id;
  const typeLabel = graphKind === 'c4' && group.type ? `[${group.type}]` : undefined;
  const name = Math.min(textWidth(title, GROUP_TITLE_FONT), Math.max(GROUP_NAME_ROOM, widestMember));
  const header = { left: Math.ceil(HEADER_PADDING_LEFT + name + typeWidth(typeLabel)), right: HEADER_PADDING_RIGHT + BUTTON_WIDTH };
  return { title, ...(typeLabel ? { typeLabel } : {}), width: Math.ceil(name + groupHeaderExtra(typeLabel)), height: collapsed ? COLLAPSED_HEIGHT : 0, header };
}

/** The type label's width in the header row with the gap before it; 0 without one. */
function typeWidth(typeLabel: string | undefined): number {
  return typeLabel ? HEADER_GAP + textWidth(typeLabel, GROUP_TYPE_FONT) : 0;
}

/** The header row's width besides the name: padding, the type label, the button and the gaps between them. */
export function groupHeaderExtra(typeLabel: string | undefined): number {
  return HEADER_PADDING_LEFT + HEADER_PADDING_RIGHT + typeWidth(typeLabel) + HEADER_GAP + BUTTON_WIDTH;
}
