import { Injectable, Logger } from '@nestjs/common';
import { syncSourceProblems, type SyncResult, type SyncSource, type TokenRef } from '@sc/contracts';
import { DomainError } from '../../../common/errors/domain-error';
import type { TokenPrincipal } from '../../access/principal';
import { AuditService } from '../../audit/audit.service';
import { ServicesRepository } from '../store/services.repository';

/** The audit entries of the gateway: `service.synced`, `service.previewed` and `service.sync_refused`. */
@Injectable()
export class SyncAudit {
  private readonly logger = new Logger('SyncService');

  constructor(
    private readonly audit: AuditService,
    private readonly repository: ServicesRepository,
  ) {}

  /**
   * Audits a refused sync as `service.sync_refused`. Written after the sync's transaction rolled back (on the pool),
   * so the refusal is on record although nothing of the sync is; a failure to write it is logged, never answered.
   */
  async refused(principal: TokenPrincipal, body: unknown, error: unknown, previewLabel: unknown): Promise<void> {
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

  /** Audits an accepted sync as `service.synced`, inside the sync's unit of work (the entry exists exactly when the sync does). */
  synced(
    principal: TokenPrincipal,
    service: { id: string; name: string },
    revision: number,
    status: SyncResult['status'],
    repositoryUrl: string | null,
    source: SyncSource | null,
    changes?: { created: unknown[]; updated: unknown[]; removed: unknown[] },
  ): Promise<void> {
    return this.serviceEvent(principal, service, 'service.synced', {
      revision,
      status,
      ...(changes ? { created: changes.created.length, updated: changes.updated.length, removed: changes.removed.length } : {}),
      ...provenance(principal, repositoryUrl, source),
    });
  }

  /** Audits a preview push as `service.previewed`, inside its unit of work. */
  previewed(principal: TokenPrincipal, service: { id: string; name: string }, repositoryUrl: string | null, source: SyncSource | null, after: Record<string, unknown>): Promise<void> {
    return this.serviceEvent(principal, service, 'service.previewed', { ...after, ...provenance(principal, repositoryUrl, source) });
  }

  private serviceEvent(principal: TokenPrincipal, service: { id: string; name: string }, action: 'service.synced' | 'service.previewed', after: Record<string, unknown>): Promise<void> {
    return this.audit.record({ organizationId: principal.organizationId, actor: principal, action, target: { type: 'service', id: service.id, label: service.name }, after });
  }
}

/** The token that synced, as revisions keep it (its name and creator as they are now). */
export function tokenRef(principal: TokenPrincipal): TokenRef {
  return { tokenId: principal.tokenId, tokenName: principal.tokenName, tokenPrefix: principal.tokenPrefix, userId: principal.createdByUserId, email: principal.creatorEmail };
}

/** What a sync's audit entry tells of its origin (the actor already names the token's id, prefix and creator). */
function provenance(principal: TokenPrincipal, repositoryUrl: string | null, source: SyncSource | null): Record<string, unknown> {
  return { tokenName: principal.tokenName, repositoryUrl, commit: source?.commit ?? null, branch: source?.branch ?? null, ciRunUrl: source?.ciRunUrl ?? null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
