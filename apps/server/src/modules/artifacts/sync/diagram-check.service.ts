import { Inject, Injectable } from '@nestjs/common';
import type { SyncProblemDetail } from '@sc/contracts';
import type { DiagramIssue, DiagramKind } from '@sc/diagram';
import { ArtifactAnalyzer, type MermaidParser } from './artifact-analysis';
import { ArtifactsConfig } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { ServicesRepository } from '../store/services.repository';
import { ReadLookups } from '../read/read-lookups';
import { SqlSchemaParseService } from '../../parsing/sql-schema-parse.service';
import { MERMAID_PARSER } from './bundle-validator';

export interface DiagramCheckInput {
  mermaid: string;
  /** The context file's text (JSON), when the diagram has one. */
  context?: string;
  /** Check `dbConfig.databaseName` against this service's databases in its current revision (otherwise against none). */
  service?: { organizationId: string; name: string };
}

export type DiagramCheckResult =
  | { ok: true; kind: DiagramKind; nodeCount: number; edgeCount: number; groupCount: number; databaseNames: string[]; warnings: DiagramIssue[] }
  | { ok: false; databaseNames: string[]; problems: SyncProblemDetail[] };

/** The names the checked files carry in the problems (the files are not in a repository). */
export const CHECKED_FILE_NAMES = { diagram: 'diagram.mmd', context: 'diagram.context.json' } as const;

/**
 * An architecture diagram (Mermaid + context) checked with exactly the engine and rules of the sync (ArtifactAnalyzer,
 * Mermaid parsed in ParsingModule's workers), without storing anything: the MCP server's `validate_diagram`.
 */
@Injectable()
export class DiagramCheckService {
  private readonly analyzer: ArtifactAnalyzer;

  constructor(
    @Inject(MERMAID_PARSER) parseMermaid: MermaidParser,
    sqlSchemas: SqlSchemaParseService,
    private readonly config: ArtifactsConfig,
    private readonly lookups: ReadLookups,
    private readonly repository: ServicesRepository,
  ) {
    this.analyzer = new ArtifactAnalyzer(parseMermaid, (sql, engine) => sqlSchemas.parse(sql, engine));
  }

  async check(input: DiagramCheckInput): Promise<DiagramCheckResult> {
    const maxBytes = this.config.limits.maxFileBytes;
    for (const [file, text] of [[CHECKED_FILE_NAMES.diagram, input.mermaid], [CHECKED_FILE_NAMES.context, input.context ?? '']] as const) {
      if (Buffer.byteLength(text) > maxBytes) {
        throw artifactsError(ArtifactsErrorCode.FileTooLarge, `${file} is larger than the sync's limit of ${maxBytes} bytes per file.`);
      }
    }
    const databaseNames = input.service ? await this.databaseNames(input.service.organizationId, input.service.name) : [];
    const result = await this.analyzer.analyze({
      artifact: {
        kind: 'architecture-diagram',
        name: 'diagram',
        file: { path: CHECKED_FILE_NAMES.diagram, content: input.mermaid, sha256: '' },
        ...(input.context === undefined ? {} : { context: { path: CHECKED_FILE_NAMES.context, content: input.context, sha256: '' } }),
      },
      databaseNames,
    });
    if (!result.ok) return { ok: false, databaseNames, problems: result.problems };
    const analysis = result.analysis;
    if (analysis.type !== 'diagram') throw new Error('An architecture diagram was analysed as something else.');
    const graph = analysis.overlaid ?? analysis.graph;
    return {
      ok: true,
      kind: analysis.diagramKind,
      nodeCount: graph.nodes.length,
      edgeCount: graph.edges.length,
      groupCount: graph.groups.length,
      databaseNames,
      warnings: analysis.report?.warnings ?? [],
    };
  }

  /** The databases of the service's current revision: a context's dbConfig.databaseName must name one. */
  private async databaseNames(organizationId: string, name: string): Promise<string[]> {
    const service = await this.lookups.serviceRecord(organizationId, name);
    if (!service) throw artifactsError(ArtifactsErrorCode.ServiceNotFound, `There is no service named "${name}" in this organization.`);
    if (service.currentRevision === 0) return [];
    const versions = await this.repository.versionsInRevision(service.id, service.currentRevision, { kind: 'database-schema' });
    return versions.map((version) => version.name);
  }
}
