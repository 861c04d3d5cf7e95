import { CanvasSelection } from './canvas-selection';
import { EMPTY_SELECTION, addNode, emptyGraph, group, type EditorDoc } from './editor-doc';
import { EditorStore } from './editor-store';

function store(): EditorStore {
  let doc: EditorDoc = { name: 'd', graph: emptyGraph(), layout: { nodes: [], groups: [] } };
  for (const x of [0, 200, 400]) doc = addNode(doc, 'shape', { x, y: 0 }).doc;
  const grouped = group(doc, ['shape3']);
  if (!grouped) throw new Error('not grouped');
  const editor = new EditorStore();
  editor.reset(grouped.doc);
  return editor;
}

const pointer = (shiftKey: boolean) => ({ shiftKey }) as PointerEvent;
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

describe('CanvasSelection', () => {
  it("follows ngx-vflow's selection, leaving the store's as it is when it holds that already", () => {
    const editor = store();
    const selecting = new CanvasSelection(() => editor);
    selecting.follow({ nodes: ['shape1'], groups: [], edges: [] });
    const held = editor.selection();
    expect(held).toEqual({ nodes: ['shape1'], groups: [], edges: [] });
    selecting.follow({ nodes: ['shape1'], groups: [], edges: [] });
    expect(editor.selection()).toBe(held);
  });

  it('adds a Shift+clicked node or group to what was selected when the press began, after ngx-vflow handled the click', async () => {
    const editor = store();
    const selecting = new CanvasSelection(() => editor);
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape1'] });
    selecting.pressed(pointer(true));
    // ngx-vflow's own handling of the Shift+click replaces the selection meanwhile.
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape2'] });
    selecting.shiftClicked('node', 'shape2', pointer(true));
    await nextTask();
    expect(editor.selection()).toEqual({ ...EMPTY_SELECTION, nodes: ['shape1', 'shape2'] });
    selecting.pressed(pointer(true));
    selecting.shiftClicked('group', 'group1', pointer(true));
    await nextTask();
    expect(editor.selection()).toEqual({ nodes: ['shape1', 'shape2'], groups: ['group1'], edges: [] });
  });

  it('leaves a plain click to ngx-vflow', async () => {
    const editor = store();
    const selecting = new CanvasSelection(() => editor);
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape1'] });
    selecting.pressed(pointer(false));
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape2'] });
    selecting.shiftClicked('node', 'shape2', pointer(false));
    await nextTask();
    expect(editor.selection()).toEqual({ ...EMPTY_SELECTION, nodes: ['shape2'] });
  });

  it('selects a node on Enter or Space, adding it with Shift, and keeps the key from scrolling the page', () => {
    const editor = store();
    const selecting = new CanvasSelection(() => editor);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', cancelable: true });
    selecting.keySelected('shape1', enter);
    expect(enter.defaultPrevented).toBe(true);
    selecting.keySelected('shape2', new KeyboardEvent('keydown', { key: ' ', shiftKey: true }));
    selecting.keySelected('shape2', new KeyboardEvent('keydown', { key: ' ', shiftKey: true }));
    expect(editor.selection().nodes).toEqual(['shape1', 'shape2']);
    selecting.keySelected('shape3', new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(editor.selection().nodes).toEqual(['shape3']);
  });
});
