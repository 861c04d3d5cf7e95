import type { ArtifactKind } from './sync';

/**
 * GET /api/v1/orgs/:orgId/search?q=…&kind=…&limit=… (issue 30): the organization's search over every service's
 * current revision. `q` is read as web search syntax (`"exact phrase"`, `or`, `-word`) and also matched as the
 * start of an element id (`n50` finds the node `n500`). Any member may search; only the organization's own
 * services are searched.
 */
export const SEARCH_ELEMENT_KINDS = ['service', 'node', 'group', 'table', 'column', 'heading'] as const;
export type SearchElementKind = (typeof SEARCH_ELEMENT_KINDS)[number];

export const SEARCH_LIMITS = {
  /** Longest `q`, in characters. */
  maxQueryLength: 200,
  maxLimit: 50,
  defaultLimit: 20,
} as const;

/**
 * The snippet marks each matched word with these two characters (plain text, never HTML: the admin renders the
 * marked parts itself, so nothing of a synced file is ever parsed as markup).
 */
export const SEARCH_SNIPPET_MARKS = { start: '«', stop: '»' } as const;

export interface SearchHit {
  service: string;
  /** null for a hit on the service itself (its name or description). */
  artifact: { kind: ArtifactKind; name: string } | null;
  /**
   * `id`: a node's or group's id, a table's name, `table.column` for a column, the heading's text for a heading,
   * the service's name for the service.
   */
  element: { kind: SearchElementKind; id: string; title: string };
  /** Title and text around the matched words, each marked «like this». */
  snippet: string;
  /** Higher is better: PostgreSQL's ts_rank (title words weigh more than text words), plus 1 for an exact id and 0.5 for an id prefix. */
  rank: number;
}

export interface SearchAnswer {
  query: string;
  kind: SearchElementKind | null;
  hits: SearchHit[];
  /** True when `limit` hits were returned: more may match. */
  truncated: boolean;
}

/**
 * "Where is this used" (issue 30): GET /api/v1/orgs/:orgId/search/where-used?table=…[&database=…] and the MCP tool
 * `where_used`. Candidates come from the search index, then every candidate diagram's current revision is matched
 * exactly (case-insensitive).
 */
export const WHERE_USED_LIMITS = {
  /** Most nodes listed in one answer; `truncated` tells when more may bind the name. */
  maxHits: 200,
} as const;

/** How a node binds the name: its context dbConfig.tableName first, then its context name, its id, its label. */
export const WHERE_USED_BINDINGS = ['dbConfig.tableName', 'context name', 'id', 'label'] as const;
export type WhereUsedBinding = (typeof WHERE_USED_BINDINGS)[number];

export interface WhereUsedEdge {
  from: string;
  to: string;
  label: string | null;
}

export interface WhereUsedHit {
  service: string;
  /** The architecture diagram's name (the admin opens it at `?node=<node.id>`). */
  diagram: string;
  node: {
    id: string;
    label: string;
    name: string | null;
    type: string | null;
    dbConfig: { serviceName?: string; databaseName?: string; tableName?: string } | null;
  };
  matchedBy: WhereUsedBinding;
  incoming: WhereUsedEdge[];
  outgoing: WhereUsedEdge[];
}

/** A database schema of a current revision defining a table of that name. */
export interface WhereUsedDefinition {
  service: string;
  database: string;
  table: string;
}

/** The route's answer: only nodes whose dbConfig.tableName is the table (and, with `database`, not naming another database). */
export interface WhereUsedAnswer {
  table: string;
  database: string | null;
  usedIn: WhereUsedHit[];
  definedIn: WhereUsedDefinition[];
  /** True when the list may be incomplete: more candidates than one search answers, or more than `maxHits` nodes. */
  truncated: boolean;
}
