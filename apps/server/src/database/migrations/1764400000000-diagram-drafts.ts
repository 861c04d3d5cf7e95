import { sqlMigration } from './sql-migration';

/**
 * Diagram drafts (issue 11): a drawn flowchart per row with its canvas layout. `version` starts at 1 and a save
 * is a conditional UPDATE … WHERE version = <the version edited>, so a stale save changes nothing. Graph and
 * layout are `json` (kept as sent, key order included) rather than `jsonb` (keys reordered): an export writes the
 * context file in the order the editor wrote the overlays.
 */
export const DiagramDrafts1764400000000 = sqlMigration('DiagramDrafts1764400000000', {
  up: [
    `
      CREATE TABLE diagram_drafts (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        kind varchar(16) NOT NULL CHECK (kind IN ('flowchart')),
        graph json NOT NULL,
        layout json NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        node_count integer NOT NULL,
        edge_count integer NOT NULL,
        source json,
        created_at timestamptz NOT NULL,
        created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        created_by_token_id uuid REFERENCES api_tokens (id) ON DELETE SET NULL,
        updated_at timestamptz NOT NULL,
        updated_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        updated_by_token_id uuid REFERENCES api_tokens (id) ON DELETE SET NULL
      )`,
    `CREATE INDEX diagram_drafts_org_updated_idx ON diagram_drafts (organization_id, updated_at DESC, id)`,
  ],
  down: [`DROP TABLE diagram_drafts`],
});
