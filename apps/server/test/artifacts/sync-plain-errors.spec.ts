import type { ErrorBody, SyncProblemDetail, SyncResult } from '@sc/contracts';
import { createToken, setupOrganization, useTestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, sampleArtifacts, syncFile } from './bundles';

/**
 * What the gateway answers about a Mermaid mistake (the sentence, the line with its caret, the parser's own report
 * apart) and strict syncs, over HTTP on a real database.
 */
describe('sync answers in plain words, and strict syncs', () => {
  const t = useTestApp({ env: { ...COLD_WORKER_TIMEOUT } });
  let syncToken: string;

  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  });

  const details = (body: ErrorBody) => body.error.details as unknown as SyncProblemDetail[];

  it('says what is wrong in a Mermaid file with line, column and a caret, and still checks its context', async () => {
    const artifacts = sampleArtifacts().map((artifact) =>
      artifact.name === 'topology'
        ? { ...artifact, file: syncFile(artifact.file.path, 'flowchart LR\n  web --> api\n  api --> db[(Orders\n'), context: syncFile('.service/diagrams/topology.context.json', '{ "nodes": { "api": { "type": "blob" } } }') }
        : artifact,
    );
    const refused = await postSync<ErrorBody>(t.baseUrl, syncToken, bundle(artifacts, 'words'));
    expect(refused.status).toBe(422);
    const [mermaid, context] = details(refused.body);
    expect(mermaid).toEqual({
      code: 'mermaid_syntax_error',
      message: 'line 3, column 13: the node label opened with `[(` is not closed (expected `)]`).',
      artifact: { kind: 'architecture-diagram', name: 'topology' },
      file: '.service/diagrams/topology.mmd',
      line: 3,
      column: 13,
      excerpt: '3 |   api --> db[(Orders\n  |             ^',
      detail: expect.stringMatching(/^Mermaid's parser at line 3, column \d+: found end of file, expected one of /),
    });
    expect(JSON.stringify(refused.body).match(/CYLINDEREND/g)).toHaveLength(1);
    expect(context).toMatchObject({ code: 'context_invalid_value', file: '.service/diagrams/topology.context.json', path: '$.nodes.api.type' });
  });

  it('refuses the warnings of a strict bundle (a mistyped node id) and accepts the same bundle when not strict', async () => {
    const mistyped = sampleArtifacts().map((artifact) =>
      artifact.name === 'topology' ? { ...artifact, context: syncFile('.service/diagrams/topology.context.json', '{ "nodes": { "API": { "name": "Orders API" } } }') } : artifact,
    );
    const strict = await postSync<ErrorBody>(t.baseUrl, syncToken, { ...bundle(mistyped, 'strict-one'), strict: true });
    expect(strict.status).toBe(422);
    expect(strict.body.error.message).toBe('The sync was refused and nothing was stored: 1 problem(s) in 1 artifact(s) (strict: warnings count).');
    expect(details(strict.body)).toEqual([
      expect.objectContaining({ code: 'context_unmatched_key', file: '.service/diagrams/topology.context.json', path: '$.nodes.API', message: expect.stringContaining('api') }),
    ]);
    const lenient = await postSync<SyncResult>(t.baseUrl, syncToken, bundle(mistyped, 'strict-one'));
    expect(lenient.status).toBe(201);
  });

  it('refuses a strict that is not a boolean as a malformed bundle', async () => {
    const malformed = await postSync<ErrorBody>(t.baseUrl, syncToken, { ...bundle(sampleArtifacts(), 'strict-two'), strict: 'yes' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toEqual([expect.objectContaining({ path: '$.strict' })]);
  });
});
