import type { CanvasModel, CanvasNode } from './canvas-model';
import { markerId, roundedPath, usedMarkers } from './edge-path';
import type { LayoutResult } from './layout';
import { shapeDrawing, textOffset } from './shapes';
import { FONT_FAMILY, MONO_FAMILY } from './text-measure';

/**
 * The drawing as a standalone SVG document: nodes, groups, edges, labels and markers from the same model and layout
 * the canvas shows (collapsed groups and highlights included). Plain SVG shapes and text — no HTML inside — so the
 * file opens anywhere and converts to PNG without tainting a canvas.
 */

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const STATUS_COLOURS = { added: '#1a7f37', changed: '#b7791f', removed: '#c62828' } as const;

function textLines(lines: readonly string[], x: number, y: number, options: { size?: number; weight?: number; anchor?: string; mono?: boolean; colour?: string } = {}): string {
  const size = options.size ?? 13;
  const step = size + 4;
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * step}" font-size="${size}" font-weight="${options.weight ?? 400}" text-anchor="${options.anchor ?? 'start'}"` +
        `${options.mono ? ` font-family="${escape(MONO_FAMILY)}"` : ''} fill="${options.colour ?? '#1f2933'}" xml:space="preserve">${escape(line)}</text>`,
    )
    .join('');
}

function nodeBodyLines(node: CanvasNode): string[] {
  const body = node.body;
  if (body.code !== undefined) return body.code.split(/\r?\n/);
  if (body.table) return [body.table.columns.join(' | '), ...body.table.rows.map((row) => row.join(' | '))];
  if (body.cloud) return [`${body.cloud.provider} · ${body.cloud.service}`];
  if (body.componentId !== undefined) return [`component: ${body.componentId}`];
  if (body.animatedIcon) return [`animated icon: ${body.animatedIcon}`];
  if (body.imageSrc !== undefined) return [body.imageSrc ? 'image' : 'image not shown'];
  if (body.database) {
    const db = body.database;
    const head = `${db.name}${db.table ? `.${db.table}` : ''}`;
    return [head, ...(db.columns ? db.columns.slice(0, 12).map((c) => `${c.name}  ${c.type}`) : db.tables.slice(0, 8))];
  }
  return [];
}

function drawNode(node: CanvasNode, x: number, y: number): string {
  const { width: w, height: h } = node;
  const look = node.look;
  const stroke = node.status ? STATUS_COLOURS[node.status] : (look.stroke ?? '#4a5a70');
  const strokeWidth = node.status ? 3 : (look.strokeWidth ?? 1.5);
  const dash = look.dash === 'dashed' ? ' stroke-dasharray="7 5"' : look.dash === 'dotted' ? ' stroke-dasharray="2 4"' : '';
  const opacity = node.status === 'removed' ? ' opacity="0.5"' : '';
  const paint = (fill: string) => `fill="${escape(look.fill ?? fill)}" stroke="${escape(stroke)}" stroke-width="${strokeWidth}"${dash}`;
  let out = `<g transform="translate(${x},${y})" data-node-id="${escape(node.id)}"${opacity}>`;
  if (node.kind === 'start' || node.kind === 'end') {
    out += node.kind === 'start' ? `<circle cx="14" cy="14" r="14" fill="#1f2933"/>` : `<circle cx="14" cy="14" r="12" fill="#fff" stroke="#1f2933" stroke-width="3"/><circle cx="14" cy="14" r="7" fill="#1f2933"/>`;
  } else if (node.kind === 'mermaid' || node.kind === 'shape') {
    const outline = h - (node.fields.length ? node.fields.length * 16 + 10 : 0);
    const drawing = shapeDrawing(node.shape, w, outline, look.radius);
    out += drawing.fills.map((d) => `<path d="${d}" ${paint('#f3f6fa')}/>`).join('');
    out += drawing.lines.map((d) => `<path d="${d}" fill="none" stroke="${escape(stroke)}" stroke-width="1.5"/>`).join('');
    const offset = textOffset(node.shape, outline);
    const textTop = offset.top + (outline - offset.top - offset.bottom - node.titleLines.length * 18) / 2 + 13;
    out += textLines(node.titleLines, w / 2, textTop, { size: 14, weight: 500, anchor: 'middle', colour: look.color });
    out += textLines(node.fields.map((f) => `${f.label}: ${f.value}`), 10, outline + 14, { size: 12, colour: '#5f6b7a' });
  } else if (node.kind === 'c4') {
    const c4 = node.body.c4;
    const fill = c4?.external ? '#8b8b8b' : c4?.type === 'person' ? '#08427b' : c4?.type.startsWith('container') ? '#438dd5' : '#1168bd';
    out += `<rect width="${w}" height="${h}" rx="10" fill="${fill}"/>`;
    out += textLines(node.titleLines, w / 2, 24, { size: 14, weight: 600, anchor: 'middle', colour: '#fff' });
    const typeLine = `[${c4?.type.replace(/_/g, ' ') ?? 'element'}${c4?.technology ? `: ${c4.technology}` : ''}]`;
    out += textLines([typeLine, ...(c4?.description ?? [])], w / 2, 24 + node.titleLines.length * 18, { size: 12, anchor: 'middle', colour: '#fff' });
  } else {
    const note = node.kind === 'comment';
    out += `<rect width="${w}" height="${h}" rx="${look.radius ?? (note ? 2 : 8)}" ${paint(note ? '#fff8c5' : '#ffffff')}/>`;
    if (note || node.kind === 'text') {
      out += textLines(node.body.lines ?? node.titleLines, 12, 22, { size: node.kind === 'text' ? 18 : 13, weight: node.kind === 'text' ? 500 : 400 });
    } else {
      out += textLines([node.title], 12, 22, { size: 14, weight: 500 });
      out += `<path d="M0,34H${w}" stroke="#e3e8ef"/>`;
      out += textLines(nodeBodyLines(node), 12, 52, { size: 12, mono: node.kind === 'code' });
    }
  }
  return `${out}</g>`;
}

export function diagramSvg(model: CanvasModel, layout: LayoutResult): string {
  const margin = 16;
  const width = Math.ceil(layout.width + margin * 2);
  const height = Math.ceil(layout.height + margin * 2);
  const parts: string[] = [];
  const markers = usedMarkers(model.edges).map(
    (marker) =>
      `<marker id="${marker.id}" viewBox="-1 -1 12 12" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="${marker.start ? 'auto-start-reverse' : 'auto'}">` +
      `<path d="${marker.d}" fill="${marker.filled ? escape(marker.color) : 'none'}" stroke="${escape(marker.color)}" stroke-width="1.5"/></marker>`,
  );
  for (const group of [...model.groups].sort((a, b) => a.depth - b.depth)) {
    const box = layout.boxes[group.id];
    if (!box) continue;
    const stroke = group.status ? STATUS_COLOURS[group.status] : '#9aa8ba';
    parts.push(
      `<g data-group-id="${escape(group.id)}"><rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="10" fill="${group.collapsed ? '#eef3fb' : 'rgba(31,111,235,0.04)'}" stroke="${stroke}" stroke-width="${group.status ? 3 : 1.2}"/>` +
        `${textLines([group.title], box.x + 12, box.y + 25, { size: 13, weight: 600, colour: '#344256' })}</g>`,
    );
  }
  for (const edge of model.edges) {
    const route = layout.edges[edge.key];
    if (!route || edge.invisible) continue;
    const colour = edge.status ? STATUS_COLOURS[edge.status] : edge.color;
    const dash = edge.dash === 'dashed' || edge.animated ? ' stroke-dasharray="7 5"' : edge.dash === 'dotted' ? ' stroke-dasharray="2 4"' : '';
    const start = edge.markerStart ? ` marker-start="url(#${markerId(edge.markerStart, 'start')})"` : '';
    const end = edge.markerEnd ? ` marker-end="url(#${markerId(edge.markerEnd, 'end')})"` : '';
    let out = `<g data-edge-source="${escape(edge.source)}" data-edge-target="${escape(edge.target)}"><path d="${roundedPath(route.points)}" fill="none" stroke="${escape(colour)}" stroke-width="${edge.width}"${dash}${start}${end}/>`;
    if (route.label && edge.labelLines.length) {
      out += `<rect x="${route.label.x}" y="${route.label.y}" width="${edge.labelWidth}" height="${edge.labelHeight}" rx="4" fill="#fff" stroke="#d5dce5"/>`;
      out += textLines(edge.labelLines, route.label.x + edge.labelWidth / 2, route.label.y + 14, { size: 12, anchor: 'middle', colour: '#344256' });
    }
    parts.push(`${out}</g>`);
  }
  for (const node of model.nodes) {
    const box = layout.boxes[node.id];
    if (box) parts.push(drawNode(node, box.x, box.y));
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${-margin} ${-margin} ${width} ${height}" font-family="${escape(FONT_FAMILY)}">` +
    `<defs>${markers.join('')}</defs><rect x="${-margin}" y="${-margin}" width="${width}" height="${height}" fill="#ffffff"/>${parts.join('')}</svg>\n`
  );
}

/** Renders the SVG to a PNG blob at `scale` (capped so the canvas stays within browser limits). */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const factor = Math.min(scale, 16000 / Math.max(width, height, 1));
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * factor));
  canvas.height = Math.max(1, Math.round(height * factor));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw a PNG.');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made.'))), 'image/png'));
}
