import { EMPTY_SELECTION, type EditorSelection } from './editor-doc';
import type { EditorStore } from './editor-store';

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * How the canvas's gestures select (click, Shift+click, Shift+drag's rubber band, Enter or Space on a focused node):
 * the store's selection is the document's, and ngx-vflow's follows it (EditorFlow.showSelection).
 */
export class CanvasSelection {
  /** The selection when a Shift+click began, before ngx-vflow (whose Shift also starts a rubber band) touched it. */
  private atPress: EditorSelection | null = null;

  constructor(private readonly store: () => EditorStore) {}

  /** ngx-vflow changed what is selected (click, Shift+click, rubber band): the store follows, unless it holds that already. */
  follow(selected: EditorSelection): void {
    const current = this.store().selection();
    if (same(current.nodes, selected.nodes) && same(current.groups, selected.groups) && same(current.edges, selected.edges)) return;
    this.store().selection.set(selected);
  }

  pressed(event: PointerEvent): void {
    this.atPress = event.shiftKey ? this.store().selection() : null;
  }

  /**
   * Shift+click adds the node or group to what was selected, whatever ngx-vflow made of the click meanwhile: after
   * ngx-vflow's own handling of the click (a task later), which would otherwise replace it.
   */
  shiftClicked(kind: 'node' | 'group', id: string, event: MouseEvent): void {
    const before = this.atPress;
    this.atPress = null;
    if (!event.shiftKey || !before) return;
    setTimeout(() => {
      const key = kind === 'node' ? 'nodes' : 'groups';
      if (before[key].includes(id)) return;
      this.store().selection.set({ ...before, [key]: [...before[key], id] });
    });
  }

  /** Enter or Space on a focused node selects it as a click does (with Shift it joins the selection). */
  keySelected(id: string, event: Event): void {
    event.preventDefault();
    const current = this.store().selection();
    if (!(event as KeyboardEvent).shiftKey) this.store().selection.set({ ...EMPTY_SELECTION, nodes: [id] });
    else if (!current.nodes.includes(id)) this.store().selection.set({ ...current, nodes: [...current.nodes, id] });
  }
}
