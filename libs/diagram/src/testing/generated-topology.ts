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
 * `nodeCount` nodes, `edgeCount` edges, `groupCount` subgraphs nested three deep (each top-level group holds two
 * nested ones, one of which holds another), and `overlayCount` context overlays. Edges are shaped like a service
 * topology rather than one long chain: inside each group, calls go from one tier of eight nodes to the next; the
 * remaining edges link groups (the last tier of one to the first tier of another) and cross tiers.
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
  const edges: string[] = [];
  const seen = new Set<string>();
  const link = (from: number, to: number, arrow: string) => {
    const key = `${from}>${to}`;
    if (from === to || seen.has(key) || edges.length >= edgeCount) return;
    seen.add(key);
    edges.push(`  n${from} ${arrow} n${to}`);
  };
  const TIER = 8;
  const blocks = [...Array.from({ length: groupCount }, (_, g) => members(g)), Array.from({ length: nodeCount - groupCount * perGroup }, (_, i) => groupCount * perGroup + i)];
  // Within each block: every node calls one node of the next tier (some with a label).
  for (const block of blocks) {
    block.forEach((node, i) => {
      const next = block[i + TIER - (i % TIER) + (i % 3)];
      if (next !== undefined) link(node, next, i % 3 === 0 ? `-->|call ${node}|` : '-->');
    });
  }
  // Between blocks: the last tier of one block calls the first tier of the next.
  blocks.forEach((block, b) => {
    const next = blocks[(b + 1) % blocks.length];
    if (b + 1 < blocks.length && next.length && block.length) link(block[block.length - 1 - (b % TIER)], next[b % Math.min(TIER, next.length)], '-->');
  });
  // The rest: dotted cross links, each from a node to a later tier of another block.
  for (let k = 0; edges.length < edgeCount && k < edgeCount * 4; k++) {
    const from = blocks[k % blocks.length];
    const to = blocks[(k * 7 + 3) % blocks.length];
    if (!from.length || !to.length) continue;
    link(from[(k * 5) % from.length], to[(k * 11 + TIER) % to.length], '-.->');
  }
  lines.push(...edges);

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
  const context = { name: `Generated ${nodeCount}-node topology`, nodes: overlays, edges: { 'n0-n8': { label: 'first call', markerEnd: { type: 'arrow' } } } };
  return { mermaid: `${lines.join('\n')}\n`, context: `${JSON.stringify(context, null, 2)}\n` };
}
