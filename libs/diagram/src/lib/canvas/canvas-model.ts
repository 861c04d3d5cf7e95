import type { SqlColumn } from '@sc/contracts';
import { isColor } from '../context/colors';
import type { DataField, NodeType } from '../context/context-types';
import type { OverlaidEdge, OverlaidGroup, OverlaidNode } from '../overlay';
import type { DiagramView, VisibleEdge } from '../view';
import type { LayoutDirection, LayoutInput } from './layout';
import { mermaidShape, shapeSize, textOffset, type DrawnShape } from './shapes';
import { linesWidth, textWidth, wrapWords, type Font } from './text-size';

/**
 * What the canvas draws, derived from the diagram's visible graph (after collapses), the databases synced with
 * it and the changes being highlighted: one entry per node, group and edge with its kind, text, colours, markers
 * and size. Sizes come from measuring the text, so the layout leaves room for every label without breaking words.
 */

export type NodeKind = NodeType | 'mermaid' | 'c4' | 'start' | 'end';
export type ChangeStatus = 'added' | 'changed' | 'removed';
export type StrokeDash = 'solid' | 'dashed' | 'dotted';

export interface NodeLook {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  dash?: StrokeDash;
  radius?: number;
  animated?: boolean;
  color?: string;
}

export interface DataRow {
  label: string;
  value: string;
}

export interface TableColumns {
  /** Null when the database or table is not in the synced schema. */
  columns: SqlColumn[] | null;
  /** Table names, for a data source (no table). */
  tables: string[];
}

export interface CanvasNode {
  id: string;
  kind: NodeKind;
  title: string;
  titleLines: string[];
  shape: DrawnShape;
  width: number;
  height: number;
  parent?: string;
  look: NodeLook;
  /** Up to three data fields, shown on the node; all of them are in the details panel. */
  fields: DataRow[];
  /** Kind-specific content: text/code value, table, cloud, image, component, database columns, C4 parts. */
  body: NodeBody;
  source?: OverlaidNode;
  status?: ChangeStatus;
}

export interface NodeBody {
  lines?: string[];
  code?: string;
  table?: { columns: string[]; rows: string[][]; widths: number[] };
  cloud?: { provider: string; service: string };
  imageSrc?: string | null;
  animatedIcon?: string;
  componentId?: string;
  database?: { name: string; table: string; columns: SqlColumn[] | null; tables: string[] };
  c4?: { type: string; external: boolean; description: string[]; technology?: string };
}

export interface CanvasGroup {
  id: string;
  title: string;
  /** C4 boundaries: the type as Mermaid draws it beside the name, e.g. `[SYSTEM]`. */
  typeLabel?: string;
  parent?: string;
  collapsed: boolean;
  /**
   * The least width of the frame: its header row (name, type, Hide/Show details button) in full, the name cut with an
   * ellipsis only when it is wider than both GROUP_NAME_ROOM and the widest member (see groupBox). A collapsed group is
   * a box of this size; an expanded one is laid out at least this wide.
   */
  width: number;
  height: number;
  depth: number;
  source?: OverlaidGroup;
  status?: ChangeStatus;
}

export type MarkerType = 'arrow' | 'arrow-open' | 'circle' | 'cross' | 'diamond';

export interface MarkerSpec {
  type: MarkerType;
  color: string;
}

export interface CanvasEdge {
  /** `source->target#n` for edges as written (the diff API's key); `*` prefixes a merged edge of a collapse. */
  key: string;
  source: string;
  target: string;
  label?: string;
  labelLines: string[];
  labelWidth: number;
  labelHeight: number;
  color: string;
  width: number;
  dash: StrokeDash;
  animated: boolean;
  invisible: boolean;
  markerStart?: MarkerSpec;
  markerEnd?: MarkerSpec;
  edge?: VisibleEdge;
  status?: ChangeStatus;
}

export interface CanvasModel {
  kind: string;
  direction: LayoutDirection;
  nodes: CanvasNode[];
  groups: CanvasGroup[];
  edges: CanvasEdge[];
}

/** Which elements of the shown graph changed, and the removed ones to draw as ghosts. */
export interface Highlights {
  nodes: ReadonlyMap<string, ChangeStatus>;
  groups: ReadonlyMap<string, ChangeStatus>;
  /** By edge key (`source->target#n`). */
  edges: ReadonlyMap<string, ChangeStatus>;
  removedNodes: OverlaidNode[];
  removedGroups: OverlaidGroup[];
  removedEdges: OverlaidEdge[];
}

export interface ModelInput {
  view: DiagramView;
  /** Synced databases of the same revision, by name. */
  databases: ReadonlyMap<string, { tables: { name: string; columns: SqlColumn[] }[]; collections: string[] }>;
  highlights?: Highlights | null;
}

const TITLE: Font = { size: 14, weight: 500 };
const BODY: Font = { size: 13 };
const SMALL: Font = { size: 12 };
const CODE: Font = { size: 12, mono: true };
const LINE = 18;
const SMALL_LINE = 16;
const MAX_LABEL = 220;
export const DEFAULT_EDGE_COLOUR = '#5f6b7a';

/** Plain text of a Mermaid label: `<br>` is a line break, other markup is dropped. */
export function plainLabel(label: string): string {
  return label
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .trim();
}

const colour = (value: string | undefined): string | undefined => (value !== undefined && isColor(value.trim()) ? value.trim() : undefined);

/** `fill:#f96`, `stroke-width:4px`… from Mermaid classDef/style lines, reduced to checked values. */
function mermaidLook(styles: readonly string[] | undefined): NodeLook {
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

const LAYOUT_DIRECTIONS: Record<string, LayoutDirection> = { LR: 'RIGHT', RL: 'LEFT', TB: 'DOWN', TD: 'DOWN', BT: 'UP' };

export function layoutDirection(view: DiagramView): LayoutDirection {
  return LAYOUT_DIRECTIONS[view.graph.direction?.toUpperCase() ?? ''] ?? (view.graph.kind === 'flowchart' ? 'DOWN' : 'DOWN');
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
      const offset = textOffset(node.shape, box.height);
      node.width = Math.max(box.width, fields.width);
      node.height = box.height + fields.height + (offset.top > 0 && node.shape !== 'or' && node.shape !== 'summing-junction' ? 0 : 0);
      return;
    }
    case 'c4': {
      const source = node.source;
      const c4 = source ? c4Parts(source) : undefined;
      const description = source?.description ? wrapWords(plainLabel(source.description), MAX_LABEL, BODY) : [];
      node.body.c4 = c4 ? { ...c4, description } : undefined;
      const typeLine = `[${c4?.type.replace(/_/g, ' ') ?? 'element'}${c4?.technology ? `: ${c4.technology}` : ''}]`;
      const width = Math.max(title.width, linesWidth(description, BODY), textWidth(typeLine, SMALL)) + 32;
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
      const listed = columns ? columns.slice(0, 12) : tables.slice(0, 8);
      const rowWidth = columns
        ? Math.max(0, ...listed.map((c) => textWidth((c as SqlColumn).name, SMALL) + textWidth((c as SqlColumn).type, CODE) + 48))
        : Math.max(0, ...listed.map((name) => textWidth(name as string, SMALL) + 24));
      const more = columns ? columns.length > 12 : tables.length > 8;
      const rows = listed.length + (more ? 1 : 0) + 1;
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
const HEADER_PADDING = 20;
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
export function groupBox(group: OverlaidGroup, graphKind: string, collapsed: boolean, widestMember = 0): { width: number; height: number; title: string; typeLabel?: string } {
  const title = plainLabel(group.overlay?.name ?? group.label) || group.id;
  const typeLabel = graphKind === 'c4' && group.type ? `[${group.type}]` : undefined;
  const name = Math.min(textWidth(title, GROUP_TITLE_FONT), Math.max(GROUP_NAME_ROOM, widestMember));
  return { title, ...(typeLabel ? { typeLabel } : {}), width: Math.ceil(name + groupHeaderExtra(typeLabel)), height: collapsed ? COLLAPSED_HEIGHT : 0 };
}

/** The header row's width besides the name: padding, the type label, the button and the gaps between them. */
export function groupHeaderExtra(typeLabel: string | undefined): number {
  return HEADER_PADDING + (typeLabel ? textWidth(typeLabel, GROUP_TYPE_FONT) + HEADER_GAP : 0) + HEADER_GAP + BUTTON_WIDTH;
}

/** Mermaid's own link types and strokes, and C4 relationships, as markers and dashes. */
function mermaidEdgeLook(edge: OverlaidEdge, graphKind: string): Pick<CanvasEdge, 'dash' | 'width' | 'invisible'> & { start?: MarkerType; end?: MarkerType } {
  const type = edge.type ?? '';
  const stroke = edge.stroke ?? 'normal';
  const dash: StrokeDash = stroke === 'dotted' ? 'dotted' : 'solid';
  const width = stroke === 'thick' ? 3.5 : 1.5;
  const invisible = stroke === 'invisible';
  if (graphKind === 'c4') {
    if (type === 'birel') return { dash: 'dashed', width, invisible, start: 'arrow', end: 'arrow' };
    if (type === 'rel_b') return { dash: 'dashed', width, invisible, start: 'arrow' };
    return { dash: 'dashed', width, invisible, end: 'arrow' };
  }
  if (graphKind !== 'flowchart') return { dash, width, invisible, end: 'arrow' };
  const marker = (suffix: string): MarkerType | undefined =>
    suffix === 'point' ? 'arrow' : suffix === 'circle' ? 'circle' : suffix === 'cross' ? 'cross' : undefined;
  const match = /^(double_)?arrow_(\w+)$/.exec(type);
  if (!match) return { dash, width, invisible, end: 'arrow' };
  const end = marker(match[2]);
  return { dash, width, invisible, ...(end ? { end } : {}), ...(match[1] && end ? { start: end } : {}) };
}

function markerType(type: string | undefined): MarkerType | undefined {
  const value = (type ?? '').toLowerCase().replace(/[_\s]/g, '-');
  if (value === '' || value === 'none') return undefined;
  if (value.includes('circle') || value === 'dot') return 'circle';
  if (value.includes('cross') || value === 'x') return 'cross';
  if (value.includes('diamond')) return 'diamond';
  if (value.includes('open')) return 'arrow-open';
  return 'arrow';
}

export function canvasEdge(edge: VisibleEdge | OverlaidEdge, key: string, graphKind: string, status?: ChangeStatus): CanvasEdge {
  const overlay = edge.overlay;
  const mermaid = mermaidEdgeLook(edge, graphKind);
  const mermaidStyle = mermaidLook(edge.styles);
  const color = colour(overlay?.style?.stroke) ?? mermaidStyle.stroke ?? DEFAULT_EDGE_COLOUR;
  const label = plainLabel(overlay?.label ?? edge.label ?? '') + (edge.technology ? `\n[${edge.technology}]` : '');
  const labelLines = label ? wrapWords(label, 180, SMALL) : [];
  const start = overlay?.markerStart ? markerType(overlay.markerStart.type) : mermaid.start;
  const end = overlay?.markerEnd ? markerType(overlay.markerEnd.type) : mermaid.end;
  return {
    key,
    source: edge.source,
    target: edge.target,
    ...(label ? { label } : {}),
    labelLines,
    labelWidth: labelLines.length ? linesWidth(labelLines, SMALL) + 10 : 0,
    labelHeight: labelLines.length ? labelLines.length * SMALL_LINE + 4 : 0,
    color,
    width: overlay?.style?.strokeWidth !== undefined ? Math.min(Math.max(overlay.style.strokeWidth, 0.5), 12) : (mermaidStyle.strokeWidth ?? mermaid.width),
    dash: overlay?.style?.strokeStyle ?? mermaidStyle.dash ?? mermaid.dash,
    animated: overlay?.style?.borderAnimationEnabled === true,
    invisible: mermaid.invisible && !overlay,
    ...(start ? { markerStart: { type: start, color: colour(overlay?.markerStart?.color) ?? color } } : {}),
    ...(end ? { markerEnd: { type: end, color: colour(overlay?.markerEnd?.color) ?? color } } : {}),
    ...('from' in edge ? { edge } : {}),
    ...(status ? { status } : {}),
  };
}

/** `source->target#n` keys of the full graph's edges, by index: the diff API's edge identity. */
export function edgeKeys(edges: readonly { source: string; target: string }[]): string[] {
  const seen = new Map<string, number>();
  return edges.map((edge) => {
    const pair = `${edge.source}->${edge.target}`;
    const n = seen.get(pair) ?? 0;
    seen.set(pair, n + 1);
    return `${pair}#${n}`;
  });
}

/**
 * Canvas nodes and edges already built for the same graph, databases and highlights, so that a collapse or expand
 * rebuilds only what changed: an unchanged element keeps its object, and the canvas (ngx-vflow, the node
 * components) sees no change for it. Nodes are found by the visible graph's node object (a collapse keeps those),
 * edges by everything that makes them (key, ends, the written edges they stand for, highlight).
 */
export class ModelReuse {
  readonly nodes = new WeakMap<OverlaidNode, { parent: string | undefined; status: ChangeStatus | undefined; node: CanvasNode }>();
  readonly edges = new Map<string, CanvasEdge>();
  /**
   * By the visible edge object: collapse shares the object of an edge it leaves alone between views, so most edges
   * are found here without building their identity string.
   */
  readonly visibleEdges = new WeakMap<VisibleEdge, CanvasEdge>();
  /** The graph's edge keys (edgeKeys), computed once. */
  keys: string[] | undefined;

  constructor(
    readonly graph: DiagramView['graph'],
    readonly databases: ModelInput['databases'],
    readonly highlights: Highlights | null | undefined,
  ) {}

  /** Whether this reuse was made for the same inputs (else a new one is needed). */
  fits(input: ModelInput): boolean {
    return this.graph === input.view.graph && this.databases === input.databases && this.highlights === input.highlights;
  }
}

export function buildModel(input: ModelInput, reuse?: ModelReuse): CanvasModel {
  const { view, highlights } = input;
  const reusable = reuse?.fits(input) ? reuse : undefined;
  const graphKind = view.graph.kind;
  const keys = reusable ? (reusable.keys ??= edgeKeys(view.graph.edges)) : edgeKeys(view.graph.edges);
  const depthOf = new Map<string, number>();
  const groupParent = new Map(view.graph.groups.map((g) => [g.id, g.parent]));
  const depth = (id: string | undefined): number => {
    if (id === undefined) return 0;
    const known = depthOf.get(id);
    if (known !== undefined) return known;
    const value = 1 + depth(groupParent.get(id));
    depthOf.set(id, value);
    return value;
  };

  // A group defined only by the context lists its members; they keep no `parent` of their own.
  const listedIn = new Map<string, string>();
  for (const group of view.visible.groups) for (const member of group.nodes) if (!listedIn.has(member)) listedIn.set(member, group.id);
  const parentOf = (element: { id: string; parent?: string }) => element.parent ?? listedIn.get(element.id);

  const nodes = view.visible.nodes.map((node) => {
    const parent = parentOf(node);
    const status = highlights?.nodes.get(node.id);
    const known = reusable?.nodes.get(node);
    if (known && known.parent === parent && known.status === status) return known.node;
    const built = canvasNode(parent && !node.parent ? { ...node, parent } : node, graphKind, input, status);
    reusable?.nodes.set(node, { parent, status, node: built });
    return built;
  });
  const groups = canvasGroups(view, nodes, parentOf, depth, highlights);
  const edges = view.visible.edges.map((edge) => {
    const same = reusable?.visibleEdges.get(edge);
    if (same) return same;
    // An edge standing for several (a collapse merged them) has no diff key of its own.
    const key = edge.from.length === 1 ? keys[edge.from[0]] : `*${edge.source}->${edge.target}`;
    const status = highlights?.edges.get(key);
    // An edge a collapse re-pointed or merged is a new visible edge; what it carries follows from these.
    const identity = `${key}\u0000${edge.source}\u0000${edge.target}\u0000${edge.from.join(',')}\u0000${status ?? ''}`;
    const built = reusable?.edges.get(identity) ?? canvasEdge(edge, key, graphKind, status);
    reusable?.edges.set(identity, built);
    reusable?.visibleEdges.set(edge, built);
    return built;
  });

  // State diagrams: the [*] start and end marks, one pair per scope, linked to the states they start or end.
  const marks = (list: typeof view.graph.start, kind: 'start' | 'end') => {
    const visibleIds = new Set([...nodes.map((n) => n.id), ...groups.map((g) => g.id)]);
    const created = new Set<string>();
    for (const mark of list ?? []) {
      if (!visibleIds.has(mark.state)) continue;
      const scope = mark.scope !== undefined && visibleIds.has(mark.scope) ? mark.scope : undefined;
      const id = `[*]${kind}${scope ? `:${scope}` : ''}`;
      if (!created.has(id)) {
        created.add(id);
        nodes.push({
          id,
          kind,
          title: kind === 'start' ? 'Start' : 'End',
          titleLines: [],
          shape: 'circle',
          width: 28,
          height: 28,
          ...(scope ? { parent: scope } : {}),
          look: {},
          fields: [],
          body: {},
        });
      }
      const edge: OverlaidEdge = kind === 'start' ? { source: id, target: mark.state } : { source: mark.state, target: id };
      edges.push(canvasEdge(mark.label ? { ...edge, label: mark.label } : edge, `${edge.source}->${edge.target}#mark`, graphKind));
    }
  };
  if (graphKind === 'state') {
    marks(view.graph.start, 'start');
    marks(view.graph.end, 'end');
  }

  if (highlights) addGhosts({ nodes, groups, edges }, highlights, graphKind, input);
  return { kind: graphKind, direction: layoutDirection(view), nodes, groups, edges };
}

/**
 * The visible groups as frames, innermost first for their sizes (an expanded group's widest member may be a nested
 * group), listed in the visible graph's order.
 */
function canvasGroups(
  view: DiagramView,
  nodes: readonly CanvasNode[],
  parentOf: (element: { id: string; parent?: string }) => string | undefined,
  depth: (id: string) => number,
  highlights: Highlights | null | undefined,
): CanvasGroup[] {
  const widest = new Map<string, number>();
  const widen = (parent: string | undefined, width: number) => {
    if (parent !== undefined && width > (widest.get(parent) ?? 0)) widest.set(parent, width);
  };
  for (const node of nodes) widen(node.parent, node.width);
  const built = new Map<string, CanvasGroup>();
  for (const group of [...view.visible.groups].sort((a, b) => depth(b.id) - depth(a.id))) {
    const { title, typeLabel, width, height } = groupBox(group, view.graph.kind, group.collapsed, group.collapsed ? 0 : (widest.get(group.id) ?? 0));
    const status = highlights?.groups.get(group.id);
    const parent = parentOf(group);
    widen(parent, width);
    built.set(group.id, {
      id: group.id,
      title,
      ...(typeLabel ? { typeLabel } : {}),
      ...(parent ? { parent } : {}),
      collapsed: group.collapsed,
      width,
      height,
      depth: depth(group.id),
      source: group,
      ...(status ? { status } : {}),
    });
  }
  return view.visible.groups.map((group) => built.get(group.id) as CanvasGroup);
}

/** Removed elements, drawn ghosted where their group still exists (else at the top level). */
function addGhosts(model: Pick<CanvasModel, 'nodes' | 'groups' | 'edges'>, highlights: Highlights, graphKind: string, input: ModelInput): void {
  const shownGroups = new Set(model.groups.filter((g) => !g.collapsed).map((g) => g.id));
  const inside = (parent: string | undefined) => (parent !== undefined && shownGroups.has(parent) ? { parent } : {});
  for (const group of highlights.removedGroups) {
    if (model.groups.some((g) => g.id === group.id)) continue;
    const { title, typeLabel, width, height } = groupBox(group, graphKind, true);
    model.groups.push({ id: group.id, title, ...(typeLabel ? { typeLabel } : {}), ...inside(group.parent), collapsed: true, width, height, depth: 1, source: group, status: 'removed' });
  }
  for (const node of highlights.removedNodes) {
    if (model.nodes.some((n) => n.id === node.id)) continue;
    const { parent: _parent, ...rest } = node;
    model.nodes.push(canvasNode({ ...rest, ...inside(node.parent) }, graphKind, input, 'removed'));
  }
  const drawn = new Set([...model.nodes.map((n) => n.id), ...model.groups.map((g) => g.id)]);
  highlights.removedEdges.forEach((edge, index) => {
    if (drawn.has(edge.source) && drawn.has(edge.target)) model.edges.push(canvasEdge(edge, `-${edge.source}->${edge.target}#${index}`, graphKind, 'removed'));
  });
}

/**
 * Layout entries by the canvas element they were made for (elements are never modified): a collapse, which keeps
 * the objects of the elements it leaves alone (ModelReuse), lays out with the entries made before instead of a
 * thousand new ones.
 */
const layoutNodes = new WeakMap<CanvasNode, LayoutInput['nodes'][number]>();
const layoutEdges = new WeakMap<CanvasEdge, LayoutInput['edges'][number]>();

function entryFor<K extends object, V>(entries: WeakMap<K, V>, element: K, make: () => V): V {
  let entry = entries.get(element);
  if (entry === undefined) {
    entry = make();
    entries.set(element, entry);
  }
  return entry;
}

/** The layout worker's input for the model. */
export function layoutInput(model: CanvasModel): LayoutInput {
  return {
    direction: model.direction,
    nodes: model.nodes.map((node) =>
      entryFor(layoutNodes, node, () => ({ id: node.id, width: node.width, height: node.height, ...(node.parent ? { parent: node.parent } : {}) })),
    ),
    groups: model.groups.map((group) => ({
      id: group.id,
      ...(group.parent ? { parent: group.parent } : {}),
      collapsed: group.collapsed,
      width: group.width,
      height: group.height,
    })),
    edges: model.edges.map((edge) =>
      entryFor(layoutEdges, edge, () => ({
        key: edge.key,
        source: edge.source,
        target: edge.target,
        ...(edge.labelWidth ? { labelWidth: edge.labelWidth, labelHeight: edge.labelHeight } : {}),
      })),
    ),
  };
}
