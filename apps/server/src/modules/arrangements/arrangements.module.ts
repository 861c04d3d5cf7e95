import { Module } from '@nestjs/common';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { AuditModule } from '../audit/audit.module';
import { ArrangementStoreModule } from '../arrangement-store/arrangement-store.module';
import { ArrangementsController } from './arrangements.controller';
import { ArrangementsService } from './arrangements.service';

/** Arrangements of synced diagrams under /api/v1/orgs/:orgId/services/:service/diagrams/:name/arrangement (README.md). */
@Module({
  imports: [ArrangementStoreModule, ArtifactsModule, AuditModule],
  controllers: [ArrangementsController],
  providers: [ArrangementsService],
  exports: [ArrangementsService],
})
export class ArrangementsModule {}
