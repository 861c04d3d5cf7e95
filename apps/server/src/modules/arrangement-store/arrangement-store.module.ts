import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ArrangementRecord } from './arrangement.entity';
import { ArrangementStore } from './arrangement-store';
import { ArrangementsRepository } from './arrangements.repository';

/** The stored arrangements: ArrangementStore for ArrangementsModule (rules, routes) and ArtifactsModule (images). */
@Module({
  imports: [TypeOrmModule.forFeature([ArrangementRecord])],
  providers: [ArrangementsRepository, ArrangementStore],
  exports: [ArrangementStore],
})
export class ArrangementStoreModule {}
