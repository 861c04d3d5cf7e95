/**
 * Regenerates libs/diagram/corpus/expected/<name>.json from Mermaid itself.
 * Run: npx ts-node -T -P libs/diagram/tsconfig.spec.json libs/diagram/scripts/generate-expected.ts
 * Only Mermaid's loader (DOM shim + serialized queue) is shared with the library; the graph is
 * read by expected-graph.ts through Mermaid accessors the adapter does not use.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withMermaid } from '../src/node/mermaid-runtime';
import { expectedGraphFromMermaid } from './expected-graph';

export const CORPUS_DIR = join(__dirname, '..', 'corpus');
export const EXPECTED_DIR = join(CORPUS_DIR, 'expected');

async function main(): Promise<void> {
  mkdirSync(EXPECTED_DIR, { recursive: true });
  const files = readdirSync(CORPUS_DIR).filter((file) => file.endsWith('.mmd')).sort();
  for (const file of files) {
    const source = readFileSync(join(CORPUS_DIR, file), 'utf8');
    const expected = await withMermaid(async (mermaid) => {
      const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
      return expectedGraphFromMermaid(diagram.type, diagram.db);
    });
    writeFileSync(join(EXPECTED_DIR, file.replace(/\.mmd$/, '.json')), `${JSON.stringify(expected, null, 2)}\n`);
  }
  console.log(`Wrote ${files.length} expected graphs to ${EXPECTED_DIR}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
