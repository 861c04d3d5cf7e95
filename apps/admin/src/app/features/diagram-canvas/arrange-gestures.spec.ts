import ELK from 'elkjs/lib/elk.bundled.js';
import type { ArrangementLists } from '@sc/contracts';
import { LayoutCache, buildModel, createView, layoutDiagram, layoutInput } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import { ARRANGE_KEY_STEP } from './arrange-edit';
import { ArrangeGestures } from './arrange-gestures';
import type { Drawing } from './canvas-layout';

describe('ArrangeGestures moves', () => {
  const view = createView(fixtureTopology());
  let drawing: Drawing;
  beforeAll(async () => {
    const model = buildModel({ ...fixtureModelInput(), view });
    drawing = { model, result: await layoutDiagram(new ELK(), layoutInput(model), new LayoutCache()) };
  });
  let arranged: ArrangementLists[];
  let refusals: number;
  let gestures: ArrangeGestures;
  const canvas = () => ({
    drawing: () => drawing,
    arranging: () => true,
    drawingPoint: () => null,
    graph: () => view.graph,
    arrangement: () => null,
    arranged: (lists: ArrangementLists) => arranged.push(lists),
    refused: () => refusals++,
  });
  beforeEach(() => {
    arranged = [];
    refusals = 0;
    gestures = new ArrangeGestures(canvas());
  });
  /** A node outside every group, and a group it is not a member of. */
  const outside = () => drawing.model.nodes.find((node) => !view.graph.nodes.find((n) => n.id === node.id)?.parent)?.id ?? '';
  const frame = () => drawing.model.groups[0].id;
  const placeOf = (lists: ArrangementLists, id: string) => lists.nodes.find((node) => node.id === id);

  it('fixes everything as drawn in the current arrangement', () => {
    const lists = gestures.currentArrangement();
    const id = outside();
    expect(lists?.nodes).toHaveLength(drawing.model.nodes.length);
    expect(placeOf(lists as ArrangementLists, id)).toEqual(expect.objectContaining({ x: drawing.result.boxes[id].x, y: drawing.result.boxes[id].y }));
  });

  it('saves a move into a new arrangement, and refuses one into a frame the node is not in (undone first)', () => {
    const id = outside();
    const box = drawing.result.boxes[id];
    gestures.move([{ id, x: box.x, y: box.y + 2000 }]);
    expect(arranged).toHaveLength(1);
    expect(refusals).toBe(0);
    expect(placeOf(arranged[0], id)).toEqual(expect.objectContaining({ x: box.x, y: box.y + 2000 }));

    const inside = drawing.result.boxes[frame()];
    const order: string[] = [];
    gestures = new ArrangeGestures({ ...canvas(), refused: () => order.push('refused') });
    gestures.move([{ id, x: inside.x + inside.width / 2 - box.width / 2, y: inside.y + inside.height / 2 - box.height / 2 }], () => order.push('undone'));
    expect(order).toEqual(['undone', 'refused']);
    gestures.move([]);
    expect(order).toHaveLength(2);
  });

  it('moves a node by an arrow key’s step; other keys move nothing', () => {
    const id = outside();
    const box = drawing.result.boxes[id];
    const key = (name: string, shiftKey = false) => ({ key: name, shiftKey, ctrlKey: false, altKey: false, metaKey: false }) as KeyboardEvent;
    expect(gestures.moveByKey(id, key('ArrowDown', true))).toBe(true);
    expect(placeOf(arranged[0], id)).toEqual(expect.objectContaining({ x: box.x, y: box.y + ARRANGE_KEY_STEP * 10 }));
    expect(gestures.moveByKey(id, key('a'))).toBe(false);
    expect(gestures.moveByKey(undefined, key('ArrowDown'))).toBe(false);
    expect(arranged).toHaveLength(1);
  });

});
