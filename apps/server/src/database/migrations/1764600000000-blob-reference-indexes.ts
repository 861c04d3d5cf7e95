import { sqlMigration } from './sql-migration';

/**
 * Revision retention and service deletion (issue 15) delete blobs no artifact version references: each
 * candidate is checked against artifact_versions' three hash columns (the NOT EXISTS re-check and the foreign
 * keys' own checks). Without these indexes every check would read the whole table.
 */
export const BlobReferenceIndexes1764600000000 = sqlMigration('BlobReferenceIndexes1764600000000', {
  up: [
    `CREATE INDEX artifact_versions_sha256_idx ON artifact_versions (sha256)`,
    `CREATE INDEX artifact_versions_context_sha256_idx ON artifact_versions (context_sha256) WHERE context_sha256 IS NOT NULL`,
    `CREATE INDEX artifact_versions_notes_sha256_idx ON artifact_versions (notes_sha256) WHERE notes_sha256 IS NOT NULL`,
  ],
  down: ['artifact_versions_sha256_idx', 'artifact_versions_context_sha256_idx', 'artifact_versions_notes_sha256_idx'].map((index) => `DROP INDEX ${index}`),
});
