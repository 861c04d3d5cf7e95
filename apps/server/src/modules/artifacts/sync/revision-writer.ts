import { Injectable } from '@nestjs/common';
import { previewPageUrl, servicePageUrl, type SyncArtifact, type SyncArtifactRef, type SyncResult } from '@sc/contracts';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import type { TokenPrincipal } from '../../access/principal';
import { SearchService } from '../../search/search.service';
import { ArtifactsConfig } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { StoreCollector } from '../retention/store-collector';
import { BlobStore, type NewBlob } from '../store/blob-store';
import { PreviewsRepository } from '../store/previews.repository';
import { NOT_IN_A_REVISION, ServicesRepository, type NewVersion, type RevisionMember } from '../store/services.repository';
import type { AnalyzedArtifact, ValidatedBundle } from './bundle-validator';
import { artifactFiles, utf8Bytes } from './bundle-checks';
import { artifactKey, byKindAndName, planRevision, toRef, type RevisionPlan } from './revision-plan';
import { searchEntriesOf } from './search-entries';
import { SyncAudit, tokenRef } from './sync-audit';

const DAY_MS = 86_400_000;

/**
 * The storing half of a sync, run by SyncService inside its unit of work: a validated bundle becomes the service's
 * next revision (or confirms the current one), or a preview of it.
 */
@Injectable()
export class RevisionWriter {
  constructor(
    private readonly repository: ServicesRepository,
    private readonly blobs: BlobStore,
    private readonly previews: PreviewsRepository,
    private readonly collector: StoreCollector,
    private readonly search: SearchService,
    private readonly syncAudit: SyncAudit,
    private readonly clock: Clock,
    private readonly config: ArtifactsConfig,
    private readonly appConfig: AppConfig,
  ) {}

  async writeRevision(principal: TokenPrincipal, { bundle, analyzed }: ValidatedBundle, digest: string): Promise<SyncResult> {
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
      await this.syncAudit.synced(principal, service, service.currentRevision, 'unchanged', metadata.repositoryUrl, bundle.source ?? null);
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
    await this.syncAudit.synced(principal, service, number, 'created', metadata.repositoryUrl, bundle.source ?? null, plan);
    return result(number, 'created');
  }

  /**
   * `sync --preview`: the same storage as a revision (blobs, versions), linked to a preview with this label instead
   * (replacing the service's previous one of that label). The service's current revision, metadata and last sync
   * time stay as they are. Only a service synced at least once can be previewed: a preview is compared with the
   * current revision, and creating the service here would show it to every reader.
   */
  async writePreview(principal: TokenPrincipal, { bundle, analyzed }: ValidatedBundle, label: string): Promise<SyncResult> {
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
    await this.collector.collectUnlinked(service.id);
    await this.syncAudit.previewed(principal, service, bundle.service.repositoryUrl ?? null, bundle.source ?? null, {
      preview: id,
      label,
      currentRevision: service.currentRevision,
      expiresAt: expiresAt.toISOString(),
      created: changes.created.length,
      updated: changes.updated.length,
      removed: changes.removed.length,
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
    await this.blobs.insertBlobs(changedArtifacts.flatMap(({ artifact }) => artifactFiles(artifact).map(toBlob)), now);
    const newIds = await this.repository.upsertVersions(serviceId, changedArtifacts.map((item) => toVersion(item, firstRevision)), now);
    const currentIds = new Map(current.map((version) => [artifactKey(version), version.id]));
    return analyzed.map((item) => {
      const versionId = newIds.get(artifactKey(item)) ?? currentIds.get(artifactKey(item));
      if (!versionId) throw new Error(`No stored version for ${artifactKey(item)}.`);
      return { kind: item.kind, name: item.name, versionId };
    });
  }
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
