import { createHash } from 'node:crypto';
import type { DiagramSource, DiagramView, SyncResult } from '@sc/contracts';
import { exportToMermaid, type GraphModel } from '@sc/diagram';
import { bearer, call, createToken, expectErrors, setupOrganization, useTestApp } from '../support';
import { COLD_WORKER_TIMEOUT, bundle, postSync, syncFile } from './bundles';

/**
 * Export To Mermaid of a synced diagram reads the files exactly as synced (issue 14 §1): a C4 diagram and a
 * sequence diagram both lose information when regenerated from their graph, so their export must be the stored
 * bytes, context file included, in whatever formatting the author wrote it.
 */
const C4 = `C4Container
    title Container diagram for Internet Banking System
    %% a comment the graph does not keep

    Person(customer, Customer, "A customer of the bank", $tags="v1.0")
    Container_Boundary(c1, "Internet Banking") {
        Container(spa, "Single-Page App", "JavaScript, Angular", "Provides the banking functionality")
        ContainerDb(database, "Database", "SQL Database", "Stores user registration information")
        ContainerQueue(events, "Events", "Kafka")
    }
    System_Ext(banking_system, "Mainframe Banking System", "Stores the core banking information")

    Rel(customer, spa, "Uses", "HTTPS")
    Rel_Back(database, spa, "Reads from and writes to", "sync, JDBC")
    Rel(spa, events, "Publishes")
    UpdateRelStyle(customer, spa, $offsetY="-40")
`;

/** CRLF, tabs, odd key order and non-ASCII text: a regenerated context would normalise all of them. */
const C4_CONTEXT = '{\r\n\t"nodes": {\r\n\t\t"database": { "type": "shape", "shape": "cylinder", "name": "Kundendatenbank — primär" }\r\n\t},\r\n\t"name": "Banking ✓"\r\n}\r\n';

const SEQUENCE = `sequenceDiagram
    autonumber
    participant web as Web shop
    participant api as Orders API
    web->>+api: POST /orders
    alt paid
        api-->>web: 201 Created
    else declined
        api-->>web: 402 Payment Required
    end
    Note over web,api: idempotent by order key
    api-->>-web: done
`;
const SEQUENCE_CONTEXT = '{"name":"Checkout","nodes":{"api":{"type":"shape","shape":"rounded-rect"}}}';

describe('diagram source read API (Export To Mermaid of a synced diagram)', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  let readToken: string;
  const read = <T>(path: string) => call<T>(t.baseUrl, 'GET', `/api/v1/orgs/acme/services/banking${path}`, { headers: bearer(readToken) });

  beforeAll(async () => {
    const acme = await setupOrganization(t, { orgId: 'acme' });
    const syncToken = (await createToken(t, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    const synced = await postSync<SyncResult>(
      t.baseUrl,
      syncToken,
      bundle(
        [
          { kind: 'architecture-diagram', name: 'containers', file: syncFile('.service/diagrams/containers.mmd', C4), context: syncFile('.service/diagrams/containers.context.json', C4_CONTEXT) },
          { kind: 'architecture-diagram', name: 'checkout', file: syncFile('.service/diagrams/checkout.mmd', SEQUENCE), context: syncFile('.service/diagrams/checkout.context.json', SEQUENCE_CONTEXT) },
          { kind: 'architecture-diagram', name: 'bare', file: syncFile('diagrams/bare.mmd', 'flowchart LR\n  a --> b\n') },
        ],
        'banking',
      ),
    );
    if (synced.status !== 201) throw new Error(`The sync was refused: ${JSON.stringify(synced.body)}`);
  });

  const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

  it.each([
    ['containers', C4, C4_CONTEXT, 'c4'],
    ['checkout', SEQUENCE, SEQUENCE_CONTEXT, 'sequence'],
  ])('serves %s byte-identical to what was synced, although regenerating it from the graph loses information', async (name, mermaid, context, kind) => {
    const source = await read<DiagramSource>(`/diagrams/${name}/source`);
    expect(source.status).toBe(200);
    expect(source.body).toMatchObject({ name, kind, revision: 1, exact: true });
    expect(Buffer.from(source.body.mermaid.content, 'utf8').equals(Buffer.from(mermaid, 'utf8'))).toBe(true);
    expect(Buffer.from(source.body.context?.content ?? '', 'utf8').equals(Buffer.from(context, 'utf8'))).toBe(true);
    expect(source.body.mermaid).toMatchObject({ path: `.service/diagrams/${name}.mmd`, fileName: `${name}.mmd`, sha256: sha256(mermaid) });
    expect(source.body.context).toMatchObject({ path: `.service/diagrams/${name}.context.json`, fileName: `${name}.context.json`, sha256: sha256(context) });

    // Why the export must not regenerate: the graph alone does not carry what the author wrote.
    const view = (await read<DiagramView<GraphModel>>(`/diagrams/${name}`)).body;
    const regenerated = exportToMermaid(view.graph);
    expect(regenerated.mermaid).not.toBe(mermaid);
    expect(`${JSON.stringify(regenerated.context, null, 2)}\n`).not.toBe(context);
  });

  it('answers context null for a diagram synced without one, and reads earlier revisions', async () => {
    const bare = await read<DiagramSource>('/diagrams/bare/source?revision=1');
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ kind: 'flowchart', revision: 1, context: null, mermaid: { fileName: 'bare.mmd', content: 'flowchart LR\n  a --> b\n' } });
  });

  it('answers clear errors for unknown diagrams and revisions', async () => {
    await expectErrors(read, [
      ['/diagrams/nope/source', 404, 'artifact_not_found'],
      ['/diagrams/checkout/source?revision=7', 404, 'revision_not_found'],
      ['/diagrams/checkout/source?revision=x', 400, 'invalid_revision'],
    ]);
  });
});
