import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generatedFlowchart } from '../../scripts/generated-flowchart';
import { stockMermaidEntry } from '../../scripts/stock-mermaid';
import { loadCorpus } from './corpus';
import { getMermaid, MERMAID_MAX_EDGES, type MermaidModule } from './mermaid-runtime';

jest.setTimeout(300_000);

/**
 * patches/mermaid+12.3.0.patch (applied by `npm install`'s postinstall) removes Mermaid's super-linear and repeated
 * work in flowchart parsing (patches/README.md). Two guards:
 * - the installed Mermaid is the patched one, so a skipped postinstall cannot silently bring the cost back;
 * - the patched Mermaid builds exactly the flowchart database stock Mermaid 12.3 builds (the patch reversed on a
 *   copy, scripts/stock-mermaid.ts), compared in full (every vertex, edge, subgraph and class, not only what the
 *   graph model reads), on the corpus, generated diagrams and cases aimed at each change, under several configurations.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');

interface PatchFile {
  type: string;
  path?: string;
  hunks?: { parts: { type: 'context' | 'insertion' | 'deletion'; lines: string[] }[] }[];
}

describe('the installed Mermaid carries patches/mermaid+12.3.0.patch', () => {
  it('has every hunk of the patch applied', () => {
    const { parsePatchFile } = require('patch-package/dist/patch/parse') as { parsePatchFile(text: string): PatchFile[] };
    const files = parsePatchFile(readFileSync(join(ROOT, 'patches', 'mermaid+12.3.0.patch'), 'utf8')).filter((file) => file.type === 'patch');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const installed = readFileSync(join(ROOT, file.path ?? ''), 'utf8');
      for (const hunk of file.hunks ?? []) {
        const patched = hunk.parts.filter((part) => part.type !== 'deletion').flatMap((part) => part.lines).join('\n');
        expect({ file: file.path, applied: installed.includes(patched) }).toEqual({ file: file.path, applied: true });
      }
    }
  });
});

interface FlowDbView {
  getVertices(): Map<string, unknown>;
  getEdges(): unknown[];
  getSubGraphs(): unknown[];
  getClasses(): Map<string, unknown>;
  getDirection(): unknown;
}

/** Everything Mermaid's flowchart database holds after a parse, or the error it threw (message and jison's hash). */
async function flowDatabase(mermaid: MermaidModule, source: string): Promise<string> {
  try {
    const db = (await mermaid.mermaidAPI.getDiagramFromText(source)).db as FlowDbView;
    return JSON.stringify({
      vertices: [...db.getVertices()],
      edges: db.getEdges(),
      subGraphs: db.getSubGraphs(),
      classes: [...db.getClasses()],
      direction: db.getDirection(),
    });
  } catch (error) {
    return `error: ${(error as Error).message} ${JSON.stringify((error as { hash?: unknown }).hash ?? null)}`;
  }
}

/**
 * Flowchart-like text from a fixed vocabulary (every kind of token the flowchart lexer knows, in any order), most of
 * it invalid: the lexer and parser must read it exactly as stock Mermaid does, errors included. Deterministic.
 */
function tokenSoup(count: number): string[] {
  const vocabulary = [
    'A', 'b1', 'node_x', 'end', 'subgraph', 'direction TB', 'TD', 'LR', ' ', '  ', '\n', '\n  ', ';', '&', ':::hot', 'classDef hot fill:#f96',
    'class A hot', 'style A stroke:#333', 'linkStyle 0 stroke:red', 'click A "https://x.example" "tip"', '-->', '---', '-.->', '==>', '~~~',
    '--o', '--x', '<-->', '-- text -->', '-->|label|', '|', '[', ']', '(', ')', '([', '])', '[[', ']]', '[(', ')]', '((', '))', '{', '}', '{{', '}}',
    '>', '[/', '/]', '[\\', '\\]', '"quoted text"', '"`**md**`"', '@{ shape: rect }', '@{ shape: Rect }', 'e1@', '#quot;', '#9829;', '%% comment',
    'é', '中文', '=', ':', ',', '.', '*', '+', '-', '/', '\\', 'accTitle: t', 'accDescr: d', '<br>', '<b>x</b>',
  ];
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: count }, () => {
    const tokens = Array.from({ length: 3 + Math.floor(random() * 25) }, () => vocabulary[Math.floor(random() * vocabulary.length)]);
    return `flowchart LR\n  ${tokens.join(random() < 0.5 ? ' ' : '')}\n`;
  });
}

/** Aimed at the patched code: edge ids (reused, referenced by @{} and class), repeated links, shared subgraph members, labels with and without markup. */
const TARGETED = [
  'flowchart LR\n  A e1@--> B\n  A e1@--> C\n  e1@{ animate: true }\n  A --> B\n  A --> B\n  B --> A\n  class e1,L_A_B_2 hot\n  classDef hot stroke:red\n',
  'flowchart LR\n  A --> B\n  L_A_B_0@{ shape: rect }\n  L_A_B_0 --> A\n',
  'flowchart TB\n  subgraph one\n    a & b --> c\n  end\n  subgraph two\n    b --> d\n    subgraph three\n      c --> e\n    end\n  end\n  subgraph one\n    f\n  end\n  two --> one\n',
  'flowchart LR\n  A["plain = text #br# here"] -->|"a=b"| B["<b>bold</b> #lt;br#gt; x<br/>y"]\n  B -.-> C(["`**md** label`"])\n  C --> D["&lt;script&gt; &amp; &quot;"]\n',
  '---\nconfig:\n  flowchart:\n    inheritDir: true\n---\nflowchart RL\n  subgraph s1\n    direction TB\n    a --> b\n  end\n  subgraph s2\n    c --> d\n  end\n  linkStyle 0 stroke:blue\n  linkStyle default stroke:green\n',
  'flowchart LR\n  A --> B\n  linkStyle 7 stroke:red\n',
];

const CONFIGURATIONS: Record<string, unknown>[] = [
  { securityLevel: 'strict' },
  { securityLevel: 'loose' },
  { securityLevel: 'antiscript' },
  // Not one of Mermaid's levels: its sanitizer escapes markup and `=` itself.
  { securityLevel: 'escape' },
  { securityLevel: 'strict', htmlLabels: false },
  { securityLevel: 'strict', dompurifyConfig: { ALLOWED_TAGS: ['b'] } },
];

describe('patched Mermaid builds what stock Mermaid 12.3 builds', () => {
  let patched: MermaidModule;
  let stock: MermaidModule;

  beforeAll(async () => {
    patched = await getMermaid();
    const imported = (await import(pathToFileURL(stockMermaidEntry()).href)) as { default: MermaidModule };
    stock = imported.default;
  });

  const configure = (config: Record<string, unknown>) => {
    for (const mermaid of [patched, stock]) mermaid.initialize({ startOnLoad: false, maxEdges: MERMAID_MAX_EDGES, logLevel: 'fatal', ...config });
  };
  afterAll(() => configure({ securityLevel: 'strict' }));

  const compare = async (sources: string[]) => {
    const different: string[] = [];
    for (const source of sources) {
      const [mine, theirs] = [await flowDatabase(patched, source), await flowDatabase(stock, source)];
      if (mine !== theirs) different.push(source.slice(0, 120));
    }
    return different;
  };

  it('on every flowchart of the corpus and generated topologies of 50, 500 and 2000 nodes', async () => {
    configure({ securityLevel: 'strict' });
    const corpus = loadCorpus()
      .map((entry) => entry.source)
      .filter((source) => /^\s*(---[\s\S]*?---\s*)?(%%.*\n\s*)*(flowchart|graph)\b/.test(source));
    expect(corpus.length).toBeGreaterThan(30);
    expect(await compare([...corpus, ...[50, 500, 2000].map(generatedFlowchart)])).toEqual([]);
  });

  it('on 400 token soups, mostly invalid: the same database or the same error, message and position', async () => {
    configure({ securityLevel: 'strict' });
    const soups = tokenSoup(400);
    const outcomes: string[] = [];
    for (const soup of soups.slice(0, 40)) outcomes.push(await flowDatabase(patched, soup));
    // The soups must exercise both outcomes for the comparison to mean something.
    expect(outcomes.some((outcome) => outcome.startsWith('error:'))).toBe(true);
    expect(outcomes.some((outcome) => !outcome.startsWith('error:'))).toBe(true);
    expect(await compare(soups)).toEqual([]);
  });

  it.each(CONFIGURATIONS.map((config) => [JSON.stringify(config), config] as const))('on cases aimed at each change, with %s', async (_name, config) => {
    configure(config);
    expect(await compare(TARGETED)).toEqual([]);
  });
});
