import { Module } from '@nestjs/common';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { SearchModule } from '../search/search.module';
import { WhereUsedModule } from '../where-used/where-used.module';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';

/** The MCP server at /mcp (README.md): tools and resources over the artifacts and search modules' read services. */
@Module({
  imports: [ArtifactsModule, SearchModule, WhereUsedModule],
  controllers: [McpController],
  providers: [McpServerFactory],
})
export class McpModule {}
