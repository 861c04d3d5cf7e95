import { Injectable } from '@nestjs/common';
import type {
  ArtifactKind,
  DatabaseEngine,
  ArtifactListItem,
  DatabaseListItem,
  DatabaseView,
  DiagramDiff,
  DiagramSource,
  DiagramView,
  FlowListItem,
  FlowView,
  JobsView,
  ServiceDetail,
  ServiceListItem,
  ServiceRevisionFiles,
  ServiceRevisionItem,
  SummaryView,
  SyncedFile,
  TextArtifactListItem,
  TextArtifactView,
} from '@sc/contracts';
import type { ListPage } from '@sc/contracts';
import { diffGraphs, type ApplyReport, type GraphModel, type OverlaidGraph } from '@sc/diagram';
import { AnswerCache, serialize, type AnswerEncoding, type SerializedAnswer } from './answer-cache';
import { ReadLookups } from './read-lookups';
import { DiagramLayoutService, type DiagramImageOptions, type RenderedDiagramImage } from '../layouts/diagram-layout.service';
import { parseJsonDocument, type ArtifactAnalysis } from '../sync/artifact-analysis';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { BlobStore } from '../store/blob-store';
import { ServicesRepository } from '../store/services.repository';
import type { ArtifactVersionRecord } from '../store/entities/artifact-version.entity';
import type { ServiceRecord } from '../store/entities/service.entity';
import type { ServiceRevisionRecord } from '../store/entities/service-revision.entity';
import { pageFrom, type PageRequest } from '../../../common/http/paging';

type DiagramAnalysis = Extract<ArtifactAnalysis, { type: 'diagram' }>;
type Graph = GraphModel | OverlaidGraph;

const KIND_LABEL: Record<ArtifactKind, string> = {
  'architecture-diagram': 'architecture diagram',
  flow: 'flow',
  'database-schema': 'database',
  'job-notes': 'jobs notes file',
  'job-dependencies': 'job-dependency graph',
  'service-summary': 'service summary',
  doc: 'doc',
  'api-spec': 'API spec',
};

/** The read side of the artifact store. Every lookup is scoped to the caller's organization by the controller. */
@Injectable()
export class ArtifactsReadService {
  constructor(
    private readonly repository: ServicesRepository,
    private readonly cache: AnswerCache,
    private readonly lookups: ReadLookups,
    private readonly layouts: DiagramLayoutService,
    private readonly blobs: BlobStore,
  ) {}

  /** By name; the cursor is the last name of the previous page (NAME_CURSOR). */
  async listServices(organizationId: string, { limit, after }: Pick<PageRequest<string>, 'limit' | 'after'>): Promise<ListPage<ServiceListItem>> {
    const rows = await this.repository.listServices(organizationId, { limit: limit + 1, after });
    return pageFrom(rows, limit, ({ service, artifactCount }) => serviceItem(service, artifactCount), ({ service }) => [service.name]);
  }

  async getService(organizationId: string, serviceName: string, revisionParam?: number): Promise<ServiceDetail> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = revision === 0 ? [] : await this.repository.versionsInRevision(service.id, revision);
    const record = revision === 0 ? null : await this.repository.findRevision(service.id, revision);
    return {
      ...serviceItem(service, versions.length),
      revision,
      revisionSyncedAt: record?.createdAt.toISOString() ?? null,
      artifacts: versions.map(artifactItem),
    };
  }

  /** Newest first; the cursor is the number of the previous page's last revision (NUMBER_CURSOR). */
  async listRevisions(organizationId: string, serviceName: string, { limit, after }: Pick<PageRequest<string>, 'limit' | 'after'>): Promise<ListPage<ServiceRevisionItem>> {
    const service = await this.serviceRecord(organizationId, serviceName);
    const rows = await this.repository.listRevisions(service.id, { limit: limit + 1, before: after === undefined ? undefined : Number(after) });
    return pageFrom(rows, limit, revisionItem, (revision) => [String(revision.number)]);
  }

  /** The diagram answer, serialized once per artifact version and revision (AnswerCache). */
  async getDiagram(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<SerializedAnswer> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    return this.cachedAnswer(service, revision, 'architecture-diagram', name, (version) => this.diagramView(version, revision));
  }

  /**
   * The stored layout of the diagram's default view (DiagramLayout), cached like the diagram; 404
   * diagram_layout_not_found while there is none (DiagramLayoutService then computes it), so the page lays it out.
   */
  async getDiagramLayout(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<SerializedAnswer> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const build = async (version: ArtifactVersionRecord) => {
      const layout = await this.layouts.find(service.id, revision, version);
      if (!layout) throw artifactsError(ArtifactsErrorCode.DiagramLayoutNotFound, `The layout of diagram "${name}" in revision ${revision} is not ready; the page lays it out itself.`);
      return layout;
    };
    return this.cachedAnswer(service, revision, 'architecture-diagram', name, build, '#layout');
  }

  /**
   * The diagram drawn as an image (image.svg / image.png): DiagramLayoutService renders it off the main thread and
   * keeps it by a hash of what it is drawn from. Same lookups (and 404s) as the diagram.
   */
  async getDiagramImage(organizationId: string, serviceName: string, name: string, options: DiagramImageOptions, revisionParam?: number): Promise<RenderedDiagramImage> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    return this.layouts.image(service.id, revision, await this.one(service, revision, 'architecture-diagram', name), options);
  }

  /**
   * The id of the service an embed link shows, after checking that what it names exists: the service, the pinned
   * revision (else the current one) and the diagram when one is named (the same 404s as reading them).
   */
  async embedTarget(organizationId: string, serviceName: string, diagram: string | null, revisionParam?: number): Promise<{ serviceId: string }> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    if (diagram !== null) await this.one(service, revision, 'architecture-diagram', diagram);
    return { serviceId: service.id };
  }

  /** The names of the architecture diagrams in the revision (the current one without `revisionParam`). */
  async diagramNames(organizationId: string, serviceName: string, revisionParam?: number): Promise<string[]> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = revision === 0 ? [] : await this.repository.versionsInRevision(service.id, revision, { kind: 'architecture-diagram' });
    return versions.map((version) => version.name);
  }

  /** The answer's bytes in a content coding, kept beside it in the cache; null when the cache is off. */
  compressedAnswer(answer: SerializedAnswer, encoding: AnswerEncoding): Promise<Buffer | null> {
    return this.cache.compressed(answer, encoding);
  }

  /** The diagram as a value, for other modules (drafts); HTTP reads go through getDiagram and its cache. */
  async readDiagram(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<DiagramView<Graph, ApplyReport>> {
    return (await this.readDiagramOfService(organizationId, serviceName, name, revisionParam)).view;
  }

  /** readDiagram with the id of its service (arrangements are stored per service and diagram name). */
  async readDiagramOfService(
    organizationId: string,
    serviceName: string,
    name: string,
    revisionParam?: number,
  ): Promise<{ serviceId: string; view: DiagramView<Graph, ApplyReport> }> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    return { serviceId: service.id, view: await this.diagramView(await this.one(service, revision, 'architecture-diagram', name), revision) };
  }

  /** A diagram version as DiagramView (also the diagrams of a preview, PreviewsService). */
  async diagramView(version: ArtifactVersionRecord, revision: number): Promise<DiagramView<Graph, ApplyReport>> {
    const analysis = diagramAnalysis(version);
    const contents = await this.blobs.blobContents([version.sha256, version.contextSha256]);
    const contextText = version.contextSha256 ? contents.get(version.contextSha256) : undefined;
    return {
      name: version.name,
      kind: analysis.diagramKind,
      revision,
      path: version.path,
      mermaid: contents.get(version.sha256) ?? '',
      sha256: version.sha256,
      contextPath: version.contextPath,
      contextSha256: version.contextSha256,
      context: contextText === undefined ? null : (JSON.parse(contextText) as unknown),
      graph: analysis.overlaid ?? analysis.graph,
      report: analysis.report,
    };
  }

  /** The diagram's files exactly as synced, for Export To Mermaid: the stored blobs, never regenerated. */
  async getDiagramSource(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<DiagramSource> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const version = await this.one(service, revision, 'architecture-diagram', name);
    const contents = await this.blobs.blobContents([version.sha256, version.contextSha256]);
    const context = version.contextPath && version.contextSha256 ? syncedFile(version.contextPath, version.contextSha256, contents) : null;
    return {
      name: version.name,
      kind: diagramAnalysis(version).diagramKind,
      revision,
      exact: true,
      mermaid: syncedFile(version.path, version.sha256, contents),
      context,
    };
  }

  /** Every artifact's files of one revision exactly as synced (`service-cli diff` parses them as it parses a checkout). */
  async getRevisionFiles(organizationId: string, serviceName: string, revisionParam?: number): Promise<ServiceRevisionFiles> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = revision === 0 ? [] : await this.repository.versionsInRevision(service.id, revision);
    const contents = await this.blobs.blobContents(versions.flatMap((version) => [version.sha256, version.contextSha256, version.notesSha256]));
    const optional = (path: string | null, sha256: string | null) => (path && sha256 ? syncedFile(path, sha256, contents) : null);
    return {
      service: service.name,
      revision,
      artifacts: versions.map((version) => ({
        kind: version.kind,
        name: version.name,
        file: syncedFile(version.path, version.sha256, contents),
        context: optional(version.contextPath, version.contextSha256),
        notes: optional(version.notesPath, version.notesSha256),
        engine: version.engine,
        format: version.format,
      })),
    };
  }

  async diffDiagram(organizationId: string, serviceName: string, name: string, fromParam?: number, toParam?: number): Promise<DiagramDiff> {
    const service = await this.serviceRecord(organizationId, serviceName);
    if (fromParam === undefined || toParam === undefined) {
      throw artifactsError(ArtifactsErrorCode.InvalidRevision, 'A diff needs both ?from=<revision> and ?to=<revision>.');
    }
    const from = await this.revisionNumber(service, fromParam);
    const to = await this.revisionNumber(service, toParam);
    const [before] = await this.repository.versionsInRevision(service.id, from, { kind: 'architecture-diagram', name });
    const [after] = await this.repository.versionsInRevision(service.id, to, { kind: 'architecture-diagram', name });
    if (!before && !after) {
      throw artifactsError(ArtifactsErrorCode.ArtifactNotFound, `Service ${service.name} has no architecture diagram named "${name}" in revision ${from} or ${to}.`);
    }
    return { name, from, to, ...diffGraphs(diagramGraph(before), diagramGraph(after)) };
  }

  async listFlows(organizationId: string, serviceName: string, revisionParam?: number): Promise<FlowListItem[]> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = await this.repository.versionsInRevision(service.id, revision, { kind: 'flow' });
    return versions.map((version) => {
      const { diagramKind, graph } = diagramAnalysis(version);
      return { name: version.name, path: version.path, kind: diagramKind, notesPath: version.notesPath, nodeCount: graph.nodes.length, edgeCount: graph.edges.length };
    });
  }

  async getFlow(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<FlowView<Graph>> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const version = await this.one(service, revision, 'flow', name);
    const { diagramKind, graph } = diagramAnalysis(version);
    const contents = await this.blobs.blobContents([version.sha256, version.notesSha256]);
    return {
      name: version.name,
      kind: diagramKind,
      revision,
      path: version.path,
      mermaid: contents.get(version.sha256) ?? '',
      graph,
      notesPath: version.notesPath,
      notes: version.notesSha256 ? (contents.get(version.notesSha256) ?? null) : null,
    };
  }

  async listDatabases(organizationId: string, serviceName: string, revisionParam?: number): Promise<DatabaseListItem[]> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = await this.repository.versionsInRevision(service.id, revision, { kind: 'database-schema' });
    return versions.map((version) => ({
      name: version.name,
      engine: databaseEngine(version),
      path: version.path,
      notesPath: version.notesPath,
      tableCount: schemaTables(version.analysis).length,
    }));
  }

  async getDatabase(organizationId: string, serviceName: string, name: string, revisionParam?: number): Promise<DatabaseView> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const version = await this.one(service, revision, 'database-schema', name);
    const contents = await this.blobs.blobContents([version.sha256, version.notesSha256]);
    const schema = contents.get(version.sha256) ?? '';
    const analysis = version.analysis;
    const document = analysis.type === 'json-schema' ? parseJsonDocument(schema) : undefined;
    return {
      name: version.name,
      engine: databaseEngine(version),
      revision,
      path: version.path,
      schema,
      tables: analysis.type === 'sql-schema' ? analysis.tables : [],
      document: document?.ok ? document.value : null,
      collections: analysis.type === 'json-schema' ? analysis.collections : [],
      notesPath: version.notesPath,
      notes: version.notesSha256 ? (contents.get(version.notesSha256) ?? null) : null,
    };
  }

  async getJobs(organizationId: string, serviceName: string, revisionParam?: number): Promise<JobsView<Graph>> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const [notes] = await this.repository.versionsInRevision(service.id, revision, { kind: 'job-notes' });
    const [dependencies] = await this.repository.versionsInRevision(service.id, revision, { kind: 'job-dependencies' });
    if (!notes && !dependencies) {
      throw artifactsError(ArtifactsErrorCode.ArtifactNotFound, `Service ${service.name} has no job notes or job dependencies in revision ${revision}.`);
    }
    const contents = await this.blobs.blobContents([notes?.sha256 ?? null, dependencies?.sha256 ?? null]);
    const dependencyAnalysis = dependencies ? diagramAnalysis(dependencies) : undefined;
    return {
      revision,
      notesPath: notes?.path ?? null,
      notes: notes ? (contents.get(notes.sha256) ?? null) : null,
      dependencies:
        dependencies && dependencyAnalysis
          ? { path: dependencies.path, mermaid: contents.get(dependencies.sha256) ?? '', kind: dependencyAnalysis.diagramKind, graph: dependencyAnalysis.graph }
          : null,
    };
  }

  async getSummary(organizationId: string, serviceName: string, revisionParam?: number): Promise<SummaryView> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const [summary] = await this.repository.versionsInRevision(service.id, revision, { kind: 'service-summary' });
    if (!summary) throw artifactsError(ArtifactsErrorCode.ArtifactNotFound, `Service ${service.name} has no service summary in revision ${revision}.`);
    const contents = await this.blobs.blobContents([summary.sha256]);
    return { revision, path: summary.path, markdown: contents.get(summary.sha256) ?? '' };
  }

  async listTexts(organizationId: string, serviceName: string, kind: 'doc' | 'api-spec', revisionParam?: number): Promise<TextArtifactListItem[]> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    const versions = await this.repository.versionsInRevision(service.id, revision, { kind });
    return versions.map(textItem);
  }

  /** A doc or API spec answer, serialized once per artifact version and revision (AnswerCache). */
  async getText(organizationId: string, serviceName: string, kind: 'doc' | 'api-spec', name: string, revisionParam?: number): Promise<SerializedAnswer> {
    const { service, revision } = await this.resolve(organizationId, serviceName, revisionParam);
    return this.cachedAnswer(service, revision, kind, name, async (version): Promise<TextArtifactView> => {
      const contents = await this.blobs.blobContents([version.sha256]);
      return { ...textItem(version), revision, content: contents.get(version.sha256) ?? '' };
    });
  }

  /**
   * An artifact answer through the cache. A hit needs only the version's id (the key), so the stored row with its
   * large analysis is loaded on a miss alone; with the cache off the row is loaded at once, as before.
   */
  private async cachedAnswer(
    service: ServiceRecord,
    revision: number,
    kind: ArtifactKind,
    name: string,
    build: (version: ArtifactVersionRecord) => Promise<unknown>,
    /** Tells apart answers built from the same version (the diagram and its layout). */
    answerName = '',
  ): Promise<SerializedAnswer> {
    if (!this.cache.enabled) return serialize(await build(await this.one(service, revision, kind, name)));
    const id = revision === 0 ? null : await this.lookups.versionId(service.id, revision, kind, name);
    if (!id) throw notInRevision(service, revision, kind, name);
    return this.cache.answer(`${id}@${revision}${answerName}`, async () => {
      // Retention may remove the version between the two lookups: then it is no longer in the revision either.
      const version = await this.repository.findVersion(id);
      if (!version) throw notInRevision(service, revision, kind, name);
      return build(version);
    });
  }

  private async serviceRecord(organizationId: string, name: string): Promise<ServiceRecord> {
    const service = await this.lookups.serviceRecord(organizationId, name);
    if (!service) throw artifactsError(ArtifactsErrorCode.ServiceNotFound, `There is no service named "${name}" in this organization.`);
    return service;
  }

  private async resolve(organizationId: string, serviceName: string, revisionParam?: number): Promise<{ service: ServiceRecord; revision: number }> {
    const service = await this.serviceRecord(organizationId, serviceName);
    const revision = revisionParam === undefined ? service.currentRevision : await this.revisionNumber(service, revisionParam);
    return { service, revision };
  }

  /** The revision number (parsed by RevisionNumberPipe) when the service has that revision. */
  private async revisionNumber(service: ServiceRecord, number: number): Promise<number> {
    if (!(await this.lookups.revisionExists(service.id, number))) {
      throw artifactsError(
        ArtifactsErrorCode.RevisionNotFound,
        `Service ${service.name} has no revision ${number}; its current revision is ${service.currentRevision}.`,
      );
    }
    return number;
  }

  private async one(service: ServiceRecord, revision: number, kind: ArtifactKind, name: string): Promise<ArtifactVersionRecord> {
    const [version] = revision === 0 ? [] : await this.repository.versionsInRevision(service.id, revision, { kind, name });
    if (!version) throw notInRevision(service, revision, kind, name);
    return version;
  }
}

function notInRevision(service: ServiceRecord, revision: number, kind: ArtifactKind, name: string): Error {
  return artifactsError(ArtifactsErrorCode.ArtifactNotFound, `Service ${service.name} has no ${KIND_LABEL[kind]} named "${name}" in revision ${revision}.`);
}

function serviceItem(service: ServiceRecord, artifactCount: number): ServiceListItem {
  return {
    name: service.name,
    description: service.description,
    repositoryUrl: service.repositoryUrl,
    currentRevision: service.currentRevision,
    lastSyncedAt: service.lastSyncedAt?.toISOString() ?? null,
    createdAt: service.createdAt.toISOString(),
    artifactCount,
  };
}

function artifactItem(version: ArtifactVersionRecord): ArtifactListItem {
  return {
    kind: version.kind,
    name: version.name,
    path: version.path,
    sha256: version.sha256,
    size: version.size,
    contextPath: version.contextPath,
    notesPath: version.notesPath,
    engine: version.engine,
    format: version.format,
    diagramKind: version.analysis.type === 'diagram' ? version.analysis.diagramKind : null,
    sinceRevision: version.firstRevision,
  };
}

function textItem(version: ArtifactVersionRecord): TextArtifactListItem {
  return { name: version.name, path: version.path, size: version.size, format: version.format };
}

/** A stored blob is written with its version in one transaction: a missing one is a broken store, not a 404. */
function syncedFile(path: string, sha256: string, contents: Map<string, string>): SyncedFile {
  const content = contents.get(sha256);
  if (content === undefined) throw new Error(`The stored file ${path} (${sha256}) is missing.`);
  return { path, fileName: path.slice(path.lastIndexOf('/') + 1), content, sha256 };
}

/** Every stored database schema has an engine: the gateway refuses one without (missing_engine). */
function databaseEngine(version: ArtifactVersionRecord): DatabaseEngine {
  if (!version.engine) throw new Error(`Database ${version.name} was stored without an engine.`);
  return version.engine;
}

/** The graph a diff compares; a diagram missing on one side diffs against an empty graph: everything added (or removed). */
export function diagramGraph(version?: ArtifactVersionRecord): Graph {
  if (!version) return { kind: 'flowchart', nodes: [], edges: [], groups: [] };
  const analysis = diagramAnalysis(version);
  return analysis.overlaid ?? analysis.graph;
}

function diagramAnalysis(version: ArtifactVersionRecord): DiagramAnalysis {
  if (version.analysis.type !== 'diagram') throw new Error(`Artifact ${version.kind}/${version.name} has no stored graph.`);
  return version.analysis;
}

function schemaTables(analysis: ArtifactAnalysis): unknown[] {
  if (analysis.type === 'sql-schema') return analysis.tables;
  if (analysis.type === 'json-schema') return analysis.collections;
  return [];
}

function revisionItem(revision: ServiceRevisionRecord): ServiceRevisionItem {
  return {
    number: revision.number,
    createdAt: revision.createdAt.toISOString(),
    artifactCount: revision.artifactCount,
    ...revision.changes,
    syncedBy: revision.syncedBy,
    source: revision.source,
  };
}
