import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as pg from 'pg';
import { Client, type PoolClient, type PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/** The channel the triggers of migration 1764800000000-cache-change-notifications notify on. */
export const CACHE_CHANGES_CHANNEL = 'sc_cache_changes';
/**
 * The notification payloads: who may do what (sessions, tokens, members, users), services with their revisions, and
 * embed links (migration 1765900000000).
 */
export type CacheTopic = 'access' | 'services' | 'embeds';
/** The listener connection's application_name (pg_stat_activity), so operators and tests can find it. */
export const CACHE_LISTENER_APPLICATION_NAME = 'sc-cache-listener';
/** How often the listener proves its connection alive; a failed or slow round trip counts as a lost connection. */
const HEARTBEAT_INTERVAL_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
const RECONNECT_DELAYS_MS = [250, 1_000, 5_000];
const TOPICS: readonly CacheTopic[] = ['access', 'services', 'embeds'];

/** What the pool of pgWithCacheChanges emits for a change notification that arrived on one of its connections. */
const POOL_CHANGE_EVENT = 'sc-cache-change';

/**
 * A pg Pool whose every connection also LISTENs: the connection that commits a change receives its own notification
 * before the COMMIT's answer, so this instance drops what it cached before the request that made the change answers
 * (the dedicated listener, asynchronous, serves changes of other instances and tells when notifications may be missed).
 */
class ListeningPool extends pg.Pool {
  constructor(config?: PoolConfig) {
    super(config);
    this.on('connect', (client: PoolClient) => {
      client.on('notification', (message) => {
        if (message.channel === CACHE_CHANGES_CHANNEL) this.emit(POOL_CHANGE_EVENT, message.payload ?? '');
      });
      // Queued before the client's first query, so it listens before it is ever used.
      client.query(`LISTEN ${CACHE_CHANGES_CHANNEL}`).catch(() => undefined);
    });
  }
}

/** The `pg` module for TypeORM's `driver` option (data-source-options.ts), with ListeningPool. */
export const pgWithCacheChanges = { ...pg, Pool: ListeningPool };

/** What a PGlite-backed TypeORM driver module offers (pglite-pool.ts). */
interface ListeningDriverModule {
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * Committed changes that in-memory caches must not outlive, delivered by PostgreSQL LISTEN/NOTIFY: database triggers
 * notify in the changing transaction (so only on commit), and every instance listens on a dedicated connection.
 *
 * Fail closed: `live` is true only while the listener is connected and listening; while it is not (start-up, a lost
 * connection, reconnecting) a cache must neither serve nor store. Every change, every loss and every (re)connection
 * moves `generation` on, so an answer read from the database before one of them is never stored afterwards.
 * On PGlite (one process) the same triggers notify through PGlite's own listen, synchronously with the commit.
 */
@Injectable()
export class CacheChanges implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CacheChanges');
  private readonly subscribers: { topic: CacheTopic; subscriber: () => void }[] = [];
  private client: Client | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private unlisten: (() => Promise<void>) | null = null;
  /** Moves on at every notification, every loss of the listener and every (re)connection. */
  generation = 0;
  /** True while notifications are guaranteed to arrive. */
  live = false;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Calls `subscriber` on every change of the topic, and whenever the listener goes down. */
  subscribe(topic: CacheTopic, subscriber: () => void): void {
    this.subscribers.push({ topic, subscriber });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.kind === 'pglite') {
      const driver = (this.dataSource.driver as unknown as { postgres?: ListeningDriverModule }).postgres;
      if (!driver?.listen) return;
      this.unlisten = await driver.listen(CACHE_CHANGES_CHANNEL, (payload) => this.changed(payload));
      this.setLive(true);
      return;
    }
    (this.dataSource.driver as unknown as { master?: NodeJS.EventEmitter }).master?.on(POOL_CHANGE_EVENT, (payload: string) => this.changed(payload));
    // Not awaited: the server starts (with caches bypassed) even while the listener cannot connect yet.
    void this.connect();
  }

  /** Before the database closes (onApplicationShutdown), so the embedded one can still UNLISTEN. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.setLive(false);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeat);
    await this.unlisten?.();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.config.database.kind !== 'postgres') return;
    const client = new Client({
      connectionString: this.config.database.url,
      application_name: CACHE_LISTENER_APPLICATION_NAME,
      keepAlive: true,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      connectionTimeoutMillis: 10_000,
    });
    this.client = client;
    client.on('notification', (message) => this.changed(message.payload ?? ''));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANGES_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    if (this.client !== client) return;
    this.failures = 0;
    this.heartbeat = setInterval(() => void client.query('SELECT 1').catch((error: unknown) => this.lost(client, error)), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
    this.setLive(true);
    this.logger.log('Listening for cache changes: authorization is cached.');
  }

  /** The listener connection failed: caches are bypassed and emptied until a new connection listens again. */
  private lost(client: Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    clearInterval(this.heartbeat);
    this.setLive(false);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures++, RECONNECT_DELAYS_MS.length - 1)];
    this.logger.warn(`The cache change listener lost its connection (${error instanceof Error ? error.message : String(error)}); caches are bypassed until it reconnects (in ${delay} ms).`);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private setLive(live: boolean): void {
    this.generation++;
    this.live = live;
    if (!live) this.notify(() => true);
  }

  private changed(payload: string): void {
    this.generation++;
    // An unknown payload (a newer migration's topic) empties every cache: unknown must never mean "not affected".
    this.notify((topic) => payload === topic || !TOPICS.includes(payload as CacheTopic));
  }

  private notify(affected: (topic: CacheTopic) => boolean): void {
    for (const { topic, subscriber } of this.subscribers) if (affected(topic)) subscriber();
  }
}
