import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from '@sc/contracts/core';
import type { Readable, Writable } from 'node:stream';
import { ExitCode } from './exit-codes';
import { READ_TOKEN_PAGE_HINT, requireToken, resolveGateway, type Env } from './gateway';
import { redactingIo, runReportingErrors, type CliIo } from './io';

export interface McpBridgeContext {
  /** The hosted gateway instead of SERVICE_GATEWAY_URL (as `sync --enterprise`). */
  enterprise: boolean;
  env: Env;
  /** stderr only: stdout carries the protocol. */
  io: CliIo;
  stdin: Readable;
  stdout: Writable;
  userAgent: string;
}

/** JSON-RPC's "server error" range: the gateway refused or failed, said in the message. */
const GATEWAY_ERROR = -32000;

/**
 * `service-cli mcp`: a local stdio MCP server that forwards every message to the server's MCP endpoint
 * (`${SERVICE_GATEWAY_URL}/mcp`, Streamable HTTP) with SERVICE_TOKEN, and every answer back. Assistants that start
 * MCP servers as local commands reach the organization's diagrams through it. Resolves when stdin closes.
 */
export async function runMcp(context: McpBridgeContext): Promise<ExitCode> {
  const token = context.env['SERVICE_TOKEN'];
  const io = redactingIo(context.io, [token]);
  return runReportingErrors(io, false, async () => {
    const gateway = resolveGateway(context.env, context.enterprise);
    const bearer = requireToken(context.env, READ_TOKEN_PAGE_HINT);
    for (const notice of gateway.notices) io.err(notice);
    // Loaded here, not at the top: the SDK and its zod schemas were ≈0.13 s of CPU in every service-cli start
    // (`sync` included), 40% of `service-cli --version`, though only this command uses them.
    const [{ StreamableHTTPClientTransport }, { StdioServerTransport }, { isJSONRPCRequest, isJSONRPCResultResponse }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    const remote = new StreamableHTTPClientTransport(new URL(`${gateway.baseUrl}${MCP_PATH}`), {
      requestInit: { headers: { authorization: `Bearer ${bearer}`, 'user-agent': context.userAgent } },
    });
    const local = new StdioServerTransport(context.stdin, context.stdout);
    const closed = new Promise<void>((resolve) => {
      local.onclose = () => resolve();
      context.stdin.once('end', () => resolve());
    });

    remote.onmessage = (message) => {
      // The HTTP side sends the negotiated version as a header on every later request, as an SDK client does.
      if (isJSONRPCResultResponse(message) && typeof message.result['protocolVersion'] === 'string') remote.setProtocolVersion(message.result['protocolVersion']);
      void local.send(message);
    };
    remote.onerror = (error) => io.err(`service-cli mcp: ${error.message}`);
    local.onerror = (error) => io.err(`service-cli mcp: ${error.message}`);
    local.onmessage = (message: JSONRPCMessage) => {
      remote.send(message).catch((error: unknown) => {
        const words = `${gateway.baseUrl}${MCP_PATH} refused or failed: ${error instanceof Error ? error.message : String(error)}`;
        io.err(`service-cli mcp: ${words}`);
        // A request still gets its answer, so the assistant shows the reason instead of waiting.
        if (isJSONRPCRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: GATEWAY_ERROR, message: words } });
      });
    };

    await remote.start();
    await local.start();
    io.err(`service-cli mcp: forwarding stdio to ${gateway.baseUrl}${MCP_PATH}`);
    await closed;
    await remote.close();
    return ExitCode.Ok;
  });
}
