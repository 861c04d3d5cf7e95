import { TestBed } from '@angular/core/testing';
import { SHAPES, buildModel, canvasNode, type CanvasNode } from '@sc/diagram';
import { fixtureModelInput } from '../../../testing/diagram-fixture';
import { renderWithInputs } from '../../../testing/providers';
import { CanvasNodeComponent } from './canvas-node.component';

/** Every node type of the fixture context, drawn by its component. */
describe('CanvasNodeComponent', () => {
  const model = buildModel(fixtureModelInput());
  const node = (id: string): CanvasNode => {
    const found = model.nodes.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no node ${id}`);
    return found;
  };

  const render = (value: CanvasNode) => renderWithInputs(CanvasNodeComponent, { node: value, serviceLink: '/orgs/acme/services/payments', revision: 1 });

  const text = (element: HTMLElement) => (element.textContent ?? '').replace(/\s+/g, ' ');
  /** Wrapped text as read: the drawn lines joined by spaces. */
  const lines = (element: Element) => Array.from(element.querySelectorAll('.line')).map((line) => line.textContent).join(' ');

  it('covers every node type of the spec in the fixture context', () => {
    const kinds = new Set(model.nodes.map((n) => n.kind));
    for (const kind of ['shape', 'text', 'code', 'table', 'comment', 'cloud', 'image', 'gif', 'component', 'data-source', 'db-table']) {
      expect([kind, kinds.has(kind as CanvasNode['kind'])]).toEqual([kind, true]);
    }
  });

  it('carries the test hooks and an accessible name', () => {
    const element = render(node('api'));
    expect(element.getAttribute('data-node-id')).toBe('api');
    expect(element.getAttribute('data-node-type')).toBe('shape');
    expect(element.getAttribute('tabindex')).toBe('0');
    expect(element.getAttribute('aria-label')).toBe('Payments API (shape)');
  });

  it('draws a shape node as its outline with the context style, its name and data fields', () => {
    const element = render(node('api'));
    const outline = element.querySelector('svg.outline path') as SVGPathElement;
    expect(outline.getAttribute('fill')).toBe('#e8f1ff');
    expect(outline.getAttribute('stroke')).toBe('#1f6feb');
    expect(outline.getAttribute('stroke-width')).toBe('2');
    // rounded-rect with borderRadius 8: arcs of radius 8 at the corners.
    expect(outline.getAttribute('d')).toContain('A8,8');
    expect(text(element)).toContain('Payments API');
    expect(text(element)).toContain('Owner');
    expect(text(element)).toContain('payments-team');

    const rules = render(node('rules')).querySelector('svg.outline path') as SVGPathElement;
    expect(rules.classList.contains('dashed')).toBe(true);
    expect(rules.getAttribute('d')).toMatch(/^M[\d.]+,0L/);
  });

  it('shows the data fields on text, comment and C4 nodes too (their size leaves room for them)', () => {
    const data = { Owner: { type: 'Text Input' as const, value: 'mail-team' } };
    const input = fixtureModelInput();
    const nodes = [
      canvasNode({ id: 't', label: 't', overlay: { type: 'text', name: 'Email provider', value: 'SendGrid, EU region', data } }, 'flowchart', input),
      canvasNode({ id: 'c', label: 'c', overlay: { type: 'comment', name: 'Paged on 5xx', data } }, 'flowchart', input),
      canvasNode({ id: 'p', label: 'Customer', shape: 'person', overlay: { data } }, 'c4', input),
    ];
    for (const value of nodes) {
      const fields = render(value).querySelector('.fields');
      expect([value.kind, fields?.querySelector('dt')?.textContent, fields?.querySelector('dd')?.textContent]).toEqual([value.kind, 'Owner', 'mail-team']);
    }
  });

  it('draws each of the 23 shapes of the spec as its own outline', () => {
    const outlines = new Set<string>();
    for (const shape of SHAPES) {
      const value = canvasNode({ id: shape, label: shape, overlay: { type: 'shape', shape } }, 'flowchart', fixtureModelInput());
      const paths = Array.from(render(value).querySelectorAll('svg.outline path')).map((path) => path.getAttribute('d') ?? '');
      expect([shape, paths.length > 0 && paths.every((d) => d.startsWith('M'))]).toEqual([shape, true]);
      outlines.add(`${value.width}x${value.height}:${paths.join(' ')}`);
    }
    expect(outlines.size).toBe(SHAPES.length);
  });

  it('keeps Mermaid shapes and classDef/style colours for nodes without an overlay', () => {
    const value = canvasNode({ id: 'db', label: 'Orders DB', shape: 'cylinder', styles: ['fill:#f96', 'stroke:#333', 'stroke-width:4px', 'color:red'] }, 'flowchart', fixtureModelInput());
    const element = render(value);
    expect(element.getAttribute('data-node-type')).toBe('mermaid');
    const outline = element.querySelector('svg.outline path') as SVGPathElement;
    expect(outline.getAttribute('fill')).toBe('#f96');
    expect(outline.getAttribute('stroke-width')).toBe('4');
    expect(element.querySelectorAll('svg.outline path.inner')).toHaveLength(1);
    expect(text(element)).toContain('Orders DB');
  });

  it('draws a text node as its text', () => {
    expect(text(render(node('heading')))).toContain('Payments platform');
  });

  it('draws a code node with its code, highlighted once the highlighter has loaded', async () => {
    const element = render(node('retryPolicy'));
    expect(text(element)).toContain('retry(max = 3, backoff = exponential(200ms))');
    for (let i = 0; i < 50 && !element.querySelector('pre.hljs'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      TestBed.tick();
    }
    expect(element.querySelector('pre.hljs span[class^=hljs-]')).not.toBeNull();
    expect(text(element)).toContain('retry(max = 3, backoff = exponential(200ms))');
  });

  it('highlights a code node only once the browser is idle (after the frames that draw the diagram)', async () => {
    const idle: (() => void)[] = [];
    Object.assign(globalThis, { requestIdleCallback: (callback: () => void) => idle.push(callback) });
    try {
      const element = render({ ...node('retryPolicy'), body: { ...node('retryPolicy').body, code: 'const idle = true;' } });
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        TestBed.tick();
      }
      expect(element.querySelector('pre.hljs')).toBeNull();
      expect(idle).toHaveLength(1);
      idle[0]();
      for (let i = 0; i < 50 && !element.querySelector('pre.hljs'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        TestBed.tick();
      }
      expect(element.querySelector('pre.hljs span[class^=hljs-]')).not.toBeNull();
    } finally {
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    }
  });

  it('draws a table node as a grid of its columns and rows', () => {
    const element = render(node('limits'));
    expect(Array.from(element.querySelectorAll('th')).map((th) => th.textContent?.trim())).toEqual(['Tier', 'Daily limit', 'Per payment']);
    expect(Array.from(element.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent).join(' | '))).toEqual([
      'tier-1 | 1,000,000 EUR | 50,000 EUR',
      'tier-2 | 100,000 EUR | 10,000 EUR',
    ]);
  });

  it('draws a comment as a note', () => {
    const element = render(node('oncall'));
    expect(lines(element.querySelector('.note') as Element)).toBe('On-call is paged when 5xx exceed 1% over 5 minutes.');
  });

  it('draws a cloud node with its provider and service', () => {
    const element = render(node('events'));
    expect(element.querySelector('.provider')?.textContent).toBe('AWS');
    expect(element.querySelector('.service')?.textContent).toBe('SQS');
    expect(text(element)).toContain('Payment events');
  });

  it('shows an https image and refuses other sources', () => {
    const image = render(node('pspLogo')).querySelector('img') as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('https://assets.acme.example/psp-logo.png');
    expect(image.getAttribute('referrerpolicy')).toBe('no-referrer');
    const http = canvasNode({ id: 'x', label: 'x', overlay: { type: 'image', src: 'http://intranet/logo.png' } }, 'flowchart', fixtureModelInput());
    const element = render(http);
    expect(element.querySelector('img')).toBeNull();
    expect(text(element)).toContain('only https and data URLs');
  });

  it('draws a gif node as its animated icon', () => {
    const element = render(node('liveStatus'));
    expect(element.querySelector('.animated-icon')?.getAttribute('data-icon')).toBe('pulse');
  });

  it('draws a component node with its component id', () => {
    expect(render(node('dashboard')).querySelector('.component-id code')?.textContent).toBe('settlement-dashboard');
  });

  it('draws a db-table node with the columns of the synced schema and a link to the database', () => {
    const element = render(node('ledgerEntries'));
    const columns = element.querySelector('[aria-label="Columns of entries"]') as HTMLElement;
    expect(text(columns)).toContain('PK id BIGSERIAL');
    expect(text(columns)).toContain('FK payment_id UUID');
    expect(text(columns)).toContain('booked_at TIMESTAMPTZ');
    const link = element.querySelector('a.db-link') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/orgs/acme/services/payments/databases/ledger?revision=1');
  });

  it('draws a data-source node with the tables of its database', () => {
    expect(text(render(node('ledgerDb')).querySelector('[aria-label="Tables of ledger"]') as HTMLElement)).toContain('entries');
    expect(text(render(node('idempotencyKeys')))).toContain('payments-idempotency');
  });

  it('draws C4 elements with their type, technology and description', () => {
    const person = canvasNode({ id: 'shopper', label: 'Shopper', shape: 'person', description: 'Buys from Acme shops' }, 'c4', fixtureModelInput());
    const element = render(person);
    expect(element.getAttribute('data-node-type')).toBe('c4');
    expect(element.querySelector('[data-c4-type=person] svg.c4-person')).not.toBeNull();
    expect(text(element)).toContain('Buys from Acme shops');
    const db = canvasNode({ id: 'db', label: 'Ledger', shape: 'container_db', technology: 'PostgreSQL' }, 'c4', fixtureModelInput());
    expect(text(render(db))).toContain('[container db: PostgreSQL]');
    const external = canvasNode({ id: 'psp', label: 'Card processor', shape: 'external_system' }, 'c4', fixtureModelInput());
    expect(render(external).querySelector('.c4.external')).not.toBeNull();
  });

  it('marks added, changed and removed nodes', () => {
    const element = render({ ...node('api'), status: 'changed' });
    expect(element.getAttribute('data-status')).toBe('changed');
    expect(element.classList.contains('status-changed')).toBe(true);
    expect(element.getAttribute('aria-label')).toBe('Payments API (shape, changed)');
  });
});
