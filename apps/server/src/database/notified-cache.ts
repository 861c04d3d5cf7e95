import { LRUCache } from 'lru-cache';
import { CacheChanges, type CacheTopic } from './cache-changes';

/**
 * A bounded in-memory cache (lru-cache: at most `max` entries, each at most `ttlMs` old) of database answers that is
 * emptied whenever a committed change of its topic is notified (CacheChanges), on every instance. Fail closed: while
 * the change listener is not connected nothing is served or stored. `max` 0 turns it off.
 *
 * To store an answer read from the database, take a `ticket()` before reading: `set` drops the answer when a change
 * (or a loss of the listener) came in since, because the read may have seen the state before that change.
 */
export class NotifiedCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V> | null;

  constructor(
    private readonly changes: CacheChanges,
    topic: CacheTopic,
    { max, ttlMs }: { max: number; ttlMs: number },
  ) {
    this.entries = max > 0 ? new LRUCache<string, V>({ max, ttl: ttlMs }) : null;
    // A whole flush: changes are rare next to reads, and it cannot miss an entry that depends on the changed row.
    changes.subscribe(topic, () => this.entries?.clear());
  }

  /** True when answers may come from the cache right now (on, and the change listener connected). */
  get usable(): boolean {
    return this.entries !== null && this.changes.live;
  }

  get(key: string): V | undefined {
    return this.usable ? this.entries?.get(key) : undefined;
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  ticket(): number {
    return this.changes.generation;
  }

  set(key: string, ticket: number, value: V): void {
    if (this.usable && this.changes.generation === ticket) this.entries?.set(key, value);
  }

  /** The cached value, else `load()`'s (kept unless null). */
  async through(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const ticket = this.ticket();
    const loaded = await load();
    if (loaded !== null) this.set(key, ticket, loaded);
    return loaded;
  }
}
