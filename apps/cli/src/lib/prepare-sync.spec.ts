import { createTempRepo, type TempRepo } from '../../test/support/temp-repo';
import { parseMermaid } from '@sc/diagram/node';
import { checkDiagram } from './diagram-check';
import { prepareSync } from './prepare-sync';

/** Six architecture diagrams; the second and fifth are broken in different ways. */
function repoWithDiagrams(): Record<string, string> {
  const files: Record<string, string> = {
    '.service.yaml': ['version: 1', 'service:', '  name: shop', 'architectureDiagrams:', ...[0, 1, 2, 3, 4, 5].flatMap((i) => [`  - name: d${i}`, `    path: d${i}.mmd`, `    contextPath: d${i}.context.json`])].join('\n') + '\n',
  };
  for (let i = 0; i < 6; i++) {
    files[`d${i}.mmd`] = `flowchart LR\n  api${i}[API ${i}] --> db${i}[(DB)]\n  api${i} --> queue${i}\n`;
    files[`d${i}.context.json`] = JSON.stringify({ nodes: { [`api${i}`]: { type: 'shape', name: `API ${i}` } } }, null, 2);
  }
  files['d1.mmd'] = 'flowchart LR\n  a -->\n';
  files['d4.context.json'] = '{\n  "nodes": {\n    "api4": { "type": "shape", },\n  }\n}\n';
  return files;
}

describe('prepareSync diagram validation', () => {
  let repo: TempRepo;
  beforeAll(() => (repo = createTempRepo(repoWithDiagrams())));
  afterAll(() => repo.cleanup());

  it('parses on worker threads and reports exactly what the in-process check reports, in config order', async () => {
    const progress: number[] = [];
    const pooled = await prepareSync(undefined, repo.dir, (done) => progress.push(done));
    const inProcess = await prepareSync(undefined, repo.dir, undefined, (input) => checkDiagram(input, parseMermaid));

    expect(pooled.rows).toEqual(inProcess.rows);
    expect(pooled.problems).toEqual(inProcess.problems);
    expect(pooled.rows.map((row) => [row.name, row.valid, row.nodes])).toEqual([
      ['d0', true, 3],
      ['d1', false, 0],
      ['d2', true, 3],
      ['d3', true, 3],
      ['d4', false, 3],
      ['d5', true, 3],
    ]);
    expect(pooled.problems.filter((problem) => problem.severity === 'error').map((problem) => [problem.file, problem.code, problem.line])).toEqual([
      ['d1.mmd', 'mermaid_syntax_error', 2],
      ['d4.context.json', 'context_invalid_json', 3],
    ]);
    expect(pooled.bundle).toBeUndefined();
    // Once per artifact, so the last report is 6/6 and nothing repeats it (a CI log printed that line twice).
    expect(progress.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
