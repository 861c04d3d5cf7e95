import type { Request, Response } from 'express';
import { matchesIfNoneMatch } from './if-none-match';

/**
 * An image with its strong ETag (304 on If-None-Match; callers reach this only after their access checks, so a 304
 * never confirms anything the caller may not read). The CSP keeps an SVG opened on its own from running or loading
 * anything, should it ever hold more than shapes and text. A PNG says the scale it was rendered at in `X-Image-Scale`
 * (less than `?scale=` when the pixel limit reduced it).
 */
export function sendImage(
  req: Request,
  res: Response,
  image: { body: Buffer; etag: string; scale?: number },
  type: 'image/svg+xml' | 'image/png',
  { cacheControl, crossOrigin = false }: { cacheControl: string; crossOrigin?: boolean },
): void {
  res.setHeader('ETag', image.etag);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // helmet's same-origin default would stop other sites' pages from showing the image in an <img>.
  if (crossOrigin) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (image.scale !== undefined) res.setHeader('X-Image-Scale', String(image.scale));
  if (matchesIfNoneMatch(req, image.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(type).send(image.body);
}
