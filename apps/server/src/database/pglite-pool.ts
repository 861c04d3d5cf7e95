import { EventEmitter } from 'node:events';

/** The part of a PGlite instance the pool uses. */
export interface PGliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  exec(text: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * A minimal `pg`-compatible module (`{ Pool }`) over one PGlite instance, handed to TypeORM's postgres
 * driver through its `driver` option.
 *
 * Why not typeorm-pglite's driver: it keeps one process-wide PGlite singleton (tests start several apps
 * per process) and lets every TypeORM query runner share the single PGlite connection concurrently, so
 * two requests' transactions would interleave. Here a client is leased exclusively: `connect` waits until
 * the previous lease is released, which serializes transactions exactly like a one-connection pool.
 * Consequence (same as a pool of size 1): inside a transaction use only the transaction's EntityManager,
 * or the query waits for a lease that never comes; the wait fails loudly after LEASE_TIMEOUT_MS.
 */
const LEASE_TIMEOUT_MS = 30_000;

type QueryCallback = (error: Error | null, result?: unknown) => void;
type ConnectCallback = (error: Error | null, client?: PGliteClient, release?: () => void) => void;

export interface PgliteModule {
  Pool: new () => EventEmitter;
  /** LISTEN on the embedded database (CacheChanges): PGlite calls back when a notifying transaction commits. */
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

class PGliteClient extends EventEmitter {
  constructor(
    private readonly db: PGliteLike,
    private readonly releaseLease: () => void = () => undefined,
  ) {
    super();
  }

  query(text: string, params?: unknown[] | QueryCallback, callback?: QueryCallback): Promise<unknown> {
    const cb = typeof params === 'function' ? params : callback;
    const values = Array.isArray(params) ? params : undefined;
    // Multi-statement strings (migrations) need the simple protocol; parameters need the extended one.
    const run = values && values.length > 0 ? this.db.query(text, values) : this.db.exec(text).then((results) => results[results.length - 1] ?? { rows: [], fields: [] });
    return run.then(
      (result) => {
        const normalized = { ...result, rowCount: (result as { affectedRows?: number }).affectedRows ?? result.rows.length };
        cb?.(null, normalized);
        return normalized;
      },
      (error: Error) => {
        cb?.(error);
        if (!cb) throw error;
      },
    );
  }

  /** Ends this client's lease (pg's promise-style API; the callback style passes `release` instead). */
  release(): void {
    this.releaseLease();
  }
}

export function createPgliteModule(db: PGliteLike, onClosed: () => void = () => undefined): PgliteModule {
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  class Pool extends EventEmitter {

    connect(callback?: ConnectCallback): Promise<PGliteClient> | void {
      const previous = queue;
      let release!: () => void;
      const leased = new Promise<void>((resolve) => (release = resolve));
      queue = previous.then(() => leased);
      const acquired = waitForLease(previous).then(() => {
        let released = false;
        const done = () => {
          if (!released) {
            released = true;
            release();
          }
        };
        return { client: new PGliteClient(db, done), done };
      });
      if (!callback) return acquired.then(({ client }) => client);
      acquired.then(
        ({ client, done }) => callback(null, client, done),
        (error: Error) => {
          release();
          callback(error);
        },
      );
    }

    /** Like pg's pool.query: runs one query on a short lease. */
    async query(text: string, params?: unknown[] | QueryCallback, callback?: QueryCallback): Promise<unknown> {
      const client = (await this.connect()) as PGliteClient;
      try {
        return await client.query(text, params, callback);
      } finally {
        client.release();
      }
    }

    end(callback?: (error?: Error | null) => void): Promise<void> {
      const closing = closed ? Promise.resolve() : db.close().finally(onClosed);
      closed = true;
      return closing.then(
        () => callback?.(null),
        (error: Error) => {
          callback?.(error);
          if (!callback) throw error;
        },
      );
    }
  }

  const listen = async (channel: string, callback: (payload: string) => void) => {
    if (!db.listen) throw new Error('This embedded database cannot LISTEN.');
    // On a lease of its own: a LISTEN sent inside another lease's transaction would be undone by its rollback.
    const client = (await new Pool().connect()) as PGliteClient;
    try {
      return await db.listen(channel, callback);
    } finally {
      client.release();
    }
  };
  return { Pool, listen };
}

async function waitForLease(previous: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Waited ${LEASE_TIMEOUT_MS} ms for the embedded database connection; a query is probably running outside its transaction's EntityManager.`)),
      LEASE_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([previous, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
