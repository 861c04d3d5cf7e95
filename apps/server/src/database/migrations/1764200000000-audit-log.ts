import { sqlMigration } from './sql-migration';

/**
 * The organization audit log. Actor and target are copied (ids, email, labels) rather than referenced: an
 * entry outlives the member, token or provider it names. Pages are read newest first by `seq` (insertion
 * order), which also orders the entries one transaction writes with the same time.
 */
export const AuditLog1764200000000 = sqlMigration('AuditLog1764200000000', {
  up: [
    `
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        action varchar(64) NOT NULL,
        actor_type varchar(16) NOT NULL,
        actor_user_id uuid,
        actor_email varchar(320),
        actor_token_id uuid,
        actor_token_prefix varchar(32),
        target_type varchar(32) NOT NULL,
        target_id varchar(255) NOT NULL,
        target_label varchar(320),
        before jsonb,
        after jsonb,
        ip_address varchar(64),
        created_at timestamptz NOT NULL
      )`,
    `CREATE INDEX audit_events_org_seq_idx ON audit_events (organization_id, seq DESC)`,
  ],
  down: [`DROP TABLE audit_events`],
});
