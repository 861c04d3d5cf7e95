import { ComponentFixture, TestBed } from '@angular/core/testing';
import { settle } from '../../testing/dom';
import { eventually } from '../../testing/eventually';
import { provideTestApp } from '../../testing/providers';
import { MarkdownComponent } from './markdown.component';
import { MermaidRenderer } from './mermaid-renderer.service';

const DOCUMENT = `# Payments

Takes **card payments** and settles them *nightly*.

- authorise
- capture

| Step | Owner |
| ---- | ----- |
| capture | API |

\`\`\`ts
const total: number = 42;
\`\`\`

\`\`\`mermaid
sequenceDiagram
  A->>B: hi
\`\`\`

[Runbook](https://example.com/runbook) · [section](#usage) · [repo file](./docs/other.md)
`;

describe('MarkdownComponent', () => {
  let fixture: ComponentFixture<MarkdownComponent>;
  /** Stands in for Mermaid, which needs a real browser layout engine; it records what it was asked to draw. */
  let drawn: string[];
  let render: (source: string) => Promise<string>;

  function show(markdown: string): HTMLElement {
    fixture.componentRef.setInput('markdown', markdown);
    fixture.detectChanges();
    return fixture.nativeElement as HTMLElement;
  }

  beforeEach(() => {
    drawn = [];
    render = async (source) => (drawn.push(source), '<svg data-drawn="yes"><text>drawn</text></svg>');
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: MermaidRenderer, useValue: { render: (source: string) => render(source) } }],
    });
    fixture = TestBed.createComponent(MarkdownComponent);
  });

  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)['markdownScriptRan'];
  });

  it('renders headings, emphasis, lists, tables and code', () => {
    const root = show(DOCUMENT);
    expect(root.querySelector('h1')?.textContent).toBe('Payments');
    expect(root.querySelector('strong')?.textContent).toBe('card payments');
    expect(root.querySelector('em')?.textContent).toBe('nightly');
    expect(Array.from(root.querySelectorAll('ul > li')).map((li) => li.textContent)).toEqual(['authorise', 'capture']);
    expect(Array.from(root.querySelectorAll('table th')).map((th) => th.textContent)).toEqual(['Step', 'Owner']);
    expect(root.querySelector('table td')?.textContent).toBe('capture');
    expect(root.querySelector('pre > code.language-ts')?.textContent).toBe('const total: number = 42;\n');
  });

  it('highlights a code block once its language has loaded', async () => {
    const root = show(DOCUMENT);
    await eventually(async () => {
      await settle(fixture);
      expect(root.querySelector('code.language-ts.hljs .hljs-keyword')?.textContent).toBe('const');
    });
    // Highlighting wraps tokens; the code itself is unchanged.
    expect(root.querySelector('code.language-ts')?.textContent).toBe('const total: number = 42;\n');
  });

  it('leaves a block in an unknown language as plain text', async () => {
    const root = show('```brainfuck\n+[<]>.\n```\n\n```ts\nlet a = 1;\n```\n');
    await eventually(async () => {
      await settle(fixture);
      expect(root.querySelector('code.language-ts.hljs')).not.toBeNull();
    });
    expect(root.querySelector('code.language-brainfuck')?.innerHTML).toBe('+[&lt;]&gt;.\n');
  });

  it('draws a mermaid block with the Mermaid renderer in place of its source', async () => {
    const root = show(DOCUMENT);
    await eventually(async () => {
      await settle(fixture);
      expect(root.querySelector('.markdown-mermaid svg[data-drawn="yes"]')).not.toBeNull();
    });
    expect(drawn).toEqual(['sequenceDiagram\n  A->>B: hi\n']);
    expect(root.querySelector('code.language-mermaid')).toBeNull();
  });

  it('keeps the source and says why when a mermaid block cannot be drawn', async () => {
    render = () => Promise.reject(new Error('Parse error on line 2'));
    const root = show('```mermaid\nflowchart LR\n  A -->\n```\n');
    await eventually(async () => {
      await settle(fixture);
      expect(root.querySelector('[role="note"]')?.textContent).toBe('This Mermaid diagram could not be drawn: Parse error on line 2');
    });
    expect(root.querySelector('code.language-mermaid')?.textContent).toContain('A -->');
  });

  it('opens web links in a new tab without a handle on this page and drops repository-relative and anchor links', () => {
    const root = show(DOCUMENT);
    const links = Array.from(root.querySelectorAll('a'));
    const runbook = links.find((a) => a.textContent === 'Runbook');
    expect(runbook?.getAttribute('href')).toBe('https://example.com/runbook');
    expect(runbook?.getAttribute('target')).toBe('_blank');
    expect(runbook?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links.find((a) => a.textContent === 'section')?.hasAttribute('href')).toBe(false);
    expect(links.find((a) => a.textContent === 'repo file')?.hasAttribute('href')).toBe(false);
  });

  it('strips script, event handlers, javascript: and data: links, styles and forms', () => {
    const root = show(
      [
        'Hello <script>window.markdownScriptRan = true</script>',
        '<img src="https://example.com/a.png" onerror="window.markdownScriptRan = true" alt="logo">',
        '<img src="x" onerror="window.markdownScriptRan = true">',
        '<a href="javascript:window.markdownScriptRan = true">click</a>',
        '[md link](javascript:alert(1)) [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
        '<a href="JaVaScRiPt:alert(1)" onclick="alert(1)">mixed case</a>',
        '<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)"><text>svg</text></a></svg>',
        '<iframe src="https://example.com"></iframe><form action="https://example.com"><input name="q"></form>',
        '<p style="position:fixed;inset:0">cover</p><style>body{display:none}</style>',
        '<p id="location">clobber</p>',
      ].join('\n\n'),
    );
    const html = root.innerHTML;
    expect(root.querySelector('script, iframe, form, input, style')).toBeNull();
    expect(html).not.toMatch(/onerror|onclick|javascript:|data:text/i);
    for (const element of Array.from(root.querySelectorAll('*'))) {
      expect(element.getAttributeNames().filter((name) => name.startsWith('on') || name === 'style')).toEqual([]);
    }
    expect(Array.from(root.querySelectorAll('a')).every((a) => !a.hasAttribute('href') || /^https?:/.test(a.getAttribute('href') ?? ''))).toBe(true);
    expect(root.querySelector('img[alt="logo"]')?.getAttribute('src')).toBe('https://example.com/a.png');
    expect(root.querySelector('img:not([alt])')?.hasAttribute('src')).toBe(false);
    expect(root.querySelector('#location')).toBeNull();
    expect(root.textContent).toContain('cover');
    expect((window as unknown as Record<string, unknown>)['markdownScriptRan']).toBeUndefined();
  });

  it('allows only https and inline raster images', () => {
    const root = show(
      '![a](https://example.com/a.png) ![b](http://example.com/b.png) ![c](./c.png) ![d](data:image/png;base64,iVBORw0KGgo=) ![e](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)',
    );
    const sources = Object.fromEntries(Array.from(root.querySelectorAll('img')).map((img) => [img.alt, img.getAttribute('src')]));
    expect(sources).toEqual({ a: 'https://example.com/a.png', b: null, c: null, d: 'data:image/png;base64,iVBORw0KGgo=', e: null });
  });

  it('renders again when the markdown changes', async () => {
    show('# One');
    await settle(fixture);
    const root = show('# Two\n\n```json\n{"a": 1}\n```');
    expect(root.querySelector('h1')?.textContent).toBe('Two');
    await eventually(async () => {
      await settle(fixture);
      expect(root.querySelector('code.language-json .hljs-attr')?.textContent).toBe('"a"');
    });
  });
});
