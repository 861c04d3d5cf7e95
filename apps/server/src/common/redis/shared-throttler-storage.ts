import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { RateLimitErrorCode } from '@sc/contracts';
import { errorFactoryFor } from '../errors/error-status';

const rateLimitError = errorFactoryFor<RateLimitErrorCode>();

/**
 * @nestjs/throttler counts in Redis (@nest-lab/throttler-storage-redis), shared by every instance. When Redis
 * fails, the rate-limited endpoint answers 503 rate_limit_unavailable: never unlimited, and never an error for
 * the routes without a limit (they never touch the storage).
 */
export class SharedThrottlerStorage implements ThrottlerStorage {
  /** Imported only with REDIS_URL: it requires ioredis, which RedisService loads only then (startup cost). */
  static async create(client: Redis): Promise<SharedThrottlerStorage> {
    const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
    return new SharedThrottlerStorage(new ThrottlerStorageRedisService(client));
  }

  private constructor(private readonly redis: ThrottlerStorageRedisService) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): ReturnType<ThrottlerStorage['increment']> {
    try {
      return await this.redis.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (error) {
      throw rateLimitError(
        RateLimitErrorCode.Unavailable,
        `Rate limits are counted in Redis, which is not reachable (${error instanceof Error ? error.message : String(error)}); try again shortly.`,
      );
    }
  }
}
