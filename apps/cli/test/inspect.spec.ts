import * as path from 'node:path';
import { ExitCode } from '../src/lib/exit-codes';
import type { JsonErrorOutput } from '../src/lib/cli-error';
import type { InspectJson } from '../src/lib/output-types';
import { runInspect } from '../src/lib/run-inspect';
import { captureIo } from './support/capture-io';
import { useTempRepo } from './support/temp-repo';

const SAMPLE = path.join(__dirname, 'fixtures/sample-repo');

describe('service-cli inspect', () => {
  const repo = useTempRepo();

  it('prints kind, nodes, edges, groups and the context report as tables', async () => {
    const io = captureIo();
    const exitCode = await runInspect(
      { file: '.service/diagrams/topology.mmd', context: '.service/diagrams/topology.context.json', databases: ['ledger', 'idempotency'], json: false },
      { cwd: SAMPLE, io },
    );
    expect(exitCode).toBe(ExitCode.Ok);
    const printed = io.stdout.join('\n');
    expect(printed).toContain('.service/diagrams/topology.mmd: flowchart (LR), 17 nodes, 16 edges, 3 groups');
    expect(printed).toMatch(/ledgerEntries\s+ledger\.entries\s+\S+\s+-\s+db-table/);
    expect(printed).toMatch(/events\s+worker\s+-\s+arrow_point\s+-\s+yes/);
    expect(printed).toMatch(/core\s+Payments core\s+-\s+api, rules, worker/);
    expect(printed).toContain('Context: 19 applied, 0 unmatched, 0 errors, 0 warnings');
  });

  it('prints the graph model and report as JSON', async () => {
    const io = captureIo();
    const exitCode = await runInspect(
      { file: '.service/diagrams/payment-lifecycle.mmd', context: '.service/diagrams/payment-lifecycle.context.json', databases: [], json: true },
      { cwd: SAMPLE, io },
    );
    expect(exitCode).toBe(ExitCode.Ok);
    const output = JSON.parse(io.stdout.join('')) as InspectJson;
    expect(output).toMatchObject({ ok: true, exitCode: 0, kind: 'state', file: '.service/diagrams/payment-lifecycle.mmd' });
    expect(output.nodes?.map((node) => node.id)).not.toContain('[*]');
    expect(output.groups?.find((group) => group.id === 'Settling')?.nodes).toEqual(expect.arrayContaining(['Batched', 'Submitted']));
    expect(output.report?.unmatched).toEqual([]);
    expect(output.report?.applied.length).toBeGreaterThan(0);
  });

  it('exits 1 listing context errors with file, line and JSON path', async () => {
    repo.write('d.mmd', 'flowchart LR\n  API --> DB\n');
    repo.write('d.json', '{\n  "nodes": {\n    "API": { "type": "shape" },\n    "DB": { "type": "database" }\n  }\n}\n');
    const io = captureIo();
    const exitCode = await runInspect({ file: 'd.mmd', context: 'd.json', databases: [], json: true }, { cwd: repo.dir, io });
    expect(exitCode).toBe(ExitCode.Validation);
    const output = JSON.parse(io.stdout.join('')) as InspectJson;
    expect(output.ok).toBe(false);
    expect(output.problems.find((problem) => problem.path === '$.nodes.DB.type')).toMatchObject({ severity: 'error', file: 'd.json', line: 4 });
  });

  it('reports unmatched keys with hints and an unknown database', async () => {
    repo.write('d.mmd', 'flowchart LR\n  API --> DB\n');
    repo.write('d.json', '{\n  "nodes": {\n    "Api": { "type": "shape" },\n    "DB": { "type": "data-source", "dbConfig": { "serviceName": "s", "databaseName": "nope", "tableName": "" } }\n  },\n  "edges": { "DB-API": {} }\n}\n');
    const io = captureIo();
    const exitCode = await runInspect({ file: 'd.mmd', context: 'd.json', databases: ['main'], json: false }, { cwd: repo.dir, io });
    expect(exitCode).toBe(ExitCode.Validation);
    const printed = io.stdout.join('\n');
    expect(printed).toMatch(/nodes\.Api\s+.*API/);
    expect(printed).toMatch(/edges\.DB-API\s+.*API-DB/);
    expect(io.stderr.join('\n')).toMatch(/d\.json:\d+(:\d+)?\s+context_unknown_database/);
  });

  it('prints each problem\'s hint once', async () => {
    repo.write('d.mmd', 'flowchart LR\n  API --> DB\n');
    repo.write('d.json', '{\n  "nodes": { "Api": { "type": "shape" } },\n  "edges": { "DB-API": {} }\n}\n');
    const io = captureIo();
    await runInspect({ file: 'd.mmd', context: 'd.json', databases: [], json: false }, { cwd: repo.dir, io });
    const problems = io.stderr.join('\n').split('\n');
    const hints = ['did you mean API?', 'DB-API does not exist; API-DB does'];
    for (const hint of hints) {
      const lines = problems.filter((line) => line.includes(hint));
      expect(lines).toHaveLength(1);
      expect(lines[0].split(hint)).toHaveLength(2);
    }
  });

  it('exits 1 on a Mermaid syntax error with its line', async () => {
    repo.write('bad.mmd', 'sequenceDiagram\n  Alice->>Bob: hi\n  Bob-->>: missing target\n');
    const io = captureIo();
    expect(await runInspect({ file: 'bad.mmd', databases: [], json: false }, { cwd: repo.dir, io })).toBe(ExitCode.Validation);
    expect(io.stderr.join('\n')).toMatch(/bad\.mmd:3(:\d+)?\s+mermaid_syntax_error/);
    // The verdict sums up the problems, so it is on their stream (a CI log that keeps stderr alone still ends with it).
    expect(io.stderr.join('\n')).toMatch(/1 error, 0 warnings\nbad\.mmd is invalid\.$/);
    expect(io.stdout.join('\n')).not.toContain('invalid');
  });

  it('exits 2 when the file cannot be read', async () => {
    const io = captureIo();
    expect(await runInspect({ file: 'missing.mmd', databases: [], json: true }, { cwd: repo.dir, io })).toBe(ExitCode.Configuration);
    expect((JSON.parse(io.stdout.join('')) as JsonErrorOutput).error.code).toBe('file_not_found');
  });
});
