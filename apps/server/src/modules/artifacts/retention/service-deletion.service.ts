import { Injectable } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import { AuditService } from '../../audit/audit.service';
import { MetricsService } from '../../metrics/metrics.service';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { ServicesRepository } from '../store/services.repository';
import { UnitOfWork } from '../../../database/unit-of-work';
import type { RemovedData } from './retention.service';
import { StoreCollector } from './store-collector';

/**
 * Deletes a service (DELETE /orgs/:orgId/services/:service) with all its revisions, previews and artifact versions,
 * and the blobs nothing else references (collected as retention collects them: StoreCollector).
 */
@Injectable()
export class ServiceDeletionService {
  constructor(
    private readonly repository: ServicesRepository,
    private readonly collector: StoreCollector,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Audited as `service.deleted`. The service's row lock is held throughout: a sync of the service running at the
   * same time commits before (and is deleted with it) or waits for the lock and then starts the service afresh at
   * revision 1.
   */
  async deleteService(organizationId: string, serviceName: string, actor: Principal): Promise<RemovedData> {
    const removed = await this.unitOfWork.run(async () => {
      const service = await this.repository.lockServiceByName(organizationId, serviceName);
      if (!service) throw artifactsError(ArtifactsErrorCode.ServiceNotFound, `This organization has no service named "${serviceName}".`);
      const { revisionsRemoved, previewsRemoved, hashes } = await this.repository.deleteService(service.id);
      const blobsRemoved = await this.collector.collectBlobs(hashes);
      await this.audit.record(
        {
          organizationId,
          actor,
          action: 'service.deleted',
          target: { type: 'service', id: service.id, label: service.name },
          before: { name: service.name, currentRevision: service.currentRevision, revisions: revisionsRemoved, previews: previewsRemoved },
          after: null,
        },
      );
      return { revisionsRemoved, blobsRemoved, previewsRemoved };
    });
    this.metrics.countRemoved('service_deleted', removed);
    return removed;
  }
}
