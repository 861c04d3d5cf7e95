import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { AuditModule } from '../audit/audit.module';
import { ArrangementRecord } from './arrangement.entity';
import { ArrangementsController } from './arrangements.controller';
import { ArrangementsRepository } from './arrangements.repository';
import { ArrangementsService } from './arrangements.service';

/** Arrangements of synced diagrams under /api/v1/orgs/:orgId/services/:service/diagrams/:name/arrangement (README.md). */
@Module({
  imports: [TypeOrmModule.forFeature([ArrangementRecord]), ArtifactsModule, AuditModule],
  controllers: [ArrangementsController],
  providers: [ArrangementsRepository, ArrangementsService],
  exports: [ArrangementsService],
})
export class ArrangementsModule {}
