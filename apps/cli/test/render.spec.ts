import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ExitCode } from '../src/lib/exit-codes';
import type { RenderJson } from '../src/lib/output-types';
import { runRender, type RenderOptions } from '../src/lib/run-render';
import { captureIo } from './support/capture-io';
import { useTempRepo } from './support/temp-repo';

const SAMPLE = path.join(__dirname, 'fixtures/sample-repo');
const SCHEMA_DIR = path.join(__dirname, '../../../docs/schema');
const schema = (name: string): object => JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, schemas: [schema('cli-output-common'), schema('cli-render-output')] }).getSchema('cli-render-output.schema.json');

describe('service-cli render', () => {
  const repo = useTempRepo();
  const render = async (options: Partial<RenderOptions> & { output: string }, cwd = SAMPLE) => {
    const io = captureIo();
    const exitCode = await runRender({ file: '.service/diagrams/topology.mmd', databases: ['ledger', 'idempotency'], scale: 2, json: true, ...options, output: path.join(repo.dir, options.output) }, { cwd, io });
    const json = JSON.parse(io.stdout.join('')) as RenderJson;
    expect(validate?.(json) ? [] : validate?.errors).toEqual([]);
    return { exitCode, json };
  };

  it('writes the diagram with its context as a standalone SVG holding every node', async () => {
    const { exitCode, json } = await render({ context: '.service/diagrams/topology.context.json', output: 'topology.svg' });
    expect([exitCode, json.ok, json.output?.format]).toEqual([ExitCode.Ok, true, 'svg']);
    const svg = readFileSync(path.join(repo.dir, 'topology.svg'), 'utf8');
    for (const id of ['merchant', 'gateway', 'api', 'ledgerDb', 'heading']) expect(svg).toContain(`data-node-id="${id}"`);
    expect(svg).toContain('Payments API');
    expect(svg).not.toMatch(/<script|href="(?!#)/);
    expect(svg).toMatch(new RegExp(`^<svg[^>]* width="${json.output?.width}" height="${json.output?.height}"`));
  }, 60_000);

  it('writes a PNG at --scale from the same SVG', async () => {
    const svg = await render({ file: '.service/diagrams/system-context.mmd', output: 'c4.svg' });
    const { exitCode, json } = await render({ file: '.service/diagrams/system-context.mmd', output: 'c4.png', scale: 3 });
    expect([exitCode, json.output?.format, json.output?.scale]).toEqual([ExitCode.Ok, 'png', 3]);
    const png = readFileSync(path.join(repo.dir, 'c4.png'));
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([(svg.json.output?.width ?? 0) * 3, (svg.json.output?.height ?? 0) * 3]);
  }, 60_000);

  it('writes a sequence diagram with its participants and messages in order', async () => {
    const { exitCode, json } = await render({ file: '.service/diagrams/checkout-sequence.mmd', output: 'seq.svg' });
    expect([exitCode, json.ok]).toEqual([ExitCode.Ok, true]);
    const svg = readFileSync(path.join(repo.dir, 'seq.svg'), 'utf8');
    const at = ['Pay', 'authorize(card, amount)', 'Confirmation'].map((message) => svg.indexOf(`>${message}<`));
    expect(at.every((position) => position > 0) && at[0] < at[1] && at[1] < at[2]).toBe(true);
    // Its note and its activation (`->>+` … `-->>-`), as the server's image draws them.
    expect(svg).toContain('>A timeout retries with the same key<');
    expect(svg.match(/data-activation/g)?.length).toBe(1);
  }, 60_000);

  it('draws --theme dark as the server does for ?theme=dark', async () => {
    const { exitCode } = await render({ output: 'dark.svg', theme: 'dark' });
    expect(exitCode).toBe(ExitCode.Ok);
    expect(readFileSync(path.join(repo.dir, 'dark.svg'), 'utf8')).toContain('fill="#0d1117"');
  }, 60_000);

  it('writes nothing for an invalid diagram or another extension', async () => {
    repo.write('bad.mmd', 'flowchart LR\n  a -->\n');
    const invalid = await render({ file: 'bad.mmd', output: 'bad.svg' }, repo.dir);
    expect([invalid.exitCode, invalid.json.ok, invalid.json.output, invalid.json.problems.length > 0]).toEqual([ExitCode.Validation, false, undefined, true]);
    const other = await render({ output: 'out.jpg' });
    expect([other.exitCode, (other.json as unknown as { error: { code: string } }).error.code]).toEqual([ExitCode.Validation, 'render_output_format']);
  }, 60_000);
});
