import { sqlMigration } from './sql-migration';

/**
 * Arrangements of synced diagrams (issue 25): where people put a diagram's nodes, group frames and edge bends, one
 * row per service and diagram name (not per revision: a sync keeps it). `version` counts saves and resets (PUT sends
 * the version it edited in If-Match; a save is a conditional UPDATE, the first one an INSERT … ON CONFLICT DO
 * NOTHING). `json`, not `jsonb`: node ids may hold characters jsonb refuses (a NUL escape). Deleting the service
 * deletes its arrangements.
 */
export const DiagramArrangements1765500000000 = sqlMigration('DiagramArrangements1765500000000', {
  up: [
    `
      CREATE TABLE diagram_arrangements (
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        diagram varchar(100) NOT NULL,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        nodes json NOT NULL,
        "groups" json NOT NULL,
        edges json NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        updated_by_token_id uuid REFERENCES api_tokens (id) ON DELETE SET NULL,
        PRIMARY KEY (service_id, diagram)
      )`,
  ],
  down: [`DROP TABLE diagram_arrangements`],
});
