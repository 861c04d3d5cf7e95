import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { MetricsService } from '../../metrics/metrics.service';
import { ArtifactsConfig } from '../artifacts.config';
import { ServicesRepository } from '../store/services.repository';
import { PreviewsRepository } from '../store/previews.repository';
import { BackgroundPass } from './background-pass';
import { StoreCollector } from './store-collector';
import { UnitOfWork } from '../../../database/unit-of-work';

/** What one retention run or one service deletion (ServiceDeletionService) removed. */
export interface RemovedData {
  revisionsRemoved: number;
  blobsRemoved: number;
  /** Expired previews (retention) or the service's previews (deletion). */
  previewsRemoved: number;
}

/**
 * The data lifecycle of the artifact store: revision retention (SERVICE_REVISIONS_KEEP) and the removal of expired
 * previews (SERVICE_PREVIEW_DAYS), a background job every SERVICE_RETENTION_INTERVAL and once at start. Deleting a
 * whole service is ServiceDeletionService; both collect what nothing links any more with StoreCollector.
 *
 * Each service is handled in one transaction that holds the service's row lock, the lock every sync of that
 * service takes first (ServicesRepository.lockService): a sync of the service runs entirely before or
 * entirely after. Blobs are shared by all services, so their collection has its own locking protocol with
 * syncs of other services: see BlobStore.insertBlobs and deleteUnreferencedBlobs. Any number of
 * instances may run the job at the same time; they serialize on the same locks.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly passes = new BackgroundPass(() => this.pass(), {
    logger: new Logger('Retention'),
    done: (removed) =>
      removed.revisionsRemoved + removed.previewsRemoved > 0
        ? `Retention removed ${removed.revisionsRemoved} revision(s), ${removed.previewsRemoved} expired preview(s) and ${removed.blobsRemoved} stored file(s).`
        : null,
    // The next run retries; every service's removal is one transaction, so nothing is left half done.
    failed: 'Retention failed',
  });

  constructor(
    private readonly repository: ServicesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: ArtifactsConfig,
    private readonly metrics: MetricsService,
    private readonly previews: PreviewsRepository,
    private readonly clock: Clock,
    private readonly collector: StoreCollector,
  ) {}

  onApplicationBootstrap(): void {
    // Always scheduled: previews expire whether or not SERVICE_REVISIONS_KEEP is set.
    this.passes.start(this.config.retention.intervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    // Each service is its own short transaction: the pass in progress ends soon.
    await this.passes.stop();
  }

  /**
   * One retention pass over every service: deletes the previews expired by the clock's now, keeps the newest
   * SERVICE_REVISIONS_KEEP revisions (all when unset) and removes the older ones, then the artifact versions no
   * remaining revision or preview links and the blobs no version references any more. Concurrent calls share one pass.
   */
  runOnce(): Promise<RemovedData> {
    return this.passes.run();
  }

  private async pass(): Promise<RemovedData> {
    const keep = this.config.retention.keepRevisions;
    const total: RemovedData = { revisionsRemoved: 0, blobsRemoved: 0, previewsRemoved: 0 };
    const now = this.clock.now();
    const expired = await this.previews.servicesWithExpiredPreviews(now);
    const pruned = keep === null ? [] : await this.repository.servicesWithMoreRevisionsThan(keep);
    for (const serviceId of [...new Set([...expired, ...pruned])].sort()) {
      const removed = await this.unitOfWork.run(async (): Promise<RemovedData> => {
        // Gone since the list was read (deleted): nothing to keep.
        if (!(await this.repository.lockServiceById(serviceId))) return { revisionsRemoved: 0, blobsRemoved: 0, previewsRemoved: 0 };
        const previewsRemoved = await this.previews.deleteExpiredPreviews(serviceId, now);
        if (keep === null) return { revisionsRemoved: 0, previewsRemoved, blobsRemoved: await this.collector.collectUnlinked(serviceId) };
        const { revisionsRemoved, hashes } = await this.repository.pruneRevisions(serviceId, keep);
        return { revisionsRemoved, previewsRemoved, blobsRemoved: await this.collector.collectBlobs(hashes) };
      });
      this.metrics.countRemoved('retention', removed);
      total.revisionsRemoved += removed.revisionsRemoved;
      total.blobsRemoved += removed.blobsRemoved;
      total.previewsRemoved += removed.previewsRemoved;
    }
    return total;
  }
}
