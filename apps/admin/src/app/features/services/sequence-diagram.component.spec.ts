import { ComponentFixture, TestBed } from '@angular/core/testing';
import type { OverlaidGraph } from '@sc/diagram';
import { CHECKOUT_SEQUENCE } from '../../../testing/checkout-sequence';
import { settle } from '../../../testing/dom';
import { eventually } from '../../../testing/eventually';
import { provideTestApp } from '../../../testing/providers';
import { MermaidRenderer } from '../../shared/mermaid-renderer.service';
import { SequenceDiagramComponent } from './sequence-diagram.component';

const GRAPH: Pick<OverlaidGraph, 'nodes'> = {
  nodes: [
    { id: 'C', label: 'Customer', shape: 'participant' },
    { id: 'A', label: 'Payments API', shape: 'participant', overlay: { name: 'Checkout API' } },
    { id: 'S', label: 'S', shape: 'participant', overlay: { name: 'Settlement; nightly #1' } },
  ],
};

describe('SequenceDiagramComponent', () => {
  let fixture: ComponentFixture<SequenceDiagramComponent>;
  /** Stands in for Mermaid, which needs a real browser layout engine; it records what it was asked to draw. */
  let drawn: string[];
  let render: (source: string) => Promise<string>;

  beforeEach(() => {
    drawn = [];
    render = async (source) => (drawn.push(source), `<svg><text>drawing ${drawn.length}</text></svg>`);
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: MermaidRenderer, useValue: { render: (source: string) => render(source) } }],
    });
    fixture = TestBed.createComponent(SequenceDiagramComponent);
    fixture.componentRef.setInput('source', CHECKOUT_SEQUENCE);
    fixture.componentRef.setInput('graph', GRAPH);
  });

  function drawing(): HTMLElement {
    return (fixture.nativeElement as HTMLElement).querySelector<HTMLElement>('[data-testid="sequence-diagram"]') as HTMLElement;
  }

  it('has Mermaid draw the stored source with the context names on the participants', async () => {
    fixture.detectChanges();
    await eventually(async () => {
      await settle(fixture);
      expect(drawing().querySelector('svg text')?.textContent).toBe('drawing 1');
    });
    expect(drawn).toHaveLength(1);
    const lines = drawn[0].split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'sequenceDiagram',
      '  participant C as Customer',
      '  participant A as Checkout API',
      '  C->>+A: POST /payments',
    ]);
    // S is first met in the loop's message: declared right there, its `;` and `#` kept as text.
    expect(lines[11]).toBe('    participant S as Settlement#59; nightly #35;1; A->>S: poll settlement');
  });

  it('keeps message order, alt/else, notes, loops and activations exactly as written', async () => {
    fixture.detectChanges();
    await eventually(() => expect(drawn).toHaveLength(1));
    // Declarations joined in front of a statement (`participant S as …; `, entity codes such as `#59;` inside).
    const added = /participant \w+(?: as (?:#\w+;|[^;#])*)?; /g;
    const statements = drawn[0].split('\n').map((line) => line.replace(added, ''));
    // Only A's declaration changed: its `as` text is now its context name.
    expect(statements).toEqual(CHECKOUT_SEQUENCE.replace('participant A as Payments API', 'participant A as Checkout API').split('\n'));
  });

  it('says why when Mermaid cannot draw it, and draws again when the source changes', async () => {
    render = () => Promise.reject(new Error('Parse error on line 3'));
    fixture.detectChanges();
    await eventually(async () => {
      await settle(fixture);
      expect((fixture.nativeElement as HTMLElement).querySelector('[role="alert"]')?.textContent).toContain('Parse error on line 3');
    });

    render = async (source) => (drawn.push(source), '<svg><text>fixed</text></svg>');
    fixture.componentRef.setInput('source', 'sequenceDiagram\n  A->>C: hi\n');
    await eventually(async () => {
      await settle(fixture);
      expect(drawing().textContent).toBe('fixed');
    });
    expect((fixture.nativeElement as HTMLElement).querySelector('[role="alert"]')).toBeNull();
    expect(drawn).toEqual(['sequenceDiagram\n  participant A as Checkout API; participant C; A->>C: hi\n']);
  });

  it('never shows a drawing that finishes after a newer source was given', async () => {
    const pending: ((svg: string) => void)[] = [];
    render = (source) => new Promise((resolve) => (drawn.push(source), pending.push(resolve)));
    fixture.detectChanges();
    await eventually(() => expect(pending).toHaveLength(1));
    fixture.componentRef.setInput('source', 'sequenceDiagram\n  C->>A: newer\n');
    fixture.detectChanges();
    await eventually(() => expect(pending).toHaveLength(2));
    pending[1]('<svg><text>newer</text></svg>');
    pending[0]('<svg><text>older</text></svg>');
    await settle(fixture);
    await settle(fixture);
    expect(drawing().textContent).toBe('newer');
  });

  describe('in a frame like the canvas’s', () => {
    /** Mermaid's drawing: 800 × 400 at its natural size, as Mermaid writes it (a max-width style, a viewBox). */
    const SVG = '<svg id="sc-diagram-1" width="100%" style="max-width: 800px;" viewBox="-50 -10 800 400"><text>Checkout API</text></svg>';

    /** The frame as a browser lays it out: 1000 × 500 px (jsdom lays nothing out). */
    function frameOf(width: number, height: number): HTMLElement {
      const frame = drawing();
      Object.defineProperty(frame, 'clientWidth', { configurable: true, value: width });
      Object.defineProperty(frame, 'clientHeight', { configurable: true, value: height });
      return frame;
    }
    const scale = () => Number(/scale\(([\d.]+)\)/.exec((drawing().firstElementChild as HTMLElement).style.transform)?.[1]);
    const button = (testId: string) => (fixture.nativeElement as HTMLElement).querySelector<HTMLButtonElement>(`[data-testid=${testId}]`) as HTMLButtonElement;

    beforeEach(async () => {
      render = async (source) => (drawn.push(source), SVG);
      fixture.detectChanges();
      frameOf(1000, 500);
      await eventually(async () => {
        await settle(fixture);
        expect(drawing().getAttribute('data-drawn')).toBe('true');
      });
    });

    it('shows Mermaid’s drawing at its natural size, whatever width Mermaid gave it', () => {
      const svg = drawing().querySelector('svg') as SVGSVGElement;
      expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual(['800', '400']);
      expect(svg.getAttribute('style')).not.toContain('max-width');
    });

    it('fits the whole drawing into the frame when drawn and on Fit, centred', async () => {
      // 800 × 400 with 4 % free around it in 1000 × 500: the height decides, 500 / 416.
      const fitted = 500 / (400 * 1.04);
      expect(scale()).toBeCloseTo(fitted, 3);
      button('zoom-in').click();
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted * 1.25, 3);
      button('fit').click();
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted, 3);
      expect((drawing().firstElementChild as HTMLElement).style.transform).toBe(`translate(${500 - 400 * fitted}px, ${250 - 200 * fitted}px) scale(${fitted})`);
    });

    it('never enlarges a small drawing past 1.25 to fit it', async () => {
      frameOf(4000, 2000);
      button('fit').click();
      await settle(fixture);
      expect(scale()).toBe(1.25);
    });

    it('zooms in and out with the buttons and the keys, and says its zoom for tests', async () => {
      const fitted = scale();
      button('zoom-in').click();
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted * 1.25, 3);
      expect(Number(drawing().getAttribute('data-zoom'))).toBeCloseTo(fitted * 1.25, 3);
      button('zoom-out').click();
      button('zoom-out').click();
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted * 0.8, 3);
      drawing().dispatchEvent(new KeyboardEvent('keydown', { key: '+' }));
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted, 3);
      drawing().dispatchEvent(new KeyboardEvent('keydown', { key: '0' }));
      await settle(fixture);
      expect(scale()).toBeCloseTo(fitted, 3);
    });

    it('gives the drawing as a standalone SVG file for the exports', () => {
      const image = fixture.componentInstance.image();
      expect(image).toEqual({ svg: expect.any(String), width: 800, height: 400 });
      expect(image?.svg).toBe(
        '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400" id="sc-diagram-1" style="" viewBox="-50 -10 800 400">' +
          '<rect x="-50" y="-10" width="800" height="400" fill="#ffffff"/><text>Checkout API</text></svg>\n',
      );
    });
  });
});
