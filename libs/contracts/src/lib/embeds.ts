import { ArrayMaxSize, ArrayUnique, IsArray, IsDateString, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsOptionalNotNull } from './optional-not-null';
import { ListPageQuery } from './list-page';

/**
 * Embed links (issue 26): a read-only link to the image of one synced diagram, or of every diagram of a service, that
 * works without signing in, for READMEs, wikis and portals. Admins create, list and revoke them:
 *
 *   POST   /api/v1/orgs/:orgId/embed-links        CreateEmbedLinkRequest → CreatedEmbedLinkResponse (the token, once)
 *   GET    /api/v1/orgs/:orgId/embed-links        ?service&diagram&limit&cursor → EmbedLinkResponse[] (newest first)
 *   DELETE /api/v1/orgs/:orgId/embed-links/:id    revokes → EmbedLinkResponse
 *
 * Public, outside the API prefix (see EMBED_PATHS): `/embed/<token>.svg|png` (a link to one diagram),
 * `/embed/<token>/<diagram>.svg|png` (either kind), the zoom-and-pan page `/embed/<token>` and `/embed/<token>/<diagram>`.
 */
export const EMBED_LIMITS = {
  /** At most this many origins in `frameAncestors`. */
  maxFrameAncestors: 10,
  /** The longest origin in `frameAncestors`. */
  maxOriginLength: 253 + 20,
} as const;

/** An artifact name (services and diagrams): NAME_PATTERN of the service config, up to 100 characters. */
const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * An origin a page may frame the embed page from: `https://portal.example.com`, `https://*.example.com`,
 * `http://localhost:8080`. A scheme, a host (a leading `*.` allowed) and a port; no path, no keyword.
 */
export const FRAME_ANCESTOR_PATTERN = /^https?:\/\/(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*(:[0-9]{1,5})?$/;

/** One problem with a `frameAncestors` list: which entry (`index`, or none for the list itself) and why, in a sentence. */
export interface FrameAncestorProblem {
  index?: number;
  origin?: string;
  message: string;
}

/**
 * The rule CreateEmbedLinkRequest checks on `frameAncestors`, as sentences per entry for a form (the admin's embed
 * dialog): at most EMBED_LIMITS.maxFrameAncestors origins, each FRAME_ANCESTOR_PATTERN and at most
 * EMBED_LIMITS.maxOriginLength characters, none twice. An empty list has no problem (no site may frame the page).
 */
export function frameAncestorProblems(origins: readonly string[]): FrameAncestorProblem[] {
  const problems: FrameAncestorProblem[] = [];
  if (origins.length > EMBED_LIMITS.maxFrameAncestors) problems.push({ message: `At most ${EMBED_LIMITS.maxFrameAncestors} sites may frame a link; ${origins.length} are listed.` });
  const seen = new Set<string>();
  origins.forEach((origin, index) => {
    if (origin.length > EMBED_LIMITS.maxOriginLength) problems.push({ index, origin, message: `“${origin.slice(0, 40)}…” is longer than ${EMBED_LIMITS.maxOriginLength} characters.` });
    else if (!FRAME_ANCESTOR_PATTERN.test(origin)) problems.push({ index, origin, message: `“${origin}” is not an origin: write a scheme and a host, with a port if needed, and no path (https://portal.example.com, https://*.example.com, http://localhost:8080).` });
    else if (seen.has(origin)) problems.push({ index, origin, message: `“${origin}” is listed twice.` });
    seen.add(origin);
  });
  return problems;
}

export class CreateEmbedLinkRequest {
  @IsString()
  @Matches(ARTIFACT_NAME, { message: 'service must be a service name (letters, digits, ".", "_", "-"; at most 100)' })
  service!: string;

  /** One diagram of the service; omit for every architecture diagram of the service. */
  @IsOptionalNotNull()
  @IsString()
  @Matches(ARTIFACT_NAME, { message: 'diagram must be a diagram name (letters, digits, ".", "_", "-"; at most 100)' })
  diagram?: string;

  /** Pins the link to this revision; omit to always show the current one (the image updates after each sync). */
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  revision?: number;

  /** ISO 8601 date-time in the future; omit for a link that does not expire. */
  @IsOptionalNotNull()
  @IsDateString({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time' })
  expiresAt?: string;

  /**
   * The origins whose pages may show the embed page in an iframe (CSP `frame-ancestors`). Omit to allow any site
   * (the page offers nothing but the image: there is nothing to click through); `[]` for no site at all.
   */
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(EMBED_LIMITS.maxFrameAncestors)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, EMBED_LIMITS.maxOriginLength, { each: true })
  @Matches(FRAME_ANCESTOR_PATTERN, { each: true, message: 'each frameAncestors entry must be an origin such as https://portal.example.com or https://*.example.com' })
  frameAncestors?: string[];
}

/** `?service=&diagram=` narrow the list to the links of a service, or of one diagram (service links included). */
export class EmbedLinksQuery extends ListPageQuery {
  @IsOptional()
  @IsString()
  @Matches(ARTIFACT_NAME)
  service?: string;

  @IsOptional()
  @IsString()
  @Matches(ARTIFACT_NAME)
  diagram?: string;
}

export interface EmbedLinkResponse {
  id: string;
  service: string;
  /** null: every architecture diagram of the service. */
  diagram: string | null;
  /** null: always the current revision. */
  revision: number | null;
  /** The visible start of the token (`sce_ab12cd34`), to recognise a link; never the token. */
  prefix: string;
  /** null: any site may frame the embed page; [] none. */
  frameAncestors: string[] | null;
  createdByUserId: string | null;
  createdAt: string;
  expiresAt: string | null;
  /** Accurate to a minute (written at most once a minute per link). */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Answer of creation: the only time the token (and so the URLs) is shown. */
export interface CreatedEmbedLinkResponse {
  id: string;
  token: string;
  /** The zoom-and-pan page: `<public URL>/embed/<token>` (for an iframe). */
  url: string;
  /** `<url>.svg` / `<url>.png` for a link to one diagram; for a service link `<url>/<diagram>.svg|png` (null here). */
  svgUrl: string | null;
  pngUrl: string | null;
  embedLink: EmbedLinkResponse;
}

/** The public paths of an embed token (`diagram` for a service link, or naming the link's own diagram). */
export function embedPaths(token: string, diagram?: string): { page: string; svg: string; png: string } {
  const base = diagram === undefined ? `/embed/${token}` : `/embed/${token}/${encodeURIComponent(diagram)}`;
  return { page: base, svg: `${base}.svg`, png: `${base}.png` };
}

/** `sce_<8 visible>_<32 secret>`: the visible part names the link in the list; `sce_` lets secret scanners find one. */
export const EMBED_TOKEN_PATTERN = /^sce_[a-z0-9]{8}_[A-Za-z0-9_-]{32}$/;
