import { labelText, mermaidLineText, mermaidQuoted } from './labels';

describe('labelText', () => {
  it("decodes Mermaid's entity placeholders and HTML entities into the text a reader sees", () => {
    expect(labelText('A \uFB02\u00B0quot\u00B6\u00DFx\uFB02\u00B0quot\u00B6\u00DF')).toBe('A "x"');
    expect(labelText('\uFB02\u00B0\u00B09829\u00B6\u00DF')).toBe('♥');
    expect(labelText('if n &lt; 0 &amp;&amp; &#x41; &unknown;')).toBe('if n < 0 && A &unknown;');
    expect(labelText('line<br/>break')).toBe('line<br/>break');
  });
});

describe('mermaidQuoted', () => {
  it('writes quotes and entity-like text as Mermaid entity codes', () => {
    expect(mermaidQuoted('say "hi"')).toBe('"say #quot;hi#quot;"');
    expect(mermaidQuoted('#quot; and &amp;')).toBe('"#35;quot; and #amp;amp;"');
    expect(mermaidQuoted('a & b # c')).toBe('"a #amp; b # c"');
    expect(mermaidQuoted('&#0 &lt')).toBe('"#amp;#0 #amp;lt"');
    expect(mermaidQuoted('`code`')).toBe('"#96;code#96;"');
    expect(mermaidQuoted('a:"b" c: d http://x')).toBe('"a#58;#quot;b#quot; c: d http://x"');
  });
});

describe('mermaidLineText', () => {
  it('also escapes statement separators and line breaks', () => {
    expect(mermaidLineText('a; "b"\nc #1; # x')).toBe('a#59; #quot;b#quot;<br>c #35;1#59; #35; x');
  });
});
