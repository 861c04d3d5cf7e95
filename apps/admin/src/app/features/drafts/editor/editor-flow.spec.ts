import type { WritableSignal } from '@angular/core';
import type { Point } from '@sc/diagram';
import { addNode, connect, emptyGraph, group, setLabel, type EditorDoc } from './editor-doc';
import { EditorFlow } from './editor-flow';
import { editorModel } from './editor-model';

/** Two nodes in a group, joined by a labelled edge, and a node outside. */
function drawn(): EditorDoc {
  let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
  doc = addNode(doc, 'shape', { x: 0, y: 0 }).doc;
  doc = addNode(doc, 'shape', { x: 300, y: 0 }).doc;
  doc = addNode(doc, 'text', { x: 0, y: 400 }).doc;
  doc = setLabel(connect(doc, 'shape1', 'shape2'), { kind: 'edge', index: 0 }, 'calls');
  const grouped = group(doc, ['shape1', 'shape2']);
  if (!grouped) throw new Error('not grouped');
  return grouped.doc;
}

describe('EditorFlow', () => {
  it('draws frames before nodes, a frame under its prefixed id as the parent of its members', () => {
    const flow = new EditorFlow(() => true);
    const nodes = flow.nodes(editorModel(drawn()));
    expect(nodes.map((n) => [n.id, n.type, n.parentId?.() ?? null])).toEqual([
      ['g:group1', 'template-group', null],
      ['shape1', 'html-template', 'g:group1'],
      ['shape2', 'html-template', 'g:group1'],
      ['text1', 'html-template', null],
    ]);
    expect(nodes.every((n) => n.draggable?.() === true)).toBe(true);
    expect(new EditorFlow(() => false).nodes(editorModel(drawn())).some((n) => n.draggable?.())).toBe(false);
  });

  it('keeps the objects of elements that stay, and makes a node anew when it changes group', () => {
    const flow = new EditorFlow(() => true);
    const doc = drawn();
    const [, first] = flow.nodes(editorModel(doc));
    const [edge] = flow.edges(editorModel(doc), new Map());
    expect(flow.nodes(editorModel(doc))[1]).toBe(first);
    expect(flow.edges(editorModel(doc), new Map())[0]).toBe(edge);
    const ungrouped = { ...doc, graph: { ...doc.graph, nodes: doc.graph.nodes.map(({ parent: _parent, ...n }) => n), groups: [] }, layout: { ...doc.layout, groups: [] } };
    expect(flow.nodes(editorModel(ungrouped)).find((n) => n.id === 'shape1')).not.toBe(first);
  });

  it('gives an unrouted edge ngx-vflow label, and a routed one its own label on the route instead', () => {
    const flow = new EditorFlow(() => true);
    const model = editorModel(drawn());
    const [plain] = flow.edges(model, new Map());
    expect(Object.keys(plain.edgeLabels?.() ?? {})).toEqual(['center']);
    expect(plain.data?.()).toEqual(expect.objectContaining({ index: 0 }));
    const route = { points: [{ x: 0, y: 0 }, { x: 100, y: 0 }], label: { x: 40, y: -10 } };
    const [routed] = flow.edges(model, new Map([[model.edges[0].edge.key, route]]));
    expect(routed).not.toBe(plain);
    expect(routed.edgeLabels?.()).toEqual({});
    expect(routed.data?.()).toEqual(expect.objectContaining({ route, labelAt: { x: 40, y: -10 } }));
  });

  it('shows the selection on nodes, frames and edges, and reads back what ngx-vflow selected', () => {
    const flow = new EditorFlow(() => true);
    const model = editorModel(drawn());
    const nodes = flow.nodes(model);
    const edges = flow.edges(model, new Map());
    flow.showSelection({ nodes: ['text1'], groups: ['group1'], edges: [0] });
    expect(nodes.filter((n) => n.selected?.()).map((n) => n.id)).toEqual(['g:group1', 'text1']);
    expect(edges[0].selected?.()).toBe(true);
    (nodes[1].selected as WritableSignal<boolean>).set(true);
    expect(flow.selection()).toEqual({ nodes: ['shape1', 'text1'], groups: ['group1'], edges: [0] });
  });

  it('reads the moves of a drag, snapped to the grid or to the pixel', () => {
    const flow = new EditorFlow(() => true);
    const model = editorModel(drawn());
    const nodes = flow.nodes(model);
    expect(flow.moves(model, true)).toEqual([]);
    (nodes[0].point as WritableSignal<Point>).set({ x: 37, y: 5 });
    (nodes[3].point as WritableSignal<Point>).set({ x: 10.4, y: 390.6 });
    expect(flow.moves(model, true)).toEqual([
      { id: 'group1', x: 32, y: 0 },
      { id: 'text1', x: 16, y: 384 },
    ]);
    expect(flow.moves(model, false)).toEqual([
      { id: 'group1', x: 37, y: 5 },
      { id: 'text1', x: 10, y: 391 },
    ]);
  });
});
