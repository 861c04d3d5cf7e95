import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ARTIFACT_KINDS, DATABASE_ENGINES } from '@sc/contracts';
import { NODE_TYPES, parseContextJson } from '@sc/diagram';
import { prepareSync } from '../src/lib/prepare-sync';

/** The artifacts engineer's end-to-end test relies on what this fixture claims to cover; keep it honest. */
const SAMPLE = path.join(__dirname, 'fixtures/sample-repo');

describe('fixtures/sample-repo', () => {
  it('is valid and covers every artifact kind and every diagram kind', async () => {
    const prepared = await prepareSync(undefined, SAMPLE);
    expect(prepared.problems).toEqual([]);
    expect(prepared.bundle).toBeDefined();
    expect(new Set(prepared.rows.map((row) => row.kind))).toEqual(new Set(ARTIFACT_KINDS));
    expect(new Set(prepared.rows.map((row) => row.diagramKind).filter(Boolean))).toEqual(new Set(['flowchart', 'state', 'sequence', 'c4']));
    // Both families of schema files: SQL engines and JSON engines.
    const engines = new Set(prepared.rows.map((row) => row.engine).filter(Boolean));
    expect([...engines].some((engine) => ['postgres', 'mysql', 'sqlite'].includes(engine as string))).toBe(true);
    expect([...engines].some((engine) => ['dynamodb', 'mongodb'].includes(engine as string))).toBe(true);
    expect([...engines].every((engine) => (DATABASE_ENGINES as readonly string[]).includes(engine as string))).toBe(true);
    // Companion files of every sort travel with their artifact.
    const artifacts = prepared.bundle?.artifacts ?? [];
    expect(artifacts.some((artifact) => artifact.context)).toBe(true);
    expect(artifacts.some((artifact) => artifact.kind === 'flow' && artifact.notes)).toBe(true);
    expect(artifacts.some((artifact) => artifact.kind === 'database-schema' && artifact.notes)).toBe(true);
    expect(prepared.rows.every((row) => row.context === undefined || (row.context.errors === 0 && row.context.unmatched === 0))).toBe(true);
  });

  it('has a context using every node type of the spec', () => {
    const parsed = parseContextJson(readFileSync(path.join(SAMPLE, '.service/diagrams/topology.context.json'), 'utf8'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    const types = new Set(Object.values(parsed.context?.nodes ?? {}).map((node) => node.type));
    expect(types).toEqual(new Set(NODE_TYPES));
  });
});
