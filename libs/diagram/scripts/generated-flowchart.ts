/**
 * Generated flowcharts shaped like real topologies: labelled nodes with mixed shapes, a
 * subgraph per 25 nodes, and about 1.5 edges per node (a chain plus cross links), some labelled.
 */
export function generatedFlowchart(nodeCount: number): string {
  const shapes = ['[Service %]', '([Queue %])', '[(DB %)]', '{Check %}', '((Hub %))'];
  const lines = ['flowchart LR'];
  for (let start = 0; start < nodeCount; start += 25) {
    lines.push(`  subgraph g${start / 25} [Group ${start / 25}]`);
    for (let i = start; i < Math.min(start + 25, nodeCount); i++) lines.push(`    n${i}${shapes[i % shapes.length].replace('%', String(i))}`);
    lines.push('  end');
  }
  for (let i = 0; i + 1 < nodeCount; i++) lines.push(`  n${i} -->${i % 3 === 0 ? `|call ${i}|` : ''} n${i + 1}`);
  for (let i = 0; i + 7 < nodeCount; i += 2) lines.push(`  n${i} -.-> n${i + 7}`);
  return `${lines.join('\n')}\n`;
}
