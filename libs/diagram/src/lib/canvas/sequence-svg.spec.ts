/**
 * @jest-environment jsdom
 */
import type { OverlaidGraph } from '../overlay';
import { sequenceSvg } from './sequence-svg';

const GRAPH: Pick<OverlaidGraph, 'nodes' | 'edges'> = {
  nodes: [
    { id: 'web', label: 'web', shape: 'actor' },
    { id: 'api', label: 'api', overlay: { name: 'Checkout API' } },
    { id: 'db', label: 'Orders DB' },
  ],
  edges: [
    { source: 'web', target: 'api', label: 'POST /checkout', type: 'SOLID' },
    { source: 'api', target: 'api', label: 'validate <cart>', type: 'SOLID' },
    { source: 'api', target: 'db', label: 'INSERT order', type: 'SOLID_POINT' },
    { source: 'db', target: 'api', label: 'ok', type: 'DOTTED' },
    { source: 'api', target: 'web', label: '201 Created', type: 'DOTTED_OPEN' },
  ],
};

const parse = (text: string) => new DOMParser().parseFromString(text, 'image/svg+xml');

describe('sequenceSvg', () => {
  it('draws every participant (context names, top and bottom) and every message label in order, as a plain file', () => {
    const text = sequenceSvg(GRAPH);
    const svg = parse(text);
    expect(svg.querySelector('parsererror')).toBeNull();
    const names = (id: string) => Array.from(svg.querySelectorAll(`[data-node-id="${id}"] text`)).map((node) => node.textContent);
    expect([names('web'), names('api'), names('db')]).toEqual([['web', 'web'], ['Checkout API', 'Checkout API'], ['Orders DB', 'Orders DB']]);
    const labels = Array.from(svg.querySelectorAll('[data-edge-source] text')).map((node) => node.textContent);
    expect(labels).toEqual(['POST /checkout', 'validate <cart>', 'INSERT order', 'ok', '201 Created']);
    expect(svg.querySelector('[data-node-id=web]')?.getAttribute('data-node-type')).toBe('actor');
    expect(svg.querySelectorAll('script, foreignObject, image').length).toBe(0);
    expect([...text.matchAll(/url\(([^)]*)\)/g)].every((match) => match[1].startsWith('#'))).toBe(true);
  });

  it("draws Mermaid's arrows: dotted replies, open ends without a head, async ends, messages to oneself as a loop", () => {
    const svg = parse(sequenceSvg(GRAPH));
    const path = (i: number) => svg.querySelectorAll('[data-edge-source] path')[i];
    expect([path(0)?.getAttribute('marker-end'), path(0)?.hasAttribute('stroke-dasharray')]).toEqual(['url(#seq-arrow)', false]);
    expect(path(1)?.getAttribute('d')).toMatch(/^M(\d+),(\d+)H\d+V\d+H/);
    expect(path(2)?.getAttribute('marker-end')).toBe('url(#seq-async)');
    expect([path(3)?.getAttribute('marker-end'), path(3)?.getAttribute('stroke-dasharray')]).toEqual(['url(#seq-arrow)', '6 4']);
    expect(path(4)?.hasAttribute('marker-end')).toBe(false);
    // Messages go down the page in their order.
    const ys = Array.from(svg.querySelectorAll('[data-edge-source] path')).map((node) => Number(/^M[\d.]+,([\d.]+)/.exec(node.getAttribute('d') ?? '')?.[1]));
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  });

  it('makes room between lifelines for a long label, and draws the dark theme on a dark background', () => {
    const long = 'a message label much wider than the two participant boxes and the gap between them';
    const svg = parse(sequenceSvg({ nodes: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], edges: [{ source: 'a', target: 'b', label: long }] }));
    const [from, to] = /^M([\d.]+),[\d.]+H([\d.]+)/.exec(svg.querySelector('[data-edge-source] path')?.getAttribute('d') ?? '')?.slice(1).map(Number) ?? [];
    expect(to - from).toBeGreaterThan(long.length * 5);
    expect(sequenceSvg(GRAPH, 'dark')).toContain('fill="#0d1117"');
  });

  it('draws a rect block in its colour only when it is a colour, never a reference or markup', () => {
    const steps = (fill: string) =>
      sequenceSvg({ nodes: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], edges: [{ source: 'a', target: 'b', label: 'm' }], steps: [{ kind: 'block', block: 'rect', label: '', fill }, { kind: 'message', edge: 0 }, { kind: 'end' }] });
    expect(parse(steps('#eef')).querySelector('rect[data-block="rect"]')?.getAttribute('fill')).toBe('#eef');
    for (const hostile of ['url(http://example.com/x.svg)', '"/><script>alert(1)</script>', 'red; background:url(x)']) {
      const text = steps(hostile);
      expect([hostile, parse(text).querySelector('rect[data-block="rect"]')?.getAttribute('fill')]).toEqual([hostile, 'rgba(31,111,235,0.04)']);
      expect(text).not.toMatch(/<script|url\((?!#)/);
    }
  });

  it('draws a note left of the first participant inside the picture (the view box grows to the left)', () => {
    const text = sequenceSvg({ nodes: [{ id: 'a', label: 'A' }], edges: [], steps: [{ kind: 'note', placement: 'left', participants: ['a'], text: 'a long note on the left side' }] });
    const svg = parse(text);
    const [x] = (svg.documentElement.getAttribute('viewBox') ?? '').split(' ').map(Number);
    expect(Number(svg.querySelector('[data-note] rect')?.getAttribute('x'))).toBeGreaterThan(x);
  });
});
