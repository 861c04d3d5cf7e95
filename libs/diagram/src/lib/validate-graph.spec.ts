import { DiagramIssueCode } from './model';
import type { OverlaidGraph } from './overlay';
import { validateDrawnGraph } from './validate-graph';
import { buildGraph } from '../testing/build-graph';

const valid: OverlaidGraph = buildGraph({
  direction: 'LR',
  contextName: 'Orders',
  nodes: {
    api: { label: 'Orders API', overlay: { type: 'shape', shape: 'hexagon', style: { fill: '#eef' } } },
    db: { label: 'Orders DB', shape: 'cyl' },
    web: 'Web<br>front end',
  },
  edges: [
    { id: 'e1', source: 'web', target: 'api', label: 'HTTPS', overlay: { style: { strokeStyle: 'dashed' } } },
    { source: 'web', target: 'api', label: 'retry', overlay: { style: { strokeStyle: 'dashed' } } },
    { source: 'api', target: 'inner', type: 'arrow_open', stroke: 'dotted' },
  ],
  groups: {
    core: { label: 'Core', nodes: ['api', 'inner'], overlay: { name: 'Core services' } },
    inner: { label: 'Inner', nodes: ['db'] },
    people: { label: 'People', nodes: ['web'], origin: 'context', overlay: { name: 'People', nodes: ['web'] } },
  },
});

const clone = (): OverlaidGraph => JSON.parse(JSON.stringify(valid)) as OverlaidGraph;
const paths = (value: unknown) => validateDrawnGraph(value, '$.graph').errors.map((issue) => issue.path);

describe('validateDrawnGraph', () => {
  it('accepts a well-formed flowchart graph and returns it typed', () => {
    const result = validateDrawnGraph(valid, '$.graph');
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.graph).toBe(valid);
  });

  it('reports the shape of the graph and of each element, with paths under the root', () => {
    expect(paths(null)).toEqual(['$.graph']);
    expect(paths({ kind: 'state', nodes: {}, edges: [], groups: [], extra: 1 })).toEqual(['$.graph.extra', '$.graph.kind', '$.graph.nodes']);
    expect(paths({ kind: 'flowchart', nodes: [7, { id: 'a' }, { id: 'b', label: 'B', colour: 'red' }], edges: [{ source: 'a' }], groups: [{ id: 'g', label: 'G' }] })).toEqual([
      '$.graph.nodes[0]',
      '$.graph.nodes[1]',
      '$.graph.nodes[2].colour',
      '$.graph.groups[0]',
      '$.graph.edges[0]',
    ]);
    expect(validateDrawnGraph({ kind: 'flowchart', nodes: [], edges: [], groups: [], direction: 'XY' }).errors[0]?.message).toContain('TB, TD, BT, RL, LR');
  });

  it('refuses ids Mermaid cannot write and repeated ids, with the id path', () => {
    const graph = clone();
    graph.nodes.push({ id: 'end', label: 'x' }, { id: 'a b', label: 'x' }, { id: 'api', label: 'again' }, { id: 'core', label: 'clash' });
    const { errors } = validateDrawnGraph(graph, '$.graph');
    expect(errors.map((e) => [e.path, e.code])).toEqual([
      ['$.graph.nodes[3].id', DiagramIssueCode.ExportUnsupportedId],
      ['$.graph.nodes[4].id', DiagramIssueCode.ExportUnsupportedId],
      ['$.graph.nodes[5].id', DiagramIssueCode.GraphInvalid],
      ['$.graph.groups[0].id', DiagramIssueCode.GraphInvalid],
    ]);
    expect(errors[0].message).toContain('"end" is a Mermaid keyword');
    expect(errors[2].message).toContain('already the id of node nodes[0]');
  });

  it('refuses labels Mermaid would drop or change', () => {
    const graph = clone();
    graph.nodes[0].label = '';
    graph.nodes[1].label = ' padded';
    graph.edges[2].label = 'a %% b';
    graph.groups[0].label = 'two\nlines';
    expect(paths(graph)).toEqual(['$.graph.nodes[0].label', '$.graph.nodes[1].label', '$.graph.groups[0].label', '$.graph.edges[2].label']);
  });

  it('checks that parent and nodes agree, and refuses cycles', () => {
    const wrongParent = clone();
    wrongParent.nodes[1].parent = 'core';
    expect(paths(wrongParent)).toEqual(['$.graph.groups[1].nodes[0]', '$.graph.nodes[1].parent']);

    const unlisted = clone();
    unlisted.nodes[2].parent = 'core';
    expect(paths(unlisted)).toEqual(['$.graph.nodes[2].parent']);

    const missing = clone();
    missing.nodes[0].parent = 'nowhere';
    missing.groups[0].nodes.push('ghost');
    expect(paths(missing)).toEqual(['$.graph.nodes[0].parent', '$.graph.groups[0].nodes[0]', '$.graph.groups[0].nodes[2]']);

    const cycle = clone();
    cycle.groups[0].parent = 'inner';
    cycle.groups[1].nodes.push('core');
    const errors = validateDrawnGraph(cycle, '$.graph').errors;
    expect(errors.map((e) => e.path)).toEqual(['$.graph.groups[1].parent']);
    expect(errors[0].message).toContain('cannot contain themselves');

    const contextMembers = clone();
    contextMembers.groups[2].nodes = ['core'];
    contextMembers.groups[2].parent = 'core';
    expect(paths(contextMembers)).toEqual(['$.graph.groups[2].parent', '$.graph.groups[2].nodes[0]', '$.graph.groups[2].overlay.nodes']);
  });

  it('checks edges: endpoints, ids, link types, shared overlays and ambiguous keys', () => {
    const graph = clone();
    graph.edges.push(
      { source: 'api', target: 'people' },
      { source: 'ghost', target: 'db' },
      { id: 'e1', source: 'db', target: 'api' },
      { id: 'db', source: 'db', target: 'web' },
      { source: 'db', target: 'web', type: 'arrow_circle', stroke: 'invisible' },
      { source: 'web', target: 'api', overlay: { label: 'other' } },
    );
    const { errors } = validateDrawnGraph(graph, '$.graph');
    expect(errors.map((e) => e.path)).toEqual([
      '$.graph.edges[3].target',
      '$.graph.edges[4].source',
      '$.graph.edges[5].id',
      '$.graph.edges[6].id',
      '$.graph.edges[7].stroke',
      '$.graph.edges[8].overlay',
    ]);
    expect(errors[0].message).toContain('context-only group');

    const dashed: OverlaidGraph = {
      kind: 'flowchart',
      nodes: ['a', 'a-b', 'b', 'b-c', 'c'].map((id) => ({ id, label: id })),
      edges: [
        { source: 'a', target: 'b-c', overlay: { label: 'x' } },
        { source: 'a-b', target: 'c' },
      ],
      groups: [],
    };
    const ambiguous = validateDrawnGraph(dashed, '$.graph').errors;
    expect(ambiguous.map((e) => [e.path, e.code])).toEqual([['$.graph.edges[0].overlay', DiagramIssueCode.ContextAmbiguousKey]]);
  });

  it('validates overlays by the context file rules, at their path in the graph', () => {
    const graph = clone();
    graph.nodes[0].overlay = { type: 'shape', shape: 'blob', style: { fill: 'not a colour' }, colour: 'x' } as never;
    graph.edges[2].overlay = { markerEnd: {} } as never;
    graph.groups[0].overlay = { name: 'Core', nodes: ['inner'] };
    const { errors, warnings } = validateDrawnGraph(graph, '$.graph');
    expect(errors.map((e) => e.path)).toEqual([
      '$.graph.groups[0].overlay.nodes[0]',
      '$.graph.nodes[0].overlay.shape',
      '$.graph.nodes[0].overlay.style.fill',
      '$.graph.edges[2].overlay.markerEnd',
    ]);
    expect(warnings.map((w) => w.path)).toEqual(['$.graph.nodes[0].overlay.colour']);
  });

  it('refuses data field labels a JSON request body would lose (constructor, prototype, __proto__)', () => {
    const graph = clone();
    graph.nodes[0].overlay = JSON.parse('{"type":"shape","data":{"constructor":{"type":"Text Input"},"__proto__":{"type":"Text Input"},"Owner":{"type":"Text Input"}}}') as never;
    expect(paths(graph)).toEqual(['$.graph.nodes[0].overlay.data.constructor', '$.graph.nodes[0].overlay.data.__proto__']);
  });

  it('refuses node shapes Mermaid does not know', () => {
    const graph = clone();
    graph.nodes[0].shape = 'ellipse';
    graph.nodes[1].shape = 'lean_right';
    graph.nodes[2].shape = 'toString';
    expect(paths(graph)).toEqual(['$.graph.nodes[0].shape', '$.graph.nodes[2].shape']);
  });

  it('accepts the CSS a synced flowchart carries (styles on nodes and edges) and refuses what Mermaid cannot write back', () => {
    const graph = clone();
    graph.nodes[0].styles = ['fill:#f96', ' stroke-dasharray: 5 5', 'stroke-width:1.5px', 'font-weight:bold', 'opacity:50%'];
    graph.edges[0].styles = ['stroke:#ff3', 'fill:none'];
    expect(validateDrawnGraph(graph).errors).toEqual([]);

    graph.nodes[1].styles = ['fill:rgb(1,2,3)', 'color:red;', 'fill:a--b', 'fill:end', 'stroke:v', ' color:red'];
    graph.nodes[2].styles = [' color:red'] as string[];
    graph.edges[1].styles = 'stroke:red' as never;
    graph.edges[2].styles = [7] as never;
    expect(paths(graph)).toEqual([
      '$.graph.nodes[1].styles[0]',
      '$.graph.nodes[1].styles[1]',
      '$.graph.nodes[1].styles[2]',
      '$.graph.nodes[1].styles[3]',
      '$.graph.nodes[1].styles[4]',
      '$.graph.nodes[2].styles[0]',
      '$.graph.edges[1].styles',
      '$.graph.edges[2].styles[0]',
    ]);
  });

  it('accepts C4 description and technology, with a warning that a flowchart export does not write them', () => {
    const graph = clone();
    graph.nodes[0].description = 'Takes orders';
    graph.nodes[0].technology = 'NestJS';
    graph.edges[0].technology = 'HTTPS';
    const result = validateDrawnGraph(graph, '$.graph');
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.path)).toEqual(['$.graph.nodes[0].description', '$.graph.nodes[0].technology', '$.graph.edges[0].technology']);
    graph.nodes[1].description = 3 as never;
    expect(paths(graph)).toEqual(['$.graph.nodes[1].description']);
  });
});
