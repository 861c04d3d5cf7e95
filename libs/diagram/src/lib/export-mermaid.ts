import type { ContextEdge, ContextShape, DiagramContext } from './context/context-types';
import { resolveEdgeKey } from './apply-context';
import { mermaidQuoted } from './labels';
import { DiagramIssue, DiagramIssueCode } from './model';
import type { OverlaidEdge, OverlaidGraph, OverlaidGroup, OverlaidNode } from './overlay';

export interface ExportResult {
  mermaid: string;
  context: DiagramContext;
}

/** Thrown when the graph holds something Mermaid cannot express (an id it cannot parse). */
export class DiagramExportError extends Error {
  constructor(readonly issues: DiagramIssue[]) {
    super(issues.map((issue) => issue.message).join(' '));
    this.name = 'DiagramExportError';
  }
}

/**
 * Ids the flowchart grammar reads back unchanged: word characters (any script) in segments
 * joined by single `.` or `-`. Longer runs of `-`/`.`/`=` would be read as links.
 */
const EXPRESSIBLE_ID = /^[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*$/u;
/** Flowchart keywords that cannot be node ids. */
const RESERVED_IDS = new Set(['end', 'graph', 'flowchart', 'flowchart-elk', 'subgraph', 'style', 'class', 'classDef', 'linkStyle', 'click', 'call', 'href', 'interpolate']);

/** Classic vertex types Mermaid stores → the `@{ shape: … }` name that draws the same shape. */
const SHAPE_BY_VERTEX_TYPE: Record<string, string> = {
  square: 'rect',
  round: 'rounded',
  stadium: 'stadium',
  subroutine: 'fr-rect',
  cylinder: 'cyl',
  circle: 'circle',
  doublecircle: 'dbl-circ',
  odd: 'odd',
  diamond: 'diam',
  hexagon: 'hex',
  lean_right: 'lean-r',
  lean_left: 'lean-l',
  trapezoid: 'trap-b',
  inv_trapezoid: 'trap-t',
};
/** Context shapes (spec enum) → Mermaid shape names; shapes without a Mermaid twin travel in the context only. */
const SHAPE_BY_CONTEXT_SHAPE: Partial<Record<ContextShape, string>> = {
  rectangle: 'rect',
  'rounded-rect': 'rounded',
  diamond: 'diam',
  triangle: 'tri',
  parallelogram: 'lean-r',
  trapezoid: 'trap-b',
  hexagon: 'hex',
  document: 'doc',
  cylinder: 'cyl',
  delay: 'delay',
  display: 'curv-trap',
  collate: 'hourglass',
  terminator: 'stadium',
  'summing-junction': 'cross-circ',
  database: 'cyl',
  'multiple-documents': 'docs',
  subroutine: 'fr-rect',
  'manual-input': 'sl-rect',
  'internal-storage': 'win-pane',
};
/** Mermaid's own @{ shape } names (as written by an author) pass through unchanged. */
const MERMAID_SHAPE_NAME = /^[a-z][a-z-]*$/;

const LINKS: Record<string, Record<string, string>> = {
  arrow_point: { normal: '-->', thick: '==>', dotted: '-.->', invisible: '~~~' },
  arrow_open: { normal: '---', thick: '===', dotted: '-.-', invisible: '~~~' },
  arrow_circle: { normal: '--o', thick: '==o', dotted: '-.-o' },
  arrow_cross: { normal: '--x', thick: '==x', dotted: '-.-x' },
  double_arrow_point: { normal: '<-->', thick: '<==>', dotted: '<-.->' },
  double_arrow_circle: { normal: 'o--o', thick: 'o==o', dotted: 'o-.-o' },
  double_arrow_cross: { normal: 'x--x', thick: 'x==x', dotted: 'x-.-x' },
};

const quoted = mermaidQuoted;

/**
 * The classic bracket syntax of each classic vertex type, so such nodes read back with the
 * very same type; every other shape is written with `@{ shape: … }`.
 */
const CLASSIC_BRACKETS: Record<string, [string, string]> = {
  square: ['[', ']'],
  round: ['(', ')'],
  stadium: ['([', '])'],
  subroutine: ['[[', ']]'],
  cylinder: ['[(', ')]'],
  circle: ['((', '))'],
  doublecircle: ['(((', ')))'],
  odd: ['>', ']'],
  diamond: ['{', '}'],
  hexagon: ['{{', '}}'],
  lean_right: ['[/', '/]'],
  lean_left: ['[\\', '\\]'],
  trapezoid: ['[/', '\\]'],
  inv_trapezoid: ['[\\', '/]'],
};

/** The `@{ shape: … }` name of a flowchart vertex type (`square` and `rect` draw the same box). */
export function flowchartShapeName(vertexType: string | undefined): string | undefined {
  if (vertexType === undefined) return undefined;
  return SHAPE_BY_VERTEX_TYPE[vertexType] ?? (MERMAID_SHAPE_NAME.test(vertexType) ? vertexType : undefined);
}

function mermaidShape(node: OverlaidNode, kind: OverlaidGraph['kind']): string | undefined {
  if (kind === 'flowchart' && node.shape) return flowchartShapeName(node.shape);
  return node.overlay?.shape ? SHAPE_BY_CONTEXT_SHAPE[node.overlay.shape] : undefined;
}

function link(edge: OverlaidEdge, kind: OverlaidGraph['kind']): string {
  if (kind !== 'flowchart') return '-->';
  const byStroke = LINKS[edge.type ?? 'arrow_point'] ?? LINKS['arrow_point'];
  return byStroke[edge.stroke ?? 'normal'] ?? byStroke['normal'];
}

function checkIds(graph: OverlaidGraph): DiagramIssue[] {
  const issues: DiagramIssue[] = [];
  const refuse = (what: string, id: string, why: string) =>
    issues.push({ code: DiagramIssueCode.ExportUnsupportedId, severity: 'error', message: `The ${what} id ${JSON.stringify(id)} cannot be written in Mermaid: ${why}` });
  const check = (what: string, id: string) => {
    if (RESERVED_IDS.has(id)) refuse(what, id, `"${id}" is a Mermaid keyword. Rename it.`);
    else if (!EXPRESSIBLE_ID.test(id)) refuse(what, id, 'use letters, digits and _, optionally joined by single "." or "-".');
  };
  const seen = new Set<string>();
  for (const node of graph.nodes) {
    check('node', node.id);
    if (seen.has(node.id)) refuse('node', node.id, 'two nodes share it.');
    seen.add(node.id);
  }
  for (const group of graph.groups) {
    if (group.origin === 'context') continue;
    check('group', group.id);
    if (seen.has(group.id)) refuse('group', group.id, 'a node or another group already uses it.');
    seen.add(group.id);
  }
  for (const edge of graph.edges) if (edge.id !== undefined) check('edge', edge.id);
  return issues;
}

/**
 * Writes a graph (for example one drawn in the UI) as a Mermaid flowchart plus the context
 * file carrying what Mermaid cannot: node types, data, styles, tables, edge styles and
 * markers, group names and context-only groups. Node ids are kept exactly; an id Mermaid
 * cannot express makes the whole export fail with a DiagramExportError.
 */
export function exportToMermaid(graph: OverlaidGraph): ExportResult {
  const issues = checkIds(graph);
  const context: DiagramContext = {
    ...(graph.contextName !== undefined ? { name: graph.contextName } : {}),
    ...(graph.contextDescription !== undefined ? { description: graph.contextDescription } : {}),
  };
  const mermaidGroups = graph.groups.filter((g) => g.origin !== 'context');
  const groupById = new Map(mermaidGroups.map((g) => [g.id, g]));
  const parentOf = new Map<string, string>();
  for (const group of mermaidGroups) for (const member of group.nodes) if (!parentOf.has(member)) parentOf.set(member, group.id);

  const lines: string[] = [`flowchart ${graph.direction ?? 'TB'}`];
  const nodeLine = (node: OverlaidNode, indent: string) => {
    const brackets = graph.kind === 'flowchart' && node.shape ? CLASSIC_BRACKETS[node.shape] : undefined;
    if (brackets) return `${indent}${node.id}${brackets[0]}${quoted(node.label)}${brackets[1]}`;
    const shape = mermaidShape(node, graph.kind);
    return shape ? `${indent}${node.id}@{ shape: ${shape}, label: ${quoted(node.label)} }` : `${indent}${node.id}[${quoted(node.label)}]`;
  };
  const childrenOf = (parent: string | undefined) => ({
    nodes: graph.nodes.filter((n) => parentOf.get(n.id) === parent),
    groups: mermaidGroups.filter((g) => parentOf.get(g.id) === parent),
  });
  const emitGroup = (group: OverlaidGroup, depth: number, trail: Set<string>) => {
    if (trail.has(group.id)) return;
    const indent = '  '.repeat(depth);
    lines.push(`${indent}subgraph ${group.id} [${quoted(group.label)}]`);
    emitScope(group.id, depth + 1, new Set([...trail, group.id]));
    lines.push(`${indent}end`);
  };
  const emitScope = (parent: string | undefined, depth: number, trail: Set<string>) => {
    const { nodes, groups } = childrenOf(parent);
    for (const node of nodes) lines.push(nodeLine(node, '  '.repeat(depth)));
    for (const group of groups) emitGroup(group, depth, trail);
  };
  emitScope(undefined, 1, new Set());
  // A member whose group is itself unreachable (a cycle) is written at the top level rather than lost.
  for (const group of mermaidGroups) if (parentOf.has(group.id) && !groupById.has(parentOf.get(group.id) as string)) emitGroup(group, 1, new Set());

  const edgeOverlays = new Map<string, ContextEdge>();
  for (const edge of graph.edges) {
    const label = edge.label ? `|${quoted(edge.label)}|` : '';
    const id = edge.id !== undefined ? `${edge.id}@` : '';
    lines.push(`  ${edge.source} ${id}${link(edge, graph.kind)}${label} ${edge.target}`);
    if (!edge.overlay) continue;
    const key = `${edge.source}-${edge.target}`;
    const existing = edgeOverlays.get(key);
    if (existing && JSON.stringify(existing) !== JSON.stringify(edge.overlay)) {
      issues.push({
        code: DiagramIssueCode.ExportUnsupportedId,
        severity: 'error',
        message: `Two edges from ${edge.source} to ${edge.target} carry different overlays; a context file keys edges by "${key}" and can hold only one.`,
      });
    }
    edgeOverlays.set(key, edge.overlay);
  }
  const ids = new Set([...graph.nodes.map((n) => n.id), ...mermaidGroups.map((g) => g.id)]);
  for (const key of edgeOverlays.keys()) {
    const readings = resolveEdgeKey(key, graph, ids).matches;
    if (readings.length > 1) {
      issues.push({
        code: DiagramIssueCode.ExportUnsupportedId,
        severity: 'error',
        message: `The edge key "${key}" would be ambiguous in the context file (${readings.map((r) => `${r.source} → ${r.target}`).join(', ')}); rename a node whose id contains "-".`,
      });
    }
  }
  if (issues.length > 0) throw new DiagramExportError(issues);

  const nodes = Object.fromEntries(graph.nodes.flatMap((n) => (n.overlay ? [[n.id, n.overlay] as const] : [])));
  if (Object.keys(nodes).length > 0) context.nodes = nodes;
  if (edgeOverlays.size > 0) context.edges = Object.fromEntries(edgeOverlays);
  const groups = Object.fromEntries(
    graph.groups
      .filter((g) => g.origin === 'context' || g.overlay)
      .map((g) => [g.id, g.origin === 'context' ? { name: g.overlay?.name ?? g.label, nodes: [...g.nodes] } : { ...g.overlay }]),
  );
  if (Object.keys(groups).length > 0) context.groups = groups;
  return { mermaid: `${lines.join('\n')}\n`, context };
}
