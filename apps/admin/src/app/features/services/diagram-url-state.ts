import { collapseGroups, createView, type DiagramView, type OverlaidGraph } from '@sc/diagram';

/**
 * What a diagram page keeps in its URL, so Back/Forward and a shared link show the same thing: the collapsed groups
 * (`?collapsed=a&collapsed=b`), the selected node (`?node=id`) and the revision the changes are compared with
 * (`?compare=n`), beside `?revision=n`. The router binds each to the page's input of that name.
 */
export interface DiagramUrlState {
  collapsed?: string[] | null;
  node?: string | null;
  compare?: number | null;
}

/** A query parameter given once is a string, given several times an array (Angular's router). */
export function paramList(value: string | readonly string[] | undefined | null): string[] {
  if (value === undefined || value === null || value === '') return [];
  return typeof value === 'string' ? [value] : value.filter((item) => item !== '');
}

/** Query parameters for a state change, merged into the current ones; an empty or absent value removes its parameter. */
export function urlParams(state: DiagramUrlState): Record<string, string | string[] | number | null> {
  const params: Record<string, string | string[] | number | null> = {};
  if (state.collapsed !== undefined) params['collapsed'] = state.collapsed?.length ? [...state.collapsed] : null;
  if (state.node !== undefined) params['node'] = state.node || null;
  if (state.compare !== undefined) params['compare'] = state.compare ?? null;
  return params;
}

/**
 * The view of `graph` with the groups of `collapsed` collapsed (ids the graph does not have, as in a link to an
 * earlier revision, are left out). `previous` is returned when it already shows exactly that, so the canvas sees no
 * change when the URL catches up with a collapse the page has drawn already.
 */
export function viewWithCollapsed(graph: OverlaidGraph, collapsed: readonly string[], previous?: DiagramView | null): DiagramView {
  const groups = new Set(graph.groups.map((group) => group.id));
  const wanted = [...new Set(collapsed.filter((id) => groups.has(id)))].sort();
  if (previous && previous.graph === graph && previous.collapsed.length === wanted.length && previous.collapsed.every((id, i) => id === wanted[i])) return previous;
  const view = createView(graph);
  return wanted.length === 0 ? view : collapseGroups(view, wanted);
}
