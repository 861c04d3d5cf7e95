import { createView } from '@sc/diagram';
import { canvasEdge, canvasNode, plainLabel, type CanvasEdge, type CanvasNode, type ModelInput } from '../../diagram-canvas/canvas-model';
import type { LayoutInput } from '../../diagram-canvas/layout';
import { GROUP_PADDING, positionOf, type EditorDoc, type Point } from './editor-doc';

/**
 * What the editor canvas draws for a document: the viewer's node look (canvasNode, same components) and edge
 * look (canvasEdge), placed where the document's layout says, and group frames sized to hold their members.
 */
export interface EditorNode {
  node: CanvasNode;
  point: Point;
  parent?: string;
}

export interface EditorGroup {
  id: string;
  title: string;
  point: Point;
  parent?: string;
  width: number;
  height: number;
  depth: number;
}

export interface EditorEdge {
  index: number;
  edge: CanvasEdge;
}

export interface EditorModel {
  nodes: EditorNode[];
  /** Outermost first. */
  groups: EditorGroup[];
  edges: EditorEdge[];
}

const MIN_GROUP = { width: 200, height: 120 };

export function editorModel(doc: EditorDoc, databases: ModelInput['databases'] = new Map()): EditorModel {
  const graph = doc.graph;
  const input: ModelInput = { view: createView(graph), databases };
  const nodes = graph.nodes.map((source): EditorNode => {
    const node = canvasNode(source, 'flowchart', input);
    return { node, point: positionOf(doc, source.id, 'node') ?? { x: 0, y: 0 }, ...(source.parent ? { parent: source.parent } : {}) };
  });
  const size = new Map<string, { width: number; height: number }>(nodes.map((n) => [n.node.id, { width: n.node.width, height: n.node.height }]));
  const depthOf = (id: string | undefined, seen = 0): number => (id === undefined || seen > graph.groups.length ? 0 : 1 + depthOf(graph.groups.find((g) => g.id === id)?.parent, seen + 1));

  // A frame reaches past its lowest and rightmost member; innermost groups are sized first.
  const groups = graph.groups
    .map((g) => ({ source: g, depth: depthOf(g.id) }))
    .sort((a, b) => b.depth - a.depth)
    .map(({ source, depth }): EditorGroup => {
      let width = MIN_GROUP.width;
      let height = MIN_GROUP.height;
      for (const member of source.nodes) {
        const box = size.get(member);
        const at = positionOf(doc, member, graph.groups.some((g) => g.id === member) ? 'group' : 'node');
        if (!box || !at) continue;
        width = Math.max(width, at.x + box.width + GROUP_PADDING);
        height = Math.max(height, at.y + box.height + GROUP_PADDING);
      }
      size.set(source.id, { width, height });
      return {
        id: source.id,
        title: plainLabel(source.overlay?.name ?? source.label) || source.id,
        point: positionOf(doc, source.id, 'group') ?? { x: 0, y: 0 },
        ...(source.parent ? { parent: source.parent } : {}),
        width,
        height,
        depth,
      };
    })
    .sort((a, b) => a.depth - b.depth);
  const edges = graph.edges.map((edge, index) => ({ index, edge: canvasEdge(edge, `e${index}`, 'flowchart') }));
  return { nodes, groups, edges };
}

/** The layout worker's input for automatic layout of the whole document (every group expanded). */
export function editorLayoutInput(model: EditorModel, direction: 'LR' | 'TB'): LayoutInput {
  return {
    direction: direction === 'LR' ? 'RIGHT' : 'DOWN',
    nodes: model.nodes.map(({ node, parent }) => ({ id: node.id, width: node.width, height: node.height, ...(parent ? { parent } : {}) })),
    groups: model.groups.map((g) => ({ id: g.id, ...(g.parent ? { parent: g.parent } : {}), collapsed: false, width: MIN_GROUP.width, height: 0 })),
    edges: model.edges.map(({ edge }) => ({ key: edge.key, source: edge.source, target: edge.target, ...(edge.labelWidth ? { labelWidth: edge.labelWidth, labelHeight: edge.labelHeight } : {}) })),
  };
}
