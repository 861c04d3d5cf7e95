import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ErrorDetail } from '@sc/contracts';
import { DataSource } from 'typeorm';
import { RedisService } from '../../common/redis/redis.service';
import { MermaidParseService } from '../parsing/mermaid-parse.service';
import { HealthErrorCode, healthError } from './health.errors';
import { ShutdownService } from './shutdown.service';

export type ReadinessCheck = 'shutdown' | 'database' | 'migrations' | 'redis' | 'parser';

/** What the load balancer and the orchestrator ask: is the process alive, may it take traffic. */
@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly parser: MermaidParseService,
    private readonly shutdown: ShutdownService,
    private readonly redis: RedisService,
  ) {}

  async assertDatabase(): Promise<void> {
    if (!(await this.databaseAnswers())) throw healthError(HealthErrorCode.DatabaseUnavailable, 'The database is not reachable.');
  }

  /** Every check runs; a failure lists each failed check by name (details[].code) with a sentence. */
  async assertReady(): Promise<Record<ReadinessCheck, 'ok'>> {
    const failed: ErrorDetail[] = [];
    if (!this.shutdown.running) failed.push({ code: 'shutdown', message: 'The service is shutting down.' });
    const database = await this.databaseAnswers();
    if (!database) failed.push({ code: 'database', message: 'The database is not reachable.' });
    else if (await this.migrationsPending()) failed.push({ code: 'migrations', message: 'Database migrations registered in this version are not applied.' });
    if (!(await this.redis.answers())) failed.push({ code: 'redis', message: 'Redis (REDIS_URL) does not answer; rate-limited endpoints answer 503.' });
    if (!this.parser.up) failed.push({ code: 'parser', message: 'The Mermaid parser threads are not running.' });
    if (failed.length > 0) {
      throw healthError(HealthErrorCode.NotReady, `Not ready: ${failed.map((check) => check.code).join(', ')}.`, failed);
    }
    return { shutdown: 'ok', database: 'ok', migrations: 'ok', redis: 'ok', parser: 'ok' };
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Compares the migrations table with the registered list (TypeORM's own check). */
  private async migrationsPending(): Promise<boolean> {
    try {
      return await this.dataSource.showMigrations();
    } catch {
      return true;
    }
  }
}
