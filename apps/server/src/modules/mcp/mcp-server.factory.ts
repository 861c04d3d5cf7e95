import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_CURSOR_LENGTH, MCP_MAX_ANSWER_BYTES, MCP_MAX_LIST_ITEMS, MAX_PAGE_LIMIT, SEARCH_ELEMENT_KINDS, SEARCH_LIMITS, type ArtifactKind, type ServiceDetail } from '@sc/contracts';
import { DomainError } from '../../common/errors/domain-error';
import { decodeCursor, NAME_CURSOR } from '../../common/http/paging';
import { ArtifactsReadService } from '../artifacts/read/artifacts-read.service';
import { DiagramCheckService } from '../artifacts/sync/diagram-check.service';
import { SERVER_VERSION } from '../cli-package/server-version';
import { SearchService } from '../search/search.service';
import { WhereUsedService } from '../where-used/where-used.service';
import { linesJson, pageOf } from './answer-pages';

/** The room left beside a page for the line that says how to get the next one. */
const PAGE_NOTE_BYTES = 512;

/** The text of one page and, when the answer goes on, the words that say how to read on. */
type Paged = { text: string; more: string | null };

/** A mistake in the arguments that the schema cannot express (an offset past the end): a tool error in words. */
class ToolInputError extends Error {}

type Sdk = Awaited<ReturnType<typeof importSdk>>;
/** The server class as loaded (the ESM build: the CommonJS build's declarations are another, incompatible class). */
type McpServer = InstanceType<Sdk['McpServer']>;

let sdk: Promise<Sdk> | undefined;

/**
 * The SDK and zod, loaded at the first MCP request rather than at startup: requiring them took about 1.8 s of every
 * server start and of every integration test file (measured inside Jest), and only POST /mcp uses them. A module
 * that fails to load fails that request (and each one after it) with the loader's error.
 */
function loadSdk(): Promise<Sdk> {
  return (sdk ??= importSdk());
}

/** The SDK's server classes, zod, and the argument schemas several tools share. */
async function importSdk() {
  const [{ McpServer, ResourceTemplate }, { z }] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]);
  return {
    McpServer,
    ResourceTemplate,
    z,
    serviceName: z.string().min(1).max(200).describe('The service name, as listed by list_services.'),
    artifactName: z.string().min(1).max(200),
    revision: z.number().int().min(1).optional().describe('A revision number of the service; the current revision when omitted.'),
    offset: z.number().int().min(0).optional().describe('Where to continue a long answer: the offset the previous page named (characters).'),
  };
}

/**
 * Builds the MCP server of one request, bound to the caller's organization: every tool and resource reads through
 * the artifacts and search modules' services with that organization id, so nothing of another organization can
 * be named, let alone read. Stateless: a server lives for one HTTP request (McpController).
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger(McpServerFactory.name);

  constructor(
    private readonly artifacts: ArtifactsReadService,
    private readonly search: SearchService,
    private readonly diagrams: DiagramCheckService,
    private readonly whereUsedService: WhereUsedService,
  ) {}

  async create(organizationId: string): Promise<McpServer> {
    const lib = await loadSdk();
    const server = new lib.McpServer(
      { name: 'system-context-service', version: SERVER_VERSION },
      {
        instructions:
          'The architecture of this organization, synced from its repositories: services, architecture diagrams (Mermaid with a JSON context overlay), ' +
          'flows, database schemas and job notes. Start with search or list_services; where_used answers "which diagrams bind this table"; long answers page by offset.',
      },
    );
    this.registerTools(server, organizationId, lib);
    this.registerResources(server, organizationId, lib);
    return server;
  }

  private registerTools(server: McpServer, orgId: string, { z, serviceName, artifactName, revision, offset }: Sdk): void {
    server.registerTool(
      'search',
      {
        title: 'Search the organization',
        description:
          'Full-text search over every service\'s current revision: node ids and labels, context names and types, data-field values, groups, tables and columns, notes headings. Ranked hits with a snippet (matched words «marked»).',
        inputSchema: {
          query: z.string().trim().min(1).max(SEARCH_LIMITS.maxQueryLength).describe('Words to find; "a phrase", or, -word work; the start of an id matches too.'),
          kind: z.enum(SEARCH_ELEMENT_KINDS).optional().describe('Only hits of this element kind.'),
          limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
        },
        annotations: { readOnlyHint: true },
      },
      ({ query, kind, limit }) => this.tool('search', 0, async () => linesJson(await this.search.search(orgId, { q: query, kind: kind ?? null, limit: limit ?? SEARCH_LIMITS.defaultLimit }))),
    );

    server.registerTool(
      'list_services',
      {
        title: 'List services',
        description: 'The organization\'s services by name, with description, repository, current revision and artifact count. Pages by cursor (nextCursor).',
        inputSchema: {
          cursor: z.string().max(MAX_CURSOR_LENGTH).optional().describe('The nextCursor of the previous page.'),
          limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
        },
        annotations: { readOnlyHint: true },
      },
      ({ cursor, limit }) => this.tool('list_services', 0, async () => linesJson(await this.artifacts.listServices(orgId, { limit: limit ?? MCP_MAX_LIST_ITEMS, after: decodeCursor(cursor, NAME_CURSOR) }))),
    );

    server.registerTool(
      'get_service',
      {
        title: 'Get a service',
        description: 'One service with every artifact of a revision (kind, name, path, size, diagram kind), to pick diagrams, flows, schemas and notes to read.',
        inputSchema: { service: serviceName, revision, offset },
        annotations: { readOnlyHint: true },
      },
      (args) => this.tool('get_service', args.offset, async () => linesJson(await this.artifacts.getService(orgId, args.service, args.revision))),
    );

    server.registerTool(
      'get_diagram',
      {
        title: 'Get an architecture diagram',
        description:
          'An architecture diagram: its Mermaid source, its context file (JSON overlay: names, types, data fields, dbConfig), and the graph as JSON ' +
          '(nodes, edges and groups with their overlays, one element per line). `part` narrows the answer; large diagrams page by offset.',
        inputSchema: {
          service: serviceName,
          name: artifactName.describe('The diagram name, as get_service lists it.'),
          revision,
          part: z.enum(['all', 'mermaid', 'context', 'graph']).optional().describe('Only this part (default all).'),
          offset,
        },
        annotations: { readOnlyHint: true },
      },
      (args) =>
        this.tool('get_diagram', args.offset, async () => {
          const view = await this.artifacts.readDiagram(orgId, args.service, args.name, args.revision);
          return diagramDocument(args.service, view, args.part ?? 'all');
        }),
    );

    server.registerTool(
      'diff_revisions',
      {
        title: 'Compare a diagram between revisions',
        description: 'What changed in an architecture diagram between two revisions of its service: nodes, edges and groups added, removed and changed.',
        inputSchema: {
          service: serviceName,
          name: artifactName.describe('The diagram name.'),
          from: z.number().int().min(1).describe('The older revision.'),
          to: z.number().int().min(1).describe('The newer revision.'),
          offset,
        },
        annotations: { readOnlyHint: true },
      },
      (args) => this.tool('diff_revisions', args.offset, async () => linesJson(await this.artifacts.diffDiagram(orgId, args.service, args.name, args.from, args.to), 3)),
    );

    server.registerTool(
      'where_used',
      {
        title: 'Where is a table or component used',
        description:
          'Every architecture diagram (current revisions) with a node that binds this name: its context dbConfig.tableName, its context name, its id or its label; ' +
          'with the edges in and out of that node (e.g. which services write to the orders table), and the schemas that define a table of that name.',
        inputSchema: { name: z.string().trim().min(1).max(SEARCH_LIMITS.maxQueryLength).describe('A table name or a node/context name, e.g. "orders".'), offset },
        annotations: { readOnlyHint: true },
      },
      (args) => this.tool('where_used', args.offset, async () => linesJson(await this.whereUsed(orgId, args.name), 3)),
    );

    server.registerTool(
      'validate_diagram',
      {
        title: 'Validate a diagram',
        description:
          'Checks Mermaid and an optional context file (JSON) with the engine the sync uses, storing nothing. Problems come in words with their file, line and column or JSON path. ' +
          'With `service`, dbConfig.databaseName is checked against that service\'s databases.',
        inputSchema: {
          mermaid: z.string().min(1).describe('The Mermaid source.'),
          context: z.string().optional().describe('The context file\'s JSON text.'),
          service: serviceName.optional(),
        },
        annotations: { readOnlyHint: true },
      },
      (args) =>
        this.tool('validate_diagram', 0, async () => {
          const result = await this.diagrams.check({ mermaid: args.mermaid, context: args.context, ...(args.service ? { service: { organizationId: orgId, name: args.service } } : {}) });
          if (result.ok) {
            const warnings = result.warnings.map((warning) => `warning: ${warning.message}${warning.path ? ` (${warning.path})` : ''}`);
            return [`Valid ${result.kind} diagram: ${result.nodeCount} nodes, ${result.edgeCount} edges, ${result.groupCount} groups.`, ...warnings].join('\n');
          }
          const problems = result.problems.map((problem) => `- ${where(problem)}: ${problem.message}${problem.excerpt ? `\n${problem.excerpt}` : ''}`);
          return [`Not valid: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}.`, ...problems].join('\n');
        }),
    );
  }

  private registerResources(server: McpServer, orgId: string, { ResourceTemplate }: Sdk): void {
    // One listing serves every template of this request: the SDK asks each template for its list in turn.
    let listing: Promise<ServiceDetail[]> | undefined;
    const services = () => (listing ??= this.listServiceDetails(orgId));
    /**
     * A template `service://{service}/<path>` (with `{name}` for one artifact of `kind`), listed for every service's
     * artifacts of that kind, and read by `read(service, name)` with the URI's names decoded.
     */
    const template = (id: string, uriTemplate: string, kind: ArtifactKind, meta: { title: string; description: string; mimeType: string }, read: (service: string, name: string) => Promise<string>) => {
      const uriOf = (service: string, name: string) => uriTemplate.replace('{service}', encodeURIComponent(service)).replace('{name}', encodeURIComponent(name));
      const list = async () => ({
        resources: (await services()).flatMap((service) =>
          service.artifacts
            .filter((artifact) => artifact.kind === kind)
            .map((artifact) => ({ uri: uriOf(service.name, artifact.name), name: `${service.name}: ${artifact.name} (${kind})`, mimeType: meta.mimeType })),
        ),
      });
      server.registerResource(id, new ResourceTemplate(uriTemplate, { list }), meta, (uri, variables) =>
        this.resource(uri, () => read(variable(variables, 'service'), uriTemplate.includes('{name}') ? variable(variables, 'name') : '')),
      );
    };

    template(
      'service-summary',
      'service://{service}/summary',
      'service-summary',
      { title: 'Service summary', description: 'The service summary (Markdown) of the current revision.', mimeType: 'text/markdown' },
      async (service) => (await this.artifacts.getSummary(orgId, service)).markdown,
    );
    template(
      'service-diagram',
      'service://{service}/diagrams/{name}',
      'architecture-diagram',
      { title: 'Architecture diagram', description: 'Mermaid, context and graph of an architecture diagram (get_diagram pages the rest).', mimeType: 'text/plain' },
      async (service, name) => diagramDocument(service, await this.artifacts.readDiagram(orgId, service, name), 'all'),
    );
    template(
      'service-flow',
      'service://{service}/flows/{name}',
      'flow',
      { title: 'Flow', description: 'A flow: its Mermaid source, notes and graph.', mimeType: 'text/plain' },
      async (service, name) => {
        const flow = await this.artifacts.getFlow(orgId, service, name);
        return notedArtifact('Flow', flow, flow.kind, ['Mermaid', flow.mermaid], ['Graph (JSON, one element per line)', linesJson(flow.graph)]);
      },
    );
    template(
      'service-schema',
      'service://{service}/schemas/{name}',
      'database-schema',
      { title: 'Database schema', description: 'A database schema as synced, its tables and columns (JSON) and its notes.', mimeType: 'text/plain' },
      async (service, name) => {
        const database = await this.artifacts.getDatabase(orgId, service, name);
        const tables = database.tables.length > 0 ? linesJson(database.tables, 1) : database.collections.length > 0 ? linesJson(database.collections, 1) : null;
        return notedArtifact('Database', database, database.engine, ['Tables (JSON, one per line)', tables], ['Schema as synced', database.schema]);
      },
    );
    template(
      'service-jobs',
      'service://{service}/jobs',
      'job-notes',
      { title: 'Job notes', description: "The service's job notes and job-dependency graph.", mimeType: 'text/markdown' },
      async (service) => {
        const jobs = await this.artifacts.getJobs(orgId, service);
        return sections([
          [`Jobs, revision ${jobs.revision}${jobs.notesPath ? `: ${jobs.notesPath}` : ''}`, jobs.notes],
          [`Job dependencies${jobs.dependencies ? ` (${jobs.dependencies.path})` : ''}`, jobs.dependencies?.mermaid ?? null],
        ]);
      },
    );
  }

  /** The first page of services with their artifacts (resource listings are not paged by the SDK: bounded here). */
  private async listServiceDetails(orgId: string): Promise<ServiceDetail[]> {
    const page = await this.artifacts.listServices(orgId, { limit: MAX_PAGE_LIMIT, after: undefined });
    const details: ServiceDetail[] = [];
    for (const service of page.items) details.push(await this.artifacts.getService(orgId, service.name));
    return details;
  }

  /** The diagrams binding `name` (any binding: dbConfig.tableName, context name, id, label) and the schemas defining it. */
  private async whereUsed(orgId: string, name: string): Promise<unknown> {
    const { usedIn, definedIn, truncated } = await this.whereUsedService.find(orgId, name);
    return { name, usedIn, definedIn, candidatesTruncated: truncated };
  }

  /** Runs a tool: its text paged from `offset`, a refusal (unknown service, bad revision, offset past the end) as a tool error in words. */
  private async tool(name: string, offsetArg: number | undefined, answer: () => Promise<string>): Promise<CallToolResult> {
    try {
      const page = paged(await answer(), offsetArg ?? 0, `call ${name} again with the same arguments and offset`);
      return { content: [{ type: 'text', text: page.text }, ...(page.more ? [{ type: 'text' as const, text: page.more }] : [])] };
    } catch (error) {
      return { content: [{ type: 'text', text: this.describe(name, error) }], isError: true };
    }
  }

  private async resource(uri: URL, read: () => Promise<string>): Promise<ReadResourceResult> {
    try {
      const page = paged(await read(), 0, 'read the rest with the matching tool (get_diagram) and offset');
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: page.more ? `${page.text}\n${page.more}` : page.text }] };
    } catch (error) {
      // The SDK answers a thrown error as a JSON-RPC error with this message.
      throw new Error(this.describe(uri.href, error));
    }
  }

  /** The words of a refusal; anything else is logged and told as a server failure, without its details. */
  private describe(what: string, error: unknown): string {
    if (error instanceof DomainError || error instanceof ToolInputError) return error.message;
    this.logger.error(`MCP ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return `The server failed to answer ${what}; try again later.`;
  }
}

function paged(text: string, offset: number, howToContinue: string): Paged {
  let page;
  try {
    page = pageOf(text, offset, MCP_MAX_ANSWER_BYTES - PAGE_NOTE_BYTES);
  } catch (error) {
    throw new ToolInputError((error as Error).message);
  }
  const more = page.nextOffset === null ? null : `[This answer continues: ${page.total} characters in all; ${howToContinue}=${page.nextOffset}.]`;
  return { text: page.text, more };
}

type DiagramPart = 'all' | 'mermaid' | 'context' | 'graph';

/** A diagram as one text: a header, then the Mermaid source, the context (JSON) and the graph (one element per line). */
function diagramDocument(service: string, view: Awaited<ReturnType<ArtifactsReadService['readDiagram']>>, part: DiagramPart): string {
  const graph = view.graph;
  const header = `Diagram "${view.name}" of service "${service}", revision ${view.revision}: ${view.kind}, ${graph.nodes.length} nodes, ${graph.edges.length} edges, ${graph.groups.length} groups. Mermaid file ${view.path}${view.contextPath ? `, context file ${view.contextPath}` : ', no context file'}.`;
  const wants = (section: DiagramPart) => part === 'all' || part === section;
  return sections([
    [header, null],
    ...(wants('mermaid') ? [['Mermaid', view.mermaid] as const] : []),
    ...(wants('context') ? [['Context (JSON)', view.context === null ? '(none)' : JSON.stringify(view.context, null, 2)] as const] : []),
    ...(wants('graph') ? [['Graph (JSON, one node, edge or group per line)', linesJson(graph)] as const] : []),
  ]);
}

/** A flow's or database's document: its heading line, `first`, its notes (with the notes file), then `last`. */
function notedArtifact(
  label: string,
  artifact: { name: string; revision: number; path: string; notesPath: string | null; notes: string | null },
  variant: string,
  first: Section,
  last: Section,
): string {
  return sections([[`${label} "${artifact.name}" (${variant}), revision ${artifact.revision}: ${artifact.path}`, null], first, [`Notes${artifact.notesPath ? ` (${artifact.notesPath})` : ''}`, artifact.notes], last]);
}

/** A titled part of a resource's text; a null body leaves the part out (the first part is a heading line). */
type Section = readonly [string, string | null];

function sections(parts: ReadonlyArray<Section>): string {
  return parts
    .filter(([, body], index) => index === 0 || body !== null)
    .map(([title, body]) => (body === null ? title : `--- ${title} ---\n${body}`))
    .join('\n\n');
}

function where(problem: { file?: string; line?: number; column?: number; path?: string }): string {
  const position = problem.line === undefined ? '' : `:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`;
  return `${problem.file ?? 'diagram'}${position}${problem.path ? ` at ${problem.path}` : ''}`;
}

/** A URI template variable as one decoded string (the SDK hands a list for exploded variables). */
function variable(variables: Record<string, string | string[]>, name: string): string {
  const value = variables[name];
  const text = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ToolInputError(`The ${name} in this URI is not valid percent-encoding.`);
  }
}
