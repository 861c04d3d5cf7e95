import { EdgeIndex, resolveEdgeKey } from './apply-context';
import { jsonPath, type JsonValue } from './context/strict-json';
import { validateContextEntries, type ContextEntryKind } from './context/validate-context';
import { cssDeclarationProblem, FLOWCHART_LINK_STROKES, flowchartIdProblem, isWritableFlowchartShape } from './export-mermaid';
import { DiagramIssue, DiagramIssueCode } from './model';
import type { OverlaidGraph } from './overlay';

export const FLOWCHART_DIRECTIONS = ['TB', 'TD', 'BT', 'RL', 'LR'] as const;

export interface DrawnGraphValidation {
  /** The graph, typed, when there are no errors. */
  graph?: OverlaidGraph;
  errors: DiagramIssue[];
  /** Overlay warnings by the context rules (an unknown property, a type-specific field on another type). */
  warnings: DiagramIssue[];
}

type JsonObject = { [key: string]: JsonValue };

interface Element {
  kind: 'node' | 'group';
  index: number;
  id: string;
  parent?: string;
  /** Context-only group (origin: context): lives in the context file, not in Mermaid. */
  contextOnly: boolean;
  path: string;
}

const NODE_KEYS = ['id', 'label', 'shape', 'parent', 'styles', 'description', 'technology', 'overlay'];
const EDGE_KEYS = ['id', 'source', 'target', 'label', 'type', 'stroke', 'styles', 'technology', 'overlay'];
const GROUP_KEYS = ['id', 'label', 'parent', 'nodes', 'overlay', 'origin'];
const GRAPH_KEYS = ['kind', 'direction', 'nodes', 'edges', 'groups', 'contextName', 'contextDescription'];

const STRIPPED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const LINE_BREAK_TAG = /<br\s*\/?>/gi;
const MARKUP = /<[A-Za-z/!?]/;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** Same JSON, whatever the key order (overlays of parallel edges are compared). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Checks a flowchart graph made outside Mermaid (drawn in the UI and sent as JSON) against everything
 * exportToMermaid and the context rules need, so that its export reads back as the same graph: the shape of
 * every element, ids Mermaid can write (export's rule) and unique, labels Mermaid keeps, edges between
 * existing nodes or subgraphs, group membership that `parent` and `nodes` agree on without cycles, link types,
 * shapes, overlays by the context file's rules, and one overlay per source–target pair (a context file keys
 * edges by "<source>-<target>"). Linear in the size of the graph. Every problem is reported with its JSON
 * path under `root`.
 */
export function validateDrawnGraph(value: unknown, root = '$'): DrawnGraphValidation {
  const errors: DiagramIssue[] = [];
  const error = (path: string, message: string, code = DiagramIssueCode.GraphInvalid) => errors.push({ code, severity: 'error', message: `${path}: ${message}`, path });
  const warnings: DiagramIssue[] = [];
  const overlays: { kind: ContextEntryKind; value: JsonValue; path: string }[] = [];

  if (!isObject(value)) {
    error(root, `expected a graph (an object with kind, nodes, edges and groups), found ${kindOf(value)}.`);
    return { errors, warnings: [] };
  }
  const onlyKeys = (object: JsonObject, path: string, allowed: readonly string[]) => {
    for (const key of Object.keys(object)) if (!allowed.includes(key)) error(jsonPath(path, key), `unknown property "${key}"; allowed: ${allowed.join(', ')}.`);
  };
  const optionalString = (object: JsonObject, key: string, path: string): string | undefined => {
    const field = object[key];
    if (field === undefined) return undefined;
    if (typeof field === 'string') return field;
    error(jsonPath(path, key), `expected a string, found ${kindOf(field)}.`);
    return undefined;
  };
  const requiredString = (object: JsonObject, key: string, path: string): string | undefined => {
    if (object[key] === undefined) {
      error(path, `"${key}" is required.`);
      return undefined;
    }
    const text = optionalString(object, key, path);
    if (text === '') error(jsonPath(path, key), 'must not be empty.');
    return text || undefined;
  };
  const label = (object: JsonObject, key: string, path: string, required: boolean) => {
    const text = required ? requiredString(object, key, path) : optionalString(object, key, path);
    if (text === undefined) return;
    const at = jsonPath(path, key);
    // Mermaid refuses an empty label, trims spaces around one, turns a line break into <br/> in some node
    // syntaxes but not in others, and reads %% as a comment or directive.
    if (text.trim() === '') error(at, 'a label needs at least one visible character (Mermaid refuses an empty label).');
    else if (text !== text.trim()) error(at, 'a label cannot start or end with spaces (Mermaid trims them).');
    // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(text)) error(at, 'a label is one line without control characters; write <br> for a line break.');
    if (text.includes('%%')) error(at, 'a label cannot contain "%%" (Mermaid reads it as a comment).');
    // Labels are HTML to Mermaid: a tag other than a line break would be rendered or removed by its sanitizer.
    if (MARKUP.test(text.replace(LINE_BREAK_TAG, ''))) error(at, 'a label cannot contain HTML markup other than <br> ("<" followed by a letter, "/", "!" or "?"); put a space after "<".');
  };
  const overlay = (object: JsonObject, kind: ContextEntryKind, path: string) => {
    const value = object['overlay'];
    if (value === undefined) return;
    overlays.push({ kind, value, path: jsonPath(path, 'overlay') });
    const data = isObject(value) ? value['data'] : undefined;
    if (!isObject(data)) return;
    // JSON request bodies lose these keys on the way into the server (its framework strips them).
    for (const key of Object.keys(data)) {
      if (STRIPPED_KEYS.has(key)) error(jsonPath(jsonPath(jsonPath(path, 'overlay'), 'data'), key), `"${key}" cannot be a data field label (it would be lost on saving); rename the field.`);
    }
  };
  const styles = (object: JsonObject, path: string) => {
    const field = object['styles'];
    if (field === undefined) return;
    const at = jsonPath(path, 'styles');
    if (!Array.isArray(field)) return void error(at, `expected an array of CSS declarations (e.g. "fill:#f9f"), found ${kindOf(field)}.`);
    field.forEach((declaration, i) => {
      const problem = typeof declaration === 'string' ? cssDeclarationProblem(declaration) : `expected a CSS declaration (a string), found ${kindOf(declaration)}.`;
      if (problem) error(jsonPath(at, i), problem);
      // Mermaid keeps the spaces after a comma but not those after the statement's element.
      else if (i === 0 && (declaration as string).startsWith(' ')) error(jsonPath(at, i), 'the first style declaration cannot start with a space (Mermaid drops it).');
    });
  };
  // C4 fields: the graph model carries them, but a flowchart has nowhere to write them.
  const notExported = (object: JsonObject, path: string) => {
    for (const key of ['description', 'technology']) {
      if (optionalString(object, key, path) === undefined) continue;
      warnings.push({ code: DiagramIssueCode.GraphInvalid, severity: 'warning', message: `${jsonPath(path, key)}: "${key}" belongs to C4 diagrams; a flowchart export does not write it.`, path: jsonPath(path, key) });
    }
  };
  const list = (key: string): { item: JsonValue; path: string }[] => {
    const field = value[key];
    const path = jsonPath(root, key);
    if (field === undefined) {
      error(root, `"${key}" is required (an empty array when there are none).`);
      return [];
    }
    if (!Array.isArray(field)) {
      error(path, `expected an array, found ${kindOf(field)}.`);
      return [];
    }
    return field.map((item, index) => ({ item, path: jsonPath(path, index) }));
  };

  onlyKeys(value, root, GRAPH_KEYS);
  if (value['kind'] !== 'flowchart') error(jsonPath(root, 'kind'), `expected "flowchart" (drawn diagrams are flowcharts), found ${JSON.stringify(value['kind']) ?? 'nothing'}.`);
  const direction = optionalString(value, 'direction', root);
  if (direction !== undefined && !(FLOWCHART_DIRECTIONS as readonly string[]).includes(direction)) {
    error(jsonPath(root, 'direction'), `"${direction}" is not a flowchart direction; use one of ${FLOWCHART_DIRECTIONS.join(', ')}.`);
  }
  optionalString(value, 'contextName', root);
  optionalString(value, 'contextDescription', root);

  // 1. Every element on its own: shape, fields, overlay.
  const elements: Element[] = [];
  list('nodes').forEach(({ item, path }, index) => {
    if (!isObject(item)) return void error(path, `expected a node (an object with id and label), found ${kindOf(item)}.`);
    onlyKeys(item, path, NODE_KEYS);
    const id = requiredString(item, 'id', path);
    label(item, 'label', path, true);
    const shape = optionalString(item, 'shape', path);
    if (shape !== undefined && !isWritableFlowchartShape(shape)) {
      error(jsonPath(path, 'shape'), `"${shape}" is not a Mermaid flowchart shape (see https://mermaid.js.org/syntax/flowchart.html#complete-list-of-new-shapes).`);
    }
    const parent = optionalString(item, 'parent', path);
    styles(item, path);
    notExported(item, path);
    overlay(item, 'node', path);
    if (id !== undefined) elements.push({ kind: 'node', index, id, parent, contextOnly: false, path });
  });
  const groupMembers: { group: Element; members: { id: string; path: string }[]; overlayMembers?: JsonValue }[] = [];
  list('groups').forEach(({ item, path }, index) => {
    if (!isObject(item)) return void error(path, `expected a group (an object with id, label and nodes), found ${kindOf(item)}.`);
    onlyKeys(item, path, GROUP_KEYS);
    const id = requiredString(item, 'id', path);
    label(item, 'label', path, true);
    const parent = optionalString(item, 'parent', path);
    const origin = item['origin'];
    if (origin !== undefined && origin !== 'mermaid' && origin !== 'context') error(jsonPath(path, 'origin'), `expected "mermaid" or "context", found ${JSON.stringify(origin)}.`);
    overlay(item, 'group', path);
    const members: { id: string; path: string }[] = [];
    const nodesPath = jsonPath(path, 'nodes');
    if (!Array.isArray(item['nodes'])) error(item['nodes'] === undefined ? path : nodesPath, item['nodes'] === undefined ? '"nodes" is required (an empty array when the group is empty).' : `expected an array of ids, found ${kindOf(item['nodes'])}.`);
    else {
      item['nodes'].forEach((member, j) => {
        if (typeof member === 'string') members.push({ id: member, path: jsonPath(nodesPath, j) });
        else error(jsonPath(nodesPath, j), `expected an id (a string), found ${kindOf(member)}.`);
      });
    }
    if (id === undefined) return;
    const group: Element = { kind: 'group', index, id, parent, contextOnly: origin === 'context', path };
    elements.push(group);
    groupMembers.push({ group, members, overlayMembers: isObject(item['overlay']) ? item['overlay']['nodes'] : undefined });
  });

  // 2. Ids: unique across nodes and groups, and writable in Mermaid.
  const byId = new Map<string, Element>();
  // References to a repeated id are not checked further: which element they mean is the reported problem.
  const repeated = new Set<string>();
  for (const element of elements) {
    const first = byId.get(element.id);
    if (first) {
      repeated.add(element.id);
      error(jsonPath(element.path, 'id'), `"${element.id}" is already the id of ${first.kind === 'node' ? 'node' : 'group'} ${first.path.slice(root.length + 1)}; ids must be unique.`);
      continue;
    }
    byId.set(element.id, element);
    const problem = element.contextOnly ? undefined : flowchartIdProblem(element.id);
    if (problem) error(jsonPath(element.path, 'id'), `the ${element.kind} id ${JSON.stringify(element.id)} cannot be written in Mermaid: ${problem}`, DiagramIssueCode.ExportUnsupportedId);
  }
  const subgraph = (id: string) => {
    const element = byId.get(id);
    return element?.kind === 'group' && !element.contextOnly;
  };
  const describe = (id: string) => {
    const element = byId.get(id);
    if (!element) return `no node or group has the id "${id}" (ids are case-sensitive)`;
    return element.kind === 'node' ? `"${id}" is a node` : `"${id}" is a context-only group (origin "context"), which Mermaid does not draw`;
  };

  // 3. Membership: a subgraph lists exactly the elements whose parent it is; no cycles.
  for (const element of elements) {
    if (element.parent === undefined || byId.get(element.id) !== element || repeated.has(element.parent)) continue;
    const at = jsonPath(element.path, 'parent');
    if (element.contextOnly) error(at, 'a context-only group (origin "context") cannot be nested; only Mermaid subgraphs nest.');
    else if (!subgraph(element.parent)) error(at, `the parent must be a subgraph, but ${describe(element.parent)}.`);
  }
  const listedIn = new Map<string, string>();
  for (const { group, members, overlayMembers } of groupMembers) {
    const seen = new Set<string>();
    for (const member of members) {
      if (repeated.has(member.id)) continue;
      if (seen.has(member.id)) error(member.path, `"${member.id}" is listed twice.`);
      seen.add(member.id);
      const element = byId.get(member.id);
      if (group.contextOnly) {
        if (element?.kind !== 'node') error(member.path, `a context-only group holds nodes only, but ${describe(member.id)}.`);
        continue;
      }
      if (!element || element.contextOnly) error(member.path, `${describe(member.id)}.`);
      else if (element.parent !== group.id) {
        error(member.path, `"${member.id}" is listed in "${group.id}", but its parent is ${element.parent === undefined ? 'not set' : `"${element.parent}"`}; set ${element.path.slice(root.length + 1)}.parent to "${group.id}" or remove it here.`);
      } else listedIn.set(member.id, group.id);
    }
    const extra = Array.isArray(overlayMembers) ? overlayMembers : [];
    extra.forEach((member, j) => {
      if (typeof member === 'string' && byId.get(member)?.kind !== 'node') {
        error(jsonPath(jsonPath(jsonPath(group.path, 'overlay'), 'nodes'), j), `"${member}" is not a node id of the diagram.`, DiagramIssueCode.ContextUnmatchedKey);
      }
    });
    if (group.contextOnly && overlayMembers !== undefined && canonical(overlayMembers) !== canonical(members.map((m) => m.id))) {
      error(jsonPath(jsonPath(group.path, 'overlay'), 'nodes'), `a context-only group's overlay lists the same nodes as the group itself (export writes ${jsonPath(group.path, 'nodes').slice(root.length + 1)}).`);
    }
  }
  for (const element of elements) {
    if (element.parent === undefined || element.contextOnly || repeated.has(element.parent) || repeated.has(element.id) || !subgraph(element.parent) || listedIn.get(element.id) === element.parent) continue;
    error(jsonPath(element.path, 'parent'), `group "${element.parent}" does not list "${element.id}" in its nodes; add it there or clear the parent.`);
  }
  // Walk each subgraph's parent chain once (linear): a chain that reaches a group of the current walk is a cycle.
  const state = new Map<string, 'walking' | 'done'>();
  for (const start of elements) {
    if (start.kind !== 'group' || start.contextOnly || state.has(start.id)) continue;
    const walk: Element[] = [];
    for (let at: Element | undefined = start; at && !state.has(at.id); at = at.parent === undefined ? undefined : byId.get(at.parent)) {
      if (at.kind !== 'group' || at.contextOnly) break;
      state.set(at.id, 'walking');
      walk.push(at);
      const next = at.parent === undefined ? undefined : byId.get(at.parent);
      if (next && state.get(next.id) === 'walking') error(jsonPath(at.path, 'parent'), `groups cannot contain themselves: "${at.id}" is inside "${next.id}", which is (or is inside) "${at.id}".`);
    }
    for (const element of walk) state.set(element.id, 'done');
  }

  // 4. Edges: endpoints, ids, link types, one overlay per source–target pair.
  const edges: { source: string; target: string; path: string; overlay: JsonValue | undefined }[] = [];
  const edgeIds = new Map<string, string>();
  for (const { item, path } of list('edges')) {
    if (!isObject(item)) {
      error(path, `expected an edge (an object with source and target), found ${kindOf(item)}.`);
      continue;
    }
    onlyKeys(item, path, EDGE_KEYS);
    const source = requiredString(item, 'source', path);
    const target = requiredString(item, 'target', path);
    for (const [key, end] of [['source', source], ['target', target]] as const) {
      if (end !== undefined && !repeated.has(end) && !(byId.get(end)?.kind === 'node' || subgraph(end))) error(jsonPath(path, key), `an edge connects nodes or subgraphs, but ${describe(end)}.`);
    }
    label(item, 'label', path, false);
    const id = optionalString(item, 'id', path);
    if (id !== undefined) {
      const problem = flowchartIdProblem(id);
      if (problem) error(jsonPath(path, 'id'), `the edge id ${JSON.stringify(id)} cannot be written in Mermaid: ${problem}`, DiagramIssueCode.ExportUnsupportedId);
      else if (edgeIds.has(id)) error(jsonPath(path, 'id'), `"${id}" is already the id of ${edgeIds.get(id)}; Mermaid ignores a repeated edge id.`);
      else if (byId.has(id)) error(jsonPath(path, 'id'), `"${id}" is already the id of a ${byId.get(id)?.kind}; Mermaid would lose that ${byId.get(id)?.kind}.`);
      edgeIds.set(id, path.slice(root.length + 1));
    }
    const type = optionalString(item, 'type', path);
    const strokes = FLOWCHART_LINK_STROKES[type ?? 'arrow_point'];
    if (type !== undefined && !Object.hasOwn(FLOWCHART_LINK_STROKES, type)) error(jsonPath(path, 'type'), `"${type}" is not a flowchart link type; use one of ${Object.keys(FLOWCHART_LINK_STROKES).join(', ')}.`);
    const stroke = optionalString(item, 'stroke', path);
    if (stroke !== undefined && strokes && !strokes.includes(stroke)) error(jsonPath(path, 'stroke'), `a ${type ?? 'arrow_point'} link can be drawn ${strokes.join(', ')}, not "${stroke}".`);
    styles(item, path);
    notExported(item, path);
    overlay(item, 'edge', path);
    if (source !== undefined && target !== undefined) edges.push({ source, target, path, overlay: item['overlay'] });
  }
  const pairs = new Map<string, { first: (typeof edges)[number]; overlay: string }>();
  const keyed: { source: string; target: string; path: string }[] = [];
  for (const edge of edges) {
    const pair = `${edge.source}\u0000${edge.target}`;
    const overlayText = edge.overlay === undefined ? 'none' : canonical(edge.overlay);
    const first = pairs.get(pair);
    if (!first) {
      pairs.set(pair, { first: edge, overlay: overlayText });
      if (edge.overlay !== undefined) keyed.push(edge);
    } else if (first.overlay !== overlayText) {
      error(jsonPath(edge.path, 'overlay'), `edges from "${edge.source}" to "${edge.target}" share one context entry ("${edge.source}-${edge.target}"), so they need the same overlay as ${first.first.path.slice(root.length + 1)}${first.overlay === 'none' ? ' (none)' : ''}.`);
    }
  }
  const index = new EdgeIndex(edges);
  const ids = new Set([...byId.values()].filter((e) => !e.contextOnly).map((e) => e.id));
  for (const edge of keyed) {
    const key = `${edge.source}-${edge.target}`;
    const readings = resolveEdgeKey(key, index, ids).matches;
    if (readings.length > 1) {
      error(jsonPath(edge.path, 'overlay'), `the context key "${key}" would be ambiguous (${readings.map((r) => `${r.source} → ${r.target}`).join(', ')}); rename a node whose id contains "-".`, DiagramIssueCode.ContextAmbiguousKey);
    }
  }

  // 5. Overlays by the context file's rules.
  const checked = validateContextEntries(overlays);
  errors.push(...checked.errors);
  warnings.push(...checked.warnings);
  return errors.length === 0 ? { graph: value as unknown as OverlaidGraph, errors, warnings } : { errors, warnings };
}
