import { sqlMigration } from './sql-migration';

/**
 * The canonical bundle digest (libs/contracts syncBundleDigest) per revision, for POST /gateway/sync/check.
 * Revisions stored before this migration keep null ("unknown"): their next sync takes the full path once and
 * records the digest.
 */
export const RevisionBundleDigest1764000000000 = sqlMigration('RevisionBundleDigest1764000000000', {
  up: [`ALTER TABLE service_revisions ADD COLUMN bundle_digest char(64)`],
  down: [`ALTER TABLE service_revisions DROP COLUMN bundle_digest`],
});
