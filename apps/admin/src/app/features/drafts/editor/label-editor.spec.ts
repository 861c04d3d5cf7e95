import { addNode, connect, emptyGraph, group, type EditorDoc } from './editor-doc';
import { editorModel } from './editor-model';
import { EditorStore } from './editor-store';
import { LabelEditor, labelBox } from './label-editor';

function store(): EditorStore {
  let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
  doc = addNode(doc, 'shape', { x: 100, y: 50 }).doc;
  doc = addNode(doc, 'shape', { x: 400, y: 50 }).doc;
  doc = connect(doc, 'shape1', 'shape2');
  const grouped = group(doc, ['shape2']);
  if (!grouped) throw new Error('not grouped');
  const editor = new EditorStore();
  editor.reset(grouped.doc);
  return editor;
}

/** The label editor of the store's canvas. */
const editorOf = (editor: EditorStore) =>
  new LabelEditor(
    () => editor,
    () => editorModel(editor.doc()),
  );
const key = (name: string) => new KeyboardEvent('keydown', { key: name, bubbles: true });

describe('labelBox: where the label editor is drawn', () => {
  const editor = store();
  const model = editorModel(editor.doc());
  const view = { x: 10, y: 20, zoom: 2 };

  it('over a node, centred on it and as wide as it is drawn', () => {
    const node = model.nodes.find((n) => n.node.id === 'shape1')?.node;
    if (!node) throw new Error('not drawn');
    expect(labelBox({ kind: 'node', id: 'shape1' }, model, editor.doc(), view, null)).toEqual({ left: 100 * 2 + 10, top: 50 * 2 + 20 + node.height - 16, width: node.width * 2 });
  });

  it("over a frame's header, at least 140 px wide", () => {
    const box = labelBox({ kind: 'group', id: 'group1' }, model, editor.doc(), { x: 0, y: 0, zoom: 0.1 }, null);
    expect(box.width).toBe(140);
    expect(box.top).toBeCloseTo(model.groups[0].point.y * 0.1 + 4);
  });

  it("over the middle of an edge's drawn line, or near the top-left corner when it is not drawn", () => {
    expect(labelBox({ kind: 'edge', index: 0 }, model, editor.doc(), view, { x: 300, y: 200 })).toEqual({ left: 210, top: 184, width: 180 });
    expect(labelBox({ kind: 'edge', index: 0 }, model, editor.doc(), view, null)).toEqual({ left: 40, top: 40, width: 180 });
  });
});

describe('LabelEditor', () => {
  it('opens on the label, applies the text on Enter as one undo step, and closes', () => {
    const editor = store();
    const labels = editorOf(editor);
    labels.open({ kind: 'node', id: 'shape1' }, { x: 0, y: 0, zoom: 1 });
    expect(labels.editing()?.text).toBe('Shape');
    const enter = key('Enter');
    const outside = jest.fn();
    document.body.addEventListener('keydown', outside);
    const field = document.body.appendChild(document.createElement('input'));
    field.addEventListener('keydown', (event) => labels.key(event, 'Payments'));
    field.dispatchEvent(enter);
    document.body.removeEventListener('keydown', outside);
    field.remove();
    // The page's shortcuts (Backspace deletes the selection) never see keys typed in the editor.
    expect(outside).not.toHaveBeenCalled();
    expect(labels.editing()).toBeNull();
    expect(editor.doc().graph.nodes[0].label).toBe('Payments');
    expect(editor.undoDepth()).toBe(1);
  });

  it('drops the text on Escape, and commits nothing once closed', () => {
    const editor = store();
    const labels = editorOf(editor);
    labels.open({ kind: 'edge', index: 0 }, { x: 0, y: 0, zoom: 1 }, { x: 100, y: 100 });
    labels.key(key('Escape'), 'ignored');
    expect(labels.editing()).toBeNull();
    labels.commit('late blur');
    expect(editor.canUndo()).toBe(false);
  });

  it('renames a group or an edge on leaving the field', () => {
    const editor = store();
    const labels = editorOf(editor);
    labels.open({ kind: 'group', id: 'group1' }, { x: 0, y: 0, zoom: 1 });
    labels.commit('Core');
    labels.open({ kind: 'edge', index: 0 }, { x: 0, y: 0, zoom: 1 });
    labels.commit('calls');
    expect([editor.doc().graph.groups[0].label, editor.doc().graph.edges[0].label]).toEqual(['Core', 'calls']);
  });
});
