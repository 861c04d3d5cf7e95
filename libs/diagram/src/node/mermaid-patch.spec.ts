import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * patches/mermaid+12.3.0.patch (applied by `npm install`'s postinstall) removes the configuration copy Mermaid makes
 * for every labelled flowchart node, about half of each parse (docs/benchmarks.md). The differential corpus proves
 * the graphs stay identical; this proves the installed Mermaid is the patched one, so a skipped postinstall cannot
 * silently bring the cost back.
 */
describe('the installed Mermaid carries patches/mermaid+12.3.0.patch', () => {
  it('reads the configuration once per parse in FlowDB, not once per labelled node', () => {
    const chunks = join(dirname(require.resolve('mermaid')), 'chunks', 'mermaid.core');
    const flowDb = readdirSync(chunks)
      .map((file) => readFileSync(join(chunks, file), 'utf8'))
      .find((text) => text.includes('var FlowDB = class'));
    expect(flowDb).toBeDefined();
    const addVertex = /\n {2}addVertex\(([\s\S]*?)\n {2}\}\n/.exec(flowDb ?? '')?.[1];
    expect(addVertex).toContain('this.sanitizeText(textObj.text.trim())');
    expect(addVertex).not.toContain('getConfig()');
  });
});
