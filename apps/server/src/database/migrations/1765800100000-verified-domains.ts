import { sqlMigration } from './sql-migration';

/**
 * Email domains an organization proves it controls (issue 27 item 3): the owner publishes
 * `service-verification=<token>` as a DNS TXT record; only `verified` rows route sign-ins by email. Several
 * organizations may verify the same domain (each proved control); the partial index serves the routing lookup.
 */
export const VerifiedDomains1765800100000 = sqlMigration('VerifiedDomains1765800100000', {
  up: [
    `
      CREATE TABLE verified_domains (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        domain varchar(253) NOT NULL CHECK (domain = lower(domain)),
        token varchar(64) NOT NULL,
        state varchar(16) NOT NULL CHECK (state IN ('pending', 'verified', 'failed')),
        verified_at timestamptz,
        last_checked_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL,
        UNIQUE (organization_id, domain)
      )`,
    `CREATE INDEX verified_domains_routing ON verified_domains (domain) WHERE state = 'verified'`,
  ],
  down: [`DROP TABLE verified_domains`],
});
