import type { DatabaseView, DiagramView, ErrorBody } from '@sc/contracts';
import { canvasNode, createView, type OverlaidGraph } from '@sc/diagram';
import { bearer, call, seedSyncAndRead, useSeeded, useTestApp } from '../support';
import { bundle, COLD_WORKER_TIMEOUT, postSync, syncFile } from './bundles';
import { generatedTableName, generatePgDump } from './pg-dump-generator';

jest.setTimeout(300_000);

/**
 * Issue 28 §1: a 5 MB `pg_dump --schema-only` was refused by the 1 MiB per-file limit, and node-sql-parser needed
 * seconds per 100 KB. It now syncs (SERVICE_SYNC_MAX_SCHEMA_BYTES, PostgreSQL's own parser) and its tables show on a
 * diagram's db-table node through the read path the dashboard uses (GET …/databases/:name into the canvas model).
 */
describe('a 5 MB PostgreSQL dump', () => {
  // Under Jest the parser thread starts from TypeScript sources; that start-up counts against the timeout.
  const t = useTestApp({ env: { ...COLD_WORKER_TIMEOUT, SERVICE_SQL_PARSE_TIMEOUT: '150s' } });
  const tokens = useSeeded(() => seedSyncAndRead(t));

  it('syncs with the default limits, and its tables show on a db-table node', async () => {
    const dump = generatePgDump(5 * 1024 * 1024);
    expect(Buffer.byteLength(dump.sql)).toBeGreaterThan(5 * 1024 * 1024);
    expect(dump.tables).toBeGreaterThan(1234);
    const shown = generatedTableName(1234).slice('public.'.length);
    const context = JSON.stringify({ nodes: { db: { type: 'db-table', dbConfig: { serviceName: 'orders', databaseName: 'main', tableName: shown } } } });
    const artifacts = [
      { kind: 'database-schema' as const, name: 'main', engine: 'postgres' as const, file: syncFile('schema/main.sql', dump.sql) },
      { kind: 'architecture-diagram' as const, name: 'topology', file: syncFile('d/topology.mmd', 'flowchart LR\n  api[Orders API] --> db[(Orders DB)]\n'), context: syncFile('d/topology.context.json', context) },
    ];
    const synced = await postSync<ErrorBody>(t.baseUrl, tokens.syncToken, bundle(artifacts));
    expect([synced.status, synced.status === 201 ? '' : JSON.stringify(synced.body).slice(0, 500)]).toEqual([201, '']);

    const database = await call<DatabaseView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/databases/main', { headers: bearer(tokens.readToken) });
    expect(database.status).toBe(200);
    expect(database.body.tables).toHaveLength(dump.tables);
    const diagram = await call<DiagramView<OverlaidGraph>>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/diagrams/topology', { headers: bearer(tokens.readToken) });
    expect(diagram.status).toBe(200);
    const dbNode = diagram.body.graph.nodes.find((node) => node.id === 'db');
    if (!dbNode) throw new Error('the diagram has no db node');
    const databases = new Map([['main', { tables: database.body.tables, collections: database.body.collections }]]);
    const drawn = canvasNode(dbNode, diagram.body.kind, { view: createView(diagram.body.graph), databases });
    expect(drawn.body.database).toEqual({
      name: 'main',
      table: shown,
      tables: database.body.tables.map((table) => table.name),
      columns: [
        { name: 'id', type: 'bigint', nullable: false, primaryKey: true, unique: false, default: `nextval(CAST('${generatedTableName(1234)}_id_seq' AS regclass))`, references: null },
        { name: 'name', type: 'varchar(200)', nullable: false, primaryKey: false, unique: false, default: "'unnamed'::varchar", references: null },
        { name: 'amount', type: 'numeric(12, 2)', nullable: true, primaryKey: false, unique: false, default: null, references: null },
        { name: 'tags', type: 'text[]', nullable: true, primaryKey: false, unique: false, default: "CAST('{}' AS text[])", references: null },
        { name: 'created_at', type: 'timestamp with time zone', nullable: false, primaryKey: false, unique: false, default: 'now()', references: null },
        { name: 'parent_id', type: 'bigint', nullable: true, primaryKey: false, unique: false, default: null, references: `${generatedTableName(1233)}.id` },
      ],
    });
  });
});
