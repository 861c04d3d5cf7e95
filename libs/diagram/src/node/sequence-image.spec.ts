import { JSDOM } from 'jsdom';
import { sequenceSvg } from '../lib/canvas/sequence-svg';
import { parseMermaid } from './parse-mermaid';

/**
 * The server's and `service-cli render`'s image of a sequence diagram through Mermaid's own parser: notes, blocks
 * (frames with their labels and section dividers) and activations, as the dashboard's Mermaid drawing shows them.
 */
const RICH_SEQUENCE = `sequenceDiagram
  actor Shopper
  box Payments
    participant API as Payments API
    participant PSP as Card processor
  end
  Shopper->>+API: Pay
  Note right of Shopper: Card details<br>stay in the browser
  loop Until approved or three tries
    API->>PSP: authorize(card, amount)
    alt approved
      PSP-->>API: approved
    else declined
      PSP-->>API: declined
      Note over API,PSP: The processor says why
    end
  end
  par Ledger
    API->>API: record
  and Audit
    API->>API: audit <entry>
  end
  rect rgb(191, 223, 255)
    critical Capture
      API->>PSP: capture
    option Timeout
      API->>API: retry later
    end
  end
  opt Receipt
    Note left of Shopper: By email
  end
  break When the card is blocked
    API-->>Shopper: 402
  end
  API-->>-Shopper: Confirmation
`;

// Mermaid needs Node's globals, so the file runs in Node and reads the SVG with jsdom's parser.
const parse = (text: string) => new new JSDOM('').window.DOMParser().parseFromString(text, 'image/svg+xml');
const texts = (svg: Document, selector: string) => Array.from(svg.querySelectorAll(selector)).map((node) => node.textContent);

describe('sequence diagram images from the parsed steps', () => {
  let text = '';
  let svg: Document;
  beforeAll(async () => {
    const parsed = await parseMermaid(RICH_SEQUENCE);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    text = sequenceSvg(parsed.graph);
    svg = parse(text);
  }, 60_000);

  it('is a plain, well-formed SVG: no script, no foreignObject, no event handler, no reference outside itself', () => {
    expect(svg.querySelector('parsererror')).toBeNull();
    expect(text).not.toMatch(/<script|<foreignObject|<image|\son[a-z]+=/i);
    const references = [...text.matchAll(/(?:href="|url\()([^")]*)/g)].map((match) => match[1]);
    expect(references.filter((ref) => !ref.startsWith('#'))).toEqual([]);
  });

  it('draws every note with its text (line breaks as lines) and placement', () => {
    expect(Array.from(svg.querySelectorAll('[data-note]')).map((note) => [note.getAttribute('data-note'), Array.from(note.querySelectorAll('tspan')).map((span) => span.textContent).join('\n') || note.textContent])).toEqual([
      ['right', 'Card details\nstay in the browser'],
      ['over', 'The processor says why'],
      ['left', 'By email'],
    ]);
  });

  it('frames every block with its keyword and label, and a labelled divider per else/and/option; a rect is its colour behind', () => {
    const blocks = Array.from(svg.querySelectorAll('g[data-block]')).map((block) => [block.getAttribute('data-block'), texts(block as unknown as Document, 'text').join(' ')]);
    // Inner blocks end first, so they are drawn first.
    expect(blocks).toEqual([
      ['alt', 'alt [approved] [declined]'],
      ['loop', 'loop [Until approved or three tries]'],
      ['par', 'par [Ledger] [Audit]'],
      ['critical', 'critical [Capture] [Timeout]'],
      ['opt', 'opt [Receipt]'],
      ['break', 'break [When the card is blocked]'],
    ]);
    expect(svg.querySelectorAll('g[data-block="alt"] path[stroke-dasharray]').length).toBe(1);
    expect(svg.querySelector('rect[data-block="rect"]')?.getAttribute('fill')).toBe('rgb(191, 223, 255)');
    // A block frames what it holds: the loop's frame is around the alt's.
    const box = (selector: string) => {
      const rect = svg.querySelector(`${selector} > rect`);
      return ['x', 'y', 'width', 'height'].map((name) => Number(rect?.getAttribute(name)));
    };
    const [lx, ly, lw, lh] = box('g[data-block="loop"]');
    const [ax, ay, aw, ah] = box('g[data-block="alt"]');
    expect(ax > lx && ay > ly && ax + aw < lx + lw && ay + ah < ly + lh).toBe(true);
  });

  it('draws activations as bars on the lifeline from the message that starts one to the one that ends it', () => {
    const bars = Array.from(svg.querySelectorAll('rect[data-activation]'));
    expect(bars.length).toBe(1);
    const messageY = (label: string) =>
      Number(/^M[\d.-]+,([\d.]+)/.exec(Array.from(svg.querySelectorAll('[data-edge-source]')).find((g) => g.textContent === label)?.querySelector('path')?.getAttribute('d') ?? '')?.[1]);
    const [top, height] = ['y', 'height'].map((name) => Number(bars[0].getAttribute(name)));
    expect([top, top + height]).toEqual([messageY('Pay'), messageY('Confirmation')]);
  });

  it('keeps every message label in order and every participant, in their box with its label', () => {
    const labels = texts(svg, '[data-edge-source] text');
    expect(labels).toEqual(['Pay', 'authorize(card, amount)', 'approved', 'declined', 'record', 'audit <entry>', 'capture', 'retry later', '402', 'Confirmation']);
    expect(texts(svg, '[data-group-id="box1"] text')).toEqual(['Payments']);
    for (const name of ['Shopper', 'Payments API', 'Card processor']) expect(texts(svg, '[data-node-id] text')).toContain(name);
  });
});
