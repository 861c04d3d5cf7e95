import type { DraftLayout, ErrorDetail } from '@sc/contracts';
import { jsonPath, type DiagramIssue, type OverlaidGraph } from '@sc/diagram';

/**
 * Pure checks and conversions of the drafts module (no Nest, no database): layout rules, nesting depth,
 * the graph of a synced diagram as a draft graph, and the files an export writes.
 */

/** Deeper JSON than this is refused before anything walks it recursively. A draft needs about 8 levels. */
export const MAX_DRAFT_JSON_DEPTH = 32;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path of the first value nested deeper than `maxDepth` levels below `root`, or undefined. Iterative. */
export function tooDeepPath(value: unknown, root: string, maxDepth = MAX_DRAFT_JSON_DEPTH): string | undefined {
  interface Visit {
    value: unknown;
    depth: number;
    parent?: Visit;
    key?: string | number;
  }
  // Paths are built only for the answer, from the parent chain, not for every value visited.
  const pathOf = (visit: Visit): string => (visit.parent === undefined || visit.key === undefined ? root : jsonPath(pathOf(visit.parent), visit.key));
  const stack: Visit[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const current = visit.value;
    if (typeof current !== 'object' || current === null) continue;
    if (visit.depth >= maxDepth) return pathOf(visit);
    if (Array.isArray(current)) current.forEach((item, index) => stack.push({ value: item, depth: visit.depth + 1, parent: visit, key: index }));
    else for (const [key, item] of Object.entries(current)) stack.push({ value: item, depth: visit.depth + 1, parent: visit, key });
  }
  return undefined;
}

/**
 * Layout rules: `{nodes: [box], groups: [box]}` where a box is `{id, x, y, width?, height?}` of finite numbers
 * (sizes above 0), at most one per id, and only for ids the graph has. Every problem with its JSON path.
 */
export function layoutProblems(layout: unknown, graph: { nodes: readonly { id: string }[]; groups: readonly { id: string }[] }, root = '$.layout'): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  if (!isObject(layout)) {
    problem(root, 'expected a layout object {nodes, groups}.');
    return problems;
  }
  for (const key of Object.keys(layout)) if (key !== 'nodes' && key !== 'groups') problem(jsonPath(root, key), `unknown property "${key}"; allowed: nodes, groups.`);
  const section = (key: 'nodes' | 'groups', ids: Set<string>) => {
    const what = key === 'nodes' ? 'node' : 'group';
    const path = jsonPath(root, key);
    const boxes = layout[key];
    if (!Array.isArray(boxes)) {
      problem(boxes === undefined ? root : path, boxes === undefined ? `"${key}" is required (an empty array when there are none).` : `expected an array of positions {id, x, y, width?, height?}.`);
      return;
    }
    const placed = new Set<string>();
    boxes.forEach((box: unknown, index) => {
      const boxPath = jsonPath(path, index);
      if (!isObject(box)) {
        problem(boxPath, 'expected a position {id, x, y, width?, height?}.');
        return;
      }
      const id = box['id'];
      if (typeof id !== 'string') problem(jsonPath(boxPath, 'id'), `expected the id of a ${what}.`);
      else if (!ids.has(id)) problem(jsonPath(boxPath, 'id'), `the graph has no ${what} "${id}"; positions are kept only for existing ids.`);
      else if (placed.has(id)) problem(jsonPath(boxPath, 'id'), `"${id}" already has a position in this list.`);
      else placed.add(id);
      for (const [field, number] of Object.entries(box)) {
        const at = jsonPath(boxPath, field);
        if (field === 'id') continue;
        if (!['x', 'y', 'width', 'height'].includes(field)) problem(at, `unknown property "${field}"; allowed: id, x, y, width, height.`);
        else if (typeof number !== 'number' || !Number.isFinite(number)) problem(at, `expected a finite number, found ${JSON.stringify(number) ?? typeof number}.`);
        else if ((field === 'width' || field === 'height') && number <= 0) problem(at, `a size must be above 0, found ${number}.`);
      }
      for (const field of ['x', 'y']) if (!(field in box)) problem(boxPath, `"${field}" is required.`);
    });
  };
  section('nodes', new Set(graph.nodes.map((node) => node.id)));
  section('groups', new Set(graph.groups.map((group) => group.id)));
  return problems;
}

export const EMPTY_LAYOUT: DraftLayout = { nodes: [], groups: [] };

/**
 * The graph of a synced (or pasted) flowchart as a draft graph. applyContext adds the members a context lists
 * for a subgraph to that subgraph's `nodes`; in a draft a subgraph's `nodes` are exactly the elements whose
 * `parent` it is (the context's extra members stay in its overlay, where export writes them back).
 */
export function asDraftGraph(graph: OverlaidGraph): OverlaidGraph {
  const parentOf = new Map<string, string | undefined>([...graph.nodes, ...graph.groups].map((element) => [element.id, element.parent]));
  return {
    ...graph,
    groups: graph.groups.map((group) => (group.origin === 'context' ? group : { ...group, nodes: group.nodes.filter((member) => parentOf.get(member) === group.id) })),
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` with its object keys (at every depth) in the order `template` has them; keys `template` lacks go last. */
function followKeyOrder<T>(value: T, template: unknown): T {
  if (Array.isArray(value)) return (Array.isArray(template) ? value.map((item: unknown, i) => followKeyOrder(item, template[i])) : value) as T;
  if (!isPlainObject(value) || !isPlainObject(template)) return value;
  const keys = [...Object.keys(template).filter((key) => Object.hasOwn(value, key)), ...Object.keys(value).filter((key) => !Object.hasOwn(template, key))];
  return Object.fromEntries(keys.map((key) => [key, followKeyOrder(value[key], template[key])])) as T;
}

/**
 * A synced diagram's graph stored before migration 1766000000000 came out of jsonb, which reorders object keys
 * (shorter keys first), while its context file as synced has them in the author's order, and Export To Mermaid
 * writes overlays in the order they have. So that an unchanged copy exports the very file the repository holds (same
 * digest), every overlay takes the key order of its entry in the synced context file.
 */
export function inContextKeyOrder(graph: OverlaidGraph, contextText: string | null): OverlaidGraph {
  if (contextText === null) return graph;
  let context: unknown;
  try {
    context = JSON.parse(contextText);
  } catch {
    return graph;
  }
  if (!isPlainObject(context)) return graph;
  const section = (name: string): Record<string, unknown> => {
    const entries = context[name];
    return isPlainObject(entries) ? entries : {};
  };
  const nodes = section('nodes');
  const edges = section('edges');
  const groups = section('groups');
  const ordered = <E extends { overlay?: object }>(element: E, entries: Record<string, unknown>, key: string): E =>
    element.overlay && Object.hasOwn(entries, key) ? { ...element, overlay: followKeyOrder(element.overlay, entries[key]) } : element;
  // The context file lists node overlays in the order the drawing had its nodes, which Mermaid may have read back
  // in another order (top-level nodes before subgraphs): the nodes with an entry take the file's order among
  // themselves, in the places such nodes had; the others keep theirs.
  const listed = Object.keys(nodes);
  const rank = new Map(listed.map((id, i) => [id, i]));
  const inFileOrder = graph.nodes.filter((node) => rank.has(node.id)).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  let next = 0;
  const reordered = graph.nodes.map((node) => (rank.has(node.id) ? inFileOrder[next++] : node));
  return {
    ...graph,
    nodes: reordered.map((node) => ordered(node, nodes, node.id)),
    edges: graph.edges.map((edge) => ordered(edge, edges, `${edge.source}-${edge.target}`)),
    groups: graph.groups.map((group) => ordered(group, groups, group.id)),
  };
}

/** A libs/diagram issue as an error detail (file, line, column, JSON path when known). */
export function issueDetail(issue: DiagramIssue): ErrorDetail {
  return {
    code: issue.code,
    message: issue.message,
    ...(issue.path !== undefined ? { path: issue.path } : {}),
    ...(issue.file !== undefined ? { file: issue.file } : {}),
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { column: issue.column } : {}),
    ...(issue.hint !== undefined ? { hint: issue.hint } : {}),
    ...(issue.excerpt !== undefined ? { excerpt: issue.excerpt } : {}),
    ...(issue.detail !== undefined ? { detail: issue.detail } : {}),
  };
}

/** Where Export To Mermaid's files go in a repository, and the `.service.yaml` entry that syncs them. */
export function exportFiles(slug: string): { fileNames: { diagram: string; context: string }; serviceYaml: string } {
  const fileNames = { diagram: `${slug}.mmd`, context: `${slug}.context.json` };
  // The slug is [a-z0-9-], so no YAML quoting is needed.
  const serviceYaml = [
    'architectureDiagrams:',
    `  - name: ${slug}`,
    `    path: .service/diagrams/${fileNames.diagram}`,
    `    contextPath: .service/diagrams/${fileNames.context}`,
    '',
  ].join('\n');
  return { fileNames, serviceYaml };
}
