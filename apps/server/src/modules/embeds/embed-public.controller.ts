import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sendImage } from '../../common/http/send-image';
import { Public } from '../access/decorators';
import { EmbedRateLimit } from '../access/rate-limit';
import { type DiagramImageQuery, diagramImageOptions } from '../artifacts/read/diagram-image-query';
import { DomainError } from '../../common/errors/domain-error';
import { diagramPage, embedPageCsp, notFoundPage, servicePage } from './embed-page';
import { EmbedLinksService, type EmbedTarget } from './embeds.service';

/** The public embed paths, outside the API prefix (app.factory.ts excludes them and keeps the SPA fallback off them). */
export const EMBED_ROUTES = ['embed/:file', 'embed/:token/:file'];

/** True for a request path the embed routes answer (the SPA's index.html fallback leaves it alone). */
export function isEmbedPath(path: string): boolean {
  return path.startsWith('/embed/');
}

/**
 * What an embed link shows, without signing in: `/embed/<token>.svg|png` (a link to one diagram),
 * `/embed/<token>/<diagram>.svg|png`, and the zoom-and-pan pages `/embed/<token>` and `/embed/<token>/<diagram>`.
 * Only GET (and HEAD): a link never does anything but read its image. Rate-limited per client address.
 */
@ApiExcludeController()
@Controller()
@Public()
@EmbedRateLimit()
export class EmbedPublicController {
  constructor(private readonly embeds: EmbedLinksService) {}

  @Get(EMBED_ROUTES[0])
  async top(@Param('file') file: string, @Query() query: DiagramImageQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const image = imageFile(file);
    if (image) {
      await this.sendImage(req, res, await this.embeds.resolve(image.name, undefined), image.format, query);
      return;
    }
    await pageOrNotFound(res, async () => {
      // A link to one diagram shows it; a link to a service lists its diagrams.
      const target = await this.embeds.resolve(file, undefined).catch(() => null);
      if (target) {
        sendPage(res, target.link.frameAncestors, diagramPage(target.link.serviceName, target.diagram, `${encodeURIComponent(file)}.svg`), true);
        return;
      }
      const { link, diagrams } = await this.embeds.diagramsOf(file);
      const listed = diagrams.map((name) => ({ name, path: `${encodeURIComponent(file)}/${encodeURIComponent(name)}` }));
      sendPage(res, link.frameAncestors, servicePage(link.serviceName, listed), false);
    });
  }

  @Get(EMBED_ROUTES[1])
  async nested(@Param('token') token: string, @Param('file') file: string, @Query() query: DiagramImageQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const image = imageFile(file);
    if (image) {
      await this.sendImage(req, res, await this.embeds.resolve(token, image.name), image.format, query);
      return;
    }
    await pageOrNotFound(res, async () => {
      const target = await this.embeds.resolve(token, file);
      sendPage(res, target.link.frameAncestors, diagramPage(target.link.serviceName, target.diagram, `${encodeURIComponent(file)}.svg`), true);
    });
  }

  private async sendImage(req: Request, res: Response, target: EmbedTarget, format: 'svg' | 'png', query: DiagramImageQuery): Promise<void> {
    const image = await this.embeds.image(target, diagramImageOptions(query, format));
    // no-cache: browsers and image proxies (a forge's camo) keep the image but ask again each time (a 304 while it is
    // unchanged), so a sync shows at once and a revoked link stops at once.
    res.setHeader('X-Robots-Tag', 'noindex');
    sendImage(req, res, image, format === 'png' ? 'image/png' : 'image/svg+xml', { cacheControl: 'public, no-cache', crossOrigin: true });
  }
}

/** `name.svg` / `name.png` → the name and format; anything else is a page. */
function imageFile(file: string): { name: string; format: 'svg' | 'png' } | null {
  const match = /^(.+)\.(svg|png)$/.exec(file);
  return match ? { name: match[1] ?? '', format: match[2] as 'svg' | 'png' } : null;
}

/**
 * A page route's answer, or for a link that is gone (404) a small HTML page saying so that any site may frame: an
 * iframe on a portal then shows that sentence instead of a refused frame, and it says nothing about the link.
 */
async function pageOrNotFound(res: Response, send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (error) {
    if (!(error instanceof DomainError) || error.status !== 404) throw error;
    sendPage(res, null, notFoundPage(), false, 404);
  }
}

function sendPage(res: Response, frameAncestors: readonly string[] | null, html: string, withScript: boolean, status = 200): void {
  res.setHeader('Content-Security-Policy', embedPageCsp(frameAncestors, withScript));
  // frame-ancestors decides; helmet's X-Frame-Options: SAMEORIGIN would contradict it in browsers that read only that.
  if (frameAncestors !== null && frameAncestors.length === 0) res.setHeader('X-Frame-Options', 'DENY');
  else res.removeHeader('X-Frame-Options');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.status(status).type('html').send(html);
}
