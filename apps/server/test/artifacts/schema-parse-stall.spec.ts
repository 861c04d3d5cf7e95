import type { DatabaseView } from '@sc/contracts';
import { gzipSync } from 'node:zlib';
import { parseSqlSchema } from '@sc/diagram/node';
import { bearer, call, seedSyncAndRead, useSeeded, useTestApp } from '../support';
import { bundle, syncFile } from './bundles';

jest.setTimeout(180_000);

/**
 * Issue 9 §3: a sync with a ~1 MB SQL schema spent 8.6 s in node-sql-parser on the request thread, and
 * /api/v1/health answered 3 times in that window. The parse now runs in worker threads, so the event loop keeps
 * answering while it runs. (The old code fails this test: health went silent for the whole validation.)
 */
const TABLES = 19_000;

describe('a large SQL schema does not stall the server', () => {
  // Under Jest the parser thread starts from TypeScript sources; that start-up counts against the timeout.
  const t = useTestApp({ env: { SERVICE_SQL_PARSE_TIMEOUT: '150s' } });
  const tokens = useSeeded(() => seedSyncAndRead(t));

  it('keeps answering /api/v1/health while a ~1 MB schema is parsed, and stores exactly what the parser returns', async () => {
    const schema = Array.from({ length: TABLES }, (_, i) => `CREATE TABLE t${i} (id int primary key, name text);`).join('\n');
    expect(Buffer.byteLength(schema)).toBeGreaterThan(950_000);
    const artifact = { kind: 'database-schema' as const, name: 'main', engine: 'postgres' as const, file: syncFile('schema/main.sql', schema) };

    let syncing = true;
    const answeredAt: number[] = [];
    const poll = (async () => {
      while (syncing) {
        // A stalled server also resets polls (a keep-alive socket times out the moment the loop wakes): no answer.
        const response = await fetch(`${t.baseUrl}/api/v1/health`).catch(() => undefined);
        await response?.arrayBuffer();
        if (response?.status === 200) answeredAt.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const synced = await fetch(`${t.baseUrl}/api/v1/gateway/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${tokens.syncToken}` },
      body: new Uint8Array(gzipSync(JSON.stringify(bundle([artifact])))),
    });
    const finished = Date.now();
    await synced.arrayBuffer();
    syncing = false;
    await poll;
    expect(synced.status).toBe(201);

    // The validation phase parses the schema (Server-Timing: validate;dur=…, store;dur=…, then the answer). On the
    // request thread health is silent for nearly all of it; off it, only for moments. Storing the result is a
    // separate phase (on embedded PGlite it runs in this process too) and is not what this test is about.
    const timing = /validate;dur=([\d.]+), store;dur=([\d.]+)/.exec(synced.headers.get('server-timing') ?? '');
    if (!timing) throw new Error('Server-Timing header missing');
    const validateMs = Number(timing[1]);
    const validateEnd = finished - Number(timing[2]);
    const validateStart = validateEnd - validateMs;
    const instants = [validateStart, ...answeredAt.filter((at) => at > validateStart && at < validateEnd), validateEnd];
    const longestGap = Math.max(...instants.slice(1).map((at, i) => at - instants[i]));
    expect({ longestGap, validateMs, responsive: longestGap < validateMs / 3 }).toEqual({ longestGap, validateMs, responsive: true });

    const database = await call<DatabaseView>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/orders/databases/main', { headers: bearer(tokens.readToken) });
    expect(database.status).toBe(200);
    // The worker thread's result is exactly the in-process one.
    const inProcess = await parseSqlSchema(schema, 'postgres');
    expect(inProcess.ok && database.body.tables).toEqual(inProcess.ok && inProcess.tables);
    expect(database.body.tables).toHaveLength(TABLES);
    expect(database.body.tables[TABLES - 1]).toEqual({
      name: `t${TABLES - 1}`,
      primaryKey: ['id'],
      columns: [
        { name: 'id', type: 'int', nullable: false, primaryKey: true, unique: false, default: null, references: null },
        { name: 'name', type: 'text', nullable: true, primaryKey: false, unique: false, default: null, references: null },
      ],
    });
  });
});
