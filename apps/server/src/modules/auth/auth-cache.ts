import { Clock } from '../../common/clock';
import { Env, EnvReader } from '../../config/env';
import { CacheChanges } from '../../database/cache-changes';
import { NotifiedCache } from '../../database/notified-cache';
import type { SessionPrincipal, TokenPrincipal } from '../access/principal';
import { MetricsService } from '../metrics/metrics.service';

const DEFAULT_ENTRIES = 10_000;
/** The longest an entry is used, even with no notification at all: a second guard, not the invalidation itself. */
export const AUTH_CACHE_MAX_LIFETIME_MS = 30_000;

/** A principal as cached: everything but the request's own client address. */
export type CachedPrincipal = Readonly<Omit<SessionPrincipal, 'clientAddress'>> | Readonly<Omit<TokenPrincipal, 'clientAddress'>>;

interface Entry {
  principal: CachedPrincipal;
  /** Clock time (ms) from which the entry is not used: the session's or token's own expiry, or the next write of its use. */
  usableUntil: number;
}

/** Where a cache lookup is in flight: the change generation when the database lookup started. */
export type CacheTicket = number;

/**
 * Who a session cookie or API token (by the SHA-256 of its raw value, never the value) is, with their role: what the
 * AuthGuard otherwise reads from the database on every request (session or token, user, membership).
 *
 * As strict as those reads: every committed change that could narrow access (sign-out, a revoked token, a member
 * removed, disabled or demoted, a user disabled, an organization deleted, ...) notifies every instance through
 * PostgreSQL (CacheChanges) and empties the cache there. Fail closed: while the change listener is not connected
 * nothing is served from or stored in the cache. An entry is also never used past its session's or token's expiry
 * (checked against the clock on each hit) nor past AUTH_CACHE_MAX_LIFETIME_MS. Bounded by entry count (lru-cache).
 */
export class AuthCache {
  private readonly entries: NotifiedCache<Entry>;

  constructor(
    maxEntries: number,
    changes: CacheChanges,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
  ) {
    // The maximum lifetime counts real time (lru-cache's ttl), the expiries the Clock's time.
    this.entries = new NotifiedCache<Entry>(changes, 'access', { max: maxEntries, ttlMs: AUTH_CACHE_MAX_LIFETIME_MS });
    metrics.registerCacheListener(() => changes.live);
  }

  /** SERVICE_AUTH_CACHE_SIZE: the most sessions and tokens kept (10000; 0 turns the cache off). */
  static fromEnv(env: Env, changes: CacheChanges, clock: Clock, metrics: MetricsService): AuthCache {
    const read = new EnvReader(env);
    const maxEntries = read.integer('SERVICE_AUTH_CACHE_SIZE', DEFAULT_ENTRIES, { min: 0, max: 10_000_000 });
    read.assertValid();
    return new AuthCache(maxEntries, changes, clock, metrics);
  }

  /** True when answers may come from the cache right now (on, and the change listener connected). */
  get usable(): boolean {
    return this.entries.usable;
  }

  /** Counts a lookup the guard answered without the cache. */
  bypassed(): void {
    this.metrics.authCacheLookup.bypassed.inc();
  }

  get(key: string): CachedPrincipal | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.usableUntil > this.clock.now().getTime()) {
      this.metrics.authCacheLookup.hit.inc();
      return entry.principal;
    }
    if (entry) this.entries.delete(key);
    this.metrics.authCacheLookup.miss.inc();
    return undefined;
  }

  /** Take before reading the database; `set` stores only when no change arrived (and the listener stayed up) since. */
  ticket(): CacheTicket {
    return this.entries.ticket();
  }

  set(key: string, ticket: CacheTicket, principal: CachedPrincipal, usableUntil: number): void {
    this.entries.set(key, ticket, { principal, usableUntil });
  }
}
