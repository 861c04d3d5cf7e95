import { sqlMigration } from './sql-migration';

/**
 * The organization-wide search index (issue 30): one row per searchable element of a service's current revision
 * (the service itself, diagram nodes and groups, schema tables and columns, headings of notes and documents).
 * A sync replaces a service's rows in its own transaction; deleting the service (or the organization) deletes them.
 * `document` is generated: the title weighs A, the text B, with the 'simple' configuration (no stemming, no stop
 * words: ids and technical names are matched as written). PGlite runs the same SQL (tsvector, GIN, ts_rank).
 * The btree on lower(element_id) serves the prefix match of ids (`n50` finds `n500`).
 */
export const SearchEntries1765600000000 = sqlMigration('SearchEntries1765600000000', {
  up: [
    `
      CREATE TABLE search_entries (
        id bigserial PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        artifact_kind varchar(40),
        artifact_name varchar(100),
        element_kind varchar(20) NOT NULL,
        element_id text NOT NULL,
        title text NOT NULL,
        text text NOT NULL,
        document tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', text), 'B')
        ) STORED
      )`,
    `CREATE INDEX search_entries_document ON search_entries USING gin (document)`,
    `CREATE INDEX search_entries_service ON search_entries (service_id)`,
    `CREATE INDEX search_entries_element_id ON search_entries (organization_id, lower(element_id) text_pattern_ops)`,
  ],
  down: [`DROP TABLE search_entries`],
});
