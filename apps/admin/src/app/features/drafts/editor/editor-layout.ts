import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { inAuthorsOrder, LAYERED_OPTIONS, outlineNodesOf, routeBetweenBoxes, withoutSmallSteps, type Box, type EdgeRoute, type ElkEngine, type LayoutInput, type LayoutResult, type Point } from '@sc/diagram';
import { GROUP_HEADER, GROUP_PADDING } from './editor-doc';
import { MIN_GROUP } from './editor-model';

/**
 * The draft editor's auto-layout: ONE ELK run over the whole draft with the hierarchy included
 * (`hierarchyHandling: INCLUDE_CHILDREN`), so an edge between groups is routed knowing every box on its way. The
 * viewer's `layoutDiagram` lays each group out on its own (with ports on the frames) for its per-group cache, which
 * pays on 1,000-node diagrams with collapsible groups; a draft is small and has no collapse, and one run gives the
 * group boxes the editor's own frame padding and minimum size, so the frames the editor draws around the members are
 * ELK's boxes and routes pass beside them.
 */
export async function layoutDraft(elk: ElkEngine, input: LayoutInput): Promise<LayoutResult> {
  const groups = new Set(input.groups.map((g) => g.id));
  const parentOf = new Map<string, string | undefined>([...input.groups.map((g) => [g.id, g.parent] as const), ...input.nodes.map((n) => [n.id, n.parent] as const)]);
  const ancestors = (id: string): string[] => {
    const chain: string[] = [];
    for (let p = parentOf.get(id); p !== undefined && chain.length <= groups.size; p = parentOf.get(p)) chain.push(p);
    return chain;
  };

  const elkNodes = new Map<string, ElkNode>();
  for (const group of input.groups) {
    elkNodes.set(group.id, {
      id: group.id,
      children: [],
      layoutOptions: {
        'elk.padding': `[top=${GROUP_HEADER + 8},left=${GROUP_PADDING},bottom=${GROUP_PADDING},right=${GROUP_PADDING}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${MIN_GROUP.width}, ${MIN_GROUP.height})`,
      },
    });
  }
  for (const node of input.nodes) elkNodes.set(node.id, { id: node.id, width: node.width, height: node.height });
  const root: ElkNode = {
    id: '\u0000root',
    layoutOptions: {
      // The spacing of the viewer's layoutDiagram, so both draw alike.
      ...LAYERED_OPTIONS,
      'elk.direction': input.direction,
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      // In one run over the whole draft, nodes that no edge joins share the first layer: ELK keeps the draft's order
      // there (and in every layer) unless another order crosses fewer edges.
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.padding': `[top=${GROUP_PADDING},left=${GROUP_PADDING},bottom=${GROUP_PADDING},right=${GROUP_PADDING}]`,
      // Route points and label positions relative to the root: absolute, whatever group an edge ends up in.
      'org.eclipse.elk.json.edgeCoords': 'ROOT',
    },
    children: [],
    edges: [],
  };
  // Members in the order the draft names them, which ELK's cycle breaking follows (as in the viewer's layout).
  const byAuthorsOrder = inAuthorsOrder(input);
  for (const [id, elkNode] of [...elkNodes].sort(([a], [b]) => byAuthorsOrder(a, b))) {
    const parent = parentOf.get(id);
    (parent !== undefined ? elkNodes.get(parent) : root)?.children?.push(elkNode);
  }
  for (const edge of input.edges) {
    if (!parentOf.has(edge.source) || !parentOf.has(edge.target)) continue;
    // A group's edge to something inside it is drawn straight, not laid out (ELK cannot route into its own box).
    if (edge.source === edge.target || ancestors(edge.source).includes(edge.target) || ancestors(edge.target).includes(edge.source)) continue;
    const elkEdge: ElkExtendedEdge = { id: edge.key, sources: [edge.source], targets: [edge.target] };
    // ELK places a label only when it has text; the text itself is drawn by the canvas.
    if (edge.labelWidth && edge.labelHeight) elkEdge.labels = [{ id: `${edge.key}\u0000label`, text: 'label', width: edge.labelWidth, height: edge.labelHeight }];
    root.edges?.push(elkEdge);
  }
  // Nodes with rows under their outline: ELK lays out the outline, and their edges end on it.
  const outlineNodes = outlineNodesOf(input);
  const ends = outlineNodes.onOutlines(root.edges ?? []);
  root.edges = ends.edges;
  for (const [id, elkNode] of elkNodes) Object.assign(elkNode, ends.node(id));

  const result = await elk.layout(root);

  const boxes: Record<string, Box> = {};
  const edges: Record<string, EdgeRoute> = {};
  const place = (elkNode: ElkNode, origin: Point) => {
    for (const child of elkNode.children ?? []) {
      // A node with rows: ELK laid out its outline; its box holds the rows below it too.
      const height = (child.height ?? 0) + (outlineNodes.rowsOf(child.id) ?? 0);
      const box = { x: origin.x + (child.x ?? 0), y: origin.y + (child.y ?? 0), width: child.width ?? 0, height };
      boxes[child.id] = box;
      place(child, box);
    }
  };
  place(result, { x: 0, y: 0 });
  // ELK may move an edge into the group that holds both its ends: collect them from every level.
  const collect = (elkNode: ElkNode) => {
    for (const edge of elkNode.edges ?? []) {
      const section = edge.sections?.[0];
      if (!section) continue;
      const label = edge.labels?.[0];
      edges[edge.id] = {
        points: [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({ x: p.x, y: p.y })),
        ...(label ? { label: { x: label.x ?? 0, y: label.y ?? 0 } } : {}),
      };
    }
    for (const child of elkNode.children ?? []) collect(child);
  };
  collect(result);
  // ELK ends routes on the boxes: routeBetweenBoxes carries each end on to its shape's outline, and small steps in
  // the lines are taken out where they can be, as in the viewer.
  const routed = routeBetweenBoxes(input, input.edges.filter((edge) => edges[edge.key]), boxes, (edge) => edges[edge.key]);
  return { width: result.width ?? 0, height: result.height ?? 0, boxes, edges: withoutSmallSteps(input, boxes, routed) };
}
