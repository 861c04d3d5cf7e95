import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Env, EnvReader } from '../../config/env';

/** A read answer serialized once: its JSON text and a strong ETag (a hash of exactly those bytes). */
export interface SerializedAnswer {
  etag: string;
  body: string;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Serialized answers of artifact reads, bounded by their size (lru-cache, least recently used out first). The key
 * names an immutable artifact version and the revision it is read in, so an entry never goes stale and needs no
 * invalidation across instances; each instance fills its own. Only what the caller may read is ever looked up:
 * the organization and role checks, and the service, revision and artifact lookups, come first.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, SerializedAnswer> | null;

  constructor(maxBytes: number) {
    this.entries = maxBytes > 0 ? new LRUCache<string, SerializedAnswer>({ maxSize: maxBytes, sizeCalculation: (answer) => Math.max(1, answer.body.length * 2) }) : null;
  }

  /** SERVICE_READ_CACHE_SIZE (64mb; 0 turns the cache off). */
  static fromEnv(env: Env): AnswerCache {
    const read = new EnvReader(env);
    const maxBytes = read.raw('SERVICE_READ_CACHE_SIZE') === '0' ? 0 : read.byteSize('SERVICE_READ_CACHE_SIZE', DEFAULT_CACHE_BYTES);
    read.assertValid();
    return new AnswerCache(maxBytes);
  }

  async answer(key: string, build: () => Promise<unknown>): Promise<SerializedAnswer> {
    const cached = this.entries?.get(key);
    if (cached) return cached;
    const answer = serialize(await build());
    // An answer larger than the whole cache is served but not kept (lru-cache would refuse it anyway).
    this.entries?.set(key, answer);
    return answer;
  }
}

export function serialize(value: unknown): SerializedAnswer {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}
