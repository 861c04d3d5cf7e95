import ELK from 'elkjs/lib/elk.bundled.js';
import { collapseGroup, createView, expandGroup, type OverlaidGraph } from '@sc/diagram';
import { fixtureModelInput, fixtureTopology } from '../../../testing/diagram-fixture';
import { buildModel, canvasEdge, layoutInput, safeImageSource } from './canvas-model';
import { changeHighlights, describeChanges } from './changes';
import { LayoutCache, layoutDiagram, type Box } from './layout';
import { wrapWords } from './text-measure';

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

describe('canvas model', () => {
  it('turns Mermaid link types, C4 relationships and context edge overlays into strokes and markers', () => {
    const look = (type: string, stroke = 'normal') => {
      const edge = canvasEdge({ source: 'a', target: 'b', type, stroke }, 'k', 'flowchart');
      return [edge.markerStart?.type ?? '-', edge.markerEnd?.type ?? '-', edge.dash, edge.width, edge.invisible];
    };
    expect(look('arrow_point')).toEqual(['-', 'arrow', 'solid', 1.5, false]);
    expect(look('arrow_open')).toEqual(['-', '-', 'solid', 1.5, false]);
    expect(look('arrow_circle')).toEqual(['-', 'circle', 'solid', 1.5, false]);
    expect(look('arrow_cross')).toEqual(['-', 'cross', 'solid', 1.5, false]);
    expect(look('double_arrow_point')).toEqual(['arrow', 'arrow', 'solid', 1.5, false]);
    expect(look('arrow_point', 'thick')).toEqual(['-', 'arrow', 'solid', 3.5, false]);
    expect(look('arrow_point', 'dotted')).toEqual(['-', 'arrow', 'dotted', 1.5, false]);
    expect(look('arrow_open', 'invisible')[4]).toBe(true);

    const birel = canvasEdge({ source: 'a', target: 'b', type: 'birel', technology: 'HTTPS', label: 'Reconciles' }, 'k', 'c4');
    expect([birel.markerStart?.type, birel.markerEnd?.type, birel.label]).toEqual(['arrow', 'arrow', 'Reconciles\n[HTTPS]']);

    const overlaid = canvasEdge(
      {
        source: 'a',
        target: 'b',
        type: 'arrow_point',
        overlay: { label: 'gRPC', style: { stroke: '#1f6feb', strokeWidth: 3, strokeStyle: 'dashed', borderAnimationEnabled: true }, markerStart: { type: 'circle', color: 'red' }, markerEnd: { type: 'arrow' } },
      },
      'k',
      'flowchart',
    );
    expect(overlaid).toMatchObject({ label: 'gRPC', color: '#1f6feb', width: 3, dash: 'dashed', animated: true, markerStart: { type: 'circle', color: 'red' }, markerEnd: { type: 'arrow', color: '#1f6feb' } });
  });

  it('refuses colours that are not colours', () => {
    const edge = canvasEdge({ source: 'a', target: 'b', overlay: { style: { stroke: 'red;background:url(x)' } } }, 'k', 'flowchart');
    expect(edge.color).toBe('#5f6b7a');
  });

  it('loads images from https and data URLs only', () => {
    expect(safeImageSource('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(safeImageSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeImageSource('http://10.0.0.1/logo.png')).toBeNull();
    expect(safeImageSource('javascript:alert(1)')).toBeNull();
    expect(safeImageSource('data:text/html,<script>alert(1)</script>')).toBeNull();
  });

  it('wraps labels between words only', () => {
    const lines = wrapWords('Settlement worker with a verylongunbreakableidentifier inside', 80, { size: 14 });
    expect(lines.join(' ')).toBe('Settlement worker with a verylongunbreakableidentifier inside');
    expect(lines).toContain('verylongunbreakableidentifier');
  });

  it('adds the [*] start and end marks of state diagrams, per composite state', () => {
    const graph: OverlaidGraph = {
      kind: 'state',
      nodes: [{ id: 'Created', label: 'Created' }, { id: 'Batched', label: 'Batched', parent: 'Settling' }],
      groups: [{ id: 'Settling', label: 'Settling', nodes: ['Batched'] }],
      edges: [{ source: 'Created', target: 'Settling' }],
      start: [{ state: 'Created' }, { state: 'Batched', scope: 'Settling' }],
      end: [{ state: 'Settling' }],
    };
    const model = buildModel({ view: createView(graph), databases: new Map() });
    expect(model.nodes.filter((n) => n.kind === 'start' || n.kind === 'end').map((n) => [n.id, n.parent ?? null])).toEqual([
      ['[*]start', null],
      ['[*]start:Settling', 'Settling'],
      ['[*]end', null],
    ]);
    expect(model.edges.map((e) => `${e.source}>${e.target}`)).toEqual(['Created>Settling', '[*]start>Created', '[*]start:Settling>Batched', 'Settling>[*]end']);
  });

  it('highlights added and changed elements and brings back removed ones as ghosts', () => {
    const graph = fixtureTopology();
    const found = <T>(value: T | undefined): T => {
      if (value === undefined) throw new Error('not in the fixture');
      return value;
    };
    const changes = {
      name: 'topology',
      from: 1,
      to: 2,
      changed: true,
      nodes: {
        added: [found(graph.nodes.find((n) => n.id === 'psp'))],
        removed: [{ id: 'fraud', label: 'Fraud check', parent: 'core' }],
        changed: [{ key: 'api', before: graph.nodes[2], after: graph.nodes[2], fields: ['overlay'] }],
      },
      edges: { added: [found(graph.edges.find((e) => e.target === 'psp'))], removed: [{ source: 'api', target: 'fraud' }], changed: [] },
      groups: { added: [], removed: [], changed: [] },
    };
    const model = buildModel({ view: createView(graph), databases: new Map(), highlights: changeHighlights(changes, graph) });
    expect(model.nodes.find((n) => n.id === 'psp')?.status).toBe('added');
    expect(model.nodes.find((n) => n.id === 'api')?.status).toBe('changed');
    expect(model.nodes.find((n) => n.id === 'fraud')).toMatchObject({ status: 'removed', parent: 'core' });
    expect(model.edges.find((e) => e.key === 'api->psp#0')?.status).toBe('added');
    expect(model.edges.find((e) => e.source === 'api' && e.target === 'fraud')?.status).toBe('removed');
    expect(describeChanges(changes).map((c) => `${c.status} ${c.element} ${c.id}`)).toEqual([
      'added node psp',
      'added edge api → psp',
      'changed node api',
      'removed node fraud',
      'removed edge api → fraud',
    ]);
  });
});

describe('layout (ELK, per group)', () => {
  const elk = new ELK();

  it('puts every member inside its group frame and routes every edge, collapsed groups as boxes', async () => {
    const view = createView(fixtureTopology());
    const model = buildModel({ ...fixtureModelInput(), view });
    const result = await layoutDiagram(elk, layoutInput(model), new LayoutCache());
    // The context's own group (storage) frames the nodes it lists, as Mermaid's subgraphs frame theirs.
    expect(model.nodes.filter((n) => n.parent === 'storage').map((n) => n.id).sort()).toEqual(['idempotencyKeys', 'ledgerDb', 'ledgerEntries']);
    for (const node of model.nodes) {
      expect([node.id, result.boxes[node.id]?.width]).toEqual([node.id, node.width]);
      if (node.parent) expect([node.id, inside(result.boxes[node.id], result.boxes[node.parent])]).toEqual([node.id, true]);
    }
    for (const edge of model.edges) expect([edge.key, (result.edges[edge.key]?.points.length ?? 0) >= 2]).toEqual([edge.key, true]);
    // Labelled edges get a place for their label.
    expect(result.edges['api->ledgerDb#0'].label).toBeDefined();

    const collapsed = buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'core') });
    const after = await layoutDiagram(elk, layoutInput(collapsed), new LayoutCache());
    expect(after.boxes['api']).toBeUndefined();
    expect(after.boxes['core'].height).toBe(44);
    // The edge from the queue to the worker now points at the group.
    expect(collapsed.edges.some((e) => e.source === 'events' && e.target === 'core')).toBe(true);
  });

  it('draws an expanded group exactly as before it was collapsed', async () => {
    const cache = new LayoutCache();
    const view = createView(fixtureTopology());
    const before = await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view })), cache);
    await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view: collapseGroup(view, 'core') })), cache);
    const again = await layoutDiagram(elk, layoutInput(buildModel({ ...fixtureModelInput(), view: expandGroup(collapseGroup(view, 'core'), 'core') })), cache);
    expect(again).toEqual(before);
  });
});
