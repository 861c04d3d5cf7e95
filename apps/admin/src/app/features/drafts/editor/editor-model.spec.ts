import { addNode, connect, emptyGraph, group, GROUP_PADDING, type EditorDoc } from './editor-doc';
import { editorLayoutInput, editorModel } from './editor-model';

function drawn(): EditorDoc {
  let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
  doc = addNode(doc, 'shape', { x: 0, y: 0 }, { shape: 'hexagon' }).doc;
  doc = addNode(doc, 'table', { x: 400, y: 300 }).doc;
  doc = connect(doc, 'shape1', 'table1');
  const grouped = group(doc, ['shape1', 'table1']);
  if (!grouped) throw new Error('not grouped');
  return grouped.doc;
}

describe('editorModel', () => {
  it("draws nodes with the viewer's look at their layout positions, relative to their frame", () => {
    const model = editorModel(drawn());
    const table = model.nodes.find((n) => n.node.id === 'table1');
    expect(table?.node.kind).toBe('table');
    expect(table?.parent).toBe('group1');
    expect(model.nodes.find((n) => n.node.id === 'shape1')?.node.shape).toBe('hexagon');
    const frame = model.groups[0];
    // The frame starts above and left of its first member and reaches past its last one.
    expect(frame.point.x).toBe(-GROUP_PADDING);
    expect(table?.point.x).toBe(400 + GROUP_PADDING);
    expect(frame.width).toBe((table?.point.x ?? 0) + (table?.node.width ?? 0) + GROUP_PADDING);
    expect(frame.height).toBe((table?.point.y ?? 0) + (table?.node.height ?? 0) + GROUP_PADDING);
    expect(model.edges).toEqual([expect.objectContaining({ index: 0, edge: expect.objectContaining({ source: 'shape1', target: 'table1', markerEnd: expect.objectContaining({ type: 'arrow' }) }) })]);
  });

  it('sizes an outer frame around an inner one and gives ELK every element with its parent', () => {
    const inner = drawn();
    const outer = group(inner, ['group1']);
    if (!outer) throw new Error('not grouped');
    const model = editorModel(outer.doc);
    expect(model.groups.map((g) => [g.id, g.depth])).toEqual([
      ['group2', 1],
      ['group1', 2],
    ]);
    const [frame2, frame1] = model.groups;
    expect(frame2.width).toBeGreaterThan(frame1.width);
    const input = editorLayoutInput(model, 'TB');
    expect(input.direction).toBe('DOWN');
    expect(input.groups).toEqual([expect.objectContaining({ id: 'group2', collapsed: false }), expect.objectContaining({ id: 'group1', parent: 'group2' })]);
    expect(input.nodes.map((n) => [n.id, n.parent])).toEqual([
      ['shape1', 'group1'],
      ['table1', 'group1'],
    ]);
  });
});
