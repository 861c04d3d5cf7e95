import { computed, linkedSignal, type Signal, type WritableSignal } from '@angular/core';
import { flowchartIdProblem, validateDrawnGraph, type DiagramIssue, type OverlaidEdge, type OverlaidGraph, type OverlaidGroup, type OverlaidNode } from '@sc/diagram';
import { renameInGraph } from '../editor-doc';

/**
 * Why `id` cannot be the new id of the node or group now called `currentId`: Mermaid cannot write it (the export's
 * own rule), or another node or group of the graph already has it. Undefined when it can.
 */
export function elementIdProblem(graph: OverlaidGraph, id: string, currentId: string): string | undefined {
  if (id === '') return 'An id is required.';
  const problem = flowchartIdProblem(id);
  if (problem) return problem;
  if (id === currentId) return undefined;
  if (graph.nodes.some((node) => node.id === id)) return `"${id}" is already the id of a node; ids must be unique.`;
  if (graph.groups.some((group) => group.id === id)) return `"${id}" is already the id of a group; ids must be unique.`;
  return undefined;
}

/** A problem of one element, with the JSON path below the element (`overlay.style.fill`, `label`). */
export interface ElementProblem {
  path: string;
  message: string;
}

function below(issues: readonly DiagramIssue[], prefix: string): ElementProblem[] {
  return issues
    .filter((issue) => issue.path === prefix || issue.path?.startsWith(`${prefix}.`) || issue.path?.startsWith(`${prefix}[`))
    .map((issue) => {
      const path = (issue.path ?? prefix).slice(prefix.length).replace(/^\./, '');
      return { path, message: issue.message.replace(/^\$[^:]*: /, '') };
    });
}

/**
 * The problems validateDrawnGraph finds in this node alone (label, shape, overlay by the context rules), so the
 * panel never emits a node the draft's save would refuse. Membership and id uniqueness are the graph's concern.
 */
export function nodeProblems(node: OverlaidNode): ElementProblem[] {
  const { parent: _parent, ...alone } = node;
  const checked = validateDrawnGraph({ kind: 'flowchart', nodes: [alone], edges: [], groups: [] });
  return below(checked.errors, '$.nodes[0]');
}

/** The problems of this edge alone (label, link type and stroke, overlay by the context rules). */
export function edgeProblems(edge: OverlaidEdge): ElementProblem[] {
  const ends = [...new Set([edge.source, edge.target])].map((id) => ({ id, label: 'x' }));
  const { id: _id, ...withoutId } = edge;
  const checked = validateDrawnGraph({ kind: 'flowchart', nodes: ends, edges: [withoutId], groups: [] });
  return below(checked.errors, '$.edges[0]');
}

/** The problems of this group alone (label, overlay name). */
export function groupProblems(group: OverlaidGroup): ElementProblem[] {
  const { parent: _parent, overlay, ...alone } = group;
  const { nodes: _nodes, ...overlayAlone } = overlay ?? {};
  const checked = validateDrawnGraph({ kind: 'flowchart', nodes: [], edges: [], groups: [{ ...alone, nodes: [], ...(overlay ? { overlay: overlayAlone } : {}) }] });
  return below(checked.errors, '$.groups[0]');
}

/** Keys of the errors a graph already has, so that an edit is refused only for the problems it adds. */
export function errorKeys(graph: OverlaidGraph): ReadonlySet<string> {
  return new Set(validateDrawnGraph(graph).errors.map(issueKey));
}

const issueKey = (issue: DiagramIssue) => `${issue.path ?? ''}\u0000${issue.message}`;

/**
 * The problems `after` has that the graph before the edit (`before`, from errorKeys) did not: what an element's
 * edit breaks elsewhere, such as two parallel edges that must share one overlay (a context file keys edges by
 * "source-target"), or an edge key a renamed node makes ambiguous.
 */
export function addedProblems(before: ReadonlySet<string>, after: OverlaidGraph): ElementProblem[] {
  return validateDrawnGraph(after).errors.filter((issue) => !before.has(issueKey(issue))).map((issue) => ({ path: '', message: issue.message }));
}

/**
 * Up to this many nodes, edges and groups, an edit is checked in its whole graph (a few milliseconds); above, where
 * validating the graph takes hundreds of milliseconds, only the element itself is (plus, for edges, their parallel
 * edges). The server's save still checks the whole graph and names any problem left.
 */
export const WHOLE_GRAPH_CHECK_LIMIT = 2000;

/**
 * What keeps an edited element from being applied. Placed in its graph (`placed`, undefined when the graph does not
 * hold it yet): the problems it adds there, or, above the size limit, its own problems and the `nearby` ones
 * (checked in the placed graph). Not placed: its own problems.
 */
export function editProblems(
  baseline: () => ReadonlySet<string>,
  placed: OverlaidGraph | undefined,
  alone: () => ElementProblem[],
  nearby: (placed: OverlaidGraph) => ElementProblem[] = () => [],
): ElementProblem[] {
  if (placed === undefined) return alone();
  if (placed.nodes.length + placed.edges.length + placed.groups.length <= WHOLE_GRAPH_CHECK_LIMIT) return addedProblems(baseline(), placed);
  return [...alone(), ...nearby(placed)];
}

/** Parallel edges share one context entry ("source-target"), so they must carry the same overlay (or none). */
export function parallelOverlayProblems(placed: OverlaidGraph, edge: OverlaidEdge): ElementProblem[] {
  const overlay = JSON.stringify(edge.overlay ?? null);
  const differs = placed.edges.some((other) => other.source === edge.source && other.target === edge.target && JSON.stringify(other.overlay ?? null) !== overlay);
  return differs ? [{ path: 'overlay', message: `edges from "${edge.source}" to "${edge.target}" share one context entry ("${edge.source}-${edge.target}"), so they need the same overlay.` }] : [];
}

/** The graph with `node` in place of `previous` (found by its id; undefined when the graph has no such node). */
export function withNodePlaced(graph: OverlaidGraph, previous: OverlaidNode, node: OverlaidNode): OverlaidGraph | undefined {
  const index = graph.nodes.findIndex((candidate) => candidate.id === previous.id);
  if (index < 0) return undefined;
  const placed = { ...graph, nodes: graph.nodes.map((candidate, i) => (i === index ? node : candidate)) };
  return renameInGraph(placed, previous.id, node.id);
}

/** The graph with `group` in place of `previous` (found by its id). */
export function withGroupPlaced(graph: OverlaidGraph, previous: OverlaidGroup, group: OverlaidGroup): OverlaidGraph | undefined {
  const index = graph.groups.findIndex((candidate) => candidate.id === previous.id);
  if (index < 0) return undefined;
  const placed = { ...graph, groups: graph.groups.map((candidate, i) => (i === index ? group : candidate)) };
  return renameInGraph(placed, previous.id, group.id);
}

/** The graph with `edge` in place of `previous` (the same object, or the first equal edge). */
export function withEdgePlaced(graph: OverlaidGraph, previous: OverlaidEdge, edge: OverlaidEdge): OverlaidGraph | undefined {
  let index = graph.edges.indexOf(previous);
  if (index < 0) {
    const text = JSON.stringify(previous);
    index = graph.edges.findIndex((candidate) => JSON.stringify(candidate) === text);
  }
  if (index < 0) return undefined;
  return { ...graph, edges: graph.edges.map((candidate, i) => (i === index ? edge : candidate)) };
}

/** `object` without the keys whose value is undefined, or undefined when nothing is left (an empty style). */
export function compact<T extends object>(object: T): T | undefined {
  const entries = Object.entries(object).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as T);
}

/**
 * `element` with `key` set to `value` (placed last), or without `key` when `value` is undefined: how a panel writes an
 * optional field, so that an unset one leaves no key behind.
 */
export function withField<E extends object, K extends keyof E>(element: E, key: K, value: E[K] | undefined): E {
  const { [key]: _old, ...rest } = element;
  return (value === undefined ? rest : { ...rest, [key]: value }) as E;
}

/** How a panel's edits of one kind of element are checked before they are emitted. */
export interface ElementRules<E> {
  /** The graph with `next` in place of `previous`, or undefined where it cannot be placed (then `alone` decides). */
  placed(graph: OverlaidGraph, previous: E, next: E): OverlaidGraph | undefined;
  /** The problems of the element alone. */
  alone(next: E): ElementProblem[];
  /** The problems `next` makes with its neighbours, for graphs too large to check whole. */
  nearby?(placed: OverlaidGraph, next: E): ElementProblem[];
}

/** The rules of each panel: nodes and groups are found by id (a rename is applied in the placed graph). */
export const NODE_RULES: ElementRules<OverlaidNode> = { placed: withNodePlaced, alone: nodeProblems };
export const GROUP_RULES: ElementRules<OverlaidGroup> = { placed: withGroupPlaced, alone: groupProblems };
/** Edges are also checked against their parallel edges, which share their context entry. */
export const EDGE_RULES: ElementRules<OverlaidEdge> = { placed: withEdgePlaced, alone: edgeProblems, nearby: parallelOverlayProblems };

/** The edit state of a properties panel, see elementEdits. */
export interface ElementEdits<E> {
  /** The latest element: ahead of the input until the parent renders again, so quick successive edits build on each other. */
  readonly current: WritableSignal<E>;
  /** Why the last edit was refused; cleared by the next accepted one and when another element comes in. */
  readonly refused: WritableSignal<string[]>;
  /** Takes `next` as the current element and emits it (elementEdits' `changed`) when validateDrawnGraph accepts it. */
  apply(next: E): void;
  /** Applies the current element with `key` set to `value`, or without it for undefined (withField). */
  set<K extends keyof E>(key: K, value: E[K] | undefined): void;
}

/**
 * The edits of the node, edge or group a panel shows: the panels emit only what validateDrawnGraph accepts (`changed`,
 * with the element it replaces), and an edit is refused only for the problems it adds to the graph (its own errors are
 * computed once per graph).
 */
export function elementEdits<E extends object>(element: Signal<E>, graph: Signal<OverlaidGraph>, rules: ElementRules<E>, changed: (previous: E, next: E) => void): ElementEdits<E> {
  const current = linkedSignal(() => element());
  const refused = linkedSignal<E, string[]>({ source: element, computation: () => [] });
  const baseline = computed(() => errorKeys(graph()));
  const apply = (next: E): void => {
    const previous = current();
    const { nearby } = rules;
    const problems = editProblems(baseline, rules.placed(graph(), previous, next), () => rules.alone(next), nearby && ((placed) => nearby(placed, next)));
    refused.set(problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)));
    if (problems.length > 0) return;
    current.set(next);
    changed(previous, next);
  };
  return { current, refused, apply, set: (key, value) => apply(withField(current(), key, value)) };
}
