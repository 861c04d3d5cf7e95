import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ARTIFACT_KINDS } from '@sc/contracts';
import { runInit } from '../src/lib/run-init';
import { runInspect } from '../src/lib/run-inspect';
import { runSync, type SyncOptions } from '../src/lib/run-sync';
import { captureIo } from './support/capture-io';
import { CLI_VERSION, startGatewayServer, syncResult, type GatewayServer, type Responder } from './support/gateway-server';
import { createTempRepo, MINIMAL_REPO, type TempRepo } from './support/temp-repo';

/**
 * The published JSON Schemas of the `--json` outputs (docs/schema/cli-*-output.schema.json) against what the
 * commands really print, success and failure alike. The schemas forbid unknown properties, so a field added to an
 * output without its schema fails here.
 */
const SCHEMA_DIR = path.join(__dirname, '../../../docs/schema');
const SAMPLE = path.join(__dirname, 'fixtures/sample-repo');
const TOKEN = 'sc_sync_schema_test_0123456789abcdef';

const schema = (name: string): { $id: string } => JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as { $id: string };
const ajv = new Ajv({ allErrors: true, strict: true, schemas: ['cli-output-common', 'cli-sync-output', 'cli-inspect-output', 'cli-init-output'].map(schema) });
const validator = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`${name}.schema.json`);
  if (!validate) throw new Error(`docs/schema/${name}.schema.json did not compile.`);
  return validate;
};

function expectValid(validate: ValidateFunction, document: unknown): void {
  const valid = validate(document);
  // The errors say which property the schema and the output disagree on.
  expect(valid ? [] : validate.errors).toEqual([]);
}

describe('JSON Schemas of the --json outputs', () => {
  let repo: TempRepo;
  let gateway: GatewayServer | undefined;
  beforeEach(() => (repo = createTempRepo(MINIMAL_REPO)));
  afterEach(async () => {
    repo.cleanup();
    await gateway?.close();
    gateway = undefined;
  });

  async function syncJson(options: Partial<SyncOptions>, env: Record<string, string>, cwd = repo.dir): Promise<unknown> {
    const io = captureIo();
    await runSync({ dryRun: false, enterprise: false, json: true, retries: 0, timeoutMs: 10_000, ...options }, { cwd, env, io, userAgent: 'service-cli/test', cliVersion: CLI_VERSION });
    return JSON.parse(io.stdout.join(''));
  }

  describe('sync', () => {
    const validate = validator('cli-sync-output');

    it('describes a valid and an invalid dry run of every artifact kind', async () => {
      expectValid(validate, await syncJson({ dryRun: true }, {}, SAMPLE));
      repo.write('.service/flows/invoice.mmd', 'flowchart LR\n  a[A --> b\n');
      repo.write('.service.yaml', `${MINIMAL_REPO['.service.yaml']}colour: blue\n`);
      const invalid = await syncJson({ dryRun: true }, { SERVICE_GATEWAY_URL: 'https://context.example.com' });
      expect(invalid).toMatchObject({ ok: false, exitCode: 1 });
      expectValid(validate, invalid);
    });

    it('describes a done sync, an unchanged one and an error', async () => {
      const check: Responder = (request) => {
        const { service } = JSON.parse(request.body) as { service: string };
        return { status: 200, body: { organizationId: 'acme', service, revision: 4, current: true, serviceUrl: 'https://context.example.com/orgs/acme/services/billing' } };
      };
      gateway = await startGatewayServer(() => ({ status: 201, body: syncResult() }));
      const env = { SERVICE_TOKEN: TOKEN, SERVICE_GATEWAY_URL: gateway.url };
      const done = await syncJson({}, env);
      expect(done).toMatchObject({ ok: true, result: { status: 'created' } });
      expectValid(validate, done);
      await gateway.close();

      gateway = await startGatewayServer(() => ({ status: 500 }), check);
      const unchanged = await syncJson({}, { ...env, SERVICE_GATEWAY_URL: gateway.url });
      expect(unchanged).toMatchObject({ ok: true, result: { status: 'unchanged' } });
      expectValid(validate, unchanged);

      // --preview: the result carries the preview.
      await gateway.close();
      const previewed = { id: '0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a', label: 'feature/cache', url: 'https://context.example.com/orgs/acme/services/billing/previews/0b8f3c1e-4a52-4d0e-9a47-6f1d2e3c4b5a', expiresAt: '2026-12-11T10:00:00.000Z' };
      gateway = await startGatewayServer(() => ({ status: 201, body: syncResult({ status: 'unchanged', preview: previewed }) }));
      const preview = await syncJson({ preview: true, label: 'feature/cache' }, { ...env, SERVICE_GATEWAY_URL: gateway.url });
      expect(preview).toMatchObject({ ok: true, result: { preview: previewed } });
      expectValid(validate, preview);
      expect(validate({ ...(preview as Record<string, unknown>), result: { ...(preview as { result: object }).result, preview: { ...previewed, extra: 1 } } })).toBe(false);

      const refused = await syncJson({}, { SERVICE_GATEWAY_URL: gateway.url });
      expect(refused).toMatchObject({ ok: false, exitCode: 2, error: { code: 'token_missing' } });
      expectValid(validate, refused);
    });

    it('refuses an output with a property it does not describe, and lists the contracts’ artifact kinds', async () => {
      const output = (await syncJson({ dryRun: true }, {})) as Record<string, unknown>;
      expect(validate({ ...output, extra: true })).toBe(false);
      const definitions = (schema('cli-sync-output') as unknown as { definitions: { artifactKind: { enum: string[] } } }).definitions;
      expect(definitions.artifactKind.enum).toEqual([...ARTIFACT_KINDS]);
    });
  });

  describe('inspect', () => {
    const validate = validator('cli-inspect-output');
    const inspectJson = async (file: string, context?: string, cwd = SAMPLE): Promise<unknown> => {
      const io = captureIo();
      await runInspect({ file, context, databases: ['ledger', 'idempotency'], json: true }, { cwd, io });
      return JSON.parse(io.stdout.join(''));
    };

    it('describes graphs of every diagram kind with their context reports, and errors', async () => {
      for (const [file, context] of [
        ['.service/diagrams/topology.mmd', '.service/diagrams/topology.context.json'],
        ['.service/diagrams/payment-lifecycle.mmd', '.service/diagrams/payment-lifecycle.context.json'],
        ['.service/diagrams/checkout-sequence.mmd', undefined],
        ['.service/diagrams/system-context.mmd', '.service/diagrams/system-context.context.json'],
      ] as const) {
        const output = await inspectJson(file, context);
        expect(output).toMatchObject({ file, kind: expect.any(String), nodes: expect.any(Array) });
        expectValid(validate, output);
      }
      repo.write('d.mmd', 'flowchart LR\n  api --> db\n');
      repo.write('d.json', '{ "nodes": { "Api": { "type": "shape" }, "db": { "type": "db-table", "dbConfig": { "serviceName": "x" } } } }');
      const invalid = await inspectJson('d.mmd', 'd.json', repo.dir);
      expect(invalid).toMatchObject({ ok: false, exitCode: 1 });
      expectValid(validate, invalid);
      const missing = await inspectJson('missing.mmd', undefined, repo.dir);
      expect(missing).toMatchObject({ ok: false, exitCode: 2, error: { code: 'file_not_found' } });
      expectValid(validate, missing);
    });
  });

  describe('init', () => {
    const validate = validator('cli-init-output');

    it('describes what init created and kept, and its errors', async () => {
      const io = captureIo();
      await runInit({ dir: 'billing', json: true }, { cwd: repo.dir, io });
      expectValid(validate, JSON.parse(io.stdout.join('')));
      const failed = captureIo();
      await runInit({ dir: 'x', name: 'not a name!', json: true }, { cwd: repo.dir, io: failed });
      const error = JSON.parse(failed.stdout.join('')) as unknown;
      expect(error).toMatchObject({ ok: false, exitCode: 1, error: { code: 'invalid_name' } });
      expectValid(validate, error);
    });
  });
});
