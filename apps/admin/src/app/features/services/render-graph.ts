import { exportToMermaid, type DiagramView, type OverlaidGraph } from '@sc/diagram';

/** Colours that are safe to copy into a Mermaid `style` line: hex codes and plain colour names only. */
const SAFE_COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$/;

/**
 * The Mermaid source that draws what the view currently shows. Ids are replaced by generated ones (n0, g0…), so
 * any id a diagram uses — sequence participants, C4 aliases, Mermaid keywords — renders; people read the labels.
 * A collapsed group is drawn as one double-bordered box carrying its name (Mermaid draws an empty subgraph as a
 * sliver), with the edges that crossed its border attached to it. Node fill and stroke from the context are
 * applied as Mermaid styles.
 */
export function renderableMermaid(view: DiagramView): string {
  const visible = view.visible;
  const ids = new Map<string, string>();
  visible.groups.forEach((group, index) => ids.set(group.id, `g${index}`));
  visible.nodes.forEach((node, index) => ids.set(node.id, `n${index}`));
  const idOf = (id: string): string => ids.get(id) ?? id;

  const collapsedGroups = visible.groups.filter((group) => group.collapsed);
  const graph: OverlaidGraph = {
    kind: view.graph.kind,
    ...(view.graph.direction ? { direction: view.graph.direction } : {}),
    nodes: [
      ...visible.nodes.map((node) => ({
        id: idOf(node.id),
        label: node.label || node.id,
        ...(node.shape ? { shape: node.shape } : {}),
        // Only the shape: other overlay fields belong to the context file, not to the drawing.
        ...(node.overlay?.shape ? { overlay: { shape: node.overlay.shape } } : {}),
      })),
      ...collapsedGroups.map((group) => ({
        id: idOf(group.id),
        label: `${group.label || group.id} (collapsed)`,
        overlay: { shape: 'subroutine' as const },
      })),
    ],
    // A collapsed group stays a member of its parent group, so its box is drawn inside the parent.
    groups: visible.groups
      .filter((group) => !group.collapsed)
      .map((group) => ({ id: idOf(group.id), label: group.label || group.id, nodes: group.nodes.map(idOf) })),
    edges: visible.edges.map((edge) => ({
      source: idOf(edge.source),
      target: idOf(edge.target),
      ...(edge.label ? { label: edge.label } : {}),
      ...(edge.type ? { type: edge.type } : {}),
      ...(edge.stroke ? { stroke: edge.stroke } : {}),
    })),
  };
  const lines = [exportToMermaid(graph).mermaid.trimEnd()];
  for (const node of visible.nodes) {
    const style = node.overlay?.style;
    const parts = [
      style?.fill && SAFE_COLOUR.test(style.fill) ? `fill:${style.fill}` : undefined,
      style?.stroke && SAFE_COLOUR.test(style.stroke) ? `stroke:${style.stroke}` : undefined,
    ].filter((part): part is string => part !== undefined);
    if (parts.length > 0) lines.push(`  style ${idOf(node.id)} ${parts.join(',')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Ids of groups nested at any depth inside a collapsed group: they are hidden, so they cannot be toggled. */
export function hiddenGroupIds(view: DiagramView): Set<string> {
  const visible = new Set(view.visible.groups.map((group) => group.id));
  return new Set(view.graph.groups.filter((group) => !visible.has(group.id)).map((group) => group.id));
}
