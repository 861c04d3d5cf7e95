import { sqlMigration } from './sql-migration';

/**
 * The versioned artifact store of issue 5: services, their revisions, immutable artifact versions and
 * content-addressed file blobs. Revisions reference versions, so unchanged artifacts cost one link row.
 */
export const ArtifactStore1763800000000 = sqlMigration('ArtifactStore1763800000000', {
  up: [
    `
      CREATE TABLE services (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        description text,
        repository_url text,
        current_revision integer NOT NULL DEFAULT 0 CHECK (current_revision >= 0),
        last_synced_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT services_organization_name_key UNIQUE (organization_id, name)
      )`,
    `
      CREATE TABLE service_revisions (
        id uuid PRIMARY KEY,
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        number integer NOT NULL CHECK (number > 0),
        created_at timestamptz NOT NULL,
        token_id uuid,
        artifact_count integer NOT NULL,
        changes jsonb NOT NULL,
        CONSTRAINT service_revisions_service_number_key UNIQUE (service_id, number)
      )`,
    `
      CREATE TABLE artifact_blobs (
        sha256 char(64) PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        content text NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    `
      CREATE TABLE artifact_versions (
        id uuid PRIMARY KEY,
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        name varchar(100) NOT NULL,
        fingerprint char(64) NOT NULL,
        path text NOT NULL,
        sha256 char(64) NOT NULL REFERENCES artifact_blobs (sha256),
        size integer NOT NULL,
        context_path text,
        context_sha256 char(64) REFERENCES artifact_blobs (sha256),
        notes_path text,
        notes_sha256 char(64) REFERENCES artifact_blobs (sha256),
        engine varchar(16),
        format varchar(16),
        analysis jsonb NOT NULL,
        first_revision integer NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT artifact_versions_identity_key UNIQUE (service_id, kind, name, fingerprint)
      )`,
    `
      CREATE TABLE revision_artifacts (
        revision_id uuid NOT NULL REFERENCES service_revisions (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL,
        name varchar(100) NOT NULL,
        version_id uuid NOT NULL REFERENCES artifact_versions (id) ON DELETE CASCADE,
        PRIMARY KEY (revision_id, kind, name)
      )`,
    `CREATE INDEX revision_artifacts_version_idx ON revision_artifacts (version_id)`,
  ],
  down: ['revision_artifacts', 'artifact_versions', 'artifact_blobs', 'service_revisions', 'services'].map((table) => `DROP TABLE ${table}`),
});
