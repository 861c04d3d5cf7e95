import { layoutInput, outlinesOf, routeBetweenBoxes, straightLine, type Box, type CanvasModel, type LayoutResult } from '@sc/diagram';

/**
 * The drawing right after a group is collapsed, before ELK's new layout arrives from the worker: everything stays
 * where it is, a collapsed group shrinks in place to its name box (top-left corner kept), the nodes inside it are
 * no longer drawn, and the edges that now end at the group (re-pointed, or merged by the collapse) are drawn
 * straight between the boxes they join. Computed on the main thread in a few milliseconds, so the click is answered
 * within a frame; the exact topology is the new model's (the same nodes, groups and edges ELK will lay out).
 *
 * Returns null when the new model shows something the previous drawing has no place for (an expanded group's
 * members): that waits for the layout.
 */
export function layoutInPlace(previous: { model: CanvasModel; result: LayoutResult }, next: CanvasModel): LayoutResult | null {
  const before = previous.result.boxes;
  const wasCollapsed = new Map(previous.model.groups.map((group) => [group.id, group.collapsed]));
  const boxes: Record<string, Box> = {};
  for (const group of next.groups) {
    const box = before[group.id];
    const collapsedBefore = wasCollapsed.get(group.id);
    if (!box || collapsedBefore === undefined) return null;
    if (group.collapsed === collapsedBefore) boxes[group.id] = box;
    else if (group.collapsed) boxes[group.id] = { x: box.x, y: box.y, width: group.width, height: group.height };
    else return null;
  }
  for (const node of next.nodes) {
    const box = before[node.id];
    if (!box) return null;
    boxes[node.id] = box;
  }

  const ends = new Map(previous.model.edges.map((edge) => [edge.key, edge]));
  const input = layoutInput(next);
  const outline = outlinesOf(input);
  const edges = routeBetweenBoxes(input, next.edges, boxes, (edge, source, target) => {
    const old = ends.get(edge.key);
    const route = previous.result.edges[edge.key];
    // Same ends, neither moved nor resized: the routed line still fits.
    if (route && old && old.source === edge.source && old.target === edge.target && before[edge.source] === source && before[edge.target] === target) return route;
    const [from, to] = straightLine(outline(edge.source, source), outline(edge.target, target));
    return {
      points: [from, to],
      ...(edge.labelWidth ? { label: { x: (from.x + to.x - edge.labelWidth) / 2, y: (from.y + to.y - edge.labelHeight) / 2 } } : {}),
    };
  });
  return { width: previous.result.width, height: previous.result.height, boxes, edges };
}

/** The collapse state a model was drawn for: with the same graph, equal keys mean equal layouts. */
export function collapseKey(model: CanvasModel): string {
  return model.groups
    .filter((group) => group.collapsed)
    .map((group) => group.id)
    .sort()
    .join('\u0000');
}
