import { sqlMigration } from './sql-migration';

/**
 * Previews (`service-cli sync --preview`): a validated bundle kept beside the service's revisions, never one of
 * them (the current revision, the revision list and the sync check ignore it). Its artifacts are stored like a
 * revision's — versions in `artifact_versions`, contents in `artifact_blobs` — and linked by `preview_artifacts`,
 * so retention keeps a version while a revision or a preview links it. One preview per label and service (a new
 * push replaces it); deleted with the service, and by the retention job once `expires_at` has passed.
 */
export const ServicePreviews1765400000000 = sqlMigration('ServicePreviews1765400000000', {
  up: [
    `
      CREATE TABLE service_previews (
        id uuid PRIMARY KEY,
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        label varchar(200) NOT NULL,
        base_revision integer NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        token_id uuid,
        artifact_count integer NOT NULL,
        changes jsonb NOT NULL,
        synced_by jsonb,
        source jsonb,
        UNIQUE (service_id, label)
      )`,
    `CREATE INDEX service_previews_expires_idx ON service_previews (expires_at)`,
    `
      CREATE TABLE preview_artifacts (
        preview_id uuid NOT NULL REFERENCES service_previews (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        name varchar(100) NOT NULL,
        version_id uuid NOT NULL REFERENCES artifact_versions (id) ON DELETE CASCADE,
        PRIMARY KEY (preview_id, kind, name)
      )`,
    // Retention's "is this version still linked?" check looks previews up by version.
    `CREATE INDEX preview_artifacts_version_idx ON preview_artifacts (version_id)`,
  ],
  down: [
    `DROP TABLE preview_artifacts`,
    `DROP TABLE service_previews`,
  ],
});
