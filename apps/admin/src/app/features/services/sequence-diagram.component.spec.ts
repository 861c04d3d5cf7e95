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
});
