import { sqlMigration } from './sql-migration';

/**
 * SCIM 2.0 provisioning (issue 27 item 4). `scim_tokens`: bearer tokens of identity providers, SHA-256 only, one
 * organization each. `scim_users`: the SCIM view of a provisioned member (the attributes the IdP sent, its
 * externalId, active flag and version for ETags); the access itself stays the membership of `user_id`.
 * `scim_groups`: groups the IdP pushes; `member_ids` holds `scim_users.id` values (GIN-indexed for "groups of a user").
 */
export const Scim1765800000000 = sqlMigration('Scim1765800000000', {
  up: [
    `
      CREATE TABLE scim_tokens (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prefix varchar(32) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        created_by_user_id uuid,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`,
    `CREATE INDEX scim_tokens_organization ON scim_tokens (organization_id, created_at)`,
    `
      CREATE TABLE scim_users (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        user_name varchar(320) NOT NULL,
        external_id varchar(255),
        active boolean NOT NULL,
        attributes jsonb NOT NULL,
        version integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (organization_id, user_id)
      )`,
    `CREATE UNIQUE INDEX scim_users_user_name ON scim_users (organization_id, lower(user_name))`,
    `
      CREATE TABLE scim_groups (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        display_name varchar(255) NOT NULL,
        external_id varchar(255),
        member_ids jsonb NOT NULL DEFAULT '[]',
        version integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX scim_groups_display_name ON scim_groups (organization_id, lower(display_name))`,
    `CREATE INDEX scim_groups_member_ids ON scim_groups USING gin (member_ids)`,
  ],
  down: [
    `DROP TABLE scim_groups`,
    `DROP TABLE scim_users`,
    `DROP TABLE scim_tokens`,
  ],
});
