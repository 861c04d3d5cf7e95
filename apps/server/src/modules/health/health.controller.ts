import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../access/decorators';
import { HealthService, type ReadinessCheck } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Answers 200 only when the database answers a query (kept for existing monitors; see live and ready). */
  @Get()
  @Public()
  async check(): Promise<{ status: 'ok'; database: 'ok' }> {
    await this.health.assertDatabase();
    return { status: 'ok', database: 'ok' };
  }

  /** Liveness: the process answers HTTP. Restart it only when this fails. */
  @Get('live')
  @Public()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: database reachable, migrations applied, Redis answering (when REDIS_URL is set), parser threads up, not shutting down; else 503 not_ready naming the failed checks. */
  @Get('ready')
  @Public()
  async ready(): Promise<{ status: 'ok'; checks: Record<ReadinessCheck, 'ok'> }> {
    return { status: 'ok', checks: await this.health.assertReady() };
  }
}
