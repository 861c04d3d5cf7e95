import { cleanLikeMermaid, originalPosition, originOf } from './source-map';

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
