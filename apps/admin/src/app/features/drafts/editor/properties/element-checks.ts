import type { WritableSignal } from '@angular/core';
import { flowchartIdProblem, validateDrawnGraph, type DiagramIssue, type OverlaidEdge, type OverlaidGraph, type OverlaidGroup, type OverlaidNode } from '@sc/diagram';

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

function below(issues: DiagramIssue[], prefix: string): ElementProblem[] {
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

/** `object` without the keys whose value is undefined, or undefined when nothing is left (an empty style). */
export function compact<T extends object>(object: T): T | undefined {
  const entries = Object.entries(object).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as T);
}

/**
 * Records why an edit is refused (or clears the record when it is not) and says whether it may be emitted: the
 * panels emit only what validateDrawnGraph accepts.
 */
export function acceptable(problems: readonly ElementProblem[], refused: WritableSignal<string[]>): boolean {
  refused.set(problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)));
  return problems.length === 0;
}
