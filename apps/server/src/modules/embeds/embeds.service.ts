import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EMBED_TOKEN_PATTERN, embedPaths, type CreatedEmbedLinkResponse, type EmbedLinkResponse, type EmbedLinksQuery, type ListPage } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { prefixedToken, sha256Hex } from '../../common/crypto/tokens';
import { createdAtIdKey, pageFrom, type FilterOf, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { AppConfig } from '../../config/app-config';
import { CacheChanges } from '../../database/cache-changes';
import { NotifiedCache } from '../../database/notified-cache';
import { hashedTokenFields } from '../../database/columns';
import { UnitOfWork } from '../../database/unit-of-work';
import { ArtifactsReadService } from '../artifacts/read/artifacts-read.service';
import type { DiagramImageOptions, RenderedDiagramImage } from '../artifacts/layouts/diagram-layout.service';
import { AuditService, accountableUserId, type AuditActorInput } from '../audit/audit.service';
import { RevocationService } from '../audit/revocation';
import { EmbedLink } from './embed-link.entity';
import { EmbedsConfig } from './embeds.config';
import { EmbedsErrorCode, embedsError } from './embeds.errors';
import { EmbedLinksRepository } from './embeds.repository';

/**
 * lastUsedAt is written at most once per this interval per link (as for API tokens): a storm of image requests costs
 * one conditional UPDATE a minute, and the UPDATE's own condition keeps several instances from writing more than once.
 */
const TOUCH_INTERVAL_MS = 60_000;
/** The longest a resolved link is reused with no notification at all: a second guard, not the invalidation itself. */
const CACHE_MAX_LIFETIME_MS = 5 * 60_000;

export interface CreateEmbedLinkInput {
  organizationId: string;
  service: string;
  diagram: string | null;
  revision: number | null;
  expiresAt: Date | null;
  frameAncestors: string[] | null;
  actor: AuditActorInput;
}

/** What a public request may read through a link: one diagram at the link's revision (or the current one). */
export interface EmbedTarget {
  link: Readonly<EmbedLink>;
  diagram: string;
}

/**
 * Embed links: created, listed and revoked by admins; resolved by the public /embed routes, which only ever read the
 * one image the link names. Resolved links are cached per instance and dropped on every instance by any committed
 * change to a link (CacheChanges, topic `embeds`), so a revocation answers 404 everywhere at once.
 */
@Injectable()
export class EmbedLinksService {
  private readonly cache: NotifiedCache<EmbedLink>;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: EmbedLinksRepository,
    private readonly artifacts: ArtifactsReadService,
    private readonly audit: AuditService,
    private readonly revocations: RevocationService,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
    config: EmbedsConfig,
    changes: CacheChanges,
  ) {
    this.cache = new NotifiedCache<EmbedLink>(changes, 'embeds', { max: config.cacheEntries, ttlMs: CACHE_MAX_LIFETIME_MS });
  }

  /** Creates a link and returns its token and URLs (the only time they exist outside the caller's hands). */
  async create(input: CreateEmbedLinkInput): Promise<CreatedEmbedLinkResponse> {
    const now = this.clock.now();
    if (input.expiresAt && input.expiresAt <= now) {
      throw embedsError(EmbedsErrorCode.ExpiryInPast, 'expiresAt must be in the future.', [{ path: 'expiresAt', message: 'expiresAt must be in the future' }]);
    }
    const { serviceId } = await this.artifacts.embedTarget(input.organizationId, input.service, input.diagram, input.revision ?? undefined);
    const { token, prefix } = generateEmbedToken();
    const link = Object.assign(new EmbedLink(), {
      id: randomUUID(),
      organizationId: input.organizationId,
      serviceId,
      serviceName: input.service,
      diagram: input.diagram,
      revision: input.revision,
      prefix,
      tokenHash: sha256Hex(token),
      frameAncestors: input.frameAncestors,
      createdByUserId: accountableUserId(input.actor),
      createdAt: now,
      expiresAt: input.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    const embedLink = toEmbedLinkResponse(link);
    await this.unitOfWork.run(async () => {
      await this.links.insert(link);
      const { id: _id, createdAt: _createdAt, lastUsedAt: _lastUsedAt, revokedAt: _revokedAt, ...audited } = embedLink;
      await this.audit.record({ organizationId: link.organizationId, actor: input.actor, action: 'embed_link.created', target: linkTarget(link), after: audited });
    });
    const paths = embedPaths(token);
    const base = this.appConfig.publicUrl.replace(/\/+$/, '');
    const single = link.diagram !== null;
    return { id: link.id, token, url: base + paths.page, svgUrl: single ? base + paths.svg : null, pngUrl: single ? base + paths.png : null, embedLink };
  }

  /** One page of the organization's links, newest first. */
  async list(organizationId: string, { limit, after, filter }: PageRequest<TimeIdPosition, FilterOf<EmbedLinksQuery>>): Promise<ListPage<EmbedLinkResponse>> {
    const rows = await this.links.listForOrganization(organizationId, { limit: limit + 1, before: after, service: filter.service, diagram: filter.diagram });
    return pageFrom(rows, limit, toEmbedLinkResponse, createdAtIdKey);
  }

  /** Revokes a link of the organization; revoking twice keeps the first time (and records one entry). */
  async revoke(organizationId: string, id: string, actor: AuditActorInput): Promise<EmbedLinkResponse> {
    const link = await this.revocations.revokeInOrganization(this.links, organizationId, id, {
      notFound: () => embedsError(EmbedsErrorCode.NotFound, 'No embed link with this id exists in this organization.'),
      change: (revoked) => ({ organizationId, actor, action: 'embed_link.revoked', target: linkTarget(revoked) }),
    });
    return toEmbedLinkResponse(link);
  }

  /**
   * The link and diagram a public request may read: `diagram` undefined asks for the link's own diagram (a link to one
   * diagram), a name asks for that diagram (it must be the link's, or the link covers the whole service). Anything
   * else (unknown, revoked, expired, another diagram) is the same 404. Records the use (throttled).
   */
  async resolve(token: string, diagram: string | undefined): Promise<EmbedTarget> {
    const link = await this.usableLink(token);
    const now = this.clock.now();
    const shown = diagram ?? link.diagram;
    if (shown === null || (link.diagram !== null && shown !== link.diagram)) throw notFound();
    const notBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
    if (!link.lastUsedAt || link.lastUsedAt < notBefore) {
      // Set before the write so concurrent requests of this instance do not write too.
      link.lastUsedAt = now;
      await this.links.touch(link.id, now, notBefore);
    }
    return { link, diagram: shown };
  }

  /** The image the link shows (the same rendering, cache and limits as image.svg / image.png). */
  async image(target: EmbedTarget, options: DiagramImageOptions): Promise<RenderedDiagramImage> {
    const { link, diagram } = target;
    return this.artifacts.getDiagramImage(link.organizationId, link.serviceName, diagram, options, link.revision ?? undefined);
  }

  /** For a link to a whole service: the diagrams its page lists (at the link's revision, else the current one). */
  async diagramsOf(token: string): Promise<{ link: Readonly<EmbedLink>; diagrams: string[] }> {
    const link = await this.usableLink(token);
    if (link.diagram !== null) throw notFound();
    return { link, diagrams: await this.artifacts.diagramNames(link.organizationId, link.serviceName, link.revision ?? undefined) };
  }

  /** The link of the token (cached by the token's hash) unless unknown, revoked or expired: 404 embed_link_not_found. */
  private async usableLink(token: string): Promise<EmbedLink> {
    const hash = EMBED_TOKEN_PATTERN.test(token) ? sha256Hex(token) : null;
    const link = hash ? await this.cache.through(hash, () => this.links.findByHash(hash)) : null;
    if (!link || link.revokedAt || (link.expiresAt && link.expiresAt <= this.clock.now())) throw notFound();
    return link;
  }
}

function notFound(): Error {
  return embedsError(EmbedsErrorCode.NotFound, 'There is no such embed link, or it was revoked or has expired.');
}

/** `sce_<8 visible>_<32 secret>` (EMBED_TOKEN_PATTERN). */
function generateEmbedToken(): { token: string; prefix: string } {
  return prefixedToken('sce', 24);
}

function linkTarget(link: EmbedLink) {
  return { type: 'embed_link' as const, id: link.id, label: `${link.serviceName}${link.diagram ? `/${link.diagram}` : ''} (${link.prefix})` };
}

export function toEmbedLinkResponse(link: EmbedLink): EmbedLinkResponse {
  return {
    id: link.id,
    service: link.serviceName,
    diagram: link.diagram,
    revision: link.revision,
    frameAncestors: link.frameAncestors,
    ...hashedTokenFields(link),
    expiresAt: link.expiresAt?.toISOString() ?? null,
  };
}
