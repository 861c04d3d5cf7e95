import { sqlMigration } from './sql-migration';

/**
 * SAML 2.0 providers and Require SSO (issue 27): the `saml` type, its metadata (URL and/or the document in use, with what was parsed
 * from it at save), the IdP-initiated switch, and the assertion IDs already accepted. An assertion ID is kept until
 * the assertion expires (plus the clock skew): after that its assertion is refused as expired anyway, so the row
 * can go. SAML providers have no client ID or secret: both stay '' (the columns keep NOT NULL for OAuth types).
 */
export const SamlProviders1765700000000 = sqlMigration('SamlProviders1765700000000', {
  up: [
    `ALTER TABLE sso_providers DROP CONSTRAINT sso_providers_type_check`,
    `ALTER TABLE sso_providers ADD CONSTRAINT sso_providers_type_check CHECK (type IN ('generic', 'entra', 'okta', 'saml'))`,
    `
      ALTER TABLE sso_providers
        ADD COLUMN idp_metadata_url varchar(2048),
        ADD COLUMN idp_metadata_xml text,
        ADD COLUMN allow_idp_initiated boolean NOT NULL DEFAULT false,
        ADD COLUMN idp_entity_id varchar(1024),
        ADD COLUMN idp_sso_url varchar(2048),
        ADD COLUMN idp_certificates jsonb NOT NULL DEFAULT '[]'::jsonb`,
    `
      CREATE TABLE saml_assertions (
        provider_id uuid NOT NULL REFERENCES sso_providers (id) ON DELETE CASCADE,
        assertion_id_hash char(64) NOT NULL,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (provider_id, assertion_id_hash)
      )`,
    `CREATE INDEX saml_assertions_expires_at_idx ON saml_assertions (expires_at)`,
    // Require SSO (issue 27 item 2): the organization setting, how each session started, and which sign-in links
    // the break-glass command minted (the only ones an SSO-only organization still redeems, for owners).
    `ALTER TABLE organizations ADD COLUMN require_sso boolean NOT NULL DEFAULT false`,
    `ALTER TABLE sessions ADD COLUMN via_sso boolean NOT NULL DEFAULT false`,
    `ALTER TABLE sign_in_links ADD COLUMN break_glass boolean NOT NULL DEFAULT false`,
  ],
  down: [
    `ALTER TABLE sign_in_links DROP COLUMN break_glass`,
    `ALTER TABLE sessions DROP COLUMN via_sso`,
    `ALTER TABLE organizations DROP COLUMN require_sso`,
    `DROP TABLE saml_assertions`,
    `DELETE FROM sso_providers WHERE type = 'saml'`,
    `
      ALTER TABLE sso_providers
        DROP COLUMN idp_metadata_url, DROP COLUMN idp_metadata_xml, DROP COLUMN allow_idp_initiated,
        DROP COLUMN idp_entity_id, DROP COLUMN idp_sso_url, DROP COLUMN idp_certificates`,
    `ALTER TABLE sso_providers DROP CONSTRAINT sso_providers_type_check`,
    `ALTER TABLE sso_providers ADD CONSTRAINT sso_providers_type_check CHECK (type IN ('generic', 'entra', 'okta'))`,
  ],
});
