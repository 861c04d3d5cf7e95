import type { CanvasModel, CanvasNode, DataRow } from './canvas-types';
import { DEFAULT_EDGE_COLOUR } from './edge-look';
import { PALETTES, type DiagramTheme, type Palette } from './palette';
import { markerId, roundedPath, usedMarkers } from './edge-path';
import { ICON_PATHS } from './icons';
import type { LayoutResult } from './layout';
import { atBoxSize } from './arrangement';
import { shapeDrawing, textOffset } from './shapes';
import { GROUP_TITLE_FONT, SMALL_LINE, TABLE_NOT_FOUND, c4TypeLine, dataRowsHeight, rowsUnderOutline } from './node-look';
import { escapeXml } from './xml';
import { FONT_FAMILY, MONO_FAMILY, textWidth, type Font } from './text-size';

/**
 * The drawing as a standalone SVG document: nodes, groups, edges, labels and markers from the same model and layout
 * the canvas shows (collapsed groups and highlights included), each node kind drawn as its component draws it
 * (the admin's diagram-canvas/nodes/*): name, the kind's content (code, table, cloud, image, component, database columns, C4 parts) and the
 * data fields, at the same places and inside the node's box. Plain SVG shapes and text — no HTML inside — so the file
 * opens anywhere and converts to PNG without tainting a canvas. Edges are drawn along the routes the layout gives.
 */


/** An edge or marker colour in the palette: the default edge colour follows the theme, a chosen one stays. */
function themed(p: Palette, colour: string): string {
  return colour === DEFAULT_EDGE_COLOUR ? p.edge : colour;
}
/** Card layout (canvas-node.component.scss): title bar, body padding, data rows. */
const TITLE_BAR = 34;
const PAD_X = 10;
const BODY_TOP = TITLE_BAR + 6;

interface TextOptions {
  size?: number;
  weight?: number;
  anchor?: 'start' | 'middle' | 'end';
  mono?: boolean;
  colour?: string;
  italic?: boolean;
  /** Lines longer than this (px) end in an ellipsis, as the canvas cuts them (`text-overflow: ellipsis`). */
  maxWidth?: number;
  /** Distance between baselines; size + 4 unless given. */
  step?: number;
}

/** `text` cut to `maxWidth` with an ellipsis, measured like the canvas model measures (the width table). */
function fitted(text: string, maxWidth: number | undefined, font: Font): string {
  if (maxWidth === undefined || textWidth(text, font) <= maxWidth) return text;
  let end = text.length;
  while (end > 0 && textWidth(`${text.slice(0, end)}…`, font) > maxWidth) end--;
  return `${text.slice(0, end)}…`;
}

function textLines(p: Palette, lines: readonly string[], x: number, y: number, options: TextOptions = {}): string {
  const size = options.size ?? 13;
  const step = options.step ?? size + 4;
  const font: Font = { size, ...(options.weight ? { weight: options.weight } : {}), ...(options.mono ? { mono: true } : {}) };
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * step}" font-size="${size}" font-weight="${options.weight ?? 400}" text-anchor="${options.anchor ?? 'start'}"` +
        `${options.mono ? ` font-family="${escapeXml(MONO_FAMILY)}"` : ''}${options.italic ? ' font-style="italic"' : ''} fill="${options.colour ?? p.ink}" xml:space="preserve">${escapeXml(fitted(line, options.maxWidth, font))}</text>`,
    )
    .join('');
}

/** A Material icon (icons.ts) of `size` px at x, y. */
function icon(p: Palette, name: string, x: number, y: number, size = 18, colour = p.muted): string {
  const path = ICON_PATHS[name];
  return path ? `<path transform="translate(${x},${y}) scale(${size / 24})" d="${path}" fill="${colour}"/>` : '';
}

/** The data rows (`label: value`) at the bottom of a node's box, `x` from its left (NodeFieldsComponent). */
function fieldRows(p: Palette, fields: readonly DataRow[], width: number, height: number, x = PAD_X, colour = p.ink): string {
  if (fields.length === 0) return '';
  const top = height - dataRowsHeight(fields) + 4;
  return fields
    .map((row, i) => {
      const label = `${row.label}:`;
      const labelWidth = textWidth(label, { size: 12, weight: 500 });
      // The row's padding both sides and the 4 px gap after the label (`.fields` in canvas-node.component.scss).
      const value = fitted(row.value, Math.max(width - 2 * x - labelWidth - 4, 0), { size: 12 });
      return (
        `<text x="${x}" y="${top + 12 + i * SMALL_LINE}" font-size="12" xml:space="preserve" data-field="${escapeXml(row.label)}">` +
        `<tspan font-weight="500" fill="${colour === p.ink ? p.muted : colour}">${escapeXml(label)}</tspan><tspan dx="4" fill="${colour}">${escapeXml(value)}</tspan></text>`
      );
    })
    .join('');
}

const CARD_ICONS: Record<string, string> = { code: 'code', table: 'table', cloud: 'cloud', image: 'image', gif: 'animation', component: 'widgets', 'data-source': 'database', 'db-table': 'table' };

/** The content of a card kind under its title bar (CardNodeComponent, DatabaseNodeComponent). */
function cardBody(p: Palette, node: CanvasNode, w: number): string {
  const body = node.body;
  const x = PAD_X;
  const inner = w - 2 * PAD_X;
  switch (node.kind) {
    case 'code': {
      const lines = (body.code ?? '').split(/\r?\n/);
      return (
        `<rect x="${x}" y="${BODY_TOP}" width="${inner}" height="${lines.length * 16 + 12}" rx="4" fill="${p.codeFill}"/>` +
        textLines(p, lines, x + 8, BODY_TOP + 6 + 12, { size: 12, mono: true, step: 16, maxWidth: inner - 16 })
      );
    }
    case 'table': {
      const table = body.table;
      if (!table) return '';
      let out = '';
      const rows = table.columns.length ? [table.columns, ...table.rows] : table.rows;
      rows.forEach((row, r) => {
        let left = x;
        table.widths.forEach((width, c) => {
          const header = r === 0 && table.columns.length > 0;
          out += `<rect x="${left}" y="${BODY_TOP + r * 24}" width="${width}" height="24" fill="${header ? p.tableHeader : p.cardFill}" stroke="${p.tableStroke}"/>`;
          out += textLines(p, [row[c] ?? ''], left + 8, BODY_TOP + r * 24 + 16, { size: 12, weight: header ? 500 : 400, maxWidth: width - 9 });
          left += width;
        });
      });
      return out;
    }
    case 'cloud': {
      const provider = body.cloud?.provider ?? '';
      const providerWidth = textWidth(provider, { size: 13, weight: 600 });
      return textLines(p, [provider], x, BODY_TOP + 14, { weight: 600 }) + textLines(p, [body.cloud?.service ?? ''], x + providerWidth + 8, BODY_TOP + 14, { colour: p.muted });
    }
    case 'image':
    case 'gif': {
      // Under the picture, what shows where it cannot load (a PNG never loads an https picture: see withoutRemoteImages).
      const frame = `<rect x="${x}" y="${BODY_TOP}" width="160" height="100" fill="${p.tableHeader}"/>${icon(p, CARD_ICONS[node.kind] ?? 'image', x + 68, BODY_TOP + 38, 24)}`;
      if (body.imageSrc) return `${frame}<image x="${x}" y="${BODY_TOP}" width="160" height="100" href="${escapeXml(body.imageSrc)}" preserveAspectRatio="xMidYMid meet"/>`;
      if (node.kind === 'gif') {
        return `<circle cx="${x + 11}" cy="${BODY_TOP + 28}" r="11" fill="${p.link}"/>` + textLines(p, [body.animatedIcon ?? ''], x + 32, BODY_TOP + 32, { size: 12 });
      }
      return textLines(p, ['Image not shown: only https and data URLs are loaded.'], x, BODY_TOP + 14, { size: 12, colour: p.muted, maxWidth: inner });
    }
    case 'component':
      return icon(p, 'widgets', x, BODY_TOP + 2) + textLines(p, [body.componentId ?? ''], x + 24, BODY_TOP + 16, { size: 12, mono: true, maxWidth: inner - 24 });
    case 'data-source':
    case 'db-table':
      return databaseBody(p, node, x, inner);
    default:
      return '';
  }
}

/** The database (and table) a data node names, then the table's columns or the database's tables (DatabaseNodeComponent). */
function databaseBody(p: Palette, node: CanvasNode, x: number, inner: number): string {
  const db = node.body.database;
  if (!db) return '';
  let out = textLines(p, [`${db.name}${db.table ? `.${db.table}` : ''}`], x, BODY_TOP + 13, { size: 12, colour: p.link, maxWidth: inner });
  const top = BODY_TOP + 22;
  const row = (i: number, left: string, right = '', rightMono = false) =>
    `<path d="M${x},${top + i * 20}H${x + inner}" stroke="${p.rowDivider}"/>` +
    left +
    (right ? textLines(p, [right], x + inner, top + i * 20 + 14, { size: 11, mono: rightMono, anchor: 'end', colour: p.muted }) : '');
  if (db.columns) {
    const columns = db.columns.slice(0, 12);
    columns.forEach((column, i) => {
      const mark = column.primaryKey ? 'PK' : column.references ? 'FK' : '';
      const markWidth = mark ? textWidth(mark, { size: 10, weight: 700 }) + 4 : 0;
      const name = (mark ? textLines(p, [mark], x, top + i * 20 + 14, { size: 10, weight: 700, colour: p.status.changed }) : '') + textLines(p, [column.name], x + markWidth, top + i * 20 + 14, { size: 12 });
      out += row(i, name, column.type, true);
    });
    if (db.columns.length > 12) out += row(columns.length, textLines(p, [`… ${db.columns.length - 12} more`], x, top + columns.length * 20 + 14, { size: 12, colour: p.muted }));
  } else if (db.table) {
    out += textLines(p, [TABLE_NOT_FOUND], x, top + 14, { size: 12, colour: p.muted, maxWidth: inner });
  } else {
    const tables = db.tables.slice(0, 8);
    tables.forEach((table, i) => (out += row(i, textLines(p, [table], x, top + i * 20 + 14, { size: 12 }))));
    if (db.tables.length > 8) out += row(tables.length, textLines(p, [`… ${db.tables.length - 8} more`], x, top + tables.length * 20 + 14, { size: 12, colour: p.muted }));
  }
  return out;
}

/** C4 colours and outlines (the `.c4` rules of canvas-node.component.scss). */
function c4Look(node: CanvasNode): { fill: string; ink: string; rx: string; ry: string } {
  const c4 = node.body.c4;
  const type = c4?.type ?? 'system';
  const ink = type.startsWith('component') && !c4?.external ? '#0b2545' : '#ffffff';
  const fill = c4?.external ? '#8b8b8b' : type === 'person' ? '#08427b' : type.startsWith('container') ? '#438dd5' : type.startsWith('component') ? '#85bbf0' : '#1168bd';
  const { width: w, height: h } = node;
  const radius = type === 'person' ? { rx: '24', ry: '24' } : type.endsWith('_db') ? { rx: String(w / 2), ry: '14' } : type.endsWith('_queue') ? { rx: '18', ry: String(h / 2) } : { rx: '10', ry: '10' };
  return { fill, ink, ...radius };
}

function drawNode(p: Palette, node: CanvasNode, x: number, y: number): string {
  const { width: w, height: h } = node;
  const look = node.look;
  const stroke = node.status ? p.status[node.status] : (look.stroke ?? p.outline);
  const strokeWidth = node.status ? 3 : (look.strokeWidth ?? 1.5);
  const dash = look.dash === 'dashed' ? ' stroke-dasharray="7 5"' : look.dash === 'dotted' ? ' stroke-dasharray="2 4"' : '';
  const opacity = node.status === 'removed' ? ' opacity="0.5"' : '';
  const paint = (fill: string, defaultStroke = p.outline) =>
    `fill="${escapeXml(look.fill ?? fill)}" stroke="${escapeXml(node.status ? stroke : (look.stroke ?? defaultStroke))}" stroke-width="${node.status ? 3 : (look.strokeWidth ?? 1)}"${dash}`;
  let out = `<g transform="translate(${x},${y})" data-node-id="${escapeXml(node.id)}" data-node-type="${escapeXml(node.kind)}"${opacity}>`;
  if (node.kind === 'start' || node.kind === 'end') {
    out += node.kind === 'start' ? `<circle cx="14" cy="14" r="14" fill="${p.ink}"/>` : `<circle cx="14" cy="14" r="12" fill="${p.background}" stroke="${p.ink}" stroke-width="3"/><circle cx="14" cy="14" r="7" fill="${p.ink}"/>`;
  } else if (node.kind === 'mermaid' || node.kind === 'shape') {
    const outline = h - rowsUnderOutline(node);
    const drawing = shapeDrawing(node.shape, w, outline, look.radius);
    out += drawing.fills.map((d) => `<path d="${d}" fill="${escapeXml(look.fill ?? (node.kind === 'mermaid' ? p.mermaidFill : p.shapeFill))}" stroke="${escapeXml(stroke)}" stroke-width="${strokeWidth}"${dash}/>`).join('');
    out += drawing.lines.map((d) => `<path d="${d}" fill="none" stroke="${escapeXml(stroke)}" stroke-width="1.5"/>`).join('');
    const offset = textOffset(node.shape, outline);
    const textTop = offset.top + (outline - offset.top - offset.bottom - node.titleLines.length * 18) / 2 + 13;
    out += textLines(p, node.titleLines, w / 2, textTop, { size: 14, weight: 500, anchor: 'middle', colour: look.color, step: 18 });
    out += fieldRows(p, node.fields, w, h);
  } else if (node.kind === 'c4') {
    const c4 = node.body.c4;
    const { fill, ink, rx, ry } = c4Look(node);
    out += `<rect width="${w}" height="${h}" rx="${rx}" ry="${ry}" fill="${fill}"${node.status ? ` stroke="${stroke}" stroke-width="3"` : ''}/>`;
    const person = c4?.type === 'person' ? 24 : 0;
    const fieldsHeight = dataRowsHeight(node.fields);
    const content = person + node.titleLines.length * 18 + 18 + (c4?.description.length ?? 0) * 18;
    // Centred in the box above the data rows, as the flex column on screen.
    let top = Math.max(8, (h - fieldsHeight - content) / 2);
    if (person) out += `<g transform="translate(${w / 2 - 14},${top})" fill="${ink}"><circle cx="14" cy="7" r="6"/><path d="M2,22 Q14,8 26,22Z"/></g>`;
    top += person;
    out += textLines(p, node.titleLines, w / 2, top + 13, { size: 14, weight: 600, anchor: 'middle', colour: ink, step: 18 });
    top += node.titleLines.length * 18;
    out += textLines(p, [c4TypeLine(c4)], w / 2, top + 13, { size: 12, anchor: 'middle', colour: ink, maxWidth: w - 24 });
    out += textLines(p, c4?.description ?? [], w / 2, top + 18 + 13, { size: 13, anchor: 'middle', colour: ink, step: 18 });
    out += fieldRows(p, node.fields, w, h, 22, ink);
  } else if (node.kind === 'text') {
    // A text node: its name as a small caption over its value in large type (no frame).
    // (Written as named: the canvas's capitals are a style, and a search of the file finds the name.)
    out += textLines(p, [node.title], 8, 17, { size: 11, colour: p.muted, maxWidth: w - 16 });
    out += textLines(p, node.body.lines ?? [], 8, 22 + 18, { size: 18, weight: 500, step: 24, colour: look.color });
    out += fieldRows(p, node.fields, w, h);
  } else if (node.kind === 'comment') {
    out += `<path d="M2,0H${w - 14}A14,14 0 0 1 ${w},14V${h - 2}A2,2 0 0 1 ${w - 2},${h}H2A2,2 0 0 1 0,${h - 2}V2A2,2 0 0 1 2,0Z" ${paint(p.commentFill, p.commentStroke)}/>`;
    out += textLines(p, node.body.lines ?? node.titleLines, 14, 12 + 13, { size: 13, italic: true, step: 18 });
    out += fieldRows(p, node.fields, w, h);
  } else {
    out += `<rect width="${w}" height="${h}" rx="${look.radius ?? 8}" ${paint(p.cardFill, p.cardStroke)}/>`;
    out += icon(p, CARD_ICONS[node.kind] ?? 'widgets', PAD_X, 8);
    out += textLines(p, [node.title], PAD_X + 24, 22, { size: 14, weight: 500, maxWidth: w - PAD_X * 2 - 24 });
    out += `<path d="M0,${TITLE_BAR}H${w}" stroke="${p.divider}"/>`;
    out += cardBody(p, node, w);
    out += fieldRows(p, node.fields, w, h);
  }
  return `${out}</g>`;
}

/** `theme`: `light` (the dashboard's colours) or `dark` (the same drawing on a dark background, for dark pages). */
export function diagramSvg(model: CanvasModel, layout: LayoutResult, theme: DiagramTheme = 'light'): string {
  const p = PALETTES[theme];
  const margin = 16;
  const width = Math.ceil(layout.width + margin * 2);
  const height = Math.ceil(layout.height + margin * 2);
  const parts: string[] = [];
  const markers = usedMarkers(model.edges).map(
    (marker) =>
      `<marker id="${marker.id}" viewBox="-1 -1 12 12" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="${marker.start ? 'auto-start-reverse' : 'auto'}">` +
      `<path d="${marker.d}" fill="${marker.filled ? escapeXml(themed(p, marker.color)) : 'none'}" stroke="${escapeXml(themed(p, marker.color))}" stroke-width="1.5"/></marker>`,
  );
  for (const group of [...model.groups].sort((a, b) => a.depth - b.depth)) {
    const box = layout.boxes[group.id];
    if (!box) continue;
    const stroke = group.status ? p.status[group.status] : p.groupStroke;
    parts.push(
      `<g data-group-id="${escapeXml(group.id)}"><rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="10" fill="${group.collapsed ? p.shapeFill : p.groupFill}" stroke="${stroke}" stroke-width="${group.status ? 3 : 1.2}"/>` +
        textLines(p, [group.title], box.x + 12, box.y + 25, { size: 13, weight: 600, colour: p.groupTitle }) +
        // A C4 boundary's type after its name, as the canvas's header row shows it.
        (group.typeLabel ? textLines(p, [group.typeLabel], box.x + 12 + textWidth(group.title, GROUP_TITLE_FONT) + 8, box.y + 25, { size: 12, colour: p.muted }) : '') +
        '</g>',
    );
  }
  for (const edge of model.edges) {
    const route = layout.edges[edge.key];
    if (!route || edge.invisible) continue;
    const colour = edge.status ? p.status[edge.status] : themed(p, edge.color);
    const dash = edge.dash === 'dashed' || edge.animated ? ' stroke-dasharray="7 5"' : edge.dash === 'dotted' ? ' stroke-dasharray="2 4"' : '';
    const start = edge.markerStart ? ` marker-start="url(#${markerId(edge.markerStart, 'start')})"` : '';
    const end = edge.markerEnd ? ` marker-end="url(#${markerId(edge.markerEnd, 'end')})"` : '';
    let out = `<g data-edge-source="${escapeXml(edge.source)}" data-edge-target="${escapeXml(edge.target)}"><path d="${roundedPath(route.points)}" fill="none" stroke="${escapeXml(colour)}" stroke-width="${edge.width}"${dash}${start}${end}/>`;
    if (route.label && edge.labelLines.length) {
      out += `<rect x="${route.label.x}" y="${route.label.y}" width="${edge.labelWidth}" height="${edge.labelHeight}" rx="4" fill="${p.cardFill}" stroke="${p.tableStroke}"/>`;
      out += textLines(p, edge.labelLines, route.label.x + edge.labelWidth / 2, route.label.y + 14, { size: 12, anchor: 'middle', colour: p.groupTitle, step: 16 });
    }
    parts.push(`${out}</g>`);
  }
  for (const node of model.nodes) {
    const box = layout.boxes[node.id];
    // A node resized in arrange mode is drawn at its box's size.
    if (box) parts.push(drawNode(p, atBoxSize(node, box), box.x, box.y));
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${-margin} ${-margin} ${width} ${height}" font-family="${escapeXml(FONT_FAMILY)}">` +
    `<defs>${markers.join('')}</defs><rect x="${-margin}" y="${-margin}" width="${width}" height="${height}" fill="${p.background}"/>${parts.join('')}</svg>\n`
  );
}

/** The SVG without its `<image>`s of pictures by URL (inline data URLs stay). */
export function withoutRemoteImages(svg: string): string {
  return svg.replace(/<image\b[^>]*\shref="(?!data:)[^"]*"[^>]*\/>/g, '');
}
