import { Injectable } from '@nestjs/common';
import { SEARCH_SNIPPET_MARKS, type ArtifactKind, type SearchElementKind, type SearchHit } from '@sc/contracts';
import { insertRows } from '../../database/insert-rows';
import { TransactionalRepository } from '../../database/unit-of-work';
import type { SearchQuery } from './search-query.pipe';

/** One searchable element of a service's current revision, as the sync hands it over. */
export interface NewSearchEntry {
  artifact: { kind: ArtifactKind; name: string } | null;
  elementKind: SearchElementKind;
  elementId: string;
  title: string;
  text: string;
}

/** Search entries per INSERT: more than the default, as a sync may index thousands and each has 8 parameters. */
const ENTRIES_PER_STATEMENT = 500;

// ts_headline options: one fragment of about 20 words, matched words between « and » (plain text, see SearchHit).
const HEADLINE_OPTIONS = `StartSel=${SEARCH_SNIPPET_MARKS.start}, StopSel=${SEARCH_SNIPPET_MARKS.stop}, MaxWords=20, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "`;

interface HitRow {
  service: string;
  artifact_kind: ArtifactKind | null;
  artifact_name: string | null;
  element_kind: SearchElementKind;
  element_id: string;
  title: string;
  snippet: string;
  rank: number;
}

/** All SQL of search_entries. Joins the current unit of work (the sync's transaction) when one is open. */
@Injectable()
export class SearchRepository extends TransactionalRepository {
  /** Deletes the service's entries (only those of `elementKind` when given) and inserts these. */
  async replaceService(organizationId: string, serviceId: string, entries: NewSearchEntry[], elementKind?: NewSearchEntry['elementKind']): Promise<void> {
    await this.manager.query('DELETE FROM search_entries WHERE service_id = $1 AND ($2::text IS NULL OR element_kind = $2)', [serviceId, elementKind ?? null]);
    await insertRows(
      entries,
      (entry) => [organizationId, serviceId, entry.artifact?.kind ?? null, entry.artifact?.name ?? null, entry.elementKind, entry.elementId, entry.title, entry.text],
      (values, parameters) =>
        this.manager.query(`INSERT INTO search_entries (organization_id, service_id, artifact_kind, artifact_name, element_kind, element_id, title, text) VALUES ${values}`, parameters),
      { perStatement: ENTRIES_PER_STATEMENT },
    );
  }

  /** Services with a revision and no entry at all, not even their own: synced before the index existed. */
  async servicesWithoutEntries(): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.manager.query(
      `SELECT s.id FROM services s WHERE s.current_revision > 0 AND NOT EXISTS (SELECT 1 FROM search_entries e WHERE e.service_id = s.id) ORDER BY s.id`,
    );
    return rows.map((row) => row.id);
  }

  async hasEntries(serviceId: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query('SELECT 1 FROM search_entries WHERE service_id = $1 LIMIT 1', [serviceId]);
    return rows.length > 0;
  }

  async hasArtifactEntries(serviceId: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(`SELECT 1 FROM search_entries WHERE service_id = $1 AND element_kind <> 'service' LIMIT 1`, [serviceId]);
    return rows.length > 0;
  }

  /**
   * Full-text match of `q` (websearch syntax, 'simple' configuration) or an element id starting with `q`, in this
   * organization only; best first (ties by service, artifact and element, so the order is stable).
   */
  async search(organizationId: string, { q, kind, limit }: SearchQuery): Promise<SearchHit[]> {
    const idPrefix = `${q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const rows: HitRow[] = await this.manager.query(
      `SELECT s.name AS service, e.artifact_kind, e.artifact_name, e.element_kind, e.element_id, e.title,
              ts_headline('simple', e.title || ' — ' || e.text, query, $5) AS snippet,
              ts_rank(e.document, query)
                + CASE WHEN lower(e.element_id) = lower($2) THEN 1 WHEN lower(e.element_id) LIKE $3 THEN 0.5 ELSE 0 END AS rank
         FROM search_entries e
         JOIN services s ON s.id = e.service_id
         CROSS JOIN websearch_to_tsquery('simple', $2) AS query
        WHERE e.organization_id = $1
          AND (e.document @@ query OR lower(e.element_id) LIKE $3)
          AND ($4::text IS NULL OR e.element_kind = $4)
        ORDER BY rank DESC, s.name, e.artifact_kind NULLS FIRST, e.artifact_name NULLS FIRST, e.element_kind, e.element_id
        LIMIT $6`,
      [organizationId, q, idPrefix, kind, HEADLINE_OPTIONS, limit],
    );
    return rows.map((row) => ({
      service: row.service,
      artifact: row.artifact_kind && row.artifact_name ? { kind: row.artifact_kind, name: row.artifact_name } : null,
      element: { kind: row.element_kind, id: row.element_id, title: row.title },
      snippet: row.snippet,
      rank: Math.round(Number(row.rank) * 1e6) / 1e6,
    }));
  }
}
