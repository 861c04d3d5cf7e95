import { linesJson, pageOf } from './answer-pages';

describe('pageOf', () => {
  it('answers a short text whole, with no next page', () => {
    expect(pageOf('abc\ndef\n', 0, 100)).toEqual({ text: 'abc\ndef\n', total: 8, nextOffset: null });
  });

  it('ends a page after the last whole line that fits, and the pages put together give the text back', () => {
    const text = Array.from({ length: 50 }, (_, index) => `line ${index} ${'é'.repeat(index % 7)}`).join('\n');
    const pages: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = pageOf(text, offset, 64);
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(64);
      pages.push(page.text);
      offset = page.nextOffset;
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.slice(0, -1).every((page) => page.endsWith('\n'))).toBe(true);
    expect(pages.join('')).toBe(text);
  });

  it('cuts a line longer than a page by bytes, never inside a surrogate pair', () => {
    const text = `${'a'.repeat(9)}${'😀'.repeat(10)}`;
    const first = pageOf(text, 0, 12);
    expect(first).toEqual({ text: 'a'.repeat(9), total: text.length, nextOffset: 9 });
    const second = pageOf(text, 9, 12);
    expect(second.text).toBe('😀😀😀');
    expect(pageOf(text, 9 + second.text.length, 12).text).toBe('😀😀😀');
  });

  it('refuses an offset past the end in words', () => {
    expect(() => pageOf('abc', 4, 10)).toThrow('offset 4 is past the end of this answer (3 characters).');
  });
});

describe('linesJson', () => {
  it('writes each array element on a line of its own and parses back to the value', () => {
    const graph = { kind: 'flowchart', nodes: [{ id: 'a' }, { id: 'b', label: 'B' }], edges: [], groups: [{ id: 'g', nodes: ['a'] }] };
    const text = linesJson(graph);
    expect(JSON.parse(text)).toEqual(graph);
    expect(text.split('\n')).toEqual([
      '{',
      '  "kind": "flowchart",',
      '  "nodes": [',
      '    {"id":"a"},',
      '    {"id":"b","label":"B"}',
      '  ],',
      '  "edges": [],',
      '  "groups": [',
      '    {"id":"g","nodes":["a"]}',
      '  ]',
      '}',
    ]);
  });
});
