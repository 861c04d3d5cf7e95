import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revision retention and service deletion (issue 15) delete blobs no artifact version references: each
 * candidate is checked against artifact_versions' three hash columns (the NOT EXISTS re-check and the foreign
 * keys' own checks). Without these indexes every check would read the whole table.
 */
export class BlobReferenceIndexes1764600000000 implements MigrationInterface {
  name = 'BlobReferenceIndexes1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX artifact_versions_sha256_idx ON artifact_versions (sha256)`);
    await queryRunner.query(`CREATE INDEX artifact_versions_context_sha256_idx ON artifact_versions (context_sha256) WHERE context_sha256 IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX artifact_versions_notes_sha256_idx ON artifact_versions (notes_sha256) WHERE notes_sha256 IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of ['artifact_versions_sha256_idx', 'artifact_versions_context_sha256_idx', 'artifact_versions_notes_sha256_idx']) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
  }
}
