import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { previewPageUrl, type PreviewDiagram, type PreviewListItem, type PreviewView } from '@sc/contracts';
import { diffGraphs, type ApplyReport, type GraphModel, type OverlaidGraph } from '@sc/diagram';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { UnitOfWork } from '../../../database/unit-of-work';
import type { Principal } from '../../access/principal';
import { AuditService } from '../../audit/audit.service';
import { ArtifactsReadService, diagramGraph } from '../read/artifacts-read.service';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { ServicesRepository } from '../store/services.repository';
import type { ArtifactVersionRecord } from '../store/entities/artifact-version.entity';
import type { ServiceRecord } from '../store/entities/service.entity';
import { StoreCollector } from '../retention/store-collector';
import { PreviewsRepository, type PreviewRecord } from '../store/previews.repository';

type Graph = GraphModel | OverlaidGraph;

/**
 * The read side and deletion of previews (`sync --preview`; SyncService stores them). A preview whose `expires_at`
 * has passed (by the injected clock) answers 404 like one that never existed; RetentionService deletes it.
 */
@Injectable()
export class PreviewsService {
  constructor(
    private readonly repository: ServicesRepository,
    private readonly previews: PreviewsRepository,
    private readonly reads: ArtifactsReadService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
    private readonly audit: AuditService,
    private readonly collector: StoreCollector,
  ) {}

  /** The service's open previews, newest first. */
  async list(organizationId: string, serviceName: string): Promise<PreviewListItem[]> {
    const service = await this.serviceRecord(organizationId, serviceName);
    const rows = await this.previews.listPreviews(service.id, this.clock.now());
    return rows.map((row) => this.item(organizationId, service, row));
  }

  /**
   * One preview with every architecture diagram of the preview or the current revision compared with the current
   * revision (the graph diff of `GET …/diagrams/:name/diff`); changed and added diagrams carry their DiagramView.
   */
  async get(organizationId: string, serviceName: string, previewId: string): Promise<PreviewView<Graph, ApplyReport>> {
    const service = await this.serviceRecord(organizationId, serviceName);
    const preview = await this.preview(service, previewId);
    const [proposed, current] = await Promise.all([
      this.previews.versionsInPreview(preview.id, 'architecture-diagram'),
      this.repository.versionsInRevision(service.id, service.currentRevision, { kind: 'architecture-diagram' }),
    ]);
    const byName = (versions: ArtifactVersionRecord[]) => new Map(versions.map((version) => [version.name, version]));
    const after = byName(proposed);
    const before = byName(current);
    const names = [...new Set([...after.keys(), ...before.keys()])].sort();
    const diagrams: Array<PreviewDiagram<Graph, ApplyReport>> = [];
    for (const name of names) diagrams.push(await this.compare(name, before.get(name), after.get(name), service.currentRevision));
    return { ...this.item(organizationId, service, preview), service: service.name, currentRevision: service.currentRevision, diagrams };
  }

  /** Deletes an open preview (editors and up) with the versions and blobs only it held; audited as `service.preview_deleted`. */
  async remove(organizationId: string, serviceName: string, previewId: string, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async () => {
      // The lock every sync and preview push of the service takes first: no push is between storing and linking a version.
      const service = await this.repository.lockServiceByName(organizationId, serviceName);
      if (!service) throw serviceNotFound(serviceName);
      const preview = await this.preview(service, previewId);
      await this.previews.deletePreview(service.id, preview.id, this.clock.now());
      await this.collector.collectUnlinked(service.id);
      await this.audit.record({
        organizationId,
        actor,
        action: 'service.preview_deleted',
        target: { type: 'service', id: service.id, label: service.name },
        before: { preview: preview.id, label: preview.label, expiresAt: preview.expiresAt.toISOString() },
        after: null,
      });
    });
  }

  private async compare(name: string, before: ArtifactVersionRecord | undefined, after: ArtifactVersionRecord | undefined, revision: number): Promise<PreviewDiagram<Graph, ApplyReport>> {
    const none = { added: 0, changed: 0, removed: 0 };
    // The same version on both sides: nothing to compare.
    if (before && after && before.id === after.id) return { name, status: 'unchanged', counts: none, diagram: null, changes: null };
    const diff = diffGraphs(diagramGraph(before), diagramGraph(after));
    const { changed, nodes, edges, groups } = diff;
    const status = !before ? 'added' : !after ? 'removed' : changed ? 'changed' : 'unchanged';
    if (status === 'unchanged') return { name, status, counts: none, diagram: null, changes: null };
    const parts = [nodes, edges, groups];
    const counts = {
      added: parts.reduce((sum, part) => sum + part.added.length, 0),
      changed: parts.reduce((sum, part) => sum + part.changed.length, 0),
      removed: parts.reduce((sum, part) => sum + part.removed.length, 0),
    };
    return { name, status, counts, diagram: after ? await this.reads.diagramView(after, revision) : null, changes: { changed, nodes, edges, groups } };
  }

  private async serviceRecord(organizationId: string, serviceName: string): Promise<ServiceRecord> {
    const service = await this.repository.findService(organizationId, serviceName);
    if (!service) throw serviceNotFound(serviceName);
    return service;
  }

  /** An open preview of the service; a malformed id is a preview that does not exist (never a database error). */
  private async preview(service: ServiceRecord, previewId: string): Promise<PreviewRecord> {
    const preview = isUUID(previewId) ? await this.previews.findPreview(service.id, previewId, this.clock.now()) : null;
    if (!preview) throw artifactsError(ArtifactsErrorCode.PreviewNotFound, `Service ${service.name} has no preview with id "${previewId.slice(0, 64)}" (it may have expired or been replaced by a newer push of its label).`);
    return preview;
  }

  private item(organizationId: string, service: ServiceRecord, row: PreviewRecord): PreviewListItem {
    return {
      id: row.id,
      label: row.label,
      url: previewPageUrl(this.appConfig.publicUrl, organizationId, service.name, row.id),
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      baseRevision: row.baseRevision,
      artifactCount: row.artifactCount,
      ...row.changes,
      syncedBy: row.syncedBy,
      source: row.source,
    };
  }
}

function serviceNotFound(name: string) {
  return artifactsError(ArtifactsErrorCode.ServiceNotFound, `This organization has no service named "${name}".`);
}
