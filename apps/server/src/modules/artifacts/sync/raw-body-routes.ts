/**
 * The artifacts module's word on request bodies: the sync gateway reads its own body after authentication,
 * with the sync limits applied to the decompressed bytes (SERVICE_SYNC_MAX_BYTES, sync-body.ts), so the
 * application's general JSON and form parsers must leave that stream unread. app.factory.ts asks this.
 */

import { GATEWAY_SYNC_PATH } from '@sc/contracts';

/**
 * True for a request path the general body parsers must skip. Matches the way Express routes it
 * (case-insensitive, one optional trailing slash, the defaults Nest keeps), so `/API/v1/gateway/sync/` reaches
 * the gateway with its body unread, never parsed by them.
 */
export function readsOwnBody(path: string): boolean {
  return path.toLowerCase().replace(/\/$/, '') === GATEWAY_SYNC_PATH;
}
