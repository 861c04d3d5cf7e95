import ELK from 'elkjs/lib/elk.bundled.js';
import { LayoutCache, ModelReuse, borderPoint, buildModel, centre, collapseGroup, collapseGroups, createView, expandGroup, layoutDiagram, layoutInput, rowsUnderOutline, type CanvasModel, type LayoutResult } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import { collapseKey, layoutInPlace } from './in-place';

describe('redrawing a collapse in place', () => {
  const elk = new ELK();
  const laidOut = async (model: CanvasModel): Promise<{ model: CanvasModel; result: LayoutResult }> => ({
    model,
    result: await layoutDiagram(elk, layoutInput(model), new LayoutCache()),
  });

  it('shrinks the collapsed group where it is, hides its members and points the crossing edges at it', async () => {
    const view = createView(fixtureTopology());
    const before = await laidOut(buildModel({ ...fixtureModelInput(), view }));
    const collapsed = buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'core') });
    const inPlace = layoutInPlace(before, collapsed);
    if (!inPlace) throw new Error('a collapse is always drawn in place');

    // Exactly the new model's elements: the members of core are gone, core is a box of its collapsed size at its old corner.
    expect(Object.keys(inPlace.boxes).sort()).toEqual([...collapsed.nodes.map((n) => n.id), ...collapsed.groups.map((g) => g.id)].sort());
    expect(inPlace.boxes['api']).toBeUndefined();
    const core = collapsed.groups.find((g) => g.id === 'core');
    expect(inPlace.boxes['core']).toEqual({ x: before.result.boxes['core'].x, y: before.result.boxes['core'].y, width: core?.width, height: 44 });
    // Everything else stays where it was drawn.
    expect(inPlace.boxes['merchant']).toBe(before.result.boxes['merchant']);

    // Every visible edge is drawn; one that now ends at the group starts on the group's border.
    for (const edge of collapsed.edges) expect([edge.key, (inPlace.edges[edge.key]?.points.length ?? 0) >= 2]).toEqual([edge.key, true]);
    const repointed = collapsed.edges.find((e) => e.source === 'events' && e.target === 'core');
    if (!repointed) throw new Error('the fixture has an edge from the queue into core');
    const end = inPlace.edges[repointed.key].points.at(-1);
    const box = inPlace.boxes['core'];
    const onBorder = end !== undefined && end.x >= box.x - 0.01 && end.x <= box.x + box.width + 0.01 && end.y >= box.y - 0.01 && end.y <= box.y + box.height + 0.01;
    expect(onBorder).toBe(true);
    // An edge between two nodes that did not move keeps its routed line.
    const untouched = collapsed.edges.find((e) => before.result.edges[e.key] && inPlace.boxes[e.source] === before.result.boxes[e.source] && inPlace.boxes[e.target] === before.result.boxes[e.target]);
    if (!untouched) throw new Error('the fixture has edges outside core');
    expect(inPlace.edges[untouched.key]).toBe(before.result.edges[untouched.key]);
  });

  it('ends a line drawn straight to a shape with data rows on its outline, not on the rows', async () => {
    const view = createView(fixtureTopology());
    const before = await laidOut(buildModel({ ...fixtureModelInput(), view }));
    const collapsed = buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'edge') });
    const api = collapsed.nodes.find((n) => n.id === 'api');
    if (!api || rowsUnderOutline(api) === 0) throw new Error("the fixture's Payments API is a shape with data rows");
    const repointed = collapsed.edges.find((e) => e.source === 'edge' && e.target === 'api');
    if (!repointed) throw new Error('the fixture has an edge from the gateway into the API');
    const inPlace = layoutInPlace(before, collapsed);
    const end = inPlace?.edges[repointed.key].points.at(-1);
    // On the line from the collapsed group's centre to the outline's centre, where it meets the outline.
    const box = before.result.boxes['api'];
    const outline = { ...box, height: box.height - rowsUnderOutline(api) };
    const expected = borderPoint(outline, centre(inPlace?.boxes['edge'] ?? box));
    expect(end?.x).toBeCloseTo(expected.x, 5);
    expect(end?.y).toBeCloseTo(expected.y, 5);
  });

  it('collapses every group in place (Collapse all)', async () => {
    const view = createView(fixtureTopology());
    const before = await laidOut(buildModel({ ...fixtureModelInput(), view }));
    const all = buildModel({ ...fixtureModelInput(), view: collapseGroups(view, view.graph.groups.map((g) => g.id)) });
    const inPlace = layoutInPlace(before, all);
    expect(inPlace).not.toBeNull();
    expect(Object.keys(inPlace?.boxes ?? {}).sort()).toEqual([...all.nodes.map((n) => n.id), ...all.groups.map((g) => g.id)].sort());
  });

  it('has no place for the members of an expanded group: that waits for the layout', async () => {
    const view = collapseGroup(createView(fixtureTopology()), 'core');
    const before = await laidOut(buildModel({ ...fixtureModelInput(), view }));
    expect(layoutInPlace(before, buildModel({ ...fixtureModelInput(), view: expandGroup(view, 'core') }))).toBeNull();
  });

  it('keys layouts by the collapsed groups, in any order of collapsing', () => {
    const view = createView(fixtureTopology());
    const model = (v: typeof view) => buildModel({ ...fixtureModelInput(), view: v });
    expect(collapseKey(model(collapseGroup(collapseGroup(view, 'core'), 'edge')))).toBe(collapseKey(model(collapseGroup(collapseGroup(view, 'edge'), 'core'))));
    expect(collapseKey(model(view))).not.toBe(collapseKey(model(collapseGroup(view, 'core'))));
  });
});

describe('rebuilding the model after a collapse', () => {
  it('keeps the objects of unchanged nodes and edges, and builds the changed ones anew', () => {
    const input = fixtureModelInput();
    const view = createView(fixtureTopology());
    const reuse = new ModelReuse(view.graph, input.databases, undefined);
    const first = buildModel({ ...input, view }, reuse);
    const collapsed = buildModel({ ...input, view: collapseGroup(view, 'core') }, reuse);
    const merchant = first.nodes.find((n) => n.id === 'merchant');
    expect(collapsed.nodes.find((n) => n.id === 'merchant')).toBe(merchant);
    const kept = collapsed.edges.find((e) => !e.key.startsWith('*') && first.edges.some((f) => f.key === e.key && f.source === e.source && f.target === e.target));
    expect(kept).toBe(first.edges.find((e) => e.key === kept?.key));
    // Re-pointed edges are new objects with the group as their end.
    expect(collapsed.edges.filter((e) => e.target === 'core' || e.source === 'core').every((e) => !first.edges.includes(e))).toBe(true);
    // The same model as without reuse.
    expect(collapsed).toEqual(buildModel({ ...input, view: collapseGroup(view, 'core') }));
    // Expanding again gives back the very same objects.
    const expanded = buildModel({ ...input, view: expandGroup(collapseGroup(view, 'core'), 'core') }, reuse);
    expect(expanded.nodes.every((n, i) => n === first.nodes[i])).toBe(true);
    expect(expanded.edges.every((e, i) => e === first.edges[i])).toBe(true);
  });

  it('hands the layout the same entry for each node and edge kept, so the layout input is not built anew', () => {
    const input = fixtureModelInput();
    const view = createView(fixtureTopology());
    const reuse = new ModelReuse(view.graph, input.databases, undefined);
    const first = layoutInput(buildModel({ ...input, view }, reuse));
    const collapsed = layoutInput(buildModel({ ...input, view: collapseGroup(view, 'core') }, reuse));
    const merchant = first.nodes.find((n) => n.id === 'merchant');
    expect(collapsed.nodes.find((n) => n.id === 'merchant')).toBe(merchant);
    const kept = collapsed.edges.find((e) => first.edges.includes(e));
    expect(kept).toBeDefined();
    // The same input as built without reuse.
    expect(collapsed).toEqual(layoutInput(buildModel({ ...input, view: collapseGroup(view, 'core') })));
  });

  it('is not used for other databases or highlights', () => {
    const input = fixtureModelInput();
    const view = createView(fixtureTopology());
    const reuse = new ModelReuse(view.graph, input.databases, undefined);
    const first = buildModel({ ...input, view }, reuse);
    const other = buildModel({ ...input, databases: new Map(), view }, reuse);
    expect(other.nodes.find((n) => n.id === 'merchant')).not.toBe(first.nodes.find((n) => n.id === 'merchant'));
  });
});
