import { signal, type Injector } from '@angular/core';
import ELK from 'elkjs/lib/elk.bundled.js';
import { LayoutCache, buildModel, createView, layoutDiagram, layoutInput, type LayoutResult } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import type { Drawing } from './canvas-layout';
import { FlowDrawing } from './flow-drawing';
import type { Viewport } from './fit';

describe('FlowDrawing', () => {
  let drawing: Drawing;
  beforeAll(async () => {
    const model = buildModel({ ...fixtureModelInput(), view: createView(fixtureTopology()) });
    drawing = { model, result: await layoutDiagram(new ELK(), layoutInput(model), new LayoutCache()) };
  });
  const graphNodes = signal(10);
  const viewport = signal<Viewport | undefined>(undefined);
  const flow = () => new FlowDrawing({ graphNodes, viewport, viewSize: () => ({ width: 400, height: 300 }), arranging: () => true, injector: {} as Injector });
  beforeEach(() => {
    graphNodes.set(10);
    viewport.set(undefined);
  });

  it('hands ngx-vflow every group frame, node and drawn edge of a small diagram, and the same objects for the same drawing', () => {
    const drawn = flow();
    drawn.draw(drawing);
    expect(drawn.laidOut()).toEqual(drawing);
    const ids = drawn.shownNodes().map((node) => node.id);
    expect([...ids].sort()).toEqual([...drawing.model.groups.map((g) => `g:${g.id}`), ...drawing.model.nodes.map((n) => n.id)].sort());
    expect(drawn.shownEdges().map((edge) => edge.id)).toEqual(drawing.model.edges.filter((e) => !e.invisible).map((e) => e.key));
    const nodes = drawn.shownNodes();
    const edges = drawn.shownEdges();
    drawn.draw({ model: drawing.model, result: { ...drawing.result } as LayoutResult });
    expect(drawn.shownNodes()).toBe(nodes);
    expect(drawn.shownEdges()).toBe(edges);
  });

  it('culls a large diagram to the viewport, and hands none while it is previewed', () => {
    graphNodes.set(1000);
    const drawn = flow();
    drawn.draw(drawing);
    expect(drawn.shownNodes()).toEqual([]);
    viewport.set({ x: 0, y: 0, zoom: 0.1 });
    expect(drawn.previewed()).toBe(true);
    expect(drawn.shownNodes()).toEqual([]);
    // The top-left 400 × 300 of the drawing at zoom 1.
    viewport.set({ x: 0, y: 0, zoom: 1 });
    expect(drawn.previewed()).toBe(false);
    const shown = drawn.shownNodes().map((node) => node.id);
    const inView = (id: string) => {
      const box = drawing.result.boxes[id.replace(/^g:/, '')];
      return box.x <= 400 && box.y <= 300;
    };
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(drawing.model.nodes.length + drawing.model.groups.length);
    expect(shown.every(inView)).toBe(true);
    const ends = new Set(shown);
    expect(drawn.shownEdges().every((edge) => ends.has(edge.source) && ends.has(edge.target))).toBe(true);
  });

  it('reads where drags put nodes (frames by their group id) and puts them back', () => {
    const drawn = flow();
    drawn.draw(drawing);
    const group = drawing.model.groups[0];
    const frame = drawn.shownNodes().find((node) => node.id === `g:${group.id}`);
    const box = drawing.result.boxes[group.id];
    frame?.point.set({ x: box.x + 10.4, y: box.y - 5 });
    expect(drawn.dragged()).toEqual([{ id: group.id, x: Math.round(box.x + 10.4), y: Math.round(box.y - 5) }]);
    drawn.undoDrag();
    expect(drawn.dragged()).toEqual([]);
    expect(frame?.point()).toEqual({ x: box.x, y: box.y });
  });

  it('makes each route’s path once', () => {
    const drawn = flow();
    const route = Object.values(drawing.result.edges)[0];
    const path = drawn.pathOf(route);
    expect(path).toMatch(/^M/);
    expect(drawn.pathOf(route)).toBe(path);
    expect(drawn.pathOf({ points: [...route.points] })).toEqual(path);
  });
});
