import { Injectable, Logger } from '@nestjs/common';
import { servicePageUrl, type SyncCheckRequest, type SyncCheckResult } from '@sc/contracts';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { UnitOfWork } from '../../../database/unit-of-work';
import type { TokenPrincipal } from '../../access/principal';
import { MermaidParseService } from '../../parsing/mermaid-parse.service';
import { ServicesRepository } from '../store/services.repository';
import { SyncAudit } from './sync-audit';

/** POST /gateway/sync/check: the CLI's question before a sync, whether the service already has this bundle. */
@Injectable()
export class SyncCheckService {
  private readonly logger = new Logger('SyncService');

  constructor(
    private readonly repository: ServicesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly syncAudit: SyncAudit,
    private readonly mermaidParse: MermaidParseService,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
  ) {}

  /**
   * Does the service's current revision come from a bundle with this digest? A yes lets the CLI skip validating and
   * sending, so it counts as an unchanged sync (last sync time updated), the same as posting the bundle would. The
   * token's organization is the only one searched.
   */
  async check(principal: TokenPrincipal, request: SyncCheckRequest): Promise<SyncCheckResult> {
    const found = await this.repository.currentDigest(principal.organizationId, request.service);
    const current = found !== null && found.digest === request.digest;
    if (found && current) {
      await this.unitOfWork.run(async () => {
        await this.repository.recordUnchangedSync(found.serviceId, this.clock.now());
        await this.syncAudit.synced(principal, { id: found.serviceId, name: request.service }, found.revision, 'unchanged', found.repositoryUrl, request.source ?? null);
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
}
