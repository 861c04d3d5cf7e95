import { labelText, mermaidLineText, mermaidQuoted } from './labels';

describe('labelText', () => {
  it("decodes Mermaid's entity placeholders and HTML entities into the text a reader sees", () => {
    expect(labelText('A \uFB02\u00B0quot\u00B6\u00DFx\uFB02\u00B0quot\u00B6\u00DF')).toBe('A "x"');
    expect(labelText('\uFB02\u00B0\u00B09829\u00B6\u00DF')).toBe('♥');
    expect(labelText('if n &lt; 0 &amp;&amp; &#x41; &unknown;')).toBe('if n < 0 && A &unknown;');
    expect(labelText('<b>bold</b>')).toBe('<b>bold</b>');
  });

  it('decodes every HTML5 named entity Mermaid leaves for the browser, from entity codes and from sanitized text', () => {
    const code = (name: string) => `\uFB02\u00B0${name}\u00B6\u00DF`;
    expect(labelText(`0 ${code('le')} x ${code('lt')} ${code('infin')}`)).toBe('0 ≤ x < ∞');
    expect(labelText(`${code('hearts')}${code('rarr')}${code('nbsp')}${code('Eacute')}${code('NotSquareSupersetEqual')}`)).toBe('♥→\u00a0É⋣');
    expect(labelText('&copy; &euro; &#x1F600; &#128512;')).toBe('© € 😀 😀');
    expect(labelText('&zzz; AT&T')).toBe('&zzz; AT&T');
  });

  it('reads a <br> tag as a line break and keeps a literal &lt;br&gt; as the text "<br>"', () => {
    expect(labelText('line<br/>break<BR>and<br />more')).toBe('line\nbreak\nand\nmore');
    expect(labelText('a &lt;br&gt; b')).toBe('a <br> b');
    expect(labelText('a \uFB02\u00B0lt\u00B6\u00DFbr\uFB02\u00B0gt\u00B6\u00DF b')).toBe('a <br> b');
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

  it('writes a line break as <br> and the text "<br>" as an entity code, so they read back apart', () => {
    expect(mermaidQuoted('one\ntwo <br> three <BR/>')).toBe('"one<br>two #lt;br> three #lt;BR/>"');
    expect(mermaidLineText('one\ntwo <br>')).toBe('one<br>two #lt;br>');
  });

  it('escapes an & in statement text where an HTML parser would read an entity, legacy ones without ; included', () => {
    expect(mermaidLineText('&copy 2024 R&D &amp; AT&T')).toBe('#amp;copy 2024 R&D #amp;amp#59; AT&T');
  });
});

describe('mermaidLineText', () => {
  it('also escapes statement separators and line breaks', () => {
    expect(mermaidLineText('a; "b"\nc #1; # x')).toBe('a#59; #quot;b#quot;<br>c #35;1#59; #35; x');
  });
});
