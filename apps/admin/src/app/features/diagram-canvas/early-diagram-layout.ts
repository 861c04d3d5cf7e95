import type { DiagramLayout } from '@sc/contracts';

/**
 * The diagram and the server's layout of its default view (GET …/diagrams/:name/layout, see @sc/diagram's
 * default-layout.ts), requested by main.ts before Angular boots when the browser opens a diagram page directly; the
 * page claims the answers (or asks for them itself when opened from another page). When the layout arrives and
 * matches the page's own layout input, the first drawing needs no ELK in the browser. The layout is asked for once
 * the diagram says its kind: a sequence diagram has none (Mermaid draws it), so it is never requested for one; the
 * diagram's own request starts earlier than the page's would, so the layout is still there before the canvas needs
 * it. Kept small on purpose: main.ts bundles this module.
 */

/** An architecture diagram's page (services.routes.ts `:service/diagrams/:name`); flows and jobs have no server layout. */
const DIAGRAM_PAGE = /^\/orgs\/([^/]+)\/services\/([^/]+)\/diagrams\/([^/]+)\/?$/;

/** main.ts's requests for one diagram page. */
export interface EarlyDiagram<T> {
  /** The diagram as the read API answers it; null when it did not answer it (the page then asks itself). */
  diagram: Promise<T | null>;
  /** The server's layout; null when there is none (yet), or none for the diagram's kind. */
  layout: Promise<DiagramLayout | null>;
}

let early: ({ url: string } & EarlyDiagram<{ kind: string }>) | null = null;

/** Diagrams the server lays out (DiagramLayoutService): all but sequence diagrams, which Mermaid draws itself. */
export function hasServerLayout(kind: string): boolean {
  return kind !== 'sequence';
}

const revisionQuery = (revision?: number) => (revision === undefined ? '' : `?revision=${revision}`);
const diagramPath = (orgId: string, service: string, name: string) => {
  const path = [orgId, service, name].map(encodeURIComponent);
  return `/api/v1/orgs/${path[0]}/services/${path[1]}/diagrams/${path[2]}`;
};

/** The read route of a diagram (the current revision when `revision` is undefined), as ServicesApi.diagram asks it. */
export function diagramUrl(orgId: string, service: string, name: string, revision?: number): string {
  return `${diagramPath(orgId, service, name)}${revisionQuery(revision)}`;
}

/** The layout route of a diagram (the current revision when `revision` is undefined). */
export function diagramLayoutUrl(orgId: string, service: string, name: string, revision?: number): string {
  return `${diagramPath(orgId, service, name)}/layout${revisionQuery(revision)}`;
}

/** A JSON answer, or null for anything else (a refusal, an error, no session): the page then asks again itself. */
function json<T>(url: string): Promise<T | null> {
  return (
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      // A refused answer's body is still read: left unread, the browser keeps the request open (never network-idle).
      .then((response) => (response.ok ? (response.json() as Promise<T>) : response.text().then(() => null)))
      .catch(() => null)
  );
}

/**
 * Requests the diagram, then its layout, when `pathname` is a diagram page (true when it did). `search`'s revision
 * is read like the page reads it (parseRevision): a URL the page reads differently simply finds nothing to claim.
 */
export function prefetchDiagram(pathname: string, search: string): boolean {
  const match = DIAGRAM_PAGE.exec(pathname);
  if (early || !match || typeof fetch === 'undefined') return false;
  const revision = new URLSearchParams(search).get('revision');
  const [orgId, service, name] = match.slice(1).map(decodeURIComponent);
  const number = revision !== null && /^[1-9][0-9]{0,8}$/.test(revision) ? Number(revision) : undefined;
  const diagram = json<{ kind: string }>(diagramUrl(orgId, service, name, number));
  const layout = diagram.then((data) => (data && hasServerLayout(data.kind) ? json<DiagramLayout>(diagramLayoutUrl(orgId, service, name, number)) : null));
  early = { url: diagramUrl(orgId, service, name, number), diagram, layout };
  return true;
}

/** main.ts requested a diagram the page has not claimed yet: the page's first drawing is expected to need no ELK. */
export function diagramLayoutRequested(): boolean {
  return early !== null;
}

/** main.ts's requests for the diagram at `url` (diagramUrl), once; null when it made none for it. */
export function claimEarlyDiagram<T extends { kind: string }>(url: string): EarlyDiagram<T> | null {
  if (early?.url !== url) return null;
  const { diagram, layout } = early;
  early = null;
  return { diagram: diagram as Promise<T | null>, layout };
}
