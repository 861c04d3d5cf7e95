import { sqlMigration } from './sql-migration';

/** Organization SSO: providers, one-time OAuth states, provider identity links and the sign-in audit log. */
export const Sso1763900000000 = sqlMigration('Sso1763900000000', {
  up: [
    `
      CREATE TABLE sso_providers (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        slug varchar(63) NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        display_name varchar(100) NOT NULL,
        type varchar(16) NOT NULL CHECK (type IN ('generic', 'entra', 'okta')),
        enabled boolean NOT NULL,
        tenant_id varchar(253),
        cloud varchar(16),
        domain varchar(253),
        client_id varchar(512) NOT NULL,
        client_secret_sealed text NOT NULL,
        scopes varchar(1000) NOT NULL,
        auth_url varchar(2048),
        token_url varchar(2048),
        userinfo_url varchar(2048),
        issuer varchar(2048),
        jwks_uri varchar(2048),
        email_claim varchar(200) NOT NULL,
        name_claim varchar(200) NOT NULL,
        subject_claim varchar(200) NOT NULL,
        allowed_domains jsonb NOT NULL,
        allow_sign_up boolean NOT NULL,
        default_role varchar(16) NOT NULL CHECK (default_role IN ('admin', 'editor', 'viewer')),
        claim_rules jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX sso_providers_org_slug_key ON sso_providers (organization_id, slug)`,

    // The state value itself is never stored, only its SHA-256; same for the browser-binding cookie value.
    `
      CREATE TABLE oauth_states (
        id uuid PRIMARY KEY,
        state_hash char(64) NOT NULL,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        provider_id uuid NOT NULL REFERENCES sso_providers (id) ON DELETE CASCADE,
        purpose varchar(16) NOT NULL CHECK (purpose IN ('login', 'test')),
        nonce varchar(128) NOT NULL,
        code_verifier_sealed text NOT NULL,
        redirect_path varchar(2048) NOT NULL,
        binding_hash char(64) NOT NULL,
        initiated_by_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz
      )`,
    `CREATE UNIQUE INDEX oauth_states_state_hash_key ON oauth_states (state_hash)`,
    `CREATE INDEX oauth_states_expires_at_idx ON oauth_states (expires_at)`,

    `
      CREATE TABLE sso_identities (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        provider_id uuid NOT NULL REFERENCES sso_providers (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        subject varchar(255) NOT NULL,
        email varchar(320) NOT NULL,
        created_at timestamptz NOT NULL,
        last_login_at timestamptz NOT NULL
      )`,
    `CREATE UNIQUE INDEX sso_identities_provider_subject_key ON sso_identities (provider_id, subject)`,
    `CREATE UNIQUE INDEX sso_identities_provider_user_key ON sso_identities (provider_id, user_id)`,

    `
      CREATE TABLE sso_audit_events (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        provider_id uuid REFERENCES sso_providers (id) ON DELETE SET NULL,
        provider_slug varchar(63) NOT NULL,
        test boolean NOT NULL,
        outcome varchar(16) NOT NULL CHECK (outcome IN ('success', 'failure')),
        error_code varchar(64),
        message text NOT NULL,
        email varchar(320),
        user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        subject varchar(255),
        role varchar(16),
        claim_names jsonb NOT NULL,
        warnings jsonb NOT NULL,
        ip_address varchar(64),
        user_agent varchar(512),
        created_at timestamptz NOT NULL
      )`,
    `CREATE INDEX sso_audit_events_org_created_idx ON sso_audit_events (organization_id, created_at DESC, id DESC)`,
  ],
  down: [
    `DROP TABLE sso_audit_events`,
    `DROP TABLE sso_identities`,
    `DROP TABLE oauth_states`,
    `DROP TABLE sso_providers`,
  ],
});
