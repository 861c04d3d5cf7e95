import ELK from 'elkjs/lib/elk.bundled.js';
import type { ArrangementLists } from '@sc/contracts';
import { LayoutCache, collapseGroup, createView, layoutDiagram, type DiagramView, type LayoutInput, type LayoutResult } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import { eventually } from '../../../testing/eventually';
import { CanvasLayout, type Drawing } from './canvas-layout';

describe('CanvasLayout', () => {
  const elk = new ELK();
  let draws: { drawing: Drawing; first: boolean }[];
  let arrangement: ArrangementLists | null;
  let layouts: LayoutInput[];
  /** The engine's answers: ELK's own unless a test holds them. */
  let answer: (input: LayoutInput) => Promise<LayoutResult>;

  const pipeline = () =>
    new CanvasLayout(
      {
        engine: elk,
        layout: (input) => {
          layouts.push(input);
          return answer(input);
        },
      },
      { arrangement: () => arrangement, drawing: () => draws.at(-1)?.drawing ?? null, draw: (drawing, first) => draws.push({ drawing, first }) },
    );
  const model = (layout: CanvasLayout, view: DiagramView) => layout.model({ ...fixtureModelInput(), view });

  beforeEach(() => {
    draws = [];
    arrangement = null;
    layouts = [];
    answer = (input) => layoutDiagram(elk, input, new LayoutCache());
  });

  it('draws a first model once ELK has laid it out, pending until then', async () => {
    const layout = pipeline();
    const first = model(layout, createView(fixtureTopology()));
    layout.show(first);
    expect(layout.pending()).toBe(true);
    expect(draws).toEqual([]);
    await eventually(() => expect(draws).toHaveLength(1));
    expect(draws[0].first).toBe(true);
    expect(draws[0].drawing.model).toBe(first);
    expect(Object.keys(draws[0].drawing.result.boxes)).toEqual(expect.arrayContaining(first.nodes.map((n) => n.id)));
    expect(layout.pending()).toBe(false);
  });

  it('draws a collapse in place at once, then ELK’s layout; back to a state laid out before is drawn from the kept layout', async () => {
    const layout = pipeline();
    const view = createView(fixtureTopology());
    const expanded = model(layout, view);
    layout.show(expanded);
    await eventually(() => expect(draws).toHaveLength(1));

    const collapsed = model(layout, collapseGroup(view, 'core'));
    layout.show(collapsed);
    // In place: the group keeps its corner, before any layout of the collapse.
    expect(draws).toHaveLength(2);
    expect(draws[1]).toEqual({ drawing: { model: collapsed, result: expect.any(Object) }, first: false });
    expect(draws[1].drawing.result.boxes['core']).toEqual(expect.objectContaining({ x: draws[0].drawing.result.boxes['core'].x, y: draws[0].drawing.result.boxes['core'].y }));
    expect(layout.pending()).toBe(true);
    await eventually(() => expect(draws).toHaveLength(3));
    expect(draws[2].drawing.model).toBe(collapsed);
    expect(layout.pending()).toBe(false);

    const asked = layouts.length;
    const again = model(layout, view);
    layout.show(again);
    expect(draws).toHaveLength(4);
    expect(draws[3].drawing.result).toBe(draws[0].drawing.result);
    expect(layout.pending()).toBe(false);
    expect(layouts).toHaveLength(asked);
  });

  it('drops a layout made for a model another has replaced', async () => {
    const layout = pipeline();
    const held: ((result: LayoutResult) => void)[] = [];
    const real = answer;
    answer = (input) => new Promise((resolve) => held.push(resolve)).then(() => real(input));
    const view = createView(fixtureTopology());
    layout.show(model(layout, view));
    await eventually(() => expect(held).toHaveLength(1));
    const later = model(layout, collapseGroup(view, 'core'));
    layout.show(later);
    await eventually(() => expect(held).toHaveLength(2));
    held[0]({} as LayoutResult);
    held[1]({} as LayoutResult);
    await eventually(() => expect(layout.pending()).toBe(false));
    expect(draws.map((draw) => draw.drawing.model)).toEqual([later]);
  });

  it('reports a layout that fails and stops waiting', async () => {
    const layout = pipeline();
    answer = () => Promise.reject(new Error('ELK gave up'));
    layout.show(model(layout, createView(fixtureTopology())));
    await eventually(() => expect(layout.error()).toBe('ELK gave up'));
    expect(layout.pending()).toBe(false);
    expect(draws).toEqual([]);
  });

  it('draws a new arrangement over the automatic layout on screen, marking what it does not place', async () => {
    const layout = pipeline();
    const shown = model(layout, createView(fixtureTopology()));
    layout.show(shown);
    await eventually(() => expect(draws).toHaveLength(1));
    const automatic = draws[0].drawing.result;
    const kept = shown.nodes[0].id;
    arrangement = { nodes: [{ id: kept, x: automatic.boxes[kept].x + 500, y: automatic.boxes[kept].y }], groups: [], edges: [] };
    layout.arrangementChanged();
    expect(draws).toHaveLength(2);
    expect(draws[1].drawing.model).toBe(shown);
    expect(draws[1].drawing.result.boxes[kept].x).toBe(automatic.boxes[kept].x + 500);
    expect(layout.placed().size).toBeGreaterThan(0);
    expect(layout.placed().has(kept)).toBe(false);
  });
});
