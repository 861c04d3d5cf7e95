import Ajv from 'ajv';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ExitCode } from '../src/lib/exit-codes';
import { loadServiceConfig } from '../src/lib/load-config';
import type { InitJson } from '../src/lib/output-types';
import { defaultServiceName, runInit } from '../src/lib/run-init';
import { captureIo } from './support/capture-io';
import { useTempRepo } from './support/temp-repo';

const EXPECTED_FILES = [
  '.service.yaml',
  '.service/flows/.gitkeep',
  '.service/schemas/.gitkeep',
  '.service/jobs/.gitkeep',
  '.service/diagrams/topology.mmd',
  '.service/diagrams/topology.context.json',
  '.service/diagrams/context.v1.schema.json',
  '.service/service-summary.md',
];

describe('service-cli init', () => {
  const repo = useTempRepo();

  it('writes a commented starter config and the conventional layout that validates', async () => {
    const io = captureIo();
    const exitCode = await runInit({ dir: 'Payments Service', json: true }, { cwd: repo.dir, io });
    expect(exitCode).toBe(ExitCode.Ok);
    const output = JSON.parse(io.stdout.join('')) as InitJson;
    expect(output.created).toEqual(EXPECTED_FILES);
    expect(output.kept).toEqual([]);
    const dir = path.join(repo.dir, 'Payments Service');
    const config = readFileSync(path.join(dir, '.service.yaml'), 'utf8');
    expect(config).toMatch(/^# \.service\.yaml/);
    expect(config).toContain('version: 1');
    expect(config).toContain('name: payments-service');
    const loaded = await loadServiceConfig(undefined, dir);
    expect(loaded.problems).toEqual([]);
    expect(loaded.artifacts.map((artifact) => `${artifact.kind}:${artifact.name}`)).toEqual(['architecture-diagram:topology', 'service-summary:service-summary']);
    JSON.parse(readFileSync(path.join(dir, '.service/diagrams/topology.context.json'), 'utf8'));
  });

  it('points the starter context at the JSON Schema it writes beside it, which the context satisfies', async () => {
    expect(await runInit({ dir: '.', json: true }, { cwd: repo.dir, io: captureIo() })).toBe(ExitCode.Ok);
    const diagrams = path.join(repo.dir, '.service/diagrams');
    const context = JSON.parse(readFileSync(path.join(diagrams, 'topology.context.json'), 'utf8')) as { $schema?: string };
    expect(context.$schema).toBe('./context.v1.schema.json');
    const schema = JSON.parse(readFileSync(path.join(diagrams, context.$schema ?? ''), 'utf8')) as { $comment: string; definitions: { node: { properties: Record<string, unknown> } } };
    expect(schema.$comment).toContain('/schemas/context.v1.json');
    expect(Object.keys(schema.definitions.node.properties)).toEqual(expect.arrayContaining(['type', 'dbConfig', 'table', 'cloud']));
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    expect(validate(context)).toBe(true);
    expect(validate({ ...context, nodes: { api: { type: 'servce' } } })).toBe(false);
  });

  it('never overwrites an existing file and says which it kept', async () => {
    repo.write('.service.yaml', 'version: 1\nservice: {name: mine}\n');
    repo.write('.service/service-summary.md', '# my summary\n');
    const io = captureIo();
    expect(await runInit({ dir: '.', json: false }, { cwd: repo.dir, io })).toBe(ExitCode.Ok);
    expect(readFileSync(path.join(repo.dir, '.service.yaml'), 'utf8')).toBe('version: 1\nservice: {name: mine}\n');
    expect(readFileSync(path.join(repo.dir, '.service/service-summary.md'), 'utf8')).toBe('# my summary\n');
    const printed = io.stdout.join('\n');
    expect(printed).toContain('kept     .service.yaml (already exists, not overwritten)');
    expect(printed).toContain('kept     .service/service-summary.md (already exists, not overwritten)');
    expect(printed).toContain('created  .service/diagrams/topology.mmd');

    // A second run keeps everything, byte for byte.
    writeFileSync(path.join(repo.dir, '.service/diagrams/topology.mmd'), 'flowchart TD\n  edited --> by_user\n');
    const again = captureIo();
    expect(await runInit({ dir: '.', json: true }, { cwd: repo.dir, io: again })).toBe(ExitCode.Ok);
    const output = JSON.parse(again.stdout.join('')) as InitJson;
    expect(output.created).toEqual([]);
    expect(output.kept).toEqual(EXPECTED_FILES);
    expect(readFileSync(path.join(repo.dir, '.service/diagrams/topology.mmd'), 'utf8')).toBe('flowchart TD\n  edited --> by_user\n');
  });

  it('refuses an invalid --name with exit 1', async () => {
    const io = captureIo();
    expect(await runInit({ dir: '.', name: 'no spaces allowed', json: false }, { cwd: repo.dir, io })).toBe(ExitCode.Validation);
    expect(io.stderr.join('\n')).toMatch(/Service name: .*not a valid name/);
  });

  it('derives a valid service name from the directory', () => {
    expect(defaultServiceName('/x/My Service')).toBe('my-service');
    expect(defaultServiceName('/x/__')).toBe('my-service');
    expect(defaultServiceName('/x/payments.api')).toBe('payments.api');
  });
});
