import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ArrangementRecord } from './arrangement.entity';
import { ArrangementStore } from './arrangement-store';
import { ArrangementsRepository } from './arrangements.repository';

/** Saved arrangements, read-only, for the modules that draw synced diagrams (ArtifactsModule's images). */
@Module({
  imports: [TypeOrmModule.forFeature([ArrangementRecord])],
  providers: [ArrangementsRepository, ArrangementStore],
  exports: [ArrangementStore],
})
export class ArrangementStoreModule {}
