import { validateDrawnGraph, type OverlaidGroup } from '@sc/diagram';
import { GROUP_HEADER, GROUP_PADDING, addNode, applyLayout, connect, copy, emptyGraph, group, move, paste, remove, reparent, replaceGroup, replaceNode, setLabel, ungroup, absolutePosition, type EditorDoc } from './editor-doc';
import { editorModel } from './editor-model';
import { EditorStore } from './editor-store';

const blank = (): EditorDoc => ({ name: 'Drawn', graph: emptyGraph(), layout: { nodes: [], groups: [] } });

/** a → b, c alone; a at (0,0), b at (200,0), c at (0,200). */
function threeNodes(): EditorDoc {
  let doc = blank();
  doc = addNode(doc, 'shape', { x: 0, y: 0 }, { shape: 'diamond' }).doc;
  doc = addNode(doc, 'table', { x: 200, y: 0 }).doc;
  doc = addNode(doc, 'text', { x: 0, y: 200 }).doc;
  return connect(doc, 'shape1', 'table1');
}

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}

function expectValid(doc: EditorDoc): void {
  const result = validateDrawnGraph(JSON.parse(JSON.stringify(doc.graph)));
  expect(result.errors).toEqual([]);
}

describe('EditorStore', () => {
  it('undoes and redoes every change in order, and a new change clears what could be redone', () => {
    const store = new EditorStore();
    store.reset(blank());
    store.apply((doc) => addNode(doc, 'shape', { x: 0, y: 0 }).doc);
    store.apply((doc) => addNode(doc, 'code', { x: 100, y: 0 }).doc);
    store.apply((doc) => connect(doc, 'shape1', 'code1'));
    expect(store.doc().graph.edges).toHaveLength(1);

    store.undo();
    expect(store.doc().graph.edges).toHaveLength(0);
    store.undo();
    expect(store.doc().graph.nodes.map((n) => n.id)).toEqual(['shape1']);
    expect(store.canRedo()).toBe(true);
    store.redo();
    expect(store.doc().graph.nodes.map((n) => n.id)).toEqual(['shape1', 'code1']);

    store.apply((doc) => move(doc, [{ id: 'shape1', x: 50, y: 60 }]));
    expect(store.canRedo()).toBe(false);
    expect(store.doc().layout.nodes.find((b) => b.id === 'shape1')).toEqual({ id: 'shape1', x: 50, y: 60 });
  });

  it('keeps more than 100 steps and revisions count every change, undo included', () => {
    const store = new EditorStore();
    store.reset(blank());
    for (let i = 0; i < 150; i++) store.apply((doc) => addNode(doc, 'comment', { x: i, y: 0 }).doc);
    expect(store.revision()).toBe(150);
    for (let i = 0; i < 150; i++) store.undo();
    expect(store.doc().graph.nodes).toHaveLength(0);
    expect(store.revision()).toBe(300);
    expect(store.canUndo()).toBe(false);
  });

  it('forgets the oldest steps beyond its limit', () => {
    const store = new EditorStore(3);
    store.reset(blank());
    for (let i = 0; i < 5; i++) store.apply((doc) => addNode(doc, 'comment', { x: i, y: 0 }).doc);
    for (let i = 0; i < 5; i++) store.undo();
    expect(store.doc().graph.nodes).toHaveLength(2);
  });

  it('makes one step of a gesture (same coalesce key) and none of a change that changes nothing', () => {
    const store = new EditorStore();
    store.reset(threeNodes());
    store.apply((doc) => setLabel(doc, { kind: 'node', id: 'shape1' }, 'S'), 'label');
    store.apply((doc) => setLabel(doc, { kind: 'node', id: 'shape1' }, 'Start'), 'label');
    store.apply((doc) => doc);
    expect(store.undoDepth()).toBe(1);
    store.undo();
    expect(store.doc().graph.nodes[0].label).toBe('Diamond');
  });

  it('drops deleted elements from the selection', () => {
    const store = new EditorStore();
    store.reset(threeNodes());
    store.selection.set({ nodes: ['shape1', 'text1'], groups: [], edges: [0] });
    store.apply((doc) => remove(doc, { nodes: ['shape1'], groups: [], edges: [] }));
    expect(store.selection()).toEqual({ nodes: ['text1'], groups: [], edges: [] });
  });
});

/**
 * A copy of a synced diagram whose context file defines a group: "storage" lists db and keys, which keep no `parent`
 * (only Mermaid subgraphs nest); api stays outside. storage at (300, 0), its members relative to it.
 */
function contextGrouped(): EditorDoc {
  return {
    name: 'Copy',
    graph: {
      kind: 'flowchart',
      nodes: [{ id: 'api', label: 'API' }, { id: 'db', label: 'DB' }, { id: 'keys', label: 'Keys' }],
      edges: [{ source: 'api', target: 'db', type: 'arrow_point', stroke: 'normal' }],
      groups: [{ id: 'storage', label: 'Storage', nodes: ['db', 'keys'], origin: 'context', overlay: { name: 'Storage', nodes: ['db', 'keys'] } }],
    },
    layout: {
      nodes: [{ id: 'api', x: 0, y: 0 }, { id: 'db', x: 24, y: 64 }, { id: 'keys', x: 24, y: 160 }],
      groups: [{ id: 'storage', x: 300, y: 0 }],
    },
  };
}

/** The group with `id` added to its members (and its overlay's). */
const withListed = (group: OverlaidGroup, id: string): OverlaidGroup => ({ ...group, nodes: [...group.nodes, id], ...(group.overlay ? { overlay: { ...group.overlay, nodes: [...(group.overlay.nodes ?? []), id] } } : {}) });

describe('editing operations', () => {
  it('adds nodes of each type with unique ids Mermaid can write, and a valid graph', () => {
    let doc = blank();
    for (const type of ['shape', 'text', 'code', 'table', 'comment', 'cloud', 'image', 'gif', 'component', 'data-source', 'db-table'] as const) {
      doc = addNode(doc, type, { x: 0, y: 0 }).doc;
      doc = addNode(doc, type, { x: 0, y: 0 }).doc;
    }
    const ids = doc.graph.nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(22);
    expect(ids).toContain('dbTable2');
    expectValid(doc);
  });

  it('adds a node into a group (dropped on its frame): parent and membership agree', () => {
    const grouped = must(group(threeNodes(), ['shape1', 'table1']));
    const added = addNode(grouped.doc, 'cloud', { x: 10, y: 50 }, { parent: grouped.id });
    expect(added.doc.graph.nodes.find((n) => n.id === added.id)?.parent).toBe('group1');
    expect(added.doc.graph.groups[0].nodes).toEqual(['shape1', 'table1', 'cloud1']);
    expect(absolutePosition(added.doc, 'cloud1')).toEqual({ x: 10 - GROUP_PADDING, y: 50 - GROUP_PADDING - GROUP_HEADER });
    expectValid(added.doc);
  });

  it('moves a node into a group and back out where it is on the canvas; a group never into itself', () => {
    const grouped = must(group(threeNodes(), ['shape1', 'table1']));
    const inside = reparent(grouped.doc, 'text1', 'group1');
    expect(inside.graph.nodes.find((n) => n.id === 'text1')?.parent).toBe('group1');
    expect(inside.graph.groups[0].nodes).toEqual(['shape1', 'table1', 'text1']);
    expect(absolutePosition(inside, 'text1')).toEqual({ x: 0, y: 200 });
    expectValid(inside);
    const outside = reparent(inside, 'shape1', undefined);
    expect(outside.graph.nodes.find((n) => n.id === 'shape1')?.parent).toBeUndefined();
    expect(outside.graph.groups[0].nodes).toEqual(['table1', 'text1']);
    expect(absolutePosition(outside, 'shape1')).toEqual({ x: 0, y: 0 });
    expectValid(outside);
    const nested = must(group(outside, ['group1']));
    expect(reparent(nested.doc, nested.id, 'group1')).toBe(nested.doc);
    expect(reparent(outside, 'text1', 'group1')).toBe(outside);
  });

  it('deleting a node removes its edges; deleting a group removes what it holds', () => {
    const doc = threeNodes();
    expect(remove(doc, { nodes: ['table1'], groups: [], edges: [] }).graph.edges).toEqual([]);
    const grouped = must(group(doc, ['shape1', 'table1']));
    const cleared = remove(grouped.doc, { nodes: [], groups: [grouped.id], edges: [] });
    expect(cleared.graph.nodes.map((n) => n.id)).toEqual(['text1']);
    expect(cleared.graph.groups).toEqual([]);
    expect(cleared.layout.nodes.map((b) => b.id)).toEqual(['text1']);
  });

  it('groups a selection keeping canvas positions, nests groups, and ungroups back', () => {
    const doc = threeNodes();
    const inner = must(group(doc, ['shape1', 'table1']));
    expect(inner.id).toBe('group1');
    expect(inner.doc.graph.groups[0]).toMatchObject({ id: 'group1', nodes: ['shape1', 'table1'] });
    expect(inner.doc.graph.nodes.filter((n) => n.parent === 'group1').map((n) => n.id)).toEqual(['shape1', 'table1']);
    expect(absolutePosition(inner.doc, 'table1')).toEqual({ x: 200, y: 0 });
    expectValid(inner.doc);

    const outer = must(group(inner.doc, ['group1', 'text1']));
    expect(outer.doc.graph.groups.find((g) => g.id === 'group1')?.parent).toBe('group2');
    expect(outer.doc.graph.groups.find((g) => g.id === 'group2')?.nodes).toEqual(['group1', 'text1']);
    expect(absolutePosition(outer.doc, 'table1')).toEqual({ x: 200, y: 0 });
    expect(absolutePosition(outer.doc, 'text1')).toEqual({ x: 0, y: 200 });
    expectValid(outer.doc);

    const flat = ungroup(outer.doc, 'group1');
    expect(flat.graph.groups.map((g) => g.id)).toEqual(['group2']);
    expect(flat.graph.groups[0].nodes).toEqual(['shape1', 'table1', 'text1']);
    expect(flat.graph.nodes.every((n) => n.parent === 'group2')).toBe(true);
    expect(absolutePosition(flat, 'table1')).toEqual({ x: 200, y: 0 });
    expectValid(flat);
  });

  it('refuses to group elements of different parents', () => {
    const inner = group(threeNodes(), ['shape1']);
    expect(group(must(inner).doc, ['shape1', 'text1'])).toBeNull();
  });

  it('renames a node id in edges, group members and the layout', () => {
    const grouped = must(group(threeNodes(), ['shape1', 'table1'])).doc;
    const node = must(grouped.graph.nodes.find((n) => n.id === 'shape1'));
    const renamed = replaceNode(grouped, 'shape1', { ...node, id: 'start', label: 'Start', parent: 'bogus' });
    expect(renamed.graph.nodes.find((n) => n.id === 'start')).toMatchObject({ label: 'Start', parent: 'group1' });
    expect(renamed.graph.edges[0]).toMatchObject({ source: 'start', target: 'table1' });
    expect(renamed.graph.groups[0].nodes).toEqual(['start', 'table1']);
    expect(renamed.layout.nodes.map((b) => b.id)).toContain('start');
    expectValid(renamed);

    const frame = renamed.graph.groups[0];
    const regrouped = replaceGroup(connect(renamed, 'text1', 'group1'), 'group1', { ...frame, id: 'core', nodes: [] });
    expect(regrouped.graph.groups[0]).toMatchObject({ id: 'core', nodes: ['start', 'table1'] });
    expect(regrouped.graph.nodes.filter((n) => n.parent === 'core')).toHaveLength(2);
    expect(regrouped.graph.edges[1]).toMatchObject({ source: 'text1', target: 'core' });
    expect(regrouped.layout.groups[0].id).toBe('core');
  });

  it('copies and pastes nodes, groups and the edges among them with fresh ids', () => {
    const grouped = must(group(threeNodes(), ['shape1', 'table1'])).doc;
    const clip = must(copy(grouped, { nodes: [], groups: ['group1'], edges: [] }));
    expect(clip.edges).toHaveLength(1);
    const pasted = paste(grouped, clip, { x: 40, y: 40 });
    expect(pasted.doc.graph.nodes.map((n) => n.id)).toEqual(['shape1', 'table1', 'text1', 'shape2', 'table2']);
    expect(pasted.doc.graph.groups.map((g) => g.id)).toEqual(['group1', 'group2']);
    expect(pasted.doc.graph.groups[1].nodes).toEqual(['shape2', 'table2']);
    expect(pasted.doc.graph.edges[1]).toMatchObject({ source: 'shape2', target: 'table2' });
    expect(pasted.selection).toEqual({ nodes: [], groups: ['group2'], edges: [] });
    const origin = absolutePosition(grouped, 'table1');
    expect(absolutePosition(pasted.doc, 'table2')).toEqual({ x: origin.x + 40, y: origin.y + 40 });
    expectValid(pasted.doc);

    // A node copied out of its group is pasted at the top level, where it was on the canvas (plus the offset).
    const single = paste(grouped, must(copy(grouped, { nodes: ['table1'], groups: [], edges: [] })), { x: 10, y: 0 });
    const copyOf = must(single.doc.graph.nodes.find((n) => n.id === 'table2'));
    expect(copyOf.parent).toBeUndefined();
    expect(absolutePosition(single.doc, 'table2')).toEqual({ x: origin.x + 10, y: origin.y });
    expect(single.selection.nodes).toEqual(['table2']);
    expectValid(single.doc);
  });

  it('draws the members of a context-only group inside its frame: automatic layout stores their places relative to it, and they keep no parent', () => {
    // Where an automatic layout put every box (absolute), storage's members inside its frame.
    const laidOut = applyLayout(contextGrouped(), { api: { x: 0, y: 40 }, storage: { x: 250, y: 0 }, db: { x: 274, y: 64 }, keys: { x: 274, y: 180 } }, 'LR');
    expect(laidOut.layout.nodes).toEqual([
      { id: 'api', x: 0, y: 40 },
      { id: 'db', x: 24, y: 64 },
      { id: 'keys', x: 24, y: 180 },
    ]);
    expect(absolutePosition(laidOut, 'keys')).toEqual({ x: 274, y: 180 });
    expect(laidOut.graph.nodes.every((n) => n.parent === undefined)).toBe(true);
    expectValid(laidOut);
  });

  it('moves nodes into and out of a context-only group by its member list, keeping their places on the canvas and its overlay in step', () => {
    const inside = reparent(contextGrouped(), 'api', 'storage');
    expect(inside.graph.nodes.find((n) => n.id === 'api')?.parent).toBeUndefined();
    expect(inside.graph.groups[0]).toMatchObject({ nodes: ['db', 'keys', 'api'], overlay: { nodes: ['db', 'keys', 'api'] } });
    expect(absolutePosition(inside, 'api')).toEqual({ x: 0, y: 0 });
    expect(inside.layout.nodes.find((b) => b.id === 'api')).toEqual({ id: 'api', x: -300, y: 0 });
    expectValid(inside);

    const outside = reparent(contextGrouped(), 'db', undefined);
    expect(outside.graph.groups[0]).toMatchObject({ nodes: ['keys'], overlay: { nodes: ['keys'] } });
    expect(absolutePosition(outside, 'db')).toEqual({ x: 324, y: 64 });
    expectValid(outside);

    const dropped = addNode(contextGrouped(), 'text', { x: 24, y: 240 }, { parent: 'storage' }).doc;
    expect(dropped.graph.nodes.find((n) => n.id === 'text1')?.parent).toBeUndefined();
    expect(dropped.graph.groups[0].nodes).toEqual(['db', 'keys', 'text1']);
    expect(absolutePosition(dropped, 'text1')).toEqual({ x: 324, y: 240 });
    expectValid(dropped);
  });

  it('keeps what a context-only group may hold: nodes only, no new group inside it', () => {
    const doc = contextGrouped();
    expect(group(doc, ['db', 'keys'])).toBeNull();
    const framed = must(group(doc, ['api']));
    expect(reparent(framed.doc, framed.id, 'storage')).toBe(framed.doc);
  });

  it('draws a node that a subgraph holds and a context-only group lists in the subgraph, and lists it once when it moves into that group', () => {
    const base = contextGrouped();
    const doc: EditorDoc = {
      ...base,
      graph: { ...base.graph, nodes: base.graph.nodes.map((n) => (n.id === 'api' ? { ...n, parent: 'core' } : n)), groups: [...base.graph.groups.map((g) => withListed(g, 'api')), { id: 'core', label: 'Core', nodes: ['api'] }] },
      layout: { ...base.layout, groups: [...base.layout.groups, { id: 'core', x: 0, y: 300 }] },
    };
    expect(absolutePosition(doc, 'api')).toEqual({ x: 0, y: 300 });
    // The storage frame is sized by the members it draws only.
    const frame = (d: EditorDoc) => editorModel(d).groups.find((g) => g.id === 'storage');
    expect(frame(doc)).toEqual(frame(base));
    expectValid(doc);
    const moved = reparent(doc, 'api', 'storage');
    expect(moved.graph.groups.map((g) => [g.id, g.nodes])).toEqual([
      ['storage', ['db', 'keys', 'api']],
      ['core', []],
    ]);
    expect(moved.graph.nodes.find((n) => n.id === 'api')?.parent).toBeUndefined();
    expect(absolutePosition(moved, 'api')).toEqual({ x: 0, y: 300 });
  });

  it('deletes, copies and pastes the members of a context-only group with its member list and overlay in step', () => {
    const doc = contextGrouped();
    const withoutDb = remove(doc, { nodes: ['db'], groups: [], edges: [] });
    expect(withoutDb.graph.groups[0]).toMatchObject({ nodes: ['keys'], overlay: { nodes: ['keys'] } });
    expectValid(withoutDb);
    expect(remove(doc, { nodes: [], groups: ['storage'], edges: [] }).graph.nodes.map((n) => n.id)).toEqual(['api']);

    const pasted = paste(doc, must(copy(doc, { nodes: [], groups: ['storage'], edges: [] })), { x: 0, y: 400 });
    expect(pasted.doc.graph.groups[1]).toMatchObject({ id: 'storage1', origin: 'context', nodes: ['db1', 'keys1'], overlay: { nodes: ['db1', 'keys1'] } });
    expect(pasted.selection).toEqual({ nodes: [], groups: ['storage1'], edges: [] });
    expect(absolutePosition(pasted.doc, 'keys1')).toEqual({ x: 324, y: 560 });
    expectValid(pasted.doc);

    // One member copied alone leaves the group: pasted at the top level where it was on the canvas.
    const single = paste(doc, must(copy(doc, { nodes: ['keys'], groups: [], edges: [] })), { x: 10, y: 0 });
    expect(absolutePosition(single.doc, 'keys1')).toEqual({ x: 334, y: 160 });
    expect(single.doc.graph.groups[0].nodes).toEqual(['db', 'keys']);
    expectValid(single.doc);
  });

  it('sets labels of nodes, groups and edges in place, preferring the overlay name when there is one', () => {
    let doc = threeNodes();
    doc = setLabel(doc, { kind: 'edge', index: 0 }, 'reads');
    expect(doc.graph.edges[0].label).toBe('reads');
    const node = doc.graph.nodes[1];
    doc = replaceNode(doc, node.id, { ...node, overlay: { ...node.overlay, name: 'Old' } });
    doc = setLabel(doc, { kind: 'node', id: 'table1' }, ' Orders ');
    expect(doc.graph.nodes[1]).toMatchObject({ label: 'Orders', overlay: { name: 'Orders' } });
    expect(setLabel(doc, { kind: 'node', id: 'table1' }, '   ')).toBe(doc);
  });
});
