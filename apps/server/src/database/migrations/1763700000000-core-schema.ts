import { sqlMigration } from './sql-migration';

/** Organizations, users, memberships, sessions, API tokens and one-time sign-in links. */
export const CoreSchema1763700000000 = sqlMigration('CoreSchema1763700000000', {
  up: [
    `
      CREATE TABLE organizations (
        id varchar(63) PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
        name varchar(200) NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    `
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email varchar(320) NOT NULL CHECK (email = lower(email)),
        display_name varchar(200),
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX users_email_key ON users (email)`,
    `
      CREATE TABLE memberships (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role varchar(16) NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        source varchar(16) NOT NULL CHECK (source IN ('manual', 'sso')),
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT memberships_organization_user_key UNIQUE (organization_id, user_id)
      )`,
    `CREATE INDEX memberships_user_idx ON memberships (user_id)`,
    `
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        token_hash char(64) NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        absolute_expires_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash)`,
    `CREATE INDEX sessions_user_organization_idx ON sessions (user_id, organization_id)`,
    `
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prefix varchar(32) NOT NULL,
        token_hash char(64) NOT NULL,
        scopes text NOT NULL,
        created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`,
    `CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash)`,
    `CREATE INDEX api_tokens_organization_idx ON api_tokens (organization_id, created_at)`,
    `
      CREATE TABLE sign_in_links (
        id uuid PRIMARY KEY,
        token_hash char(64) NOT NULL,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
    `CREATE UNIQUE INDEX sign_in_links_token_hash_key ON sign_in_links (token_hash)`,
  ],
  down: ['sign_in_links', 'api_tokens', 'sessions', 'memberships', 'users', 'organizations'].map((table) => `DROP TABLE ${table}`),
});
