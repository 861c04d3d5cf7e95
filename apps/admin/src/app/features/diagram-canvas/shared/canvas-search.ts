/** A node or group the canvas's search finds, by id or title. */
export interface Searchable {
  id: string;
  title: string;
  /** The node's kind, or `group`: shown beside each match. */
  kind: string;
}

/** Matches shown for a query: at most this many. */
const MOST_MATCHES = 8;

/** The nodes and groups whose id or title holds the query (case-insensitive), in the given order; none for a blank one. */
export function searchMatches(items: readonly Searchable[], query: string): Searchable[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [];
  return items.filter((item) => item.id.toLowerCase().includes(wanted) || item.title.toLowerCase().includes(wanted)).slice(0, MOST_MATCHES);
}
