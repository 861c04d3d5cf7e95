import type { DraftLayout, DraftLayoutBox } from '@sc/contracts';
import { flowchartIdProblem, type ContextNode, type ContextShape, type NodeType, type OverlaidEdge, type OverlaidGraph, type OverlaidGroup, type OverlaidNode } from '@sc/diagram';

/**
 * The document the editor changes: the draft's name, graph and layout, as immutable values. Every edit is a pure
 * function from one document to the next, so the undo history is a list of snapshots that share what did not
 * change.
 *
 * Layout positions are relative to the element's parent group (top-level elements: canvas coordinates), the way
 * the canvas nests group frames; moving a group therefore changes one entry. A group's size is derived from its
 * members when drawn (see groupFrame), so only its position is kept.
 */
export interface EditorDoc {
  name: string;
  graph: OverlaidGraph;
  layout: DraftLayout;
}

export interface Point {
  x: number;
  y: number;
}

/** What is selected: node and group ids, and edges by their index in graph.edges. */
export interface EditorSelection {
  nodes: string[];
  groups: string[];
  edges: number[];
}

export const EMPTY_SELECTION: EditorSelection = { nodes: [], groups: [], edges: [] };

/** Room around the members of a group frame, and above them for its title. */
export const GROUP_PADDING = 24;
export const GROUP_HEADER = 40;
export const GRID = 16;

export function emptyGraph(): OverlaidGraph {
  return { kind: 'flowchart', direction: 'LR', nodes: [], edges: [], groups: [] };
}

// Ids -------------------------------------------------------------------------------------------------------------

/** Every node and group id of the graph (they share one namespace in Mermaid). */
export function usedIds(graph: OverlaidGraph): Set<string> {
  return new Set([...graph.nodes.map((n) => n.id), ...graph.groups.map((g) => g.id)]);
}

/** `<base><n>` with the smallest n ≥ 1 that is free and that Mermaid can write. */
export function freshId(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const id = `${base}${n}`;
    if (!taken.has(id) && flowchartIdProblem(id) === undefined) return id;
  }
}

const ID_BASES: Record<NodeType, string> = {
  shape: 'shape',
  text: 'text',
  code: 'code',
  table: 'table',
  comment: 'note',
  cloud: 'cloud',
  image: 'image',
  gif: 'gif',
  component: 'component',
  'data-source': 'dataSource',
  'db-table': 'dbTable',
};

/** The names the palette and new nodes use for each node type. */
export const NODE_TYPE_NAMES: Record<NodeType, string> = {
  shape: 'Shape',
  text: 'Text',
  code: 'Code',
  table: 'Table',
  comment: 'Comment',
  cloud: 'Cloud service',
  image: 'Image',
  gif: 'Animated icon',
  component: 'Component',
  'data-source': 'Data source',
  'db-table': 'Database table',
};

/** A new node's overlay: its type with content that draws something meaningful and passes the context rules. */
function newOverlay(type: NodeType, shape: ContextShape | undefined): ContextNode {
  switch (type) {
    case 'shape':
      return { type, shape: shape ?? 'rectangle' };
    case 'text':
      return { type, value: 'Text' };
    case 'code':
      return { type, value: '// code' };
    case 'table':
      return { type, table: { columns: ['Column 1', 'Column 2'], rows: [['', '']] } };
    default:
      return { type };
  }
}

// Lookups ---------------------------------------------------------------------------------------------------------

export function positionOf(doc: EditorDoc, id: string, kind: 'node' | 'group'): Point | undefined {
  const box = (kind === 'node' ? doc.layout.nodes : doc.layout.groups).find((b) => b.id === id);
  return box ? { x: box.x, y: box.y } : undefined;
}

/**
 * The group frame each node and group is drawn in, by id: its subgraph (`parent`), else, for a node, the context-only
 * group (origin "context") that lists it. Members of a context-only group keep no `parent` (only Mermaid subgraphs
 * nest; the context file lists the members), yet the editor draws that group as a frame around them, as the viewer
 * does, so their positions are relative to it like any member's.
 */
export function framesOf(graph: OverlaidGraph): Map<string, string> {
  const frames = new Map<string, string>();
  for (const group of graph.groups) if (group.origin === 'context') for (const member of group.nodes) if (!frames.has(member)) frames.set(member, group.id);
  for (const element of [...graph.nodes, ...graph.groups]) if (element.parent !== undefined) frames.set(element.id, element.parent);
  return frames;
}

/**
 * The group frame one element is drawn in (the rule of framesOf), or undefined at the top level. Looked up without
 * building framesOf's map: a drag asks it for every frame it passes over.
 */
export function parentOf(graph: OverlaidGraph, id: string): string | undefined {
  const own = graph.nodes.find((n) => n.id === id)?.parent ?? graph.groups.find((g) => g.id === id)?.parent;
  return own ?? graph.groups.find((g) => g.origin === 'context' && g.nodes.includes(id))?.id;
}

const isContextGroup = (graph: OverlaidGraph, id: string | undefined) => id !== undefined && graph.groups.some((g) => g.id === id && g.origin === 'context');

/** The group with these members; a context-only group's overlay, when it lists them, lists the same (the graph's rule). */
function withMembers(group: OverlaidGroup, nodes: string[]): OverlaidGroup {
  return group.origin === 'context' && group.overlay?.nodes !== undefined ? { ...group, nodes, overlay: { ...group.overlay, nodes } } : { ...group, nodes };
}

/** The element with `parent` set to the group `into` (a subgraph), or without one (top level, a context-only group). */
function placedIn<T extends { parent?: string }>(graph: OverlaidGraph, element: T, into: string | undefined): T {
  return into !== undefined && !isContextGroup(graph, into) ? { ...element, parent: into } : withoutParent(element);
}

/** The group and every group nested in it, outermost first. */
export function groupAndDescendants(graph: OverlaidGraph, groupId: string): string[] {
  const out = [groupId];
  for (let i = 0; i < out.length; i++) for (const group of graph.groups) if (group.parent === out[i]) out.push(group.id);
  return out;
}

/** Absolute canvas position of an element: its layout position plus those of the groups around it. */
export function absolutePosition(doc: EditorDoc, id: string): Point {
  const isGroup = doc.graph.groups.some((g) => g.id === id);
  const own = positionOf(doc, id, isGroup ? 'group' : 'node') ?? { x: 0, y: 0 };
  const parent = parentOf(doc.graph, id);
  if (parent === undefined) return own;
  const outer = absolutePosition(doc, parent);
  return { x: own.x + outer.x, y: own.y + outer.y };
}

// Small immutable helpers -----------------------------------------------------------------------------------------

function setBox(boxes: readonly DraftLayoutBox[], id: string, point: Point): DraftLayoutBox[] {
  let found = false;
  const next = boxes.map((box) => {
    if (box.id !== id) return box;
    found = true;
    return { ...box, x: point.x, y: point.y };
  });
  return found ? next : [...next, { id, x: point.x, y: point.y }];
}

function withPositions(doc: EditorDoc, moves: readonly ({ id: string; kind: 'node' | 'group' } & Point)[]): DraftLayout {
  let nodes = doc.layout.nodes;
  let groups = doc.layout.groups;
  for (const move of moves) {
    if (move.kind === 'node') nodes = setBox(nodes, move.id, move);
    else groups = setBox(groups, move.id, move);
  }
  return { nodes, groups };
}

const kindOfId = (graph: OverlaidGraph, id: string): 'node' | 'group' => (graph.groups.some((g) => g.id === id) ? 'group' : 'node');

export function snap(value: number, grid = GRID): number {
  return Math.round(value / grid) * grid;
}

// Edits -----------------------------------------------------------------------------------------------------------

/** Adds a node of `type` (a shape node with `shape`) at `at`, inside `parent` when given (then `at` is relative). */
export function addNode(doc: EditorDoc, type: NodeType, at: Point, options: { shape?: ContextShape; parent?: string } = {}): { doc: EditorDoc; id: string } {
  const id = freshId(ID_BASES[type], usedIds(doc.graph));
  const label = type === 'shape' && options.shape ? shapeName(options.shape) : NODE_TYPE_NAMES[type];
  const node = placedIn<OverlaidNode>(doc.graph, { id, label, overlay: newOverlay(type, options.shape) }, options.parent);
  const groups = options.parent ? doc.graph.groups.map((g) => (g.id === options.parent ? withMembers(g, [...g.nodes, id]) : g)) : doc.graph.groups;
  return {
    id,
    doc: {
      ...doc,
      graph: { ...doc.graph, nodes: [...doc.graph.nodes, node], groups },
      layout: { ...doc.layout, nodes: [...doc.layout.nodes, { id, x: at.x, y: at.y }] },
    },
  };
}

/** "rounded-rect" → "Rounded rect". */
export function shapeName(shape: string): string {
  const words = shape.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Connects two nodes or groups with an arrow; no edge when one end is missing. */
export function connect(doc: EditorDoc, source: string, target: string): EditorDoc {
  const ids = usedIds(doc.graph);
  if (!ids.has(source) || !ids.has(target)) return doc;
  const edge: OverlaidEdge = { source, target, type: 'arrow_point', stroke: 'normal' };
  return { ...doc, graph: { ...doc.graph, edges: [...doc.graph.edges, edge] } };
}

/** Moves nodes and groups to new positions (relative to their parent). */
export function move(doc: EditorDoc, moves: readonly ({ id: string } & Point)[]): EditorDoc {
  if (moves.length === 0) return doc;
  return { ...doc, layout: withPositions(doc, moves.map((m) => ({ ...m, kind: kindOfId(doc.graph, m.id) }))) };
}

/**
 * Removes the selection: nodes, edges, and groups with everything inside them; edges that lose an end go too.
 */
export function remove(doc: EditorDoc, selection: EditorSelection): EditorDoc {
  const groups = new Set(selection.groups.flatMap((id) => groupAndDescendants(doc.graph, id)));
  const nodes = nodesWithin(doc.graph, selection.nodes, groups);
  const gone = (id: string) => nodes.has(id) || groups.has(id);
  const edgeIndexes = new Set(selection.edges);
  if (nodes.size === 0 && groups.size === 0 && edgeIndexes.size === 0) return doc;
  return {
    ...doc,
    graph: {
      ...doc.graph,
      nodes: doc.graph.nodes.filter((n) => !nodes.has(n.id)),
      groups: doc.graph.groups.filter((g) => !groups.has(g.id)).map((g) => (g.nodes.some(gone) ? withMembers(g, g.nodes.filter((m) => !gone(m))) : g)),
      edges: doc.graph.edges.filter((e, i) => !edgeIndexes.has(i) && !gone(e.source) && !gone(e.target)),
    },
    layout: { nodes: doc.layout.nodes.filter((b) => !nodes.has(b.id)), groups: doc.layout.groups.filter((b) => !groups.has(b.id)) },
  };
}

/** The given nodes and every node drawn in one of `groups`. */
function nodesWithin(graph: OverlaidGraph, selected: readonly string[], groups: ReadonlySet<string>): Set<string> {
  const frames = framesOf(graph);
  return new Set([...selected, ...graph.nodes.filter((n) => groups.has(frames.get(n.id) ?? '')).map((n) => n.id)]);
}

/** A copied part of a diagram: elements with their relative positions, and the edges between them. */
export interface Clip {
  nodes: OverlaidNode[];
  groups: OverlaidGroup[];
  edges: OverlaidEdge[];
  layout: DraftLayout;
}

/** Copies the selected nodes and groups (with their contents) and the edges among what is copied. */
export function copy(doc: EditorDoc, selection: EditorSelection): Clip | null {
  const groups = new Set(selection.groups.flatMap((id) => groupAndDescendants(doc.graph, id)));
  const nodes = nodesWithin(doc.graph, selection.nodes, groups);
  if (nodes.size === 0 && groups.size === 0) return null;
  const kept = (id: string) => nodes.has(id) || groups.has(id);
  const frames = framesOf(doc.graph);
  // Elements whose frame is not copied become top level in the clip, at their absolute position.
  const placed = (id: string, kind: 'node' | 'group'): DraftLayoutBox => {
    const frame = frames.get(id);
    const point = frame !== undefined && kept(frame) ? (positionOf(doc, id, kind) ?? { x: 0, y: 0 }) : absolutePosition(doc, id);
    return { id, x: point.x, y: point.y };
  };
  const copiedNodes = doc.graph.nodes.filter((n) => nodes.has(n.id)).map((n) => (n.parent !== undefined && !kept(n.parent) ? withoutParent(n) : n));
  const copiedGroups = doc.graph.groups
    .filter((g) => groups.has(g.id))
    .map((g) => {
      const inside = withMembers(g, g.nodes.filter(kept));
      return g.parent !== undefined && !kept(g.parent) ? withoutParent(inside) : inside;
    });
  return {
    nodes: copiedNodes,
    groups: copiedGroups,
    edges: doc.graph.edges.filter((e) => kept(e.source) && kept(e.target)),
    layout: {
      nodes: copiedNodes.map((n) => placed(n.id, 'node')),
      groups: copiedGroups.map((g) => placed(g.id, 'group')),
    },
  };
}

function withoutParent<T extends { parent?: string }>(element: T): T {
  const { parent: _parent, ...rest } = element;
  return rest as T;
}

/** Pastes a clip with fresh ids (ids are kept when free), top-level elements shifted by `offset`. */
export function paste(doc: EditorDoc, clip: Clip, offset: Point): { doc: EditorDoc; selection: EditorSelection } {
  const taken = usedIds(doc.graph);
  const renamed = new Map<string, string>();
  for (const element of [...clip.groups, ...clip.nodes]) {
    const base = element.id.replace(/\d+$/, '') || 'node';
    const id = taken.has(element.id) ? freshId(base, taken) : element.id;
    taken.add(id);
    renamed.set(element.id, id);
  }
  const to = (id: string) => renamed.get(id) ?? id;
  const reparent = <T extends { parent?: string }>(element: T): T => (element.parent !== undefined ? { ...element, parent: to(element.parent) } : element);
  const nodes = clip.nodes.map((n) => reparent({ ...n, id: to(n.id) }));
  const groups = clip.groups.map((g) => reparent(withMembers({ ...g, id: to(g.id) }, g.nodes.map(to))));
  const shift = (box: DraftLayoutBox, topLevel: boolean): DraftLayoutBox => ({ ...box, id: to(box.id), ...(topLevel ? { x: box.x + offset.x, y: box.y + offset.y } : {}) });
  const clipFrames = framesOf({ ...emptyGraph(), nodes: clip.nodes, groups: clip.groups });
  const topLevel = (id: string) => !clipFrames.has(id);
  return {
    doc: {
      ...doc,
      graph: {
        ...doc.graph,
        nodes: [...doc.graph.nodes, ...nodes],
        groups: [...doc.graph.groups, ...groups],
        edges: [...doc.graph.edges, ...clip.edges.map((e) => ({ ...e, source: to(e.source), target: to(e.target) }))],
      },
      layout: {
        nodes: [...doc.layout.nodes, ...clip.layout.nodes.map((b) => shift(b, topLevel(b.id)))],
        groups: [...doc.layout.groups, ...clip.layout.groups.map((b) => shift(b, topLevel(b.id)))],
      },
    },
    selection: {
      nodes: clip.nodes.filter((n) => topLevel(n.id)).map((n) => to(n.id)),
      groups: clip.groups.filter((g) => topLevel(g.id)).map((g) => to(g.id)),
      edges: [],
    },
  };
}

/**
 * Puts the selected nodes and groups into a new group frame. They must share one parent (the new group goes
 * there); otherwise nothing changes. Positions stay where they are on the canvas.
 */
export function group(doc: EditorDoc, ids: readonly string[]): { doc: EditorDoc; id: string } | null {
  if (ids.length === 0) return null;
  const parents = new Set(ids.map((id) => parentOf(doc.graph, id)));
  if (parents.size !== 1) return null;
  const [parent] = [...parents];
  // A new group is a subgraph, and a context-only group holds nodes only.
  if (isContextGroup(doc.graph, parent)) return null;
  const members = new Set(ids);
  const id = freshId('group', usedIds(doc.graph));
  const points = ids.map((m) => ({ id: m, ...(positionOf(doc, m, kindOfId(doc.graph, m)) ?? { x: 0, y: 0 }) }));
  const left = Math.min(...points.map((p) => p.x)) - GROUP_PADDING;
  const top = Math.min(...points.map((p) => p.y)) - GROUP_PADDING - GROUP_HEADER;
  const frame: OverlaidGroup = { id, label: 'Group', ...(parent !== undefined ? { parent } : {}), nodes: [...ids] };
  const layout = withPositions(
    { ...doc, layout: { ...doc.layout, groups: [...doc.layout.groups, { id, x: left, y: top }] } },
    points.map((p) => ({ id: p.id, kind: kindOfId(doc.graph, p.id), x: p.x - left, y: p.y - top })),
  );
  const graph: OverlaidGraph = {
    ...doc.graph,
    nodes: doc.graph.nodes.map((n) => (members.has(n.id) ? { ...n, parent: id } : n)),
    groups: [
      ...doc.graph.groups.map((g) => {
        const moved = g.nodes.some((m) => members.has(m));
        const inner = members.has(g.id) ? { ...g, parent: id } : g;
        return g.id === parent ? { ...inner, nodes: [...g.nodes.filter((m) => !members.has(m)), id] } : moved ? withMembers(inner, g.nodes.filter((m) => !members.has(m))) : inner;
      }),
      frame,
    ],
  };
  return { id, doc: { ...doc, graph, layout } };
}

/** Removes a group frame and keeps its members, in the group's parent, where they are on the canvas. */
export function ungroup(doc: EditorDoc, groupId: string): EditorDoc {
  const frame = doc.graph.groups.find((g) => g.id === groupId);
  if (!frame) return doc;
  const at = positionOf(doc, groupId, 'group') ?? { x: 0, y: 0 };
  const parent = frame.parent;
  const members = new Set(frame.nodes);
  const adopt = <T extends { id: string; parent?: string }>(element: T): T => {
    if (!members.has(element.id)) return element;
    return parent !== undefined ? { ...element, parent } : withoutParent(element);
  };
  const moves = frame.nodes.map((id) => {
    const kind = kindOfId(doc.graph, id);
    const point = positionOf(doc, id, kind) ?? { x: 0, y: 0 };
    return { id, kind, x: point.x + at.x, y: point.y + at.y };
  });
  const layout = withPositions(doc, moves);
  return {
    ...doc,
    graph: {
      ...doc.graph,
      nodes: doc.graph.nodes.map(adopt),
      groups: doc.graph.groups
        .filter((g) => g.id !== groupId)
        .map((g) => adopt(g.id === parent ? { ...g, nodes: g.nodes.flatMap((m) => (m === groupId ? frame.nodes : [m])) } : g)),
      edges: doc.graph.edges.filter((e) => e.source !== groupId && e.target !== groupId),
    },
    layout: { ...layout, groups: layout.groups.filter((b) => b.id !== groupId) },
  };
}

/**
 * Moves a node or group into another group, or to the top level (`parent` undefined), where it is on the canvas.
 * A group never goes into itself or a group inside it.
 */
export function reparent(doc: EditorDoc, id: string, parent: string | undefined): EditorDoc {
  const kind = kindOfId(doc.graph, id);
  const current = parentOf(doc.graph, id);
  if (current === parent || !usedIds(doc.graph).has(id)) return doc;
  if (parent !== undefined && (!doc.graph.groups.some((g) => g.id === parent) || (kind === 'group' && (isContextGroup(doc.graph, parent) || groupAndDescendants(doc.graph, id).includes(parent))))) return doc;
  const at = absolutePosition(doc, id);
  const origin = parent !== undefined ? absolutePosition(doc, parent) : { x: 0, y: 0 };
  const adopt = <T extends { id: string; parent?: string }>(element: T): T => (element.id !== id ? element : placedIn(doc.graph, element, parent));
  return {
    ...doc,
    graph: {
      ...doc.graph,
      nodes: doc.graph.nodes.map(adopt),
      // Listed by the new group only: a node that was in a subgraph and a context-only group leaves both.
      groups: doc.graph.groups.map((g) => {
        const members = g.id === parent ? (g.nodes.includes(id) ? g.nodes : [...g.nodes, id]) : g.nodes.includes(id) ? g.nodes.filter((m) => m !== id) : g.nodes;
        return adopt(members === g.nodes ? g : withMembers(g, members));
      }),
    },
    layout: withPositions(doc, [{ id, kind, x: at.x - origin.x, y: at.y - origin.y }]),
  };
}

/** Renames a node or group id in a graph, and every reference to it: edge ends, group members and parents. */
export function renameInGraph(graph: OverlaidGraph, previousId: string, id: string): OverlaidGraph {
  if (previousId === id) return graph;
  const to = (value: string) => (value === previousId ? id : value);
  const reparent = <T extends { parent?: string }>(element: T): T => (element.parent === previousId ? { ...element, parent: id } : element);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => reparent(n.id === previousId ? { ...n, id } : n)),
    groups: graph.groups.map((g) => reparent({ ...(g.id === previousId ? { ...g, id } : g), nodes: g.nodes.map(to), ...(g.overlay?.nodes ? { overlay: { ...g.overlay, nodes: g.overlay.nodes.map(to) } } : {}) })),
    edges: graph.edges.map((e) => (e.source === previousId || e.target === previousId ? { ...e, source: to(e.source), target: to(e.target) } : e)),
  };
}

/** Renames a node or group id everywhere it is referenced: the graph (renameInGraph) and the layout. */
function renameReferences(doc: EditorDoc, previousId: string, id: string): EditorDoc {
  if (previousId === id) return doc;
  return {
    ...doc,
    graph: renameInGraph(doc.graph, previousId, id),
    layout: {
      nodes: doc.layout.nodes.map((b) => (b.id === previousId ? { ...b, id } : b)),
      groups: doc.layout.groups.map((b) => (b.id === previousId ? { ...b, id } : b)),
    },
  };
}

/**
 * Replaces a node by its edited version (the properties panel's output). Its id may have changed: references
 * follow. Parent and membership are the canvas's business and are kept from the graph.
 */
export function replaceNode(doc: EditorDoc, previousId: string, node: OverlaidNode): EditorDoc {
  const renamed = renameReferences(doc, previousId, node.id);
  const current = renamed.graph.nodes.find((n) => n.id === node.id);
  if (!current) return doc;
  const next: OverlaidNode = { ...withoutParent(node), ...(current.parent !== undefined ? { parent: current.parent } : {}) };
  return { ...renamed, graph: { ...renamed.graph, nodes: renamed.graph.nodes.map((n) => (n.id === node.id ? next : n)) } };
}

/** Replaces a group by its edited version; members and parent are kept, references follow an id change. */
export function replaceGroup(doc: EditorDoc, previousId: string, group: OverlaidGroup): EditorDoc {
  const renamed = renameReferences(doc, previousId, group.id);
  const current = renamed.graph.groups.find((g) => g.id === group.id);
  if (!current) return doc;
  const next: OverlaidGroup = { ...withoutParent(group), nodes: current.nodes, ...(current.parent !== undefined ? { parent: current.parent } : {}) };
  return { ...renamed, graph: { ...renamed.graph, groups: renamed.graph.groups.map((g) => (g.id === group.id ? next : g)) } };
}

/** Replaces the edge at `index` (its ends stay: reconnecting is done on the canvas). */
export function replaceEdge(doc: EditorDoc, index: number, edge: OverlaidEdge): EditorDoc {
  const current = doc.graph.edges[index];
  if (!current) return doc;
  const next = { ...edge, source: current.source, target: current.target };
  return { ...doc, graph: { ...doc.graph, edges: doc.graph.edges.map((e, i) => (i === index ? next : e)) } };
}

/** The index of an edge the properties panel edited: the same object, else the first equal one. */
export function edgeIndex(graph: OverlaidGraph, edge: OverlaidEdge): number {
  const same = graph.edges.indexOf(edge);
  if (same >= 0) return same;
  const text = JSON.stringify(edge);
  return graph.edges.findIndex((e) => JSON.stringify(e) === text);
}

/**
 * The text shown as a node's, group's or edge's name, and setting it (in-place editing): the overlay's name or
 * label when there is one (it wins over Mermaid's), else the Mermaid label.
 */
export function setLabel(doc: EditorDoc, target: { kind: 'node' | 'group'; id: string } | { kind: 'edge'; index: number }, text: string): EditorDoc {
  const label = text.trim();
  if (label === '') return doc;
  if (target.kind === 'edge') {
    const edge = doc.graph.edges[target.index];
    if (!edge) return doc;
    const next: OverlaidEdge = edge.overlay?.label !== undefined ? { ...edge, overlay: { ...edge.overlay, label } } : { ...edge, label };
    return replaceEdge(doc, target.index, next);
  }
  if (target.kind === 'node') {
    const node = doc.graph.nodes.find((n) => n.id === target.id);
    if (!node) return doc;
    return replaceNode(doc, node.id, node.overlay?.name !== undefined ? { ...node, label, overlay: { ...node.overlay, name: label } } : { ...node, label });
  }
  const frame = doc.graph.groups.find((g) => g.id === target.id);
  if (!frame) return doc;
  return replaceGroup(doc, frame.id, frame.overlay?.name !== undefined ? { ...frame, label, overlay: { ...frame.overlay, name: label } } : { ...frame, label });
}

export function labelOf(doc: EditorDoc, target: { kind: 'node' | 'group'; id: string } | { kind: 'edge'; index: number }): string {
  if (target.kind === 'edge') {
    const edge = doc.graph.edges[target.index];
    return edge?.overlay?.label ?? edge?.label ?? '';
  }
  const element = target.kind === 'node' ? doc.graph.nodes.find((n) => n.id === target.id) : doc.graph.groups.find((g) => g.id === target.id);
  return element?.overlay?.name ?? element?.label ?? '';
}

/**
 * Places every node and group where an automatic layout put them (absolute boxes), converted to positions
 * relative to their parents, snapped to the grid when asked.
 */
export function applyLayout(doc: EditorDoc, boxes: Readonly<Record<string, Point>>, direction: 'LR' | 'TB'): EditorDoc {
  const relative = (id: string, parent: string | undefined): Point => {
    const own = boxes[id] ?? { x: 0, y: 0 };
    const outer = parent !== undefined ? boxes[parent] : undefined;
    return outer ? { x: own.x - outer.x, y: own.y - outer.y } : own;
  };
  const frames = framesOf(doc.graph);
  return {
    ...doc,
    graph: { ...doc.graph, direction },
    layout: {
      nodes: doc.graph.nodes.map((n) => ({ id: n.id, ...relative(n.id, frames.get(n.id)) })),
      groups: doc.graph.groups.map((g) => ({ id: g.id, ...relative(g.id, frames.get(g.id)) })),
    },
  };
}

/** Whether some node or group has no position yet (a draft copied from a synced diagram starts so). */
export function needsLayout(doc: EditorDoc): boolean {
  const nodes = new Set(doc.layout.nodes.map((b) => b.id));
  const groups = new Set(doc.layout.groups.map((b) => b.id));
  return doc.graph.nodes.some((n) => !nodes.has(n.id)) || doc.graph.groups.some((g) => !groups.has(g.id));
}
