import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import {
  previewLabelProblem,
  previewPageUrl,
  servicePageUrl,
  syncBundleDigest,
  syncSourceProblems,
  type SyncSource,
  type TokenRef,
  type SyncArtifact,
  type SyncArtifactRef,
  type SyncBundle,
  type SyncCheckRequest,
  type SyncCheckResult,
  type SyncProblemDetail,
  type SyncResult,
} from '@sc/contracts';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import { AuditService } from '../../audit/audit.service';
import { AppConfig } from '../../../config/app-config';
import { sha256Hex } from '../../../common/crypto/tokens';
import type { TokenPrincipal } from '../../access/principal';
import { ShutdownService } from '../../health/shutdown.service';
import { MermaidParseService } from '../../parsing/mermaid-parse.service';
import { MetricsService, outcomeOf } from '../../metrics/metrics.service';
import { ArtifactAnalyzer, issuesToProblems, type ArtifactAnalysis, type MermaidParser } from './artifact-analysis';
import { ArtifactsConfig } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { ArtifactsRepository, NOT_IN_A_REVISION, type NewBlob, type NewVersion, type RevisionMember } from '../store/services.repository';
import { PreviewsRepository } from '../store/previews.repository';
import { artifactFiles, checkBundleRules, enforceLimits, parseBundleShape, utf8Bytes } from './bundle-checks';
import { artifactFingerprint, artifactKey, byKindAndName, planRevision, toRef, type RevisionPlan } from './revision-plan';
import { SqlSchemaParseService } from '../../parsing/sql-schema-parse.service';
import { DiagramLayoutService } from '../layouts/diagram-layout.service';
import { searchEntriesOf } from './search-entries';
import { SearchService } from '../../search/search.service';
import { UnitOfWork } from '../../../database/unit-of-work';

/** Injection token of the function that parses Mermaid for the analyzer (MermaidParseService's worker pool). */
export const MERMAID_PARSER = Symbol('MERMAID_PARSER');

/** Where the time of a sync went; the gateway reports it in a Server-Timing header. */
export interface TimedSyncResult {
  result: SyncResult;
  timings: { validateMs: number; storeMs: number };
}

interface AnalyzedArtifact extends SyncArtifactRef {
  artifact: SyncArtifact;
  fingerprint: string;
  analysis: ArtifactAnalysis;
}

/**
 * The gateway's sync: check the bundle, validate every artifact with the same engine as the CLI, then store
 * a new revision in one transaction, or nothing at all.
 */
@Injectable()
export class SyncService {
  private readonly analyzer: ArtifactAnalyzer;
  private readonly logger = new Logger(SyncService.name);

  constructor(
    private readonly repository: ArtifactsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: ArtifactsConfig,
    private readonly clock: Clock,
    private readonly shutdown: ShutdownService,
    private readonly metrics: MetricsService,
    private readonly appConfig: AppConfig,
    @Inject(MERMAID_PARSER) parseMermaid: MermaidParser,
    sqlSchemas: SqlSchemaParseService,
    private readonly mermaidParse: MermaidParseService,
    private readonly layouts: DiagramLayoutService,
    private readonly audit: AuditService,
    private readonly previews: PreviewsRepository,
    private readonly search: SearchService,
  ) {
    this.analyzer = new ArtifactAnalyzer(parseMermaid, (sql, engine) => sqlSchemas.parse(sql, engine));
  }

  /**
   * `previewLabel` (the route's `?preview=`): store the bundle as that preview of the service instead of a revision,
   * after exactly the same checks.
   */
  async sync(principal: TokenPrincipal, body: unknown, previewLabel?: unknown): Promise<TimedSyncResult> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const timed = await this.timedSync(principal, body, previewLabel);
      const { result } = timed;
      this.metrics.observeSync(seconds(), result.status, result.created.length + result.updated.length + result.unchanged.length);
      return timed;
    } catch (error) {
      this.metrics.observeSync(seconds(), outcomeOf(error));
      await this.recordRefusal(principal, body, error, previewLabel);
      throw error;
    }
  }

  /**
   * Audits a refused sync as `service.sync_refused`. Written after the sync's transaction rolled back (on the pool),
   * so the refusal is on record although nothing of the sync is; a failure to write it is logged, never answered.
   */
  private async recordRefusal(principal: TokenPrincipal, body: unknown, error: unknown, previewLabel: unknown): Promise<void> {
    try {
      const bundle = isRecord(body) ? body : {};
      const service = isRecord(bundle['service']) ? bundle['service'] : {};
      const name = typeof service['name'] === 'string' && service['name'] !== '' ? service['name'].slice(0, 100) : null;
      const found = name ? await this.repository.findService(principal.organizationId, name) : null;
      const repositoryUrl = typeof service['repositoryUrl'] === 'string' ? service['repositoryUrl'].slice(0, 2048) : null;
      const source = bundle['source'] !== undefined && syncSourceProblems(bundle['source']).length === 0 ? (bundle['source'] as SyncSource) : null;
      const details = error instanceof DomainError ? error.details : [];
      await this.audit.record({
        organizationId: principal.organizationId,
        actor: principal,
        action: 'service.sync_refused',
        target: { type: 'service', id: found?.id ?? name ?? '(no service name)', label: name },
        after: {
          code: error instanceof DomainError ? error.code : 'internal_error',
          message: error instanceof DomainError ? error.message.slice(0, 500) : 'Unexpected server error during the sync.',
          problems: details.length,
          currentRevision: found?.currentRevision ?? null,
          ...(previewLabel !== undefined ? { preview: String(previewLabel).slice(0, 200) } : {}),
          ...provenance(principal, repositoryUrl, source),
        },
      });
    } catch (auditError) {
      this.logger.error(`Could not audit a refused sync: ${(auditError as Error).message}`);
    }
  }

  private async timedSync(principal: TokenPrincipal, body: unknown, previewLabel: unknown): Promise<TimedSyncResult> {
    const started = performance.now();
    const label = previewLabel === undefined ? undefined : checkPreviewLabel(previewLabel);
    const bundle = this.checkBundle(body);
    const analyzed = await this.validate(principal.organizationId, bundle);
    const validated = performance.now();
    const result =
      label === undefined
        ? await this.store(() => this.writeRevision(principal, bundle, analyzed, syncBundleDigest(bundle, sha256Hex)))
        : await this.store(() => this.writePreview(principal, bundle, analyzed, label));
    // Committed: the new revision's diagrams are laid out in the background (the answer does not wait for it).
    if (result.status === 'created') void this.layouts.afterSync(result.organizationId, result.service, result.revision);
    const timings = { validateMs: validated - started, storeMs: performance.now() - validated };
    this.logger.log({
      msg: 'sync',
      organizationId: result.organizationId,
      service: result.service,
      revision: result.revision,
      status: result.status,
      created: result.created.length,
      updated: result.updated.length,
      unchanged: result.unchanged.length,
      removed: result.removed.length,
      ...(result.preview ? { preview: result.preview.label, previewId: result.preview.id } : {}),
      tokenId: principal.tokenId,
      validateMs: Math.round(timings.validateMs),
      storeMs: Math.round(timings.storeMs),
    });
    return { result, timings };
  }

  /**
   * POST /gateway/sync/check: does the service's current revision come from a bundle with this digest? A yes
   * lets the CLI skip validating and sending, so it counts as an unchanged sync (last sync time updated), the
   * same as posting the bundle would. The token's organization is the only one searched.
   */
  async check(principal: TokenPrincipal, request: SyncCheckRequest): Promise<SyncCheckResult> {
    const found = await this.repository.currentDigest(principal.organizationId, request.service);
    const current = found !== null && found.digest === request.digest;
    if (found && current) {
      await this.unitOfWork.run(async () => {
        await this.repository.recordUnchangedSync(found.serviceId, this.clock.now());
        await this.recordSynced(principal, { id: found.serviceId, name: request.service }, found.revision, 'unchanged', found.repositoryUrl, request.source ?? null);
      });
      this.logger.log({ msg: 'sync', organizationId: principal.organizationId, service: request.service, revision: found.revision, status: 'unchanged', via: 'check', tokenId: principal.tokenId });
    } else {
      // The CLI validates locally next and then posts the bundle: the parser threads start (jsdom, Mermaid) meanwhile.
      this.mermaidParse.warmUp();
    }
    return {
      organizationId: principal.organizationId,
      service: request.service,
      revision: found && found.revision > 0 ? found.revision : null,
      current,
      serviceUrl: servicePageUrl(this.appConfig.publicUrl, principal.organizationId, request.service),
    };
  }

  private checkBundle(body: unknown): SyncBundle {
    const shape = parseBundleShape(body);
    if (!shape.ok) {
      throw artifactsError(ArtifactsErrorCode.InvalidBundle, `The sync bundle is malformed (${shape.details.length} problem(s)).`, shape.details);
    }
    enforceLimits(shape.bundle, this.config.limits);
    return shape.bundle;
  }

  /** Every problem of every artifact, or the analyzed artifacts when there is none. */
  private async validate(organizationId: string, bundle: SyncBundle): Promise<AnalyzedArtifact[]> {
    const problems: SyncProblemDetail[] = checkBundleRules(bundle);
    const cached = await this.cachedAnalyses(organizationId, bundle.service.name);
    const databaseNames = bundle.artifacts.filter((artifact) => artifact.kind === 'database-schema').map((artifact) => artifact.name);
    const analyzed: AnalyzedArtifact[] = [];
    // The Mermaid and SQL parses queue on their worker pools; the other checks are synchronous and cheap.
    const results = await Promise.all(
      bundle.artifacts.map(async (artifact) => {
        const fingerprint = artifactFingerprint(artifact);
        return { artifact, fingerprint, result: await this.analyzer.analyze({ artifact, cached: cached.get(fingerprint), databaseNames }) };
      }),
    );
    for (const { artifact, fingerprint, result } of results) {
      if (result.ok) analyzed.push({ kind: artifact.kind, name: artifact.name, artifact, fingerprint, analysis: result.analysis });
      else problems.push(...result.problems);
    }
    // A strict sync (.service.yaml `strict: true`, `sync --strict`) refuses warnings as it refuses errors.
    if (bundle.strict) problems.push(...analyzed.flatMap(strictWarnings));
    if (problems.length > 0) {
      const artifacts = new Set(problems.filter((problem) => problem.artifact).map((problem) => artifactKey(problem.artifact as SyncArtifactRef)));
      throw artifactsError(
        ArtifactsErrorCode.SyncValidationFailed,
        `The sync was refused and nothing was stored: ${problems.length} problem(s)${artifacts.size > 0 ? ` in ${artifacts.size} artifact(s)` : ''}${bundle.strict ? ' (strict: warnings count)' : ''}.`,
        problems.map((problem) => ({ ...problem })),
      );
    }
    return analyzed;
  }

  /** Analyses stored with the current revision, by fingerprint: identical artifacts skip the Mermaid and SQL parses. */
  private async cachedAnalyses(organizationId: string, serviceName: string): Promise<Map<string, ArtifactAnalysis>> {
    const service = await this.repository.findService(organizationId, serviceName);
    if (!service || service.currentRevision === 0) return new Map();
    const versions = await this.repository.versionsInRevision(service.id, service.currentRevision);
    return new Map(versions.map((version) => [version.fingerprint, version.analysis]));
  }

  private store(write: () => Promise<SyncResult>): Promise<SyncResult> {
    return this.unitOfWork.run(async () => {
      const stored = await write();
      // Past the shutdown grace period nothing commits: the transaction rolls back whole.
      this.shutdown.assertRunning();
      return stored;
    });
  }

  private async writeRevision(principal: TokenPrincipal, bundle: SyncBundle, analyzed: AnalyzedArtifact[], digest: string): Promise<SyncResult> {
    const now = this.clock.now();
    const metadata = { description: bundle.service.description ?? null, repositoryUrl: bundle.service.repositoryUrl ?? null };
    const service = await this.repository.lockService(principal.organizationId, bundle.service.name, now);
    const current = await this.repository.revisionMembers(service.id, service.currentRevision);
    const plan = planRevision(current, analyzed);
    const result = (revision: number, status: SyncResult['status']): SyncResult => ({
      organizationId: principal.organizationId,
      service: service.name,
      revision,
      status,
      created: refs(plan.created),
      updated: refs(plan.updated),
      unchanged: refs(plan.unchanged),
      removed: refs(plan.removed),
      serviceUrl: servicePageUrl(this.appConfig.publicUrl, principal.organizationId, service.name),
    });
    // The search index follows the current revision, in this transaction (searchEntriesOf reads the analyses above).
    const searchEntries = () => searchEntriesOf({ name: service.name, description: metadata.description }, analyzed);
    if (!plan.changed) {
      await this.search.refreshUnchangedService(principal.organizationId, service.id, searchEntries);
      await this.repository.recordSync(service.id, metadata, now);
      // The metadata may have changed (or the revision predates digests): this bundle now describes the revision.
      await this.repository.setRevisionDigest(service.id, service.currentRevision, digest);
      await this.recordSynced(principal, service, service.currentRevision, 'unchanged', metadata.repositoryUrl, bundle.source ?? null);
      return result(service.currentRevision, 'unchanged');
    }

    const number = service.currentRevision + 1;
    const members = await this.storeVersions(service.id, current, plan, analyzed, number, now);
    await this.repository.insertRevision(
      {
        serviceId: service.id,
        number,
        createdAt: now,
        tokenId: principal.tokenId,
        artifactCount: members.length,
        changes: { created: refs(plan.created), updated: refs(plan.updated), removed: refs(plan.removed) },
        bundleDigest: digest,
        syncedBy: tokenRef(principal),
        source: bundle.source ?? null,
      },
      members,
    );
    await this.repository.recordSync(service.id, metadata, now, number);
    await this.search.replaceService(principal.organizationId, service.id, searchEntries());
    await this.recordSynced(principal, service, number, 'created', metadata.repositoryUrl, bundle.source ?? null, plan);
    return result(number, 'created');
  }

  /**
   * Stores the blobs and versions of the plan's new and changed artifacts (versions stored before are re-used) and
   * returns every artifact of the bundle with the id of its version: the links of a revision or a preview.
   */
  private async storeVersions(
    serviceId: string,
    current: RevisionMember[],
    plan: RevisionPlan<AnalyzedArtifact>,
    analyzed: AnalyzedArtifact[],
    firstRevision: number,
    now: Date,
  ): Promise<Array<{ kind: SyncArtifact['kind']; name: string; versionId: string }>> {
    const changedArtifacts = [...plan.created, ...plan.updated];
    await this.repository.insertBlobs(changedArtifacts.flatMap(({ artifact }) => artifactFiles(artifact).map(toBlob)), now);
    const newIds = await this.repository.upsertVersions(serviceId, changedArtifacts.map((item) => toVersion(item, firstRevision)), now);
    const currentIds = new Map(current.map((version) => [artifactKey(version), version.id]));
    return analyzed.map((item) => {
      const versionId = newIds.get(artifactKey(item)) ?? currentIds.get(artifactKey(item));
      if (!versionId) throw new Error(`No stored version for ${artifactKey(item)}.`);
      return { kind: item.kind, name: item.name, versionId };
    });
  }

  /**
   * `sync --preview`: the same storage as a revision (blobs, versions), linked to a preview with this label instead
   * (replacing the service's previous one of that label). The service's current revision, metadata and last sync
   * time stay as they are. Only a service synced at least once can be previewed: a preview is compared with the
   * current revision, and creating the service here would show it to every reader.
   */
  private async writePreview(principal: TokenPrincipal, bundle: SyncBundle, analyzed: AnalyzedArtifact[], label: string): Promise<SyncResult> {
    const now = this.clock.now();
    const service = await this.repository.lockServiceByName(principal.organizationId, bundle.service.name);
    if (!service || service.currentRevision === 0) {
      throw artifactsError(
        ArtifactsErrorCode.ServiceNotFound,
        `This organization has no synced service named "${bundle.service.name}": a preview is compared with the current revision, so run service-cli sync (without --preview) once first.`,
      );
    }
    const current = await this.repository.revisionMembers(service.id, service.currentRevision);
    const plan = planRevision(current, analyzed);
    const members = await this.storeVersions(service.id, current, plan, analyzed, NOT_IN_A_REVISION, now);
    const expiresAt = new Date(now.getTime() + this.config.previews.days * DAY_MS);
    const changes = { created: refs(plan.created), updated: refs(plan.updated), removed: refs(plan.removed) };
    const id = await this.previews.replacePreview(
      {
        serviceId: service.id,
        label,
        baseRevision: service.currentRevision,
        createdAt: now,
        expiresAt,
        tokenId: principal.tokenId,
        artifactCount: members.length,
        changes,
        syncedBy: tokenRef(principal),
        source: bundle.source ?? null,
      },
      members,
    );
    // The replaced preview's versions that nothing else links, and their blobs, go now rather than at expiry.
    await this.repository.deleteUnreferencedBlobs(await this.repository.deleteUnlinkedVersions(service.id));
    await this.recordServiceEvent(principal, service, 'service.previewed', {
      preview: id,
      label,
      currentRevision: service.currentRevision,
      expiresAt: expiresAt.toISOString(),
      created: changes.created.length,
      updated: changes.updated.length,
      removed: changes.removed.length,
      ...provenance(principal, bundle.service.repositoryUrl ?? null, bundle.source ?? null),
    });
    return {
      organizationId: principal.organizationId,
      service: service.name,
      revision: service.currentRevision,
      status: 'unchanged',
      ...changes,
      unchanged: refs(plan.unchanged),
      serviceUrl: servicePageUrl(this.appConfig.publicUrl, principal.organizationId, service.name),
      preview: { id, label, url: previewPageUrl(this.appConfig.publicUrl, principal.organizationId, service.name, id), expiresAt: expiresAt.toISOString() },
    };
  }

  /** Audits an accepted sync as `service.synced`, inside the sync's unit of work (the entry exists exactly when the sync does). */
  private recordSynced(
    principal: TokenPrincipal,
    service: { id: string; name: string },
    revision: number,
    status: SyncResult['status'],
    repositoryUrl: string | null,
    source: SyncSource | null,
    changes?: { created: unknown[]; updated: unknown[]; removed: unknown[] },
  ): Promise<void> {
    return this.recordServiceEvent(principal, service, 'service.synced', {
      revision,
      status,
      ...(changes ? { created: changes.created.length, updated: changes.updated.length, removed: changes.removed.length } : {}),
      ...provenance(principal, repositoryUrl, source),
    });
  }

  /** An accepted sync's or preview push's audit entry, written in its unit of work. */
  private recordServiceEvent(principal: TokenPrincipal, service: { id: string; name: string }, action: 'service.synced' | 'service.previewed', after: Record<string, unknown>): Promise<void> {
    return this.audit.record({ organizationId: principal.organizationId, actor: principal, action, target: { type: 'service', id: service.id, label: service.name }, after });
  }
}

/** The token that synced, as revisions keep it (its name and creator as they are now). */
function tokenRef(principal: TokenPrincipal): TokenRef {
  return { tokenId: principal.tokenId, tokenName: principal.tokenName, tokenPrefix: principal.tokenPrefix, userId: principal.createdByUserId, email: principal.creatorEmail };
}

/** What a sync's audit entry tells of its origin (the actor already names the token's id, prefix and creator). */
function provenance(principal: TokenPrincipal, repositoryUrl: string | null, source: SyncSource | null): Record<string, unknown> {
  return { tokenName: principal.tokenName, repositoryUrl, commit: source?.commit ?? null, branch: source?.branch ?? null, ciRunUrl: source?.ciRunUrl ?? null };
}

const DAY_MS = 86_400_000;

/** The route's `?preview=` as a label, or 400 invalid_preview_label (an empty, repeated or malformed value). */
function checkPreviewLabel(value: unknown): string {
  const problem = Array.isArray(value) ? 'Give ?preview=<label> once.' : previewLabelProblem(value);
  if (problem !== null) throw artifactsError(ArtifactsErrorCode.InvalidPreviewLabel, problem, [{ path: 'preview', message: problem }]);
  return value as string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The warnings a diagram's analysis holds (its context's), as problems of a strict sync. */
function strictWarnings({ artifact, analysis }: AnalyzedArtifact): SyncProblemDetail[] {
  if (analysis.type !== 'diagram' || !analysis.report) return [];
  return issuesToProblems(analysis.report.warnings, { kind: artifact.kind, name: artifact.name }, artifact.file.path);
}

function refs(items: SyncArtifactRef[]): SyncArtifactRef[] {
  return items.map(toRef).sort(byKindAndName);
}

function toBlob(file: { content: string; sha256: string }): NewBlob {
  return { sha256: file.sha256.toLowerCase(), content: file.content, size: utf8Bytes(file.content) };
}

function toVersion({ artifact, fingerprint, analysis }: AnalyzedArtifact, revision: number): NewVersion {
  return {
    kind: artifact.kind,
    name: artifact.name,
    fingerprint,
    path: artifact.file.path,
    sha256: artifact.file.sha256.toLowerCase(),
    size: utf8Bytes(artifact.file.content),
    contextPath: artifact.context?.path ?? null,
    contextSha256: artifact.context?.sha256.toLowerCase() ?? null,
    notesPath: artifact.notes?.path ?? null,
    notesSha256: artifact.notes?.sha256.toLowerCase() ?? null,
    engine: artifact.engine ?? null,
    format: artifact.format ?? null,
    analysis,
    firstRevision: revision,
  };
}
