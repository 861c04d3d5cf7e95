import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { domainErrorFactory } from '../../common/errors/domain-error';
import { Public } from '../auth/decorators';

export enum HealthErrorCode {
  DatabaseUnavailable = 'database_unavailable',
}

const healthError = domainErrorFactory<HealthErrorCode>({ [HealthErrorCode.DatabaseUnavailable]: 503 });

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Liveness and readiness: answers 200 only when the database answers a query. */
  @Get()
  @Public()
  async check(): Promise<{ status: 'ok'; database: 'ok' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw healthError(HealthErrorCode.DatabaseUnavailable, 'The database is not reachable.');
    }
    return { status: 'ok', database: 'ok' };
  }
}
