/**
 * @jest-environment jsdom
 */
import { createView } from '../collapse';
import type { OverlaidGraph } from '../overlay';
import { FIXTURE_DATABASES, fixtureTopology } from '../../testing/diagram-fixture';
import { buildGraph } from '../../testing/build-graph';
import { buildModel } from './canvas-model';
import type { CanvasModel } from './canvas-types';
import type { LayoutResult } from './layout';
import { diagramSvg, withoutRemoteImages } from './render-svg';

/** Every node in a column, 40 px apart, and every group around them all: where they stand does not matter here, only what each draws. */
function stacked(model: CanvasModel): LayoutResult {
  const boxes: LayoutResult['boxes'] = {};
  let y = 0;
  for (const node of model.nodes) {
    boxes[node.id] = { x: 0, y, width: node.width, height: node.height };
    y += node.height + 40;
  }
  const width = Math.max(...model.nodes.map((node) => node.width));
  for (const group of model.groups) boxes[group.id] = { x: 0, y: 0, width, height: y };
  return { width, height: y, boxes, edges: {} };
}

/** The exported SVG parsed as a browser would parse the file. */
function exported(graph: OverlaidGraph): { model: CanvasModel; svg: Document } {
  const model = buildModel({ view: createView(graph), databases: FIXTURE_DATABASES });
  const text = diagramSvg(model, stacked(model));
  const svg = new DOMParser().parseFromString(text, 'image/svg+xml');
  expect(svg.querySelector('parsererror')).toBeNull();
  return { model, svg };
}

/** The text of one node's drawing, line by line (each <text> element). */
function linesOf(svg: Document, id: string): string[] {
  const node = svg.querySelector(`[data-node-id="${id}"]`);
  if (!node) throw new Error(`Node ${id} is not in the export`);
  return Array.from(node.querySelectorAll('text')).map((text) => text.textContent ?? '');
}

/** The fixture's topology (every node type of the spec) with two data fields on every node. */
function everyNodeTypeWithData(): OverlaidGraph {
  const graph = fixtureTopology();
  return {
    ...graph,
    nodes: graph.nodes.map((node) => ({
      ...node,
      overlay: { ...node.overlay, data: { ...node.overlay?.data, Owner: { type: 'Text Input', value: `team-${node.id}` }, Tier: { type: 'Dropdown', value: 'tier-2', options: ['tier-2'] } } },
    })) as OverlaidGraph['nodes'],
  };
}

describe('diagramSvg: the export draws every node as the canvas does', () => {
  it('holds every node’s name and data fields inside its box, for every node type of the spec', () => {
    const { model, svg } = exported(everyNodeTypeWithData());
    const kinds = new Set(model.nodes.map((node) => node.kind));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['cloud', 'code', 'comment', 'component', 'data-source', 'db-table', 'gif', 'image', 'shape', 'table', 'text']),
    );
    for (const node of model.nodes) {
      const lines = linesOf(svg, node.id);
      // The name, whole (a comment's name is its text, wrapped into lines).
      expect(lines.join(' ')).toContain(node.kind === 'comment' ? node.titleLines.join(' ') : node.title);
      // Up to three data fields, as on the node: `label: value`, cut with an ellipsis only where the canvas cuts it
      // too (a node is at most 320 px wide for its data rows).
      expect(node.fields.length).toBeGreaterThanOrEqual(2);
      for (const field of node.fields) {
        const full = `${field.label}:${field.value}`;
        const line = lines.find((candidate) => candidate.startsWith(`${field.label}:`)) ?? '';
        const cut = line.endsWith('…') && full.startsWith(line.slice(0, -1)) && line.length > `${field.label}:`.length + 10;
        expect({ full, line, shown: line === full || (cut && node.width >= 320) }).toEqual({ full, line, shown: true });
      }
      // Every line inside the node's box: no card cut off, no row below it.
      const baselines = Array.from(svg.querySelectorAll(`[data-node-id="${node.id}"] text`)).map((text) => Number(text.getAttribute('y')));
      expect(baselines.filter((y) => !(y > 0 && y <= node.height))).toEqual([]);
    }
  });

  it('keeps a text node’s name beside its value ("Email provider" is not lost to "SendGrid, EU region")', () => {
    const graph = fixtureTopology();
    const { svg } = exported({
      ...graph,
      nodes: graph.nodes.map((node) => (node.id === 'heading' ? { ...node, overlay: { type: 'text', name: 'Email provider', value: 'SendGrid, EU region' } } : node)) as OverlaidGraph['nodes'],
    });
    expect(linesOf(svg, 'heading')).toEqual(['Email provider', 'SendGrid, EU region']);
  });

  it('draws each type’s own content: code, table cells, cloud, component, image, animated icon, database columns and tables', () => {
    const { model, svg } = exported(fixtureTopology());
    const byKind = (kind: string) => model.nodes.filter((node) => node.kind === kind);
    const code = byKind('code')[0];
    expect(linesOf(svg, code.id)).toEqual(expect.arrayContaining((code.body.code ?? '').split('\n')));
    const table = byKind('table')[0].body.table;
    expect(linesOf(svg, byKind('table')[0].id)).toEqual(expect.arrayContaining([...(table?.columns ?? []), ...(table?.rows.flat() ?? [])]));
    expect(linesOf(svg, byKind('cloud')[0].id)).toEqual(expect.arrayContaining(['AWS', 'SQS']));
    expect(linesOf(svg, byKind('component')[0].id)).toContain('settlement-dashboard');
    expect(linesOf(svg, byKind('gif')[0].id)).toContain('pulse');
    // The image node's https picture, as an SVG <image> (a data URL would be drawn into the PNG too).
    expect(svg.querySelector(`[data-node-id="${byKind('image')[0].id}"] image`)?.getAttribute('href')).toBe('https://assets.acme.example/psp-logo.png');
    // The PNG cannot load it: left out there (its placeholder shows), a data URL kept.
    const text = new XMLSerializer().serializeToString(svg);
    expect(withoutRemoteImages(text)).not.toContain('<image');
    const inline = '<image x="0" y="0" width="1" height="1" href="data:image/png;base64,AAAA"/>';
    expect(withoutRemoteImages(`<g>${inline}</g>`)).toBe(`<g>${inline}</g>`);
    const entries = linesOf(svg, 'ledgerEntries');
    expect(entries).toEqual(expect.arrayContaining(['ledger.entries', 'PK', 'id', 'BIGSERIAL', 'FK', 'payment_id', 'UUID', 'amount_minor', 'BIGINT', 'booked_at', 'TIMESTAMPTZ']));
    expect(linesOf(svg, 'ledgerDb')).toEqual(expect.arrayContaining(['ledger', 'accounts', 'entries']));
    expect(linesOf(svg, 'idempotencyKeys')).toEqual(expect.arrayContaining(['idempotency', 'payments-idempotency']));
  });

  it('draws C4 elements with their type (external too), technology, description and data fields', () => {
    const { svg } = exported({
      kind: 'c4',
      nodes: [
        { id: 'customer', label: 'Customer', shape: 'person', description: 'Buys things', overlay: { data: { Segment: { type: 'Text Input', value: 'retail' } } } },
        { id: 'db', label: 'Orders DB', shape: 'container_db', technology: 'PostgreSQL' },
        { id: 'psp', label: 'Card processor', shape: 'system_ext' },
        // A short name over a long type line: the box is as wide as the whole line, "external " included.
        { id: 'api', label: 'API', shape: 'container_db_ext', technology: 'Java, Docker Container', parent: 'bank' },
      ],
      edges: [],
      groups: [{ id: 'bank', label: 'Bank', type: 'SYSTEM', nodes: ['api'] }],
    } as unknown as OverlaidGraph);
    // A boundary's type after its name, as the canvas's header row shows it.
    expect(Array.from(svg.querySelectorAll('[data-group-id="bank"] text')).map((text) => text.textContent)).toEqual(['Bank', '[SYSTEM]']);
    expect(linesOf(svg, 'customer')).toEqual(['Customer', '[person]', 'Buys things', 'Segment:retail']);
    expect(linesOf(svg, 'db')).toEqual(['Orders DB', '[container db: PostgreSQL]']);
    expect(linesOf(svg, 'psp')).toEqual(['Card processor', '[external system]']);
    expect(linesOf(svg, 'api')).toEqual(['API', '[external container db: Java, Docker Container]']);
  });
});

describe('diagramSvg: a standalone file (the server serves it as image.svg)', () => {
  /** Every `href` and `url(…)` the file holds. */
  const references = (text: string) => [...text.matchAll(/(?:href="|url\()([^")]*)/g)].map((match) => match[1]);

  it.each([
    ['flowchart', fixtureTopology()],
    ['state', buildGraph({ kind: 'state', nodes: { idle: 'Idle', busy: 'Busy <b>now</b>' }, edges: ['idle -> busy: start & go'] })],
    ['C4', buildGraph({ kind: 'c4', nodes: { shopper: { label: 'Shopper', shape: 'person' }, shop: { label: 'Shop "A"', shape: 'system' } }, edges: ['shopper -> shop: buys'] })],
  ])('draws every node’s text of a %s diagram, runs no script and references nothing outside itself', (_kind, graph) => {
    const model = buildModel({ view: createView(graph), databases: FIXTURE_DATABASES });
    const text = withoutRemoteImages(diagramSvg(model, stacked(model)));
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(svg.querySelector('parsererror')).toBeNull();
    for (const node of model.nodes) {
      const shown = linesOf(svg, node.id).join(' ');
      for (const line of node.kind === 'comment' ? (node.body.lines ?? node.titleLines) : node.titleLines) expect([node.id, shown]).toEqual([node.id, expect.stringContaining(line)]);
    }
    expect(svg.querySelectorAll('script, foreignObject').length).toBe(0);
    expect(text).not.toMatch(/\son[a-z]+=/i);
    expect(references(text).filter((ref) => !ref.startsWith('#'))).toEqual([]);
  });

  it('draws a node resized in arrange mode at its box’s size, its label still whole', () => {
    const graph = buildGraph({ kind: 'flowchart', nodes: { a: 'Orders API', b: { label: 'Queue', shape: 'circle' } }, edges: ['a -> b'] });
    const model = buildModel({ view: createView(graph), databases: new Map() });
    const layout = stacked(model);
    const a = model.nodes.find((node) => node.id === 'a');
    if (!a) throw new Error('no node a');
    layout.boxes['a'] = { ...layout.boxes['a'], width: a.width + 100, height: a.height + 60 };
    const svg = new DOMParser().parseFromString(diagramSvg(model, layout), 'image/svg+xml');
    const outline = svg.querySelector('[data-node-id="a"] path')?.getAttribute('d') ?? '';
    expect(outline).toBe(`M0,0H${a.width + 100}V${a.height + 60}H0Z`);
    // The label centred in the larger box.
    expect(svg.querySelector('[data-node-id="a"] text')?.getAttribute('x')).toBe(String((a.width + 100) / 2));
    expect(linesOf(svg, 'a')).toEqual(['Orders API']);
    // The other node keeps its own size.
    const b = svg.querySelector('[data-node-id="b"] path')?.getAttribute('d') ?? '';
    expect(b).toBe(new DOMParser().parseFromString(diagramSvg(model, stacked(model)), 'image/svg+xml').querySelector('[data-node-id="b"] path')?.getAttribute('d'));
  });

  it('draws the dark theme with the same shapes and text, only the colours of its own palette (a context colour stays)', () => {
    const graph = fixtureTopology();
    const model = buildModel({ view: createView(graph), databases: FIXTURE_DATABASES });
    const light = diagramSvg(model, stacked(model));
    const dark = diagramSvg(model, stacked(model), 'dark');
    const colours = /(fill|stroke)="(#[0-9a-fA-F]{3,8}|rgba\([^)]*\))"/g;
    // Removing every colour leaves the same file: nothing but colours differs.
    expect(dark.replace(colours, '$1=""')).toBe(light.replace(colours, '$1=""'));
    expect(dark).toContain('fill="#0d1117"');
    expect(dark).not.toContain('fill="#ffffff"');
    // A fill the diagram chose itself (a context's or Mermaid's style) is drawn as chosen in either theme.
    const target = model.nodes.find((node) => !['start', 'end', 'c4', 'text'].includes(node.kind));
    const styled = { ...model, nodes: model.nodes.map((node) => (node === target ? { ...node, look: { ...node.look, fill: '#123456' } } : node)) };
    expect(diagramSvg(styled, stacked(styled), 'dark')).toContain('fill="#123456"');
  });

  it('writes a label that looks like markup as text, never as elements', () => {
    const graph = buildGraph({ nodes: { evil: '<script>alert(1)</script>', img: '<image href="https://evil.example/x.png"/>', sum: 'R&D "core" 5 > 3' } });
    const model = buildModel({ view: createView(graph), databases: new Map() });
    const text = diagramSvg(model, stacked(model));
    expect(text).not.toContain('<script');
    expect(references(text)).toEqual([]);
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(svg.querySelectorAll('script, image').length).toBe(0);
    // Escaped, so the file parses and reads back as the model's text.
    expect(linesOf(svg, 'sum')).toEqual(model.nodes.find((node) => node.id === 'sum')?.titleLines);
    expect(linesOf(svg, 'sum').join(' ')).toContain('R&D "core"');
  });
});
