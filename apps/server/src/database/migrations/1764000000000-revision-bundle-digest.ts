import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The canonical bundle digest (libs/contracts syncBundleDigest) per revision, for POST /gateway/sync/check.
 * Revisions stored before this migration keep null ("unknown"): their next sync takes the full path once and
 * records the digest.
 */
export class RevisionBundleDigest1764000000000 implements MigrationInterface {
  name = 'RevisionBundleDigest1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE service_revisions ADD COLUMN bundle_digest char(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE service_revisions DROP COLUMN bundle_digest`);
  }
}
