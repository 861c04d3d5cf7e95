import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CommonErrorCode, commonError } from '../../common/errors/common.errors';
import { CurrentPrincipal, TokenAccess } from '../access/decorators';
import type { Principal } from '../access/principal';
import { McpServerFactory } from './mcp-server.factory';

/** Outside /api/v1 (app.factory.ts excludes it from the global prefix): the address assistants are configured with. */
export const MCP_ROUTES = ['mcp'];

/**
 * The MCP server (Streamable HTTP, stateless): each POST carries JSON-RPC messages and gets its answer as JSON, from
 * a server built for that request and bound to the token's organization. The global AuthGuard admits API tokens with
 * the `read` (or `admin`) scope whose creator is still an active member, before the SDK sees the body.
 */
@ApiTags('mcp')
@Controller('mcp')
@TokenAccess('read')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  @ApiOkResponse({ description: 'JSON-RPC answers of the Model Context Protocol (Streamable HTTP, stateless, JSON answers).' })
  async handle(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    const server = await this.servers.create(principal.organizationId);
    // Imported here, not at the top: the SDK is loaded at the first MCP request, not at startup (McpServerFactory).
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    // No session id: nothing is kept between requests, so any instance behind a load balancer can answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** A stateless server has no stream to open (GET) and no session to end (DELETE): 405, as the protocol asks. */
  @Get()
  streamUnsupported(): never {
    throw commonError(CommonErrorCode.MethodNotAllowed, 'This MCP server is stateless: send JSON-RPC messages with POST /mcp; it opens no event stream.');
  }

  @Delete()
  sessionUnsupported(): never {
    throw commonError(CommonErrorCode.MethodNotAllowed, 'This MCP server is stateless: there is no session to end.');
  }
}
