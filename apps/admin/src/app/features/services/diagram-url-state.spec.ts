import { collapseGroup, createView, type OverlaidGraph } from '@sc/diagram';
import { paramList, urlParams, viewWithCollapsed } from './diagram-url-state';

const GRAPH: OverlaidGraph = {
  kind: 'flowchart',
  nodes: [
    { id: 'a', label: 'A', parent: 'core' },
    { id: 'b', label: 'B', parent: 'edge' },
    { id: 'c', label: 'C' },
  ],
  edges: [{ source: 'a', target: 'b' }],
  groups: [
    { id: 'core', label: 'Core', nodes: ['a'] },
    { id: 'edge', label: 'Edge', nodes: ['b'] },
  ],
};

describe('diagram state in the URL', () => {
  it('reads a parameter given once, several times or not at all', () => {
    expect(paramList(undefined)).toEqual([]);
    expect(paramList('')).toEqual([]);
    expect(paramList('core')).toEqual(['core']);
    expect(paramList(['core', 'edge'])).toEqual(['core', 'edge']);
  });

  it('writes only what changed, removing empty values', () => {
    expect(urlParams({ collapsed: ['core', 'edge'] })).toEqual({ collapsed: ['core', 'edge'] });
    expect(urlParams({ collapsed: [] })).toEqual({ collapsed: null });
    expect(urlParams({ node: 'a' })).toEqual({ node: 'a' });
    expect(urlParams({ node: null, compare: 2 })).toEqual({ node: null, compare: 2 });
    expect(urlParams({ compare: null })).toEqual({ compare: null });
  });

  it('makes the view with the collapsed groups the URL names, leaving out groups the graph does not have', () => {
    const view = viewWithCollapsed(GRAPH, ['edge', 'gone']);
    expect(view.collapsed).toEqual(['edge']);
    expect(view.visible.nodes.map((node) => node.id)).toEqual(['a', 'c']);
    expect(viewWithCollapsed(GRAPH, []).collapsed).toEqual([]);
  });

  it('keeps the view on screen when it already shows what the URL says (the URL catching up with a click)', () => {
    const shown = collapseGroup(createView(GRAPH), 'core');
    expect(viewWithCollapsed(GRAPH, ['core'], shown)).toBe(shown);
    // Back to the state before the click: a new view, expanded.
    expect(viewWithCollapsed(GRAPH, [], shown).collapsed).toEqual([]);
    // Another graph (another revision): its own view, whatever was shown.
    const other = { ...GRAPH };
    expect(viewWithCollapsed(other, ['core'], shown).graph).toBe(other);
  });
});
