import { signal } from '@angular/core';
import type { Edge } from 'ngx-vflow';
import { FlowElements, newFlowNode, type FlowNodeSpec } from './flow-elements';

const spec = (id: string, x = 0): FlowNodeSpec => ({ id, type: 'html-template', point: { x, y: 0 }, width: 100, height: 40, data: { id } });

describe('FlowElements', () => {
  it('hands back the node it keeps while it is reusable, and makes a new one otherwise', () => {
    const elements = new FlowElements<unknown>();
    const first = elements.node('a', () => true, () => newFlowNode(spec('a')));
    expect(elements.node('a', () => true, () => newFlowNode(spec('a')))).toBe(first);
    const made = elements.node('a', () => false, () => newFlowNode(spec('a')));
    expect(made).not.toBe(first);
    expect(elements.node('a', () => true, () => newFlowNode(spec('a')))).toBe(made);
  });

  it('writes only what changed, reads drag moves and puts a node back', () => {
    const elements = new FlowElements<unknown>();
    const node = elements.node('a', () => true, () => newFlowNode(spec('a', 10), { draggable: signal(false) }));
    const point = node.point();
    elements.update(node, { x: 10, y: 0 }, { width: 120, height: 40 }, { id: 'a' });
    expect(node.point()).toBe(point);
    expect(node.width?.()).toBe(120);
    expect(elements.movedFrom('a', { x: 10, y: 0 })).toBeNull();
    node.point.set({ x: 30, y: 5 });
    expect(elements.movedFrom('a', { x: 10, y: 0 })).toEqual({ x: 30, y: 5 });
    elements.moveTo('a', { x: 10, y: 0 });
    expect(node.point()).toEqual({ x: 10, y: 0 });
    elements.setDraggable(true);
    expect(node.draggable?.()).toBe(true);
  });

  it('drops what the canvas no longer keeps', () => {
    const elements = new FlowElements<unknown>();
    const a = elements.node('a', () => true, () => newFlowNode(spec('a')));
    elements.node('b', () => true, () => newFlowNode(spec('b')));
    elements.keepNodes((_, id) => id === 'a');
    expect(elements.node('a', () => true, () => newFlowNode(spec('a')))).toBe(a);
    expect(elements.movedFrom('b', { x: 5, y: 5 })).toBeNull();
  });

  it('marks the selection on nodes and edges and reads back what ngx-vflow selected', () => {
    const elements = new FlowElements<unknown>();
    for (const id of ['a', 'b']) elements.node(id, () => true, () => newFlowNode(spec(id), { selected: signal(false) }));
    const edge = (id: string): Edge<unknown> => ({ id, source: 'a', target: 'b', selected: signal(false) });
    elements.edge('e0', () => true, () => edge('e0'));
    elements.edge('e1', () => true, () => edge('e1'));
    elements.showSelected(new Set(['b']), new Set(['e1']));
    expect(elements.selected()).toEqual({ nodes: ['b'], edges: ['e1'] });
  });
});
