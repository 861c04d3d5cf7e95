import { labelText } from '../lib/labels';
import type { DiagramKind, GraphEdge, GraphGroup, GraphModel, GraphNode, SequenceBlockKind, SequenceStep, StateMark } from '../lib/model';

/*
 * Reads a GraphModel out of the diagram database Mermaid filled while parsing. The views
 * below type only the members we read; they mirror Mermaid 12's databases.
 */

interface FlowVertex { id: string; text?: string; type?: string; styles?: string[]; classes?: string[] }
interface FlowEdge { id?: string; isUserDefinedId?: boolean; start: string; end: string; text?: string; type?: string; stroke?: string; style?: string[] }
interface FlowClass { styles?: string[] }
interface FlowSubGraph { id: string; title: string; nodes: string[] }
interface FlowDb {
  getVertices(): Map<string, FlowVertex>;
  getEdges(): FlowEdge[];
  getSubGraphs(): FlowSubGraph[];
  getDirection(): string | undefined;
  getClasses?(): Map<string, FlowClass>;
}

interface StateStmt {
  stmt: string;
  id: string;
  type?: string;
  description?: string;
  doc?: StateStmt[];
  start?: boolean;
  state1?: StateStmt;
  state2?: StateStmt;
  value?: string;
}
interface StateRenderModel {
  nodes: { id: string; label?: unknown }[];
  edges: { start: string; end: string; label?: string }[];
}
interface StateDb {
  getRootDocV2(): { id: string; doc: StateStmt[] };
  getDirection(): string | undefined;
  getData(): StateRenderModel;
}

interface SequenceActor { name: string; description?: string; type?: string }
interface SequenceMessage { from?: string; to?: string; message?: unknown; type?: number; placement?: number }
interface SequenceBox { name?: string; actorKeys: string[] }
interface SequenceDb {
  getActorKeys(): string[];
  getActor(id: string): SequenceActor;
  getMessages(): SequenceMessage[];
  getBoxes(): SequenceBox[];
  LINETYPE: Record<string, number>;
  PLACEMENT: Record<string, number>;
}

interface C4Text { text?: string }
interface C4Shape { alias: string; label?: C4Text; typeC4Shape?: C4Text; parentBoundary?: string; descr?: C4Text; techn?: C4Text }
interface C4Boundary { alias: string; label?: C4Text; type?: C4Text; parentBoundary?: string }
interface C4Rel { from: string; to: string; label?: C4Text; type?: string; techn?: C4Text }
interface C4Db {
  getC4ShapeArray(): C4Shape[];
  getBoundaries(): C4Boundary[];
  getRels(): C4Rel[];
}

const nonEmpty = (value: string | undefined): string | undefined => (value ? labelText(value) : undefined);
const labelled = (value: string | undefined): { label?: string } => (value ? { label: labelText(value) } : {});

export function flowchartGraph(db: FlowDb): GraphModel {
  const subGraphs = db.getSubGraphs();
  const groupIds = new Set(subGraphs.map((sg) => sg.id));
  const parentOf = new Map<string, string>();
  // Mermaid assigns each member to one subgraph (makeUniq); nested subgraphs list the inner one as a member.
  for (const sg of subGraphs) for (const member of sg.nodes) if (!parentOf.has(member)) parentOf.set(member, sg.id);

  const classes = db.getClasses?.() ?? new Map<string, FlowClass>();
  const nodes: GraphNode[] = [];
  for (const vertex of db.getVertices().values()) {
    // A vertex with a subgraph's id is that subgraph (created by a link to it), not a node.
    if (groupIds.has(vertex.id)) continue;
    // Class styles first, then the node's own `style` lines, so the later declaration wins as in Mermaid.
    const styles = [...(vertex.classes ?? []).flatMap((name) => classes.get(name)?.styles ?? []), ...(vertex.styles ?? [])].filter(Boolean);
    nodes.push(
      withParent(
        { id: vertex.id, label: labelText(vertex.text ?? vertex.id), ...(vertex.type ? { shape: vertex.type } : {}), ...(styles.length ? { styles } : {}) },
        parentOf.get(vertex.id),
      ),
    );
  }
  const groups: GraphGroup[] = subGraphs.map((sg) =>
    withParent({ id: sg.id, label: labelText(sg.title), nodes: [...sg.nodes] }, parentOf.get(sg.id)),
  );
  const edges: GraphEdge[] = db.getEdges().map((edge) => ({
    ...(edge.isUserDefinedId && edge.id ? { id: edge.id } : {}),
    source: edge.start,
    target: edge.end,
    ...labelled(edge.text),
    ...(edge.type ? { type: edge.type } : {}),
    ...(edge.stroke ? { stroke: edge.stroke } : {}),
    ...(edge.style?.length ? { styles: [...edge.style] } : {}),
  }));
  return compact({ kind: 'flowchart', direction: db.getDirection(), nodes, edges, groups });
}

/**
 * State diagrams: the structure (composite states, transitions, `[*]` marks) comes from the
 * document tree Mermaid parsed. Labels come from Mermaid's render model, because Mermaid
 * sanitizes nested states' descriptions and transition labels only there.
 */
export function stateGraph(db: StateDb): GraphModel {
  const rendered = db.getData();
  const renderedLabel = new Map(rendered.nodes.map((n) => [n.id, typeof n.label === 'string' ? n.label : undefined]));
  const renderedEdgeLabels = new Map<string, (string | undefined)[]>();
  for (const edge of rendered.edges) {
    const key = `${edge.start}\u0000${edge.end}`;
    renderedEdgeLabels.set(key, [...(renderedEdgeLabels.get(key) ?? []), edge.label]);
  }
  const nextEdgeLabel = (from: string, to: string, parsed: string | undefined) => {
    const queue = renderedEdgeLabels.get(`${from}\u0000${to}`);
    return queue && queue.length > 0 ? nonEmpty(queue.shift()) : parsed;
  };
  const nodes = new Map<string, GraphNode>();
  const groups = new Map<string, GraphGroup>();
  const descriptions = new Map<string, string>();
  const edges: GraphEdge[] = [];
  const start: StateMark[] = [];
  const end: StateMark[] = [];
  let direction: string | undefined;

  const isMarker = (state: StateStmt) => state.start !== undefined;
  // Mermaid files a state under the last composite state it is mentioned in; a mention at the
  // top level does not move it back out (its render model merges each mention into the node).
  const moveInto = (element: GraphNode | GraphGroup, scope: string | undefined) => {
    if (scope !== undefined && scope !== element.id) element.parent = scope;
  };
  const register = (state: StateStmt, scope: string | undefined) => {
    if (state.description && !descriptions.has(state.id)) descriptions.set(state.id, state.description);
    if (state.doc && state.type !== 'divider') {
      const existing = groups.get(state.id) ?? nodes.get(state.id);
      const group: GraphGroup = groups.get(state.id) ?? { id: state.id, label: state.id, nodes: [], ...(existing?.parent ? { parent: existing.parent } : {}) };
      groups.set(state.id, group);
      nodes.delete(state.id);
      moveInto(group, scope);
      return;
    }
    const existing = groups.get(state.id) ?? nodes.get(state.id);
    if (existing) {
      moveInto(existing, scope);
      return;
    }
    const shape = state.type && state.type !== 'default' ? state.type : undefined;
    nodes.set(state.id, withParent({ id: state.id, label: state.id, ...(shape ? { shape } : {}) }, scope));
  };

  const walk = (doc: StateStmt[], scope: string | undefined) => {
    for (const stmt of doc) {
      if (stmt.stmt === 'dir' && scope === undefined) direction = stmt.value;
      if (stmt.stmt === 'state') {
        if (stmt.type === 'divider') {
          // Concurrency regions (`--`) get generated random ids in Mermaid; their states belong to the composite state.
          walk(stmt.doc ?? [], scope);
          continue;
        }
        register(stmt, scope);
        if (stmt.doc) walk(stmt.doc, stmt.id);
      } else if (stmt.stmt === 'relation' && stmt.state1 && stmt.state2) {
        const from = stmt.state1;
        const to = stmt.state2;
        if (!isMarker(from)) register(from, scope);
        if (!isMarker(to)) register(to, scope);
        const label = nextEdgeLabel(from.id, to.id, nonEmpty(stmt.description));
        if (isMarker(from) && isMarker(to)) continue;
        if (isMarker(from)) start.push(withScope({ state: to.id, ...(label ? { label } : {}) }, scope));
        else if (isMarker(to)) end.push(withScope({ state: from.id, ...(label ? { label } : {}) }, scope));
        else edges.push({ source: from.id, target: to.id, ...(label ? { label } : {}) });
      }
    }
  };
  walk(db.getRootDocV2().doc, undefined);

  for (const element of [...nodes.values(), ...groups.values()]) {
    element.label = labelText(renderedLabel.get(element.id) ?? descriptions.get(element.id) ?? element.id);
  }
  const nodeList = [...nodes.values()];
  for (const element of [...nodeList, ...groups.values()]) {
    if (element.parent) groups.get(element.parent)?.nodes.push(element.id);
  }
  return compact({
    kind: 'state',
    direction,
    nodes: nodeList,
    edges,
    groups: [...groups.values()],
    start,
    end,
  });
}

export function sequenceGraph(db: SequenceDb): GraphModel {
  const boxes = db.getBoxes();
  const boxIdOf = new Map<string, string>();
  const groups: GraphGroup[] = boxes.map((box, index) => {
    // Boxes have no id in Mermaid; they are numbered in declaration order.
    const id = `box${index + 1}`;
    for (const key of box.actorKeys) boxIdOf.set(key, id);
    return { id, label: labelText(box.name ?? ''), nodes: [...box.actorKeys] };
  });
  const nodes: GraphNode[] = db.getActorKeys().map((key) => {
    const actor = db.getActor(key);
    return withParent({ id: key, label: labelText(actor.description ?? key), ...(actor.type ? { shape: actor.type } : {}) }, boxIdOf.get(key));
  });
  const lineTypeName = new Map(Object.entries(db.LINETYPE).map(([name, value]) => [value, name]));
  const edges: GraphEdge[] = [];
  const steps: SequenceStep[] = [];
  for (const message of db.getMessages()) {
    const type = message.type === undefined ? undefined : lineTypeName.get(message.type);
    const step = sequenceStep(type, message, db.PLACEMENT);
    if (step) {
      steps.push(step);
      continue;
    }
    // Notes carry from/to too (handled above); activations and block markers lack one side.
    if (message.from === undefined || message.to === undefined) continue;
    steps.push({ kind: 'message', edge: edges.length });
    edges.push({
      source: message.from,
      target: message.to,
      ...labelled(typeof message.message === 'string' ? message.message : undefined),
      ...(type ? { type } : {}),
    });
  }
  // Steps only when the diagram has more than messages: the messages alone are `edges` in order.
  const more = steps.some((step) => step.kind !== 'message');
  return { kind: 'sequence', nodes, edges, groups, ...(more ? { steps } : {}) };
}

const BLOCK_STARTS: Record<string, SequenceBlockKind> = {
  LOOP_START: 'loop',
  ALT_START: 'alt',
  OPT_START: 'opt',
  PAR_START: 'par',
  PAR_OVER_START: 'par',
  CRITICAL_START: 'critical',
  BREAK_START: 'break',
  RECT_START: 'rect',
};
const SECTIONS = new Set(['ALT_ELSE', 'PAR_AND', 'CRITICAL_OPTION']);
const BLOCK_ENDS = new Set(['LOOP_END', 'ALT_END', 'OPT_END', 'PAR_END', 'CRITICAL_END', 'BREAK_END', 'RECT_END']);

/** The step a database record other than a message stands for (a note, a block marker, an activation), if any. */
function sequenceStep(type: string | undefined, message: SequenceMessage, placements: Record<string, number>): SequenceStep | null {
  if (type === undefined) return null;
  const text = typeof message.message === 'string' ? labelText(message.message) : '';
  if (type === 'NOTE') {
    const placement = message.placement === placements['LEFTOF'] ? 'left' : message.placement === placements['RIGHTOF'] ? 'right' : 'over';
    const participants = [message.from, message.to].filter((id, i, all): id is string => id !== undefined && all.indexOf(id) === i);
    return { kind: 'note', placement, participants, text };
  }
  const block = BLOCK_STARTS[type];
  // A rect's text is its colour (`rect rgb(191, 223, 255)`), drawn as its background, never as a label.
  if (block === 'rect') return { kind: 'block', block, label: '', ...(text ? { fill: text } : {}) };
  if (block) return { kind: 'block', block, label: text };
  if (SECTIONS.has(type)) return { kind: 'section', label: text };
  if (BLOCK_ENDS.has(type)) return { kind: 'end' };
  if (type === 'ACTIVE_START' && message.from !== undefined) return { kind: 'activate', participant: message.from };
  if (type === 'ACTIVE_END' && message.from !== undefined) return { kind: 'deactivate', participant: message.from };
  return null;
}

const C4_ROOT = 'global';
const c4Parent = (parent: string | undefined) => (parent && parent !== C4_ROOT ? parent : undefined);

export function c4Graph(db: C4Db): GraphModel {
  const boundaries = db.getBoundaries().filter((boundary) => boundary.alias !== C4_ROOT);
  const groups = new Map<string, GraphGroup>(
    boundaries.map((b) => [
      b.alias,
      withParent({ id: b.alias, label: labelText(b.label?.text ?? b.alias), nodes: [], ...(b.type?.text ? { type: labelText(b.type.text) } : {}) }, c4Parent(b.parentBoundary)),
    ]),
  );
  const nodes: GraphNode[] = db.getC4ShapeArray().map((shape) =>
    withParent(
      {
        id: shape.alias,
        label: labelText(shape.label?.text ?? shape.alias),
        ...(shape.typeC4Shape?.text ? { shape: shape.typeC4Shape.text } : {}),
        ...(shape.descr?.text ? { description: labelText(shape.descr.text) } : {}),
        ...(shape.techn?.text ? { technology: labelText(shape.techn.text) } : {}),
      },
      c4Parent(shape.parentBoundary),
    ),
  );
  for (const element of [...nodes, ...groups.values()]) {
    if (element.parent) groups.get(element.parent)?.nodes.push(element.id);
  }
  const edges: GraphEdge[] = db.getRels().map((rel) => ({
    source: rel.from,
    target: rel.to,
    ...labelled(rel.label?.text),
    ...(rel.type ? { type: rel.type } : {}),
    ...(rel.techn?.text ? { technology: labelText(rel.techn.text) } : {}),
  }));
  return { kind: 'c4', nodes, edges, groups: [...groups.values()] };
}

export function graphFromDb(kind: DiagramKind, db: unknown): GraphModel {
  switch (kind) {
    case 'flowchart':
      return flowchartGraph(db as FlowDb);
    case 'state':
      return stateGraph(db as StateDb);
    case 'sequence':
      return sequenceGraph(db as SequenceDb);
    case 'c4':
      return c4Graph(db as C4Db);
  }
}

function withParent<T extends GraphNode | GraphGroup>(element: T, parent: string | undefined): T {
  return parent === undefined ? element : { ...element, parent };
}
function withScope(mark: StateMark, scope: string | undefined): StateMark {
  return scope === undefined ? mark : { ...mark, scope };
}
/** Drops an undefined direction so graphs compare and serialize cleanly. */
function compact(graph: GraphModel): GraphModel {
  if (graph.direction === undefined) delete graph.direction;
  return graph;
}
