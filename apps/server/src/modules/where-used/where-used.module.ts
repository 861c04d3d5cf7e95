import { Module } from '@nestjs/common';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { SearchModule } from '../search/search.module';
import { WhereUsedController } from './where-used.controller';
import { WhereUsedService } from './where-used.service';

/**
 * "Where is this used" (README.md): its own module because it reads diagrams through the artifacts module, which
 * itself imports SearchModule to write the index; keeping it apart avoids a module cycle.
 */
@Module({
  imports: [ArtifactsModule, SearchModule],
  controllers: [WhereUsedController],
  providers: [WhereUsedService],
  exports: [WhereUsedService],
})
export class WhereUsedModule {}
