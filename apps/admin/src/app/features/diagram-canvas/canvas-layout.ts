import { signal } from '@angular/core';
import type { ArrangementLists } from '@sc/contracts';
import { ModelReuse, buildModel, layoutInput, type CanvasModel, type LayoutResult, type ModelInput } from '@sc/diagram';
import { ElkArrangedDrawing } from './elk-arranged-drawing';
import { collapseKey, layoutInPlace } from './in-place';
import type { LayoutEngine } from './layout-engine.service';

/** Layouts kept by collapse state (the oldest is dropped first). */
const KEPT_LAYOUTS = 16;
/** Resolves in a later task, letting the browser handle input and paint in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));
const afterNextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/** A model and the layout it is drawn with: drawn together, so the drawing never mixes two states. */
export interface Drawing {
  model: CanvasModel;
  result: LayoutResult;
}

/** What the layout pipeline needs from the canvas it draws on. */
export interface LayoutCanvas {
  /** Where people arranged the diagram (null: the automatic layout as it is). */
  arrangement(): ArrangementLists | null;
  /** The drawing on screen, null before the first. */
  drawing(): Drawing | null;
  /** Draws a layout (`first`: the canvas's first drawing). */
  draw(drawing: Drawing, first: boolean): void;
}

/**
 * The viewer canvas's layout pipeline: the model built with its elements reused (ModelReuse), each model drawn at
 * once from a layout already made for its collapse state, else (a collapse) in place from the current drawing while
 * ELK lays it out in the workers, and every layout drawn with the arrangement over it (ElkArrangedDrawing).
 */
export class CanvasLayout {
  /** Nodes and groups the arrangement does not place (new since it was saved). */
  readonly placed = signal<ReadonlySet<string>>(new Set());
  readonly error = signal<string | null>(null);
  /**
   * ELK is laying out the model on screen (a first drawing, or a collapse drawn in place whose layout will replace
   * it): `data-layout="pending"` on the canvas, for what must read the final drawing (tests, exports).
   */
  readonly pending = signal(false);
  /** The arrangement drawn over the automatic layout, what it does not place put by ELK in the layout workers. */
  private readonly arranged: ElkArrangedDrawing;
  /** Elements built for the current graph, databases and highlights (see ModelReuse), and the layouts made for them by collapse state. */
  private reuse: ModelReuse | null = null;
  private results = new Map<string, LayoutResult>();
  /** The reuse (graph, databases, highlights) of the model on screen. */
  private drawnWith: ModelReuse | null = null;
  /** The automatic layout last drawn and its model: redrawn with the arrangement whenever that changes. */
  private automatic: Drawing | null = null;
  private run = 0;
  private drawn = false;

  constructor(
    private readonly engine: Pick<LayoutEngine, 'layout' | 'engine'>,
    private readonly canvas: LayoutCanvas,
  ) {
    this.arranged = new ElkArrangedDrawing(engine.engine);
  }

  /** The model of the input, made from the elements built for the same graph, databases and highlights. */
  model(input: ModelInput): CanvasModel {
    if (!this.reuse?.fits(input)) {
      this.reuse = new ModelReuse(input.view.graph, input.databases, input.highlights);
      this.results = new Map();
    }
    return buildModel(input, this.reuse);
  }

  /**
   * Draws a new model: at once from a layout already made for its collapse state, else (a collapse) in place from
   * the current drawing while ELK lays it out in the worker, the layout replacing it when it arrives; a model with
   * nothing to start from (first drawing, an expand never laid out) waits for the layout.
   */
  show(model: CanvasModel): void {
    const run = ++this.run;
    const key = collapseKey(model);
    const known = this.results.get(key);
    this.pending.set(!known);
    if (known) {
      this.draw(model, known);
      return;
    }
    const current = this.canvas.drawing();
    // Only a collapse or expand of the graph on screen is drawn in place: another graph (a revision), other
    // databases or highlights may change sizes and elements, and wait for their layout.
    const inPlace = current && this.drawnWith === this.reuse ? layoutInPlace(current, model) : null;
    if (inPlace) this.draw(model, inPlace);
    void this.layOut(model, run, key, inPlace !== null);
  }

  /** A new arrangement (loaded, dragged, undone, reset) drawn over the automatic layout already made. */
  arrangementChanged(): void {
    if (this.automatic && this.automatic.model === this.canvas.drawing()?.model) this.draw(this.automatic.model, this.automatic.result);
  }

  private async layOut(model: CanvasModel, run: number, key: string, drawnInPlace: boolean): Promise<void> {
    const results = this.results;
    try {
      // Before the first drawing, the layout's bookkeeping and the drawing each get a task of their own, not the one
      // that built the model: a layout at hand (cached, or the server's) would otherwise make one long task of all three.
      // After a collapse drawn in place, the bookkeeping (the layout's input, the key of every container: a third of
      // the click's main-thread time on 1,000 nodes) and the worker's ELK run wait until the frame after the drawing,
      // so the browser paints the click's answer first without ELK taking one of the two cores meanwhile.
      if (drawnInPlace) await afterNextFrame();
      else if (!this.drawn) await nextTask();
      if (run !== this.run) return;
      const result = await this.engine.layout(layoutInput(model));
      results.set(key, result);
      // A few recent collapse states are enough to go back and forth; each 1,000-node layout is a few hundred kB.
      if (results.size > KEPT_LAYOUTS) results.delete(results.keys().next().value as string);
      if (!this.drawn) await nextTask();
      if (run !== this.run) return;
      this.draw(model, result);
    } catch (error: unknown) {
      if (run !== this.run) return;
      this.error.set(error instanceof Error ? error.message : 'The diagram could not be laid out.');
    }
    if (run === this.run) this.pending.set(false);
  }

  private draw(model: CanvasModel, automatic: LayoutResult): void {
    this.automatic = { model, result: automatic };
    // Without an arrangement the layout is drawn as it is, without building the layout input again.
    const arranged = this.arranged.drawing(() => layoutInput(model), automatic, this.canvas.arrangement(), () => {
      if (this.automatic?.result === automatic) this.draw(model, automatic);
    });
    const placed = this.placed();
    if (placed.size !== arranged.placed.length || arranged.placed.some((id) => !placed.has(id))) this.placed.set(new Set(arranged.placed));
    this.drawnWith = this.reuse;
    this.error.set(null);
    const first = !this.drawn;
    this.drawn = true;
    this.canvas.draw({ model, result: arranged.layout }, first);
  }
}
