import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Env, EnvReader } from '../../config/env';

/** REDIS_URL and its key prefix, read once at boot. */
export class RedisConfig {
  constructor(
    readonly url: string | null,
    readonly keyPrefix: string,
  ) {}

  /** REDIS_URL (unset: limits stay in process memory), REDIS_KEY_PREFIX (`sc:`). */
  static fromEnv(env: Env): RedisConfig {
    const read = new EnvReader(env);
    const url = read.string('REDIS_URL') ?? null;
    if (url !== null && !/^rediss?:\/\//.test(url)) read.problem('REDIS_URL must be a redis:// or rediss:// URL.');
    const keyPrefix = read.string('REDIS_KEY_PREFIX', 'sc:');
    read.assertValid();
    return new RedisConfig(url, keyPrefix);
  }
}

/** How long a Redis connection attempt or command may take before the caller gets an error. */
const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 500;

/**
 * The one Redis connection of the process (ioredis), or none without REDIS_URL. During an outage every command
 * fails within COMMAND_TIMEOUT_MS instead of queueing (no offline queue, no retries per request), so a request
 * that needs Redis answers at once and nothing else waits on it; the connection keeps reconnecting in the background.
 * Built by `connect` (RedisModule's factory).
 */
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private lastError = '';

  /**
   * ioredis is imported only with REDIS_URL: requiring it took about 0.2 s of every server start and of every
   * integration test file (measured inside Jest), and most deployments and tests have no Redis.
   */
  static async connect(config: RedisConfig): Promise<RedisService> {
    if (!config.url) return new RedisService(null);
    const { Redis } = await import('ioredis');
    return new RedisService(
      new Redis(config.url, {
        keyPrefix: config.keyPrefix,
        connectTimeout: CONNECT_TIMEOUT_MS,
        commandTimeout: COMMAND_TIMEOUT_MS,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      }),
    );
  }

  constructor(readonly client: Redis | null) {
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.client?.on('error', (error: Error) => {
      if (error.message === this.lastError) return;
      this.lastError = error.message;
      this.logger.warn(`Redis unavailable: ${error.message}`);
    });
    this.client?.on('ready', () => (this.lastError = ''));
  }

  /** True when Redis is configured and answers PING (readiness). */
  async answers(): Promise<boolean> {
    if (!this.client) return true;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect(false);
  }
}
