/**
 * Generated topologies for the dashboard benchmark: a flowchart with nested subgraphs and a context that overlays a
 * share of its nodes with every node type, so the canvas draws what a large real diagram carries.
 */

export interface GeneratedDiagram {
  mermaid: string;
  context: string;
}

const SHAPES = ['[Service %]', '([Queue %])', '[(DB %)]', '{Check %}', '[[Worker %]]', '>Event %]'];

/**
 * `nodeCount` nodes, `edgeCount` edges (a chain plus cross links), `groupCount` subgraphs nested three deep
 * (each top-level group holds two nested ones, one of which holds another), and `overlayCount` context overlays.
 */
export function generatedTopology(nodeCount: number, edgeCount: number, groupCount: number, overlayCount: number): GeneratedDiagram {
  const lines = ['flowchart LR'];
  // Groups: g0..g(n-1); every fourth starts a tree: gA > gB > gC, and gA > gD.
  const perGroup = Math.floor(nodeCount / (groupCount + 1));
  const members = (group: number) => {
    const start = group * perGroup;
    return Array.from({ length: perGroup }, (_, i) => start + i);
  };
  const node = (i: number) => `n${i}${SHAPES[i % SHAPES.length].replace('%', String(i))}`;
  const open = (group: number, depth: number) => {
    const pad = '  '.repeat(depth + 1);
    lines.push(`${pad}subgraph g${group} [Group ${group}]`);
    for (const i of members(group)) lines.push(`${pad}  ${node(i)}`);
  };
  const close = (depth: number) => lines.push(`${'  '.repeat(depth + 1)}end`);
  for (let tree = 0; tree * 4 < groupCount; tree++) {
    const [a, b, c, d] = [0, 1, 2, 3].map((offset) => tree * 4 + offset).map((g) => (g < groupCount ? g : undefined));
    if (a === undefined) break;
    open(a, 0);
    if (b !== undefined) {
      open(b, 1);
      if (c !== undefined) {
        open(c, 2);
        close(2);
      }
      close(1);
    }
    if (d !== undefined) {
      open(d, 1);
      close(1);
    }
    close(0);
  }
  for (let i = groupCount * perGroup; i < nodeCount; i++) lines.push(`  ${node(i)}`);
  let edges = 0;
  for (let i = 0; i + 1 < nodeCount && edges < edgeCount; i++, edges++) lines.push(`  n${i} -->${i % 3 === 0 ? `|call ${i}|` : ''} n${i + 1}`);
  for (let i = 0; edges < edgeCount; i = (i + 3) % nodeCount, edges++) lines.push(`  n${i} -.-> n${(i * 7 + 11) % nodeCount}`);

  const types = ['shape', 'text', 'code', 'table', 'comment', 'cloud', 'component', 'db-table'];
  const overlays: Record<string, unknown> = {};
  for (let k = 0; k < overlayCount; k++) {
    const id = `n${Math.floor((k * nodeCount) / overlayCount)}`;
    const type = types[k % types.length];
    const base = { type, name: `Element ${id}`, data: { Owner: { type: 'Text Input', value: `team-${k % 7}` }, Tags: { type: 'Tag Input', value: ['generated', `t${k % 5}`] } } };
    overlays[id] = {
      ...base,
      ...(type === 'shape' ? { shape: 'hexagon', style: { fill: '#e8f1ff', stroke: '#1f6feb' } } : {}),
      ...(type === 'text' || type === 'code' ? { value: `value of ${id}` } : {}),
      ...(type === 'table' ? { table: { columns: ['Key', 'Value'], rows: [['a', '1'], ['b', '2']] } } : {}),
      ...(type === 'cloud' ? { cloud: 'AWS', service: 'SQS' } : {}),
      ...(type === 'component' ? { componentId: `component-${k}` } : {}),
      ...(type === 'db-table' ? { dbConfig: { serviceName: 'bench', databaseName: 'bench-db', tableName: 'orders' } } : {}),
    };
  }
  const context = { name: `Generated ${nodeCount}-node topology`, nodes: overlays, edges: { 'n0-n1': { label: 'first call', markerEnd: { type: 'arrow' } } } };
  return { mermaid: `${lines.join('\n')}\n`, context: `${JSON.stringify(context, null, 2)}\n` };
}
