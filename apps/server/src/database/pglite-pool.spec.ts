import { temporaryPgliteCopy } from '../../test/support/database-template';
import { openPglite } from './pglite';
import { createPgliteModule } from './pglite-pool';

type Client = { query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number }>; release(): void };
type Pool = { connect(): Promise<Client>; connect(cb: (error: Error | null, client?: Client, release?: () => void) => void): void; end(): Promise<void> };

describe('PGlite pool', () => {
  let pool: Pool;
  let copy: ReturnType<typeof temporaryPgliteCopy>;
  beforeAll(async () => {
    // A copy of the run's template database (test/unit-global-setup.cjs) when there is one: PGlite starts on existing
    // files without its initdb, which costs seconds of CPU; what the database holds does not matter to the pool.
    copy = temporaryPgliteCopy('sc-pool-');
    const { db, release } = await openPglite(copy.dataDir);
    const { Pool } = createPgliteModule(db, release);
    pool = new Pool() as unknown as Pool;
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    copy?.remove();
  });

  it('answers pg-style results with rowCount for writes', async () => {
    const client = await pool.connect();
    await client.query('CREATE TABLE t (n int)');
    const insert = await client.query('INSERT INTO t VALUES ($1), ($2)', [1, 2]);
    expect(insert.rowCount).toBe(2);
    const select = await client.query('SELECT sum(n)::int AS total FROM t WHERE n > $1', [0]);
    expect(select.rows).toEqual([{ total: 3 }]);
    client.release();
  });

  it('leases the connection exclusively until it is released, so transactions cannot interleave', async () => {
    const order: string[] = [];
    const first = await new Promise<{ client: Client; release: () => void }>((resolve, reject) =>
      pool.connect((error, client, release) => (error || !client || !release ? reject(error) : resolve({ client, release }))),
    );
    await first.client.query('BEGIN');
    const second = new Promise<void>((resolve, reject) =>
      pool.connect((error, _client, release) => {
        if (error || !release) return reject(error);
        order.push('second acquired');
        release();
        resolve();
      }),
    );
    // Event-loop turns, not wall-clock time: a pool that let the second caller in would have done it by now (its
    // queue is promise-based), however busy the machine is.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    order.push('first still holding');
    await first.client.query('COMMIT');
    first.release();
    await second;
    expect(order).toEqual(['first still holding', 'second acquired']);
  });
});
