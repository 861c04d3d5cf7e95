import { cleanLikeMermaid, frontMatterOf, originalPosition, originOf, parsedTextLikeMermaid, positionOf, positionsIn } from './source-map';

describe('cleanLikeMermaid', () => {
  it('removes what Mermaid removes and remembers where each kept character came from', () => {
    const source = '---\r\ntitle: x\r\n---\r\n%%{init: {"theme":"dark"}}%%\r\n%% comment\r\nflowchart LR\r\n  A --> B\r\n';
    const cleaned = cleanLikeMermaid(source);
    expect(cleaned.text).toBe('flowchart LR\n  A --> B\n');
    expect(originOf(cleaned, 0)).toBe(source.indexOf('flowchart'));
    expect(originalPosition(source, cleaned, 2, 2)).toEqual({ line: 7, column: 3 });
  });

  it('maps lone carriage returns as line breaks', () => {
    const source = 'flowchart LR\r  A --> B\r  B --> C';
    const cleaned = cleanLikeMermaid(source);
    expect(cleaned.text).toBe('flowchart LR\n  A --> B\n  B --> C');
    expect(originalPosition(source, cleaned, 3, 2)).toEqual({ line: 3, column: 3 });
  });

  it('handles large inputs linearly (no per-character arrays, no deep spreads)', () => {
    const source = `flowchart LR\r\n${'  %% note\r\n  a --> b\r\n'.repeat(40_000)}`;
    const cleaned = cleanLikeMermaid(source);
    expect(cleaned.text.length).toBe(source.length - 40_000 * '  %% note\r\n'.length - 40_001);
    expect(originalPosition(source, cleaned, 40_001, 2)).toEqual({ line: 80_001, column: 3 });
  });
});

describe('parsedTextLikeMermaid', () => {
  it("rewrites entity codes into Mermaid's placeholders and maps positions after them back", () => {
    const source = 'flowchart LR\n  A["#quot;x#9829;"] --> B\n';
    const parsed = parsedTextLikeMermaid(source, 'flowchart');
    expect(parsed.text).toBe('flowchart LR\n  A["\uFB02\u00B0quot\u00B6\u00DFx\uFB02\u00B0\u00B09829\u00B6\u00DF"] --> B\n');
    const arrow = parsed.text.indexOf('-->') - parsed.text.indexOf('\n') - 1;
    expect(originalPosition(source, parsed, 2, arrow)).toEqual({ line: 2, column: source.split('\n')[1].indexOf('-->') + 1 });
  });

  it('drops the blank lines after a } in flowcharts only, as their parser does', () => {
    const source = 'flowchart LR\n  A@{ shape: rect }\n\n\n  B --> C\n';
    expect(parsedTextLikeMermaid(source, 'flowchart').text).toBe('flowchart LR\n  A@{ shape: rect }\n  B --> C\n');
    expect(originalPosition(source, parsedTextLikeMermaid(source, 'flowchart'), 3, 2)).toEqual({ line: 5, column: 3 });
    expect(parsedTextLikeMermaid('stateDiagram-v2\n  state A {\n  }\n\n  A --> B\n', 'state').text).toBe('stateDiagram-v2\n  state A {\n  }\n\n  A --> B\n');
  });
});

describe('frontMatterOf', () => {
  it("finds Mermaid 12's frontmatter: blank lines after the opening fence, an indented block, the whitespace after the closing fence", () => {
    expect(frontMatterOf('---\n\ntitle: x\n---\n\nflowchart LR\n')).toEqual({ bodyStart: 5, length: 19 });
    expect(frontMatterOf('  ---\n  title: x\n  ---\nflowchart LR\n')).toEqual({ bodyStart: 6, length: 23 });
    expect(frontMatterOf('---\ntitle: x\n---')).toBeUndefined();
    expect(frontMatterOf('flowchart LR\n---\n')).toBeUndefined();
  });
});

describe('positionsIn', () => {
  /** The definition: count line breaks (\n, \r\n, a lone \r) before the offset. */
  function scan(source: string, offset: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (source[i] === '\n' || (source[i] === '\r' && source[i + 1] !== '\n')) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  }

  it('agrees with a scan from the start at every offset, whatever the line endings', () => {
    const source = 'a\nbc\r\n\r\ndef\rg\n\nh';
    const at = positionsIn(source);
    for (let offset = 0; offset <= source.length; offset++) expect(at(offset)).toEqual(scan(source, offset));
  });

  it('places offsets of a one-line text and of an empty text on line 1', () => {
    expect(positionsIn('abc')(2)).toEqual({ line: 1, column: 3 });
    expect(positionsIn('')(0)).toEqual({ line: 1, column: 1 });
  });

  it('is what positionOf answers', () => {
    expect(positionOf('x\ny\nz', 4)).toEqual({ line: 3, column: 1 });
  });
});
