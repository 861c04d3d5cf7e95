import type { ContextEdge, ContextShape, DiagramContext } from './context/context-types';
import { EdgeIndex, resolveEdgeKey } from './apply-context';
import { mermaidLineText, mermaidQuoted } from './labels';
import { MERMAID_SHAPE_NAMES } from './mermaid-shapes';
import { DiagramIssue, DiagramIssueCode } from './model';
import type { OverlaidEdge, OverlaidGraph, OverlaidNode } from './overlay';

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
/**
 * Mermaid's lexer starts a new token at the start of an id, after a non-ASCII character and after digits, and
 * there it reads a keyword that ends the word (`end-x`, `øcall`, `1style`) as the keyword: the id would be
 * split or refused. (`x-end` and `endx` are one token and fine.) Digits are refused a little more widely
 * than needed (`a1end`), which keeps the rule simple.
 */
const KEYWORD_AT_TOKEN_START = new RegExp(`(?:^|[^\\x00-\\x7F]|[0-9])(${[...RESERVED_IDS, 'default'].sort((a, b) => b.length - a.length).join('|')})(?![A-Za-z0-9_])`, 'u');

/** True when Mermaid's flowchart lexer reads a keyword in `word` (see KEYWORD_AT_TOKEN_START): a style value too. */
function hasFlowchartKeyword(word: string): boolean {
  return RESERVED_IDS.has(word) || KEYWORD_AT_TOKEN_START.test(word);
}

/**
 * What Mermaid's `style` / `linkStyle` statements read back unchanged (export writes `styles` with them): a property
 * name, a colon and a value of words (letters, digits, `#`, `%`, `_`, joined by single `.` or `-`, like ids) and
 * spaces. No `,` or `;` (they separate declarations), no parentheses or quotes (its grammar refuses them there), no
 * `-.`/`--`/`.-` (read as links).
 */
const CSS_WORD = '-?[A-Za-z0-9#%_]+(?:[.-][A-Za-z0-9#%_]+)*';
const CSS_DECLARATION = new RegExp(`^ *[A-Za-z]+(?:-[A-Za-z]+)* *: *(?:${CSS_WORD}(?: +${CSS_WORD})*)? *$`);
/** Other words the flowchart lexer takes for its own in a style statement: the `v` arrow head, link targets, accessibility keys. */
const STYLE_LEXER_WORDS = /(?:^|[^A-Za-z_])v(?![A-Za-z0-9_])|^-?_(?:blank|self|parent|top)\b|^acc(?:Title|Descr)$/;

/** Why a flowchart `style`/`linkStyle` line could not carry `declaration` back as it is, or undefined when it can. */
export function cssDeclarationProblem(declaration: string): string | undefined {
  if (declaration.includes('%%')) return 'a style declaration cannot contain "%%" (Mermaid reads it as a comment).';
  if (!CSS_DECLARATION.test(declaration) || declaration.trim().endsWith(':')) {
    return `${JSON.stringify(declaration)} is not a CSS declaration Mermaid's style statements can write back: use "property:value" with letters, digits, "#", "%", spaces and single "." or "-" inside words (e.g. "stroke-width:2px").`;
  }
  const word = declaration.split(/[ :]+/).find((part) => part !== '' && (hasFlowchartKeyword(part.replace(/^-/, '')) || STYLE_LEXER_WORDS.test(part)));
  return word === undefined ? undefined : `${JSON.stringify(declaration)}: Mermaid reads "${word}" in a style statement as one of its keywords.`;
}

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

/** Per output syntax: which ids it reads back unchanged and which words it reserves. */
const SYNTAX = {
  flowchart: { id: EXPRESSIBLE_ID, reserved: RESERVED_IDS, rule: 'use letters, digits and _, optionally joined by single "." or "-".' },
  state: {
    id: /^[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*$/u,
    reserved: new Set(['state', 'note', 'end', 'direction', 'classDef', 'class', 'style', 'click', 'as']),
    rule: 'use letters, digits and _, optionally joined by single ".".',
  },
  sequence: {
    id: /^[\p{L}\p{N}_]+$/u,
    reserved: new Set(['participant', 'actor', 'box', 'end', 'loop', 'alt', 'else', 'opt', 'par', 'and', 'rect', 'critical', 'option', 'break', 'note', 'activate', 'deactivate', 'autonumber', 'create', 'destroy', 'title', 'link', 'links', 'properties', 'details', 'as']),
    rule: 'use letters, digits and _.',
  },
} as const;
type Syntax = keyof typeof SYNTAX;

/** State and sequence graphs keep their own syntax (start/end marks, message order); the rest become flowcharts. */
function syntaxOf(graph: OverlaidGraph): Syntax {
  return graph.kind === 'state' ? 'state' : graph.kind === 'sequence' ? 'sequence' : 'flowchart';
}

function exportIssue(message: string): DiagramIssue {
  return { code: DiagramIssueCode.ExportUnsupportedId, severity: 'error', message };
}

/** Why `id` cannot be written in the given syntax, or undefined when it can. */
function idProblem(syntax: Syntax, id: string): string | undefined {
  const { id: expressible, reserved, rule } = SYNTAX[syntax];
  if (reserved.has(id)) return `"${id}" is a Mermaid keyword. Rename it.`;
  if (!expressible.test(id)) return rule;
  const keyword = syntax === 'flowchart' ? KEYWORD_AT_TOKEN_START.exec(id)?.[1] : undefined;
  return keyword ? `Mermaid reads "${keyword}" in it as its keyword ${keyword} (at the start, after a digit or after a non-ASCII letter). Rename it.` : undefined;
}

/** Why a flowchart cannot use `id` for a node, subgraph or edge (export refuses it), or undefined when it can. */
export function flowchartIdProblem(id: string): string | undefined {
  return idProblem('flowchart', id);
}

/** Flowchart link types (`arrow_point`, …) and the strokes each can be drawn with. */
export const FLOWCHART_LINK_STROKES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(Object.entries(LINKS).map(([type, strokes]) => [type, Object.keys(strokes)]));

function checkIds(graph: OverlaidGraph, syntax: Syntax): DiagramIssue[] {
  const issues: DiagramIssue[] = [];
  const refuse = (what: string, id: string, why: string) => issues.push(exportIssue(`The ${what} id ${JSON.stringify(id)} cannot be written in Mermaid: ${why}`));
  const check = (what: string, id: string) => {
    const problem = idProblem(syntax, id);
    if (problem) refuse(what, id, problem);
  };
  const seen = new Set<string>();
  for (const node of graph.nodes) {
    check('node', node.id);
    if (seen.has(node.id)) refuse('node', node.id, 'two nodes share it.');
    seen.add(node.id);
  }
  for (const group of graph.groups) {
    // Sequence boxes have no id in Mermaid; context-only groups live in the context file.
    if (group.origin === 'context' || syntax === 'sequence') continue;
    check('group', group.id);
    if (seen.has(group.id)) refuse('group', group.id, 'a node or another group already uses it.');
    seen.add(group.id);
  }
  if (syntax === 'flowchart') for (const edge of graph.edges) if (edge.id !== undefined) check('edge', edge.id);
  if (syntax === 'sequence') {
    const participants = new Set(graph.nodes.map((n) => n.id));
    for (const edge of graph.edges) {
      if (!participants.has(edge.source) || !participants.has(edge.target)) {
        issues.push(exportIssue(`The message ${edge.source} → ${edge.target} must connect two participants.`));
      }
    }
  }
  return issues;
}

/** Direct members of each Mermaid group (context-only groups are not written), parent first. */
function scopes(graph: OverlaidGraph) {
  const groups = graph.groups.filter((g) => g.origin !== 'context');
  const parentOf = new Map<string, string>();
  for (const group of groups) for (const member of group.nodes) if (!parentOf.has(member)) parentOf.set(member, group.id);
  const groupIds = new Set(groups.map((g) => g.id));
  // A group whose parent chain loops (only possible in hand-made graphs) is written at the top level.
  const reachable = (id: string) => {
    const seen = new Set<string>();
    for (let at: string | undefined = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
      if (seen.has(at) || !groupIds.has(at)) return false;
      seen.add(at);
    }
    return true;
  };
  for (const group of groups) if (!reachable(group.id)) parentOf.delete(group.id);
  // Bucketed once, so writing every scope stays linear in the graph (not groups × nodes).
  const children = new Map<string | undefined, { nodes: OverlaidNode[]; groups: typeof groups }>();
  const bucket = (parent: string | undefined) => {
    let entry = children.get(parent);
    if (!entry) children.set(parent, (entry = { nodes: [], groups: [] }));
    return entry;
  };
  for (const node of graph.nodes) bucket(parentOf.get(node.id)).nodes.push(node);
  for (const group of groups) bucket(parentOf.get(group.id)).groups.push(group);
  return {
    groups,
    parentOf,
    childrenOf: (parent: string | undefined) => children.get(parent) ?? { nodes: [], groups: [] },
  };
}

function writeFlowchart(graph: OverlaidGraph): string[] {
  const { childrenOf } = scopes(graph);
  const lines: string[] = [`flowchart ${graph.direction ?? 'TB'}`];
  const nodeLine = (node: OverlaidNode, indent: string) => {
    const brackets = graph.kind === 'flowchart' && node.shape ? CLASSIC_BRACKETS[node.shape] : undefined;
    if (brackets) return `${indent}${node.id}${brackets[0]}${quoted(node.label)}${brackets[1]}`;
    const shape = mermaidShape(node, graph.kind);
    return shape ? `${indent}${node.id}@{ shape: ${shape}, label: ${quoted(node.label)} }` : `${indent}${node.id}[${quoted(node.label)}]`;
  };
  const emitScope = (parent: string | undefined, depth: number) => {
    const indent = '  '.repeat(depth);
    const { nodes, groups } = childrenOf(parent);
    for (const node of nodes) lines.push(nodeLine(node, indent));
    for (const group of groups) {
      lines.push(`${indent}subgraph ${group.id} [${quoted(group.label)}]`);
      emitScope(group.id, depth + 1);
      lines.push(`${indent}end`);
    }
  };
  emitScope(undefined, 1);
  for (const edge of graph.edges) {
    const label = edge.label ? `|${quoted(edge.label)}|` : '';
    const id = edge.id !== undefined ? `${edge.id}@` : '';
    lines.push(`  ${edge.source} ${id}${link(edge, graph.kind)}${label} ${edge.target}`);
  }
  // CSS read from classDef/style/linkStyle lines, written back per element (a class's declarations were already
  // merged into each member's list). linkStyle counts edges in the order written, which is graph.edges' order.
  // Drawn graphs only hold writable declarations (validateDrawnGraph); a synced graph's other ones (`rgb(1\,2\,3)`
  // from a classDef) are left out rather than written into a file Mermaid would refuse.
  const css = (styles: readonly string[] | undefined) => (styles ?? []).filter((declaration) => cssDeclarationProblem(declaration) === undefined).join(',');
  for (const node of graph.nodes) {
    const declarations = css(node.styles);
    if (declarations.trim()) lines.push(`  style ${node.id} ${declarations}`);
  }
  graph.edges.forEach((edge, index) => {
    const declarations = css(edge.styles);
    if (declarations.trim()) lines.push(`  linkStyle ${index} ${declarations}`);
  });
  return lines;
}

const lineText = mermaidLineText;

const PSEUDO_STATES = new Set(['fork', 'join', 'choice']);

function writeState(graph: OverlaidGraph): string[] {
  const { childrenOf } = scopes(graph);
  const lines = ['stateDiagram-v2'];
  if (graph.direction) lines.push(`  direction ${graph.direction}`);
  const transition = (from: string, to: string, label: string | undefined) => `${from} --> ${to}${label ? ` : ${lineText(label)}` : ''}`;
  const emitScope = (scope: string | undefined, depth: number) => {
    const indent = '  '.repeat(depth);
    const { nodes, groups } = childrenOf(scope);
    for (const node of nodes) {
      if (node.shape && PSEUDO_STATES.has(node.shape)) lines.push(`${indent}state ${node.id} <<${node.shape}>>`);
      // A bare mention files the state under this composite state (Mermaid: the last composite it is mentioned in).
      lines.push(node.label !== node.id ? `${indent}state ${quoted(node.label)} as ${node.id}` : `${indent}${node.id}`);
    }
    for (const group of groups) {
      lines.push(group.label !== group.id ? `${indent}state ${quoted(group.label)} as ${group.id} {` : `${indent}state ${group.id} {`);
      emitScope(group.id, depth + 1);
      lines.push(`${indent}}`);
    }
    for (const mark of graph.start ?? []) if (mark.scope === scope) lines.push(`${indent}${transition('[*]', mark.state, mark.label)}`);
    for (const mark of graph.end ?? []) if (mark.scope === scope) lines.push(`${indent}${transition(mark.state, '[*]', mark.label)}`);
  };
  emitScope(undefined, 1);
  // Top-level mentions never move a state out of its composite state, so every transition can live here.
  for (const edge of graph.edges) lines.push(`  ${transition(edge.source, edge.target, edge.label)}`);
  return lines;
}

const MESSAGE_ARROWS: Record<string, string> = {
  SOLID: '->>',
  DOTTED: '-->>',
  SOLID_OPEN: '->',
  DOTTED_OPEN: '-->',
  SOLID_CROSS: '-x',
  DOTTED_CROSS: '--x',
  SOLID_POINT: '-)',
  DOTTED_POINT: '--)',
  BIDIRECTIONAL_SOLID: '<<->>',
  BIDIRECTIONAL_DOTTED: '<<-->>',
};

function writeSequence(graph: OverlaidGraph): string[] {
  const { groups, parentOf } = scopes(graph);
  const lines = ['sequenceDiagram'];
  const participant = (node: OverlaidNode, indent: string) => {
    if (node.shape && node.shape !== 'participant' && node.shape !== 'actor') {
      return `${indent}participant ${node.id}@{ "type": ${JSON.stringify(node.shape)}, "alias": "${lineText(node.label)}" }`;
    }
    const keyword = node.shape === 'actor' ? 'actor' : 'participant';
    return node.label !== node.id ? `${indent}${keyword} ${node.id} as ${lineText(node.label)}` : `${indent}${keyword} ${node.id}`;
  };
  const written = new Set<string>();
  // Participants keep their order; a box is written where its first member appears (box members must be declared inside it).
  for (const node of graph.nodes) {
    const boxId = parentOf.get(node.id);
    if (written.has(boxId ?? node.id)) continue;
    if (boxId === undefined) {
      lines.push(participant(node, '  '));
      written.add(node.id);
      continue;
    }
    const box = groups.find((g) => g.id === boxId);
    // `transparent` first, so a title that starts with a colour name is not read as the box colour.
    lines.push(`  box transparent${box?.label ? ` ${lineText(box.label)}` : ''}`);
    for (const member of graph.nodes.filter((n) => parentOf.get(n.id) === boxId)) lines.push(participant(member, '    '));
    lines.push('  end');
    written.add(boxId);
  }
  for (const edge of graph.edges) {
    lines.push(`  ${edge.source}${MESSAGE_ARROWS[edge.type ?? 'SOLID'] ?? '->>'}${edge.target}: ${edge.label ? lineText(edge.label) : ''}`.trimEnd());
  }
  return lines;
}

/** The context file: what Mermaid cannot hold. Also reports overlays a context file cannot key unambiguously. */
function buildContext(graph: OverlaidGraph): { context: DiagramContext; issues: DiagramIssue[] } {
  const issues: DiagramIssue[] = [];
  const context: DiagramContext = {
    ...(graph.contextName !== undefined ? { name: graph.contextName } : {}),
    ...(graph.contextDescription !== undefined ? { description: graph.contextDescription } : {}),
  };
  const edgeOverlays = new Map<string, ContextEdge>();
  for (const edge of graph.edges) {
    if (!edge.overlay) continue;
    const key = `${edge.source}-${edge.target}`;
    const existing = edgeOverlays.get(key);
    if (existing && JSON.stringify(existing) !== JSON.stringify(edge.overlay)) {
      issues.push(exportIssue(`Two edges from ${edge.source} to ${edge.target} carry different overlays; a context file keys edges by "${key}" and can hold only one.`));
    }
    edgeOverlays.set(key, edge.overlay);
  }
  const ids = new Set([...graph.nodes.map((n) => n.id), ...graph.groups.filter((g) => g.origin !== 'context').map((g) => g.id)]);
  const edgeIndex = new EdgeIndex(graph.edges);
  for (const key of edgeOverlays.keys()) {
    const readings = resolveEdgeKey(key, edgeIndex, ids).matches;
    if (readings.length > 1) {
      issues.push(exportIssue(`The edge key "${key}" would be ambiguous in the context file (${readings.map((r) => `${r.source} → ${r.target}`).join(', ')}); rename a node whose id contains "-".`));
    }
  }
  const nodes = Object.fromEntries(graph.nodes.flatMap((n) => (n.overlay ? [[n.id, n.overlay] as const] : [])));
  if (Object.keys(nodes).length > 0) context.nodes = nodes;
  if (edgeOverlays.size > 0) context.edges = Object.fromEntries(edgeOverlays);
  const groups = Object.fromEntries(
    graph.groups
      .filter((g) => g.origin === 'context' || g.overlay)
      .map((g) => [g.id, g.origin === 'context' ? { name: g.overlay?.name ?? g.label, nodes: [...g.nodes] } : { ...g.overlay }]),
  );
  if (Object.keys(groups).length > 0) context.groups = groups;
  return { context, issues };
}

/**
 * Writes a graph (for example one drawn in the UI) as Mermaid plus the context file carrying
 * what Mermaid cannot: node types, data, styles, tables, edge styles and markers, group names
 * and context-only groups. Flowchart and C4 graphs become a flowchart (groups as subgraphs,
 * shapes as `@{ shape: … }`); state graphs stay stateDiagram-v2 (composite states, `[*]`
 * marks) and sequence graphs stay sequenceDiagram (participant order, boxes, message types).
 * Node ids are kept exactly; anything Mermaid cannot express fails the whole export with a
 * DiagramExportError listing every problem.
 */
export function exportToMermaid(graph: OverlaidGraph): ExportResult {
  const syntax = syntaxOf(graph);
  const { context, issues: contextIssues } = buildContext(graph);
  const issues = [...checkIds(graph, syntax), ...contextIssues];
  if (issues.length > 0) throw new DiagramExportError(issues);
  const lines = syntax === 'state' ? writeState(graph) : syntax === 'sequence' ? writeSequence(graph) : writeFlowchart(graph);
  return { mermaid: `${lines.join('\n')}\n`, context };
}

/** True when export can give a flowchart node this shape: a classic vertex type or a Mermaid `@{ shape }` name. */
export function isWritableFlowchartShape(shape: string): boolean {
  return Object.hasOwn(CLASSIC_BRACKETS, shape) || MERMAID_SHAPE_NAMES.has(shape);
}
