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

  /**
   * A click on shape2 (with Shift or not) while shape1 is selected, where ngx-vflow's own handling of the click
   * selects shape2 alone meanwhile: the store's selection once the click is handled.
   */
  async function clickShape2(shift: boolean): Promise<{ editor: EditorStore; selecting: CanvasSelection }> {
    const editor = store();
    const selecting = new CanvasSelection(() => editor);
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape1'] });
    selecting.pressed(pointer(shift));
    editor.selection.set({ ...EMPTY_SELECTION, nodes: ['shape2'] });
    selecting.shiftClicked('node', 'shape2', pointer(shift));
    await nextTask();
    return { editor, selecting };
  }

  it('adds a Shift+clicked node or group to what was selected when the press began, after ngx-vflow handled the click', async () => {
    const { editor, selecting } = await clickShape2(true);
    expect(editor.selection()).toEqual({ ...EMPTY_SELECTION, nodes: ['shape1', 'shape2'] });
    selecting.pressed(pointer(true));
    selecting.shiftClicked('group', 'group1', pointer(true));
    await nextTask();
    expect(editor.selection()).toEqual({ nodes: ['shape1', 'shape2'], groups: ['group1'], edges: [] });
  });

  it('leaves a plain click to ngx-vflow', async () => {
    const { editor } = await clickShape2(false);
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
