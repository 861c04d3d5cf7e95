import { validateDrawnGraph, type OverlaidEdge, type OverlaidGraph } from '@sc/diagram';
import { PanelDriver } from '../../../../../testing/properties-kit';
import { EdgePropertiesComponent, MARKER_TYPES } from './edge-properties.component';
import { WHOLE_GRAPH_CHECK_LIMIT } from './element-checks';

type EdgeChange = { previous: OverlaidEdge; edge: OverlaidEdge };

const graph: OverlaidGraph = {
  kind: 'flowchart',
  nodes: [
    { id: 'web', label: 'Web' },
    { id: 'api', label: 'API' },
  ],
  edges: [{ source: 'web', target: 'api' }],
  groups: [],
};

function panel(edge: OverlaidEdge): PanelDriver<EdgePropertiesComponent, EdgeChange> {
  return new PanelDriver(EdgePropertiesComponent, { edge, graph }, (c) => c.edgeChange, (change) => ['edge', change.edge]);
}
const lastEdge = (driver: PanelDriver<EdgePropertiesComponent, EdgeChange>) => driver.emitted.at(-1)?.edge;

describe('EdgePropertiesComponent', () => {
  it('edits label, stroke colour and width, line style, animation and both markers with colours', async () => {
    const driver = panel({ source: 'web', target: 'api' });
    await driver.type('edge-label', 'HTTPS');
    await driver.type('edge-style-stroke', '#1f6feb');
    await driver.type('edge-style-stroke-width', '3');
    await driver.select('edge-style-stroke-style', 'dashed');
    await driver.toggle('edge-style-border-animation');
    expect(await driver.selectOptions('edge-marker-start')).toEqual(["(Mermaid's)", ...MARKER_TYPES]);
    await driver.select('edge-marker-start', 'circle');
    await driver.type('edge-marker-start-color', 'red');
    await driver.select('edge-marker-end', 'arrow');
    const edge = lastEdge(driver) as OverlaidEdge;
    expect(edge).toEqual({
      source: 'web',
      target: 'api',
      label: 'HTTPS',
      overlay: {
        style: { stroke: '#1f6feb', strokeWidth: 3, strokeStyle: 'dashed', borderAnimationEnabled: true },
        markerStart: { type: 'circle', color: 'red' },
        markerEnd: { type: 'arrow' },
      },
    });
    expect(driver.emitted[0].previous).toEqual({ source: 'web', target: 'api' });
    const checked = validateDrawnGraph({ ...graph, edges: [edge] });
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([]);
  });

  it('removing a marker and clearing styles leaves no empty overlay behind', async () => {
    const driver = panel({ source: 'web', target: 'api', overlay: { style: { stroke: 'red' }, markerEnd: { type: 'cross', color: 'red' } } });
    await driver.select('edge-marker-end', "(Mermaid's)");
    await driver.type('edge-style-stroke', '');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api' });
  });

  it('shows the linkStyle CSS of a synced copy and can clear it', async () => {
    const driver = panel({ source: 'web', target: 'api', styles: ['stroke:#ff3', 'fill:none'] });
    expect(driver.text('edge-mermaid-styles')).toContain('stroke:#ff3, fill:none');
    await driver.click('edge-mermaid-styles-clear');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api' });
  });

  it('refuses an overlay that parallel edges would not share (a context file keys edges by "source-target")', async () => {
    const first = { source: 'web', target: 'api', label: 'reads' };
    const parallel: OverlaidGraph = { ...graph, edges: [first, { source: 'web', target: 'api', label: 'writes' }] };
    const driver = new PanelDriver(EdgePropertiesComponent, { edge: first, graph: parallel }, (c) => c.edgeChange, (change) => ['edge', change.edge]);
    await driver.select('edge-style-stroke-style', 'dashed');
    expect(driver.emitted).toEqual([]);
    expect(driver.text('edge-problems')).toContain('share one context entry');
    // The label is Mermaid's own, so parallel edges may differ there.
    await driver.type('edge-label', 'reads often');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api', label: 'reads often' });
  });

  it('in a graph too large to check whole on every edit, still refuses an overlay its parallel edges do not share', async () => {
    const first = { source: 'web', target: 'api' };
    const nodes = Array.from({ length: WHOLE_GRAPH_CHECK_LIMIT }, (_, i) => ({ id: `n${i}`, label: `N${i}` }));
    const large: OverlaidGraph = { ...graph, nodes: [...graph.nodes, ...nodes], edges: [first, { source: 'web', target: 'api' }] };
    const driver = new PanelDriver(EdgePropertiesComponent, { edge: first, graph: large }, (c) => c.edgeChange, (change) => ['edge', change.edge]);
    await driver.select('edge-marker-end', 'diamond');
    expect(driver.emitted).toEqual([]);
    expect(driver.text('edge-problems')).toContain('share one context entry');
  });

  it('sets the Mermaid link type and stroke (normal, thick, dotted, invisible) as the link type allows', async () => {
    const driver = panel({ source: 'web', target: 'api' });
    expect(await driver.selectOptions('edge-link-stroke')).toEqual(['normal', 'thick', 'dotted', 'invisible']);
    await driver.select('edge-link-stroke', 'invisible');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api', stroke: 'invisible' });
    // A circle-ended link cannot be invisible: the stroke falls back to normal.
    await driver.select('edge-link-type', 'arrow_circle');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api', type: 'arrow_circle' });
    expect(await driver.selectOptions('edge-link-stroke')).toEqual(['normal', 'thick', 'dotted']);
    await driver.select('edge-link-stroke', 'thick');
    expect(lastEdge(driver)).toEqual({ source: 'web', target: 'api', type: 'arrow_circle', stroke: 'thick' });
    expect(validateDrawnGraph({ ...graph, edges: [lastEdge(driver) as OverlaidEdge] }).errors).toEqual([]);
  });

  it('shows, and does not emit, what the draft would refuse: a label with %%, a negative width, a bad colour', async () => {
    const driver = panel({ source: 'web', target: 'api' });
    await driver.type('edge-label', '50%% off');
    expect(driver.text('edge-problems')).toContain('%%');
    await driver.type('edge-style-stroke-width', '-2');
    expect(driver.text('edge-problems')).toContain('strokeWidth');
    await driver.type('edge-style-stroke', 'nope');
    expect(driver.host.textContent).toContain('"nope" is not a colour');
    expect(driver.emitted).toEqual([]);
  });
});
