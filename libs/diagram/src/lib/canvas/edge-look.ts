import type { OverlaidEdge } from '../overlay';
import type { VisibleEdge } from '../view';
import type { CanvasEdge, ChangeStatus, MarkerType, StrokeDash } from './canvas-types';
import { SMALL, SMALL_LINE, colour, mermaidLook, plainLabel } from './node-look';
import { linesWidth, wrapWords } from './text-size';

/** How an edge looks: its markers, stroke and label, from Mermaid's link types, C4 relationships and context overlays. */

export const DEFAULT_EDGE_COLOUR = '#5f6b7a';
/** The stroke width of a plain link (Mermaid's `-->`); a thick one (`==>`) is drawn at THICK_EDGE_WIDTH. */
const PLAIN_EDGE_WIDTH = 1.5;
const THICK_EDGE_WIDTH = 3.5;

/** Mermaid's own link types and strokes, and C4 relationships, as markers and dashes. */
function mermaidEdgeLook(edge: OverlaidEdge, graphKind: string): Pick<CanvasEdge, 'dash' | 'width' | 'invisible'> & { start?: MarkerType; end?: MarkerType } {
  const type = edge.type ?? '';
  const stroke = edge.stroke ?? 'normal';
  const dash: StrokeDash = stroke === 'dotted' ? 'dotted' : 'solid';
  const width = stroke === 'thick' ? THICK_EDGE_WIDTH : PLAIN_EDGE_WIDTH;
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

/**
 * What tells an edge's line apart from the plain one (colour, width, dash, animation, change status), for the layout
 * to keep lines drawn differently on routes of their own; undefined for the plain line, the most common by far.
 */
export function strokeKey(edge: Pick<CanvasEdge, 'color' | 'width' | 'dash' | 'animated' | 'status'>): string | undefined {
  const plain = edge.color === DEFAULT_EDGE_COLOUR && edge.width === PLAIN_EDGE_WIDTH && edge.dash === 'solid' && !edge.animated && !edge.status;
  return plain ? undefined : [edge.status ?? '', edge.color, edge.width, edge.dash, edge.animated ? 'animated' : ''].join(' ').trim();
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
