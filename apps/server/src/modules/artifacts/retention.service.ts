import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { AuditService } from '../audit/audit.service';
import { MetricsService } from '../metrics/metrics.service';
import { ArtifactsConfig } from './artifacts.config';
import { ArtifactsErrorCode, artifactsError } from './artifacts.errors';
import { ArtifactsRepository } from './artifacts.repository';
import { UnitOfWork } from '../../database/unit-of-work';

/** What one retention run or one service deletion removed. */
export interface RemovedData {
  revisionsRemoved: number;
  blobsRemoved: number;
}

/**
 * The data lifecycle of the artifact store: revision retention (SERVICE_REVISIONS_KEEP, a background job every
 * SERVICE_RETENTION_INTERVAL and once at start) and the deletion of a whole service.
 *
 * Both work per service in one transaction that holds the service's row lock, the lock every sync of that
 * service takes first (ArtifactsRepository.lockService): a sync of the service runs entirely before or
 * entirely after. Blobs are shared by all services, so their collection has its own locking protocol with
 * syncs of other services: see ArtifactsRepository.insertBlobs and deleteUnreferencedBlobs. Any number of
 * instances may run the job at the same time; they serialize on the same locks.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RemovedData> | undefined;

  constructor(
    private readonly repository: ArtifactsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: ArtifactsConfig,
    private readonly audit: AuditService,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.retention.keepRevisions === null) return;
    setImmediate(() => void this.runInBackground());
    this.timer = setInterval(() => void this.runInBackground(), this.config.retention.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    // The pool closes after this hook: let a run in progress finish (each service is its own short transaction).
    await this.running?.catch(() => undefined);
  }

  /**
   * One retention pass over every service: keeps the newest SERVICE_REVISIONS_KEEP revisions, removes the older
   * ones, the artifact versions no remaining revision holds and the blobs no version references any more.
   * Does nothing when SERVICE_REVISIONS_KEEP is unset. Concurrent calls share one pass.
   */
  runOnce(): Promise<RemovedData> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Deletes a service with all its revisions and artifact versions, and the blobs nothing else references;
   * audited as `service.deleted`. A sync of the service running at the same time commits before (and is
   * deleted with it) or waits for the lock and then starts the service afresh at revision 1.
   */
  async deleteService(organizationId: string, serviceName: string, actor: Principal): Promise<RemovedData> {
    const removed = await this.unitOfWork.run(async () => {
      const service = await this.repository.lockServiceByName(organizationId, serviceName);
      if (!service) throw artifactsError(ArtifactsErrorCode.ServiceNotFound, `This organization has no service named "${serviceName}".`);
      const { revisionsRemoved, hashes } = await this.repository.deleteService(service.id);
      const blobsRemoved = await this.repository.deleteUnreferencedBlobs(hashes);
      await this.audit.record(
        {
          organizationId,
          actor,
          action: 'service.deleted',
          target: { type: 'service', id: service.id, label: service.name },
          before: { name: service.name, currentRevision: service.currentRevision, revisions: revisionsRemoved },
          after: null,
        },
      );
      return { revisionsRemoved, blobsRemoved };
    });
    this.metrics.countRemoved('service_deleted', removed);
    return removed;
  }

  private async pass(): Promise<RemovedData> {
    const keep = this.config.retention.keepRevisions;
    const total: RemovedData = { revisionsRemoved: 0, blobsRemoved: 0 };
    if (keep === null) return total;
    for (const serviceId of await this.repository.servicesWithMoreRevisionsThan(keep)) {
      const removed = await this.unitOfWork.run(async () => {
        // Gone since the list was read (deleted): nothing to keep.
        if (!(await this.repository.lockServiceById(serviceId))) return { revisionsRemoved: 0, blobsRemoved: 0 };
        const { revisionsRemoved, hashes } = await this.repository.pruneRevisions(serviceId, keep);
        return { revisionsRemoved, blobsRemoved: await this.repository.deleteUnreferencedBlobs(hashes) };
      });
      this.metrics.countRemoved('retention', removed);
      total.revisionsRemoved += removed.revisionsRemoved;
      total.blobsRemoved += removed.blobsRemoved;
    }
    return total;
  }

  private async runInBackground(): Promise<void> {
    try {
      const removed = await this.runOnce();
      if (removed.revisionsRemoved > 0) this.logger.log(`Retention removed ${removed.revisionsRemoved} revision(s) and ${removed.blobsRemoved} stored file(s).`);
    } catch (error) {
      // The next run retries; every service's removal is one transaction, so nothing is left half done.
      this.logger.warn(`Retention failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
