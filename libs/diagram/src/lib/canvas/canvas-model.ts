import type { OverlaidEdge, OverlaidNode } from '../overlay';
import type { DiagramView, VisibleEdge } from '../view';
import type { CanvasEdge, CanvasGroup, CanvasModel, CanvasNode, ChangeStatus, Highlights, ModelInput } from './canvas-types';
import { canvasEdge, edgeKeys, strokeKey } from './edge-look';
import type { LayoutDirection, LayoutInput } from './layout';
import { canvasNode, groupBox, rowsUnderOutline } from './node-look';
import { SYMBOL_SHAPES, SYMBOL_SIZE, outlinePolygon, type DrawnShape } from './shapes';

/** The canvas model built from a view: its nodes, group frames and edges, reused across collapses, and ELK's input for it. */

const LAYOUT_DIRECTIONS: Record<string, LayoutDirection> = { LR: 'RIGHT', RL: 'LEFT', TB: 'DOWN', TD: 'DOWN', BT: 'UP' };

export function layoutDirection(view: DiagramView): LayoutDirection {
  return LAYOUT_DIRECTIONS[view.graph.direction?.toUpperCase() ?? ''] ?? (view.graph.kind === 'flowchart' ? 'DOWN' : 'DOWN');
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
    const { title, typeLabel, width, height, header } = groupBox(group, view.graph.kind, group.collapsed, group.collapsed ? 0 : (widest.get(group.id) ?? 0));
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
      ...(group.collapsed ? {} : { header }),
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

/** A node as the layout takes it: its box, its group, the height of what is drawn under its outline (data rows, a symbol's label), and the shape its lines end on. */
export function layoutNode(node: CanvasNode, parent: string | undefined): LayoutInput['nodes'][number] {
  const shape = drawnOutline(node);
  // A symbol's label is drawn under its circle as a shape's data rows are under its outline: lines end on the circle.
  const belowOutline = shape && SYMBOL_SHAPES.has(shape) ? node.height - SYMBOL_SIZE : rowsUnderOutline(node);
  // A start or end mark is 28 px across: several lines end at one point on it, with one arrowhead.
  const gather = node.kind === 'start' || node.kind === 'end';
  return { id: node.id, width: node.width, height: node.height, ...(parent ? { parent } : {}), ...(belowOutline ? { belowOutline } : {}), ...(shape ? { shape } : {}), ...(gather ? { gather } : {}) };
}

/** The outline lines end on where it is not the node's box: a shape's or a Mermaid node's, a state's start or end mark. */
function drawnOutline(node: CanvasNode): DrawnShape | undefined {
  const shape = node.kind === 'start' || node.kind === 'end' ? 'circle' : node.kind === 'mermaid' || node.kind === 'shape' ? node.shape : undefined;
  return shape && outlinePolygon(shape, node.width, node.height) ? shape : undefined;
}

/** The layout worker's input for the model. */
export function layoutInput(model: CanvasModel): LayoutInput {
  return {
    direction: model.direction,
    nodes: model.nodes.map((node) =>
      entryFor(layoutNodes, node, () => layoutNode(node, node.parent)),
    ),
    groups: model.groups.map((group) => ({
      id: group.id,
      ...(group.parent ? { parent: group.parent } : {}),
      collapsed: group.collapsed,
      width: group.width,
      height: group.height,
      ...(group.header && !group.collapsed ? { header: group.header } : {}),
    })),
    edges: model.edges.map((edge) =>
      entryFor(layoutEdges, edge, () => {
        const stroke = strokeKey(edge);
        return {
          key: edge.key,
          source: edge.source,
          target: edge.target,
          ...(edge.labelWidth ? { labelWidth: edge.labelWidth, labelHeight: edge.labelHeight } : {}),
          ...(stroke ? { stroke } : {}),
        };
      }),
    ),
  };
}
