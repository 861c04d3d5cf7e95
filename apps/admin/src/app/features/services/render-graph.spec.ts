import { collapseGroup, createView, type OverlaidGraph } from '@sc/diagram';
import { hiddenGroupIds, renderableMermaid } from './render-graph';

const GRAPH: OverlaidGraph = {
  kind: 'flowchart',
  direction: 'LR',
  nodes: [
    { id: 'web', label: 'Web app', parent: 'edge' },
    { id: 'api', label: 'API', parent: 'core' },
    { id: 'end', label: 'Worker', parent: 'core' },
    { id: 'db', label: 'Orders DB', shape: 'cylinder', overlay: { style: { fill: '#ffeeaa', stroke: 'red;x:y' } } },
  ],
  groups: [
    { id: 'edge', label: 'Edge', nodes: ['web'] },
    { id: 'core', label: 'Core', nodes: ['api', 'end', 'inner'] },
    { id: 'inner', label: 'Inner', parent: 'core', nodes: [] },
  ],
  edges: [
    { source: 'web', target: 'api', label: 'HTTPS' },
    { source: 'api', target: 'end', label: 'jobs' },
    { source: 'end', target: 'db' },
  ],
};

describe('renderableMermaid', () => {
  it('draws every node and group with generated ids, keeping labels, shapes and direction', () => {
    const text = renderableMermaid(createView(GRAPH));
    expect(text.startsWith('flowchart LR\n')).toBe(true);
    expect(text).toContain('"Web app"');
    expect(text).toContain('subgraph g1 ["Core"]');
    expect(text).toContain('n3[("Orders DB")]');
    // A node called "end" (a Mermaid keyword) still renders, because ids are replaced.
    expect(text).toContain('"Worker"');
    expect(text).not.toMatch(/\bend\[/);
    expect(text).toContain('|"HTTPS"|');
  });

  it('copies safe colours into a style line and drops values that could inject Mermaid syntax', () => {
    const text = renderableMermaid(createView(GRAPH));
    expect(text).toContain('style n3 fill:#ffeeaa\n');
    expect(text).not.toContain('x:y');
  });

  it('draws a collapsed group as one marked box that the crossing edges attach to', () => {
    const text = renderableMermaid(collapseGroup(createView(GRAPH), 'core'));
    expect(text).toContain('g1@{ shape: fr-rect, label: "Core (collapsed)" }');
    expect(text).not.toContain('subgraph g1');
    expect(text).not.toContain('"API"');
    expect(text).not.toContain('"jobs"'); // the edge inside the group disappears with it
    expect(text).toMatch(/n0 -->\|"HTTPS"\| g1/);
  });
});

describe('hiddenGroupIds', () => {
  it('lists the groups inside a collapsed group', () => {
    expect([...hiddenGroupIds(collapseGroup(createView(GRAPH), 'core'))]).toEqual(['inner']);
    expect(hiddenGroupIds(createView(GRAPH)).size).toBe(0);
  });
});
