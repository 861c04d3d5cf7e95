import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel, layoutInput } from './canvas-model';
import { LAYOUT_ENGINE_VERSION, defaultViewLayoutInput, layoutFingerprint } from './default-layout';
import { REGULAR_WIDTHS } from './font-widths';
import { linesWidth, textWidth, wrapWords } from './text-size';
import { createView } from '../collapse';
import type { OverlaidGraph } from '../overlay';

/**
 * Node sizes come from a width table, not from the browser's fonts (issue 10): the server lays out a diagram's
 * default view with exactly the sizes the dashboard gives its nodes.
 */
describe('text size estimate', () => {
  const TITLE = { size: 14, weight: 500 };

  it('is the sum of the table’s advances, scaled to the font size, and the same for the same text every time', () => {
    const width = textWidth('Orders API', TITLE);
    expect(width).toBe(textWidth('Orders API', TITLE));
    const advances = [...'Orders API'].map((character) => REGULAR_WIDTHS[character.charCodeAt(0) - 0x20]);
    expect(width).toBeCloseTo((advances.reduce((sum, advance) => sum + advance, 0) * 14) / 1000, 9);
    expect(textWidth('Orders API', { size: 28, weight: 500 })).toBeCloseTo(2 * width, 9);
    // Bold is wider, monospace is one advance per character.
    expect(textWidth('Orders API', { size: 14, weight: 600 })).toBeGreaterThan(width);
    expect(textWidth('abc', { size: 10, mono: true })).toBe(textWidth('WWW', { size: 10, mono: true }));
  });

  it('gives characters outside the table room of their own: accents as measured, other scripts and emoji an em or more', () => {
    const font = { size: 10 };
    expect(textWidth('é', font)).toBeGreaterThan(0);
    expect(textWidth('数据库', font)).toBe(30);
    expect(textWidth('🚀', font)).toBeGreaterThan(10);
    // A combining accent adds nothing to the letter it sits on.
    expect(textWidth('e\u0301', font)).toBe(textWidth('e', font));
  });

  it('wraps between words only: no line is wider than the limit unless it is one word, and no word is split', () => {
    const text = 'Payment authorisation gateway for international card transactions supercalifragilisticexpialidocious end';
    const lines = wrapWords(text, 220, TITLE);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe(text);
    for (const line of lines) {
      if (line.includes(' ')) expect(textWidth(line, TITLE)).toBeLessThanOrEqual(220);
      for (const word of line.split(' ')) expect(text.split(' ')).toContain(word);
    }
    // A word longer than the limit stays whole on its own line, and the node grows to hold it.
    const long = wrapWords('a-very-long-identifier-without-any-space-in-it', 50, TITLE);
    expect(long).toEqual(['a-very-long-identifier-without-any-space-in-it']);
    expect(linesWidth(long, TITLE)).toBeGreaterThan(50);
    expect(wrapWords('first line\nsecond', 500, TITLE)).toEqual(['first line', 'second']);
  });

  it('gives the same layout input, and fingerprint, for the same graph however often it is built', () => {
    const graph: OverlaidGraph = {
      kind: 'flowchart',
      direction: 'LR',
      nodes: [
        { id: 'api', label: 'Orders API with a rather long name that wraps', parent: 'core' },
        { id: 'db', label: 'DB' },
      ],
      groups: [{ id: 'core', label: 'Core services', nodes: ['api'] }],
      edges: [{ source: 'api', target: 'db', label: 'reads and writes' }],
    };
    const input = defaultViewLayoutInput(graph, new Map());
    expect(defaultViewLayoutInput(structuredClone(graph), new Map())).toEqual(input);
    expect(layoutFingerprint(input)).toBe(layoutFingerprint(layoutInput(buildModel({ view: createView(graph), databases: new Map() }))));
    const api = input.nodes.find((node) => node.id === 'api');
    expect(api?.width).toBe(Math.ceil(api?.width ?? 0));
    // Any size change is another fingerprint: a layout for other sizes is never drawn.
    const wider = { ...input, nodes: input.nodes.map((node) => (node.id === 'db' ? { ...node, width: node.width + 1 } : node)) };
    expect(layoutFingerprint(wider)).not.toBe(layoutFingerprint(input));
  });

  it('names the installed elkjs in the layout engine version, so an upgrade computes stored layouts again', () => {
    const elk = JSON.parse(readFileSync(join(require.resolve('elkjs/package.json')), 'utf8')) as { version: string };
    expect(LAYOUT_ENGINE_VERSION).toContain(`elkjs-${elk.version}`);
  });
});
