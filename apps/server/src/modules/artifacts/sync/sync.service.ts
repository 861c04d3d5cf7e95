import { Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { previewLabelProblem, syncBundleDigest, type SyncResult } from '@sc/contracts';
import { sha256Hex } from '../../../common/crypto/tokens';
import { UnitOfWork } from '../../../database/unit-of-work';
import type { TokenPrincipal } from '../../access/principal';
import { ShutdownService } from '../../health/shutdown.service';
import { MetricsService, outcomeOf } from '../../metrics/metrics.service';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import { DiagramLayoutService } from '../layouts/diagram-layout.service';
import { BundleValidator } from './bundle-validator';
import { RevisionWriter } from './revision-writer';
import { SyncAudit } from './sync-audit';

/** Where the time of a sync went; the gateway reports it in a Server-Timing header. */
export interface TimedSyncResult {
  result: SyncResult;
  timings: { validateMs: number; storeMs: number };
}

/**
 * The gateway's sync: check the bundle, validate every artifact with the same engine as the CLI (BundleValidator),
 * then store a new revision or a preview in one transaction (RevisionWriter), or nothing at all. The sync check
 * (POST /gateway/sync/check) is SyncCheckService.
 */
@Injectable()
export class SyncService {
  private readonly logger = new Logger(SyncService.name);

  constructor(
    private readonly validator: BundleValidator,
    private readonly writer: RevisionWriter,
    private readonly syncAudit: SyncAudit,
    private readonly unitOfWork: UnitOfWork,
    private readonly shutdown: ShutdownService,
    private readonly metrics: MetricsService,
    private readonly layouts: DiagramLayoutService,
  ) {}

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
      await this.syncAudit.refused(principal, body, error, previewLabel);
      throw error;
    }
  }

  private async timedSync(principal: TokenPrincipal, body: unknown, previewLabel: unknown): Promise<TimedSyncResult> {
    const started = performance.now();
    const label = previewLabel === undefined ? undefined : checkPreviewLabel(previewLabel);
    const validatedBundle = await this.validator.validate(principal.organizationId, body);
    const validated = performance.now();
    const result =
      label === undefined
        ? await this.store(() => this.writer.writeRevision(principal, validatedBundle, syncBundleDigest(validatedBundle.bundle, sha256Hex)))
        : await this.store(() => this.writer.writePreview(principal, validatedBundle, label));
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

  private store(write: () => Promise<SyncResult>): Promise<SyncResult> {
    return this.unitOfWork.run(async () => {
      const stored = await write();
      // Past the shutdown grace period nothing commits: the transaction rolls back whole.
      this.shutdown.assertRunning();
      return stored;
    });
  }
}

/** The route's `?preview=` as a label, or 400 invalid_preview_label (an empty, repeated or malformed value). */
function checkPreviewLabel(value: unknown): string {
  const problem = Array.isArray(value) ? 'Give ?preview=<label> once.' : previewLabelProblem(value);
  if (problem !== null) throw artifactsError(ArtifactsErrorCode.InvalidPreviewLabel, problem, [{ path: 'preview', message: problem }]);
  return value as string;
}
