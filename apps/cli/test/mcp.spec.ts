import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { BIN, requireBuiltCli } from './support/built-cli';

/**
 * `service-cli mcp` as an assistant runs it: the built binary spawned by the SDK's StdioClientTransport, bridging to a
 * real Streamable HTTP MCP server (the SDK's, stateless, as the service's /mcp) on loopback that checks the bearer token.
 */
const TOKEN = 'sct_mcp_bridge_test_0123456789abcdef';

interface McpTestServer {
  url: string;
  /** The path and Authorization header of every request the bridge sent. */
  seen: Array<{ method: string; url: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

/** A stateless MCP server with one tool (`echo`) that answers 401 in the service's error shape to any other token. */
async function startMcpServer(): Promise<McpTestServer> {
  const seen: McpTestServer['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: { code: 'token_invalid', message: 'This API token is not valid.', details: [] } }));
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const mcp = new McpServer({ name: 'loopback', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'Says the text back.', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function bridge(env: Record<string, string>): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, stderr: 'pipe' });
  let stderr = '';
  const stream = transport.stderr as PassThrough | null;
  stream?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { transport, stderr: () => stderr };
}

describe('service-cli mcp (built binary)', () => {
  let server: McpTestServer;

  beforeAll(async () => {
    requireBuiltCli();
    server = await startMcpServer();
  });
  afterAll(() => server?.close());

  it('bridges a stdio client to SERVICE_GATEWAY_URL/mcp with SERVICE_TOKEN: lists and calls the tools', async () => {
    const { transport, stderr } = bridge({ SERVICE_GATEWAY_URL: server.url, SERVICE_TOKEN: TOKEN });
    const client = new Client({ name: 'cli-spec', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      const result = (await client.callTool({ name: 'echo', arguments: { text: 'hello' } })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'echo: hello' }]);
    } finally {
      await client.close();
    }
    const posts = server.seen.filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(posts.every((request) => request.url === '/mcp' && request.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(stderr()).toContain(`forwarding stdio to ${server.url}/mcp`);
    expect(stderr()).not.toContain(TOKEN);
  });

  it("answers the client with the server's refusal of a wrong token, in words, without printing the token", async () => {
    const wrong = 'sct_wrong_token_fedcba9876543210';
    const { transport, stderr } = bridge({ SERVICE_GATEWAY_URL: server.url, SERVICE_TOKEN: wrong });
    const client = new Client({ name: 'cli-spec', version: '1.0.0' });
    try {
      await expect(client.connect(transport)).rejects.toThrow(/401.*This API token is not valid|token_invalid/s);
    } finally {
      await client.close();
    }
    expect(stderr()).toMatch(/refused or failed/);
    expect(stderr()).not.toContain(wrong);
  });

  it.each([
    [{ SERVICE_TOKEN: TOKEN }, /SERVICE_GATEWAY_URL/],
    [{ SERVICE_GATEWAY_URL: 'http://127.0.0.1:9' }, /SERVICE_TOKEN is not set.*"read" scope/],
  ])('exits 2 with the reason when the configuration is missing (%o)', async (env, words) => {
    const result = await new Promise<{ code: number; stderr: string; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, [BIN, 'mcp'], { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(words) });
  });

  it('has help with examples', async () => {
    const help = await new Promise<string>((resolve) => execFile(process.execPath, [BIN, 'mcp', '--help'], { env: { PATH: process.env['PATH'] ?? '' } }, (_error, stdout) => resolve(stdout)));
    expect(help).toContain('SERVICE_GATEWAY_URL/mcp');
    expect(help).toMatch(/EXAMPLES[\s\S]*service-cli mcp/);
  });
});
