import { addNode, connect, emptyGraph, group, GROUP_HEADER, GROUP_PADDING, move, type EditorDoc } from './editor-doc';
import { MIN_GROUP, absoluteBoxes, drawingBox, editorLayoutInput, editorModel, labelOnRoute, laidOutRoutes, usableRoutes } from './editor-model';

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

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

  it('draws a group only the context file defines as the frame of the nodes it lists, and lays them out inside it', () => {
    const doc: EditorDoc = {
      name: 'Copy',
      graph: {
        kind: 'flowchart',
        nodes: [{ id: 'api', label: 'API' }, { id: 'db', label: 'DB' }],
        edges: [],
        groups: [{ id: 'storage', label: 'Storage', nodes: ['db'], origin: 'context', overlay: { name: 'Storage', nodes: ['db'] } }],
      },
      layout: { nodes: [{ id: 'api', x: 0, y: 0 }, { id: 'db', x: 24, y: 64 }], groups: [{ id: 'storage', x: 500, y: 300 }] },
    };
    const model = editorModel(doc);
    expect(model.nodes.map((n) => [n.node.id, n.parent])).toEqual([
      ['api', undefined],
      ['db', 'storage'],
    ]);
    const db = must(model.nodes.find((n) => n.node.id === 'db'));
    // The frame holds its member, not the whole drawing.
    expect(model.groups[0]).toMatchObject({ id: 'storage', title: 'Storage', width: Math.max(MIN_GROUP.width, 24 + db.node.width + GROUP_PADDING) });
    expect(absoluteBoxes(model).get('db')).toMatchObject({ x: 524, y: 364 });
    expect(editorLayoutInput(model, 'LR').nodes.map((n) => [n.id, n.parent])).toEqual([
      ['api', undefined],
      ['db', 'storage'],
    ]);
  });
});

describe('the routes of the last automatic layout', () => {
  /** Three nodes in a row, a → c routed around b (above it), as ELK routes it. */
  function row(): { doc: EditorDoc; routes: ReturnType<typeof laidOutRoutes> } {
    let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
    doc = addNode(doc, 'comment', { x: 0, y: 0 }).doc;
    doc = addNode(doc, 'comment', { x: 300, y: 0 }).doc;
    doc = addNode(doc, 'comment', { x: 600, y: 0 }).doc;
    doc = connect(doc, 'note1', 'note3');
    const model = editorModel(doc);
    const [a, , c] = model.nodes.map((n) => n.node);
    const key = model.edges[0].edge.key;
    const points = [
      { x: a.width / 2, y: 0 },
      { x: a.width / 2, y: -40 },
      { x: 600 + c.width / 2, y: -40 },
      { x: 600 + c.width / 2, y: 0 },
    ];
    return { doc, routes: laidOutRoutes(model, { [key]: { points } }) };
  }

  it('draws an edge along its route while its ends and the nodes beside it stay where the layout put them', () => {
    const { doc, routes } = row();
    expect([...usableRoutes(editorModel(doc), routes).keys()]).toEqual([editorModel(doc).edges[0].edge.key]);
  });

  it('draws it straight again once an end moved (the route no longer reaches it)', () => {
    const { doc, routes } = row();
    expect(usableRoutes(editorModel(move(doc, [{ id: 'note3', x: 600, y: 200 }])), routes).size).toBe(0);
  });

  it('draws it straight again once a node stands on the route', () => {
    const { doc, routes } = row();
    expect(usableRoutes(editorModel(move(doc, [{ id: 'note2', x: 300, y: -60 }])), routes).size).toBe(0);
  });

  it('does not give a route to another edge that took its key (an edge deleted before it)', () => {
    const { doc, routes } = row();
    const rewired: EditorDoc = { ...doc, graph: { ...doc.graph, edges: [{ source: 'note1', target: 'note2' }] } };
    expect(usableRoutes(editorModel(rewired), routes).size).toBe(0);
  });

  it('places nodes inside a frame at the frame’s position plus their own: where they were on the canvas', () => {
    const boxes = absoluteBoxes(editorModel(drawn()));
    expect(boxes.get('group1')).toMatchObject({ x: -GROUP_PADDING, y: -GROUP_PADDING - GROUP_HEADER });
    expect(boxes.get('table1')).toMatchObject({ x: 400, y: 300 });
  });
});

describe('labelOnRoute: a label given after the layout', () => {
  it('is centred halfway along the route, corners included', () => {
    const route = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 100 },
    ];
    expect(labelOnRoute(route, { labelWidth: 40, labelHeight: 20 })).toEqual({ x: 80, y: -10 });
  });
});

describe('drawingBox', () => {
  it('is the box around every box, none for an empty drawing', () => {
    expect(drawingBox([])).toBeNull();
    expect(
      drawingBox([
        { x: -10, y: 20, width: 100, height: 40 },
        { x: 200, y: -30, width: 50, height: 50 },
      ]),
    ).toEqual({ x: -10, y: -30, width: 260, height: 90 });
  });
});
