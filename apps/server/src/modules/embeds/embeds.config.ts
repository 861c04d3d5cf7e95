import { Env, EnvReader } from '../../config/env';

/** The public embed routes' rate limit and the resolved-link cache, read once at boot. */
export class EmbedsConfig {
  constructor(
    /** Requests per client address per window on the public /embed routes (the `embed` throttler). */
    readonly rateLimit: { limit: number; windowMs: number },
    /** Resolved links kept per instance (0 turns the cache off). */
    readonly cacheEntries: number,
  ) {}

  /** SERVICE_EMBED_RATE_LIMIT (600) per SERVICE_EMBED_RATE_WINDOW (1m), SERVICE_EMBED_CACHE_SIZE (10000). */
  static fromEnv(env: Env): EmbedsConfig {
    const read = new EnvReader(env);
    const limit = read.integer('SERVICE_EMBED_RATE_LIMIT', 600, { min: 1 });
    const windowMs = read.durationMs('SERVICE_EMBED_RATE_WINDOW', 60_000);
    const cacheEntries = read.integer('SERVICE_EMBED_CACHE_SIZE', 10_000, { min: 0, max: 10_000_000 });
    read.assertValid();
    return new EmbedsConfig({ limit, windowMs }, cacheEntries);
  }
}
