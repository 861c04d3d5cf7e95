import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { Env, EnvReader } from '../../../config/env';

/** A read answer serialized once: its JSON text and a strong ETag (a hash of exactly those bytes). */
export interface SerializedAnswer {
  etag: string;
  body: string;
}

/** The content codings a cached answer is kept in besides its JSON text (those the compression middleware offers). */
export type AnswerEncoding = 'br' | 'gzip';

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Compressed like the compression middleware (app.factory.ts) would: brotli quality 5, gzip at zlib's default, so a
 * cached answer's bytes are what an uncached one would have been.
 */
function compress(body: string, encoding: AnswerEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipped(body);
}

/**
 * Serialized answers of artifact reads, bounded by their size (lru-cache, least recently used out first). The key
 * names an immutable artifact version and the revision it is read in, so an entry never goes stale and needs no
 * invalidation across instances; each instance fills its own. Only what the caller may read is ever looked up:
 * the organization and role checks, and the service, revision and artifact lookups, come first.
 *
 * Beside each answer the cache keeps its compressed bytes per content coding (keyed by the answer's ETag and the
 * coding, in the same byte budget), so a cached read does no compression work: that was ≈ 0.65 ms of CPU per read.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, SerializedAnswer | Buffer> | null;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, SerializedAnswer | Buffer>({
            maxSize: maxBytes,
            sizeCalculation: (entry) => Math.max(1, Buffer.isBuffer(entry) ? entry.byteLength : entry.body.length * 2),
          })
        : null;
  }

  /** SERVICE_READ_CACHE_SIZE (64mb; 0 turns the cache off). */
  static fromEnv(env: Env): AnswerCache {
    const read = new EnvReader(env);
    const maxBytes = read.raw('SERVICE_READ_CACHE_SIZE') === '0' ? 0 : read.byteSize('SERVICE_READ_CACHE_SIZE', DEFAULT_CACHE_BYTES);
    read.assertValid();
    return new AnswerCache(maxBytes);
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  async answer(key: string, build: () => Promise<unknown>): Promise<SerializedAnswer> {
    const cached = this.entries?.get(key);
    if (cached && !Buffer.isBuffer(cached)) return cached;
    const answer = serialize(await build());
    // An answer larger than the whole cache is served but not kept (lru-cache would refuse it anyway).
    this.entries?.set(key, answer);
    return answer;
  }

  /**
   * The answer's JSON compressed with `encoding`, compressed once per content while it stays cached; null when the
   * cache is off (the compression middleware then compresses each response, as it does for every other answer).
   */
  async compressed(answer: SerializedAnswer, encoding: AnswerEncoding): Promise<Buffer | null> {
    if (!this.entries) return null;
    // ETags are quoted base64url hashes and answer keys are `<uuid>@<revision>`, so the two kinds of key never meet.
    const key = `${answer.etag}:${encoding}`;
    const cached = this.entries.get(key);
    if (Buffer.isBuffer(cached)) return cached;
    const bytes = await compress(answer.body, encoding);
    this.entries.set(key, bytes);
    return bytes;
  }
}

export function serialize(value: unknown): SerializedAnswer {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}
