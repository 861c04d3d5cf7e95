import { computed, signal } from '@angular/core';
import type { CanvasModel } from '@sc/diagram';
import type { SelectedElement } from './details-panel.component';

/** What the selection tells the viewer canvas. */
export interface SelectionCanvas {
  /** The drawing is on screen (a node selected before it is revealed once drawn: takeReveal). */
  drawn(): boolean;
  /** Brings a node selected from the page's URL into view. */
  reveal(id: string): void;
  /** The user selected another node (its id), or an edge or nothing (null): the page writes it to its URL (`?node=`). */
  changed(id: string | null): void;
}

/**
 * The viewer canvas's selection (a node or an edge, shown in the details panel) kept in step with the page's
 * `?node=` query parameter both ways: the user's selections are told to the page, and a node the page asks for
 * (Back, Forward, a shared link) is selected once a model has it and brought into view.
 */
export class NodeSelection {
  readonly current = signal<SelectedElement | null>(null);
  readonly nodeId = computed(() => {
    const selected = this.current();
    return selected?.kind === 'node' ? selected.node.id : null;
  });
  /**
   * The selected node the page asked for last (requested) or the user chose last: a change of the input to another
   * value is a new request (Back, Forward, a link); the same value coming back from the page's URL is not.
   */
  private applied: string | null | undefined;
  /** A node selected from the URL before the first drawing, brought into view once drawn. */
  private revealLater: string | null = null;

  constructor(private readonly canvas: SelectionCanvas) {}

  /** A selection the user made (or closed): the page hears of a change of the selected node. */
  select(selection: SelectedElement | null): void {
    this.current.set(selection);
    const id = selection?.kind === 'node' ? selection.node.id : null;
    if (id !== this.applied) {
      this.applied = id;
      this.canvas.changed(id);
    }
  }

  /** The user selected the node of the model with this id (none: nothing happens). */
  selectNode(id: string, model: CanvasModel): void {
    const node = model.nodes.find((n) => n.id === id);
    if (node) this.select({ kind: 'node', node });
  }

  /** The page's selected node (its URL), selected when it changes, once a model has the node, and brought into view. */
  requested(id: string | null, model: CanvasModel): void {
    if (id === this.applied) return;
    if (id === null) {
      this.applied = null;
      if (this.current()?.kind === 'node') this.current.set(null);
      return;
    }
    // Not drawn (yet, or hidden by a collapse): selected when a model has it.
    const node = model.nodes.find((n) => n.id === id);
    if (!node) return;
    this.applied = id;
    this.current.set({ kind: 'node', node });
    if (this.canvas.drawn()) this.canvas.reveal(id);
    else this.revealLater = id;
  }

  /** A new model (collapse, highlights): the selected node is the new model's element of that id, or none. */
  remodelled(model: CanvasModel): void {
    const selected = this.current();
    if (selected?.kind !== 'node') return;
    const node = model.nodes.find((n) => n.id === selected.node.id);
    this.current.set(node ? { kind: 'node', node } : null);
  }

  /** The node selected from the URL before the first drawing, to reveal now it is drawn (once). */
  takeReveal(): string | null {
    const id = this.revealLater;
    this.revealLater = null;
    return id;
  }
}
