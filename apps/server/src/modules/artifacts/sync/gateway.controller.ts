import { Body, Controller, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SYNC_PREVIEW_PARAM, SyncCheckRequest, type SyncCheckResult, type SyncResult } from '@sc/contracts';
import { CurrentPrincipal, TokenAccess } from '../../access/decorators';
import type { TokenPrincipal } from '../../access/principal';
import { ArtifactsConfig } from '../artifacts.config';
import { readJsonBody } from './sync-body';
import { SyncCheckService } from './sync-check.service';
import { SyncService } from './sync.service';

@ApiTags('gateway')
@Controller('gateway')
export class GatewayController {
  constructor(
    private readonly syncs: SyncService,
    private readonly syncChecks: SyncCheckService,
    private readonly config: ArtifactsConfig,
  ) {}

  /**
   * `service-cli sync`: 201 with status "created" and the new revision, or 200 with status "unchanged".
   * Server-Timing tells how long validation and storage took (benchmarks and operators read it).
   * 422 sync_validation_failed lists every problem; 413 names the limit; nothing is stored on any error.
   * `?preview=<label>` (`sync --preview`): after the same checks the bundle is stored as that preview, not as a
   * revision: 201 with `preview` {id, label, url, expiresAt}; 400 invalid_preview_label.
   */
  @Post('sync')
  @TokenAccess('sync')
  async sync(
    @CurrentPrincipal() principal: TokenPrincipal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Query(SYNC_PREVIEW_PARAM) preview?: unknown,
  ): Promise<SyncResult> {
    // The body is read here, after authentication, with the sync limit applied to the decompressed bytes.
    const body = await readJsonBody(req, this.config.limits.maxSyncBytes);
    const { result, timings } = await this.syncs.sync(principal, body, preview);
    res.status(result.status === 'created' || result.preview ? 201 : 200);
    res.setHeader('Server-Timing', `validate;dur=${timings.validateMs.toFixed(1)}, store;dur=${timings.storeMs.toFixed(1)}`);
    return result;
  }

  /**
   * `service-cli sync` asks first whether the service's current revision already has the bundle's digest
   * (libs/contracts syncBundleDigest); when it does, the CLI skips validating and sending. The body is tiny, so
   * the global JSON parser reads it (only the sync route itself is excluded: raw-body-routes.ts).
   */
  @Post('sync/check')
  @HttpCode(200)
  @TokenAccess('sync')
  check(@CurrentPrincipal() principal: TokenPrincipal, @Body() body: SyncCheckRequest): Promise<SyncCheckResult> {
    return this.syncChecks.check(principal, body);
  }
}
