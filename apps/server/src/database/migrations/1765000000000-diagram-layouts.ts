import { sqlMigration } from './sql-migration';

/**
 * The layout of a synced diagram's default view, computed once per content by DiagramLayoutService and shared by
 * every instance: keyed by the diagram's artifact version, the layout code's version (LAYOUT_ENGINE_VERSION of
 * libs/diagram: a new one computes layouts again) and `inputs_key`, the fingerprints of the database schemas the
 * diagram's data nodes name in that revision ('' when it names none), which size those nodes. Deleting a version
 * (retention, a deleted service) deletes its layouts.
 */
export const DiagramLayouts1765000000000 = sqlMigration('DiagramLayouts1765000000000', {
  up: [
    `
      CREATE TABLE diagram_layouts (
        version_id uuid NOT NULL REFERENCES artifact_versions(id) ON DELETE CASCADE,
        engine varchar(64) NOT NULL,
        inputs_key varchar(64) NOT NULL,
        layout jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (version_id, engine, inputs_key)
      )`,
  ],
  down: [`DROP TABLE diagram_layouts`],
});
