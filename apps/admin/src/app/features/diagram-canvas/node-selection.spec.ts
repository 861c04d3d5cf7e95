import { ModelReuse, buildModel, collapseGroup, createView, type CanvasModel } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import { NodeSelection } from './node-selection';

describe('NodeSelection', () => {
  const view = createView(fixtureTopology());
  const input = { ...fixtureModelInput(), view };
  const reuse = new ModelReuse(view.graph, input.databases, input.highlights);
  const model: CanvasModel = buildModel(input, reuse);
  const collapsed: CanvasModel = buildModel({ ...input, view: collapseGroup(view, 'core') }, reuse);
  let drawn: boolean;
  let revealed: string[];
  let changes: (string | null)[];
  let selection: NodeSelection;

  beforeEach(() => {
    drawn = false;
    revealed = [];
    changes = [];
    selection = new NodeSelection({ drawn: () => drawn, reveal: (id) => revealed.push(id), changed: (id) => changes.push(id) });
  });

  it('tells the page of each change of the selected node the user makes, not of the same one again', () => {
    selection.selectNode('api', model);
    selection.selectNode('api', model);
    expect(selection.nodeId()).toBe('api');
    const edge = model.edges[0];
    selection.select({ kind: 'edge', edge });
    expect(selection.nodeId()).toBeNull();
    selection.select(null);
    selection.selectNode('no-such-node', model);
    expect(changes).toEqual(['api', null]);
  });

  it('selects the node the page asks for without telling it back, and reveals it once drawn', () => {
    selection.requested('api', model);
    expect(selection.nodeId()).toBe('api');
    expect(revealed).toEqual([]);
    expect(selection.takeReveal()).toBe('api');
    expect(selection.takeReveal()).toBeNull();
    drawn = true;
    selection.requested('merchant', model);
    expect(revealed).toEqual(['merchant']);
    // The page's URL echoing the user's choice is no new request.
    selection.selectNode('api', model);
    selection.requested('api', model);
    expect(revealed).toEqual(['merchant']);
    selection.requested(null, model);
    expect(selection.current()).toBeNull();
    expect(changes).toEqual(['api']);
  });

  it('waits for a model that has the node asked for', () => {
    drawn = true;
    selection.requested('api', collapsed);
    expect(selection.current()).toBeNull();
    selection.requested('api', model);
    expect(selection.nodeId()).toBe('api');
    expect(revealed).toEqual(['api']);
  });

  it('points at the new model’s node after a redraw, and at nothing when the node is gone', () => {
    selection.selectNode('api', model);
    const redrawn = buildModel({ ...input, view: createView(fixtureTopology()) }, new ModelReuse(view.graph, input.databases, input.highlights));
    selection.remodelled(redrawn);
    const current = selection.current();
    expect(current?.kind === 'node' ? current.node : null).toBe(redrawn.nodes.find((n) => n.id === 'api'));
    selection.remodelled(collapsed);
    expect(selection.current()).toBeNull();
  });
});
