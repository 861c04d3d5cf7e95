import type { DiagramLayout } from '@sc/contracts';

/**
 * The server's layout of a diagram's default view (GET …/diagrams/:name/layout, see @sc/diagram's default-layout.ts),
 * requested by main.ts before Angular boots when the browser opens a diagram page directly, in parallel with
 * everything the page loads next; the page claims the answer (or asks for it itself when opened from another page).
 * When it arrives and matches the page's own layout input, the first drawing needs no ELK in the browser. Kept
 * small on purpose: main.ts bundles this module.
 */

/** An architecture diagram's page (services.routes.ts `:service/diagrams/:name`); flows and jobs have no server layout. */
const DIAGRAM_PAGE = /^\/orgs\/([^/]+)\/services\/([^/]+)\/diagrams\/([^/]+)\/?$/;

let early: { url: string; layout: Promise<DiagramLayout | null> } | null = null;

/** The layout route of a diagram (the current revision when `revision` is undefined). */
export function diagramLayoutUrl(orgId: string, service: string, name: string, revision?: number): string {
  const path = [orgId, service, name].map(encodeURIComponent);
  return `/api/v1/orgs/${path[0]}/services/${path[1]}/diagrams/${path[2]}/layout${revision === undefined ? '' : `?revision=${revision}`}`;
}

/**
 * Requests the layout when `pathname` is a diagram page (true when it did). `search`'s revision is read like the
 * page reads it (parseRevision): a URL the page reads differently simply finds nothing to claim.
 */
export function prefetchDiagramLayout(pathname: string, search: string): boolean {
  const match = DIAGRAM_PAGE.exec(pathname);
  if (early || !match || typeof fetch === 'undefined') return false;
  const revision = new URLSearchParams(search).get('revision');
  const [orgId, service, name] = match.slice(1).map(decodeURIComponent);
  const url = diagramLayoutUrl(orgId, service, name, revision !== null && /^[1-9][0-9]{0,8}$/.test(revision) ? Number(revision) : undefined);
  // No layout (404 while the server computes it, an error, no session) is not an error here: the page lays out itself.
  const layout = fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
    // A refused answer's body is still read: left unread, the browser keeps the request open (never network-idle).
    .then((response) => (response.ok ? (response.json() as Promise<DiagramLayout>) : response.text().then(() => null)))
    .catch(() => null);
  early = { url, layout };
  return true;
}

/** main.ts requested a layout the page has not claimed yet: the page's first drawing is expected to need no ELK. */
export function diagramLayoutRequested(): boolean {
  return early !== null;
}

/** The early request for `url`, once; null when main.ts made none for it. */
export function claimDiagramLayout(url: string): Promise<DiagramLayout | null> | null {
  if (early?.url !== url) return null;
  const { layout } = early;
  early = null;
  return layout;
}
