/**
 * Derives the expected graph of a diagram straight from what Mermaid built, on purpose
 * through different Mermaid accessors than the adapter under test (src/node/graph-builders.ts):
 * - flowchart and state: db.getData(), the render model Mermaid hands its layout engine
 *   (parents, groups, start/end nodes as Mermaid itself resolved them);
 * - sequence: db.getActors() with each actor's own box reference, messages filtered by
 *   line-type name;
 * - C4: Mermaid's per-boundary queries getC4ShapeArray(boundary) / getBoundaries(boundary)
 *   walked from the root.
 * None of the adapter's graph-building code is imported, so a wrong adapter makes the differential
 * test fail. Labels go through the library's labelText (Mermaid's own entity decoding), which has
 * its own unit tests.
 */
import { labelText } from '../src/lib/labels';

export interface ExpectedGraph {
  kind: string;
  nodes: { id: string; label: string; parent?: string }[];
  edges: { source: string; target: string; label?: string; id?: string }[];
  groups: { id: string; label: string; parent?: string; nodes: string[] }[];
  start?: { state: string; scope?: string }[];
  end?: { state: string; scope?: string }[];
}

interface RenderNode { id: string; label?: unknown; parentId?: string; isGroup?: boolean; shape?: string }
interface RenderEdge { id?: string; start: string; end: string; label?: string; isUserDefinedId?: boolean; classes?: string }
interface RenderDb { getData(): { nodes: RenderNode[]; edges: RenderEdge[] } }

const opt = <K extends string, V>(key: K, value: V | undefined | '') =>
  (value === undefined || value === '' ? {} : { [key]: value }) as Partial<Record<K, V>>;
const text = (value: unknown) => labelText(String(value ?? ''));

function sortGraph(graph: ExpectedGraph): ExpectedGraph {
  const byJson = <T>(a: T, b: T) => JSON.stringify(a).localeCompare(JSON.stringify(b));
  return {
    ...graph,
    nodes: [...graph.nodes].sort(byJson),
    edges: [...graph.edges].sort(byJson),
    groups: graph.groups.map((g) => ({ ...g, nodes: [...g.nodes].sort() })).sort(byJson),
    ...(graph.start ? { start: [...graph.start].sort(byJson) } : {}),
    ...(graph.end ? { end: [...graph.end].sort(byJson) } : {}),
  };
}

function membersOf(groups: ExpectedGraph['groups'], elements: { id: string; parent?: string }[]) {
  for (const element of elements) {
    if (element.parent) groups.find((g) => g.id === element.parent)?.nodes.push(element.id);
  }
}

function fromFlowchart(db: RenderDb): ExpectedGraph {
  const data = db.getData();
  const nodes: ExpectedGraph['nodes'] = [];
  const groups: ExpectedGraph['groups'] = [];
  for (const n of data.nodes) {
    const element = { id: n.id, label: text(n.label), ...opt('parent', n.parentId) };
    if (n.isGroup) groups.push({ ...element, nodes: [] });
    else nodes.push(element);
  }
  membersOf(groups, [...nodes, ...groups]);
  const edges = data.edges.map((e) => ({
    source: e.start,
    target: e.end,
    ...opt('label', e.label ? text(e.label) : undefined),
    ...(e.isUserDefinedId ? opt('id', e.id) : {}),
  }));
  return { kind: 'flowchart', nodes, edges, groups };
}

function fromState(db: RenderDb): ExpectedGraph {
  const data = db.getData();
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  // Dividers (concurrency regions) and note groups are layout containers, not composite states.
  const isContainer = (n: RenderNode | undefined) => n?.shape === 'divider' || n?.shape === 'noteGroup';
  const scopeOf = (parentId: string | undefined): string | undefined => {
    let current = parentId;
    while (current && isContainer(byId.get(current))) current = byId.get(current)?.parentId;
    return current;
  };
  const skipped = new Set(['stateStart', 'stateEnd', 'note', 'noteGroup', 'divider']);
  const nodes: ExpectedGraph['nodes'] = [];
  const groups: ExpectedGraph['groups'] = [];
  for (const n of data.nodes) {
    if (skipped.has(n.shape ?? '')) continue;
    const element = { id: n.id, label: text(n.label), ...opt('parent', scopeOf(n.parentId)) };
    if (n.isGroup) groups.push({ ...element, nodes: [] });
    else nodes.push(element);
  }
  membersOf(groups, [...nodes, ...groups]);
  const edges: ExpectedGraph['edges'] = [];
  const start: NonNullable<ExpectedGraph['start']> = [];
  const end: NonNullable<ExpectedGraph['end']> = [];
  for (const e of data.edges) {
    const from = byId.get(e.start);
    const to = byId.get(e.end);
    if (from?.shape === 'note' || to?.shape === 'note') continue;
    if (from?.shape === 'stateStart' && to?.shape === 'stateEnd') continue;
    if (from?.shape === 'stateStart') start.push({ state: e.end, ...opt('scope', scopeOf(from.parentId)) });
    else if (to?.shape === 'stateEnd') end.push({ state: e.start, ...opt('scope', scopeOf(to.parentId)) });
    else edges.push({ source: e.start, target: e.end, ...opt('label', e.label ? text(e.label) : undefined) });
  }
  return { kind: 'state', nodes, edges, groups, start, end };
}

interface SeqDb {
  getActors(): Map<string, { description?: string; box?: object }>;
  getBoxes(): ({ name?: string } & object)[];
  getMessages(): { from?: string; to?: string; message?: string; type?: number }[];
  LINETYPE: Record<string, number>;
}

function fromSequence(db: SeqDb): ExpectedGraph {
  const boxes = db.getBoxes();
  const boxId = (box: object | undefined) => (box ? `box${boxes.indexOf(box) + 1}` : undefined);
  const nodes = [...db.getActors().entries()].map(([id, actor]) => ({
    id,
    label: text(actor.description ?? id),
    ...opt('parent', boxId(actor.box)),
  }));
  const groups = boxes.map((box) => ({ id: boxId(box) as string, label: text(box.name), nodes: [] as string[] }));
  membersOf(groups, nodes);
  const notArrows = /^(NOTE|AUTONUMBER|ACTIVE_.*|.*_(START|END|ELSE|AND|OPTION))$/;
  const arrowTypes = new Set(Object.entries(db.LINETYPE).filter(([name]) => !notArrows.test(name)).map(([, v]) => v));
  const edges = db
    .getMessages()
    .filter((m) => m.type !== undefined && arrowTypes.has(m.type))
    .map((m) => ({ source: String(m.from), target: String(m.to), ...opt('label', m.message ? text(m.message) : undefined) }));
  return { kind: 'sequence', nodes, edges, groups };
}

interface C4Db {
  getC4ShapeArray(parent?: string): { alias: string; label?: { text?: string } }[];
  getBoundaries(parent?: string): { alias: string; label?: { text?: string } }[];
  getRels(): { from: string; to: string; label?: { text?: string } }[];
}

function fromC4(db: C4Db): ExpectedGraph {
  const nodes: ExpectedGraph['nodes'] = [];
  const groups: ExpectedGraph['groups'] = [];
  const walk = (boundary: string, parent: string | undefined) => {
    for (const shape of db.getC4ShapeArray(boundary)) {
      nodes.push({ id: shape.alias, label: text(shape.label?.text ?? shape.alias), ...opt('parent', parent) });
    }
    for (const child of db.getBoundaries(boundary)) {
      groups.push({ id: child.alias, label: text(child.label?.text ?? child.alias), ...opt('parent', parent), nodes: [] });
      walk(child.alias, child.alias);
    }
  };
  walk('global', undefined);
  membersOf(groups, [...nodes, ...groups]);
  const edges = db.getRels().map((r) => ({ source: r.from, target: r.to, ...opt('label', r.label?.text ? text(r.label.text) : undefined) }));
  return { kind: 'c4', nodes, edges, groups };
}

/** `diagramType` is Mermaid's own id for the parsed diagram (Diagram.type). */
export function expectedGraphFromMermaid(diagramType: string, db: unknown): ExpectedGraph {
  if (diagramType.startsWith('flowchart')) return sortGraph(fromFlowchart(db as RenderDb));
  if (diagramType.startsWith('state')) return sortGraph(fromState(db as RenderDb));
  if (diagramType === 'sequence') return sortGraph(fromSequence(db as SeqDb));
  if (diagramType === 'c4') return sortGraph(fromC4(db as C4Db));
  throw new Error(`Unexpected Mermaid diagram type ${diagramType}`);
}
