import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The layout of a synced diagram's default view, computed once per content by DiagramLayoutService and shared by
 * every instance: keyed by the diagram's artifact version, the layout code's version (LAYOUT_ENGINE_VERSION of
 * libs/diagram: a new one computes layouts again) and `inputs_key`, the fingerprints of the database schemas the
 * diagram's data nodes name in that revision ('' when it names none), which size those nodes. Deleting a version
 * (retention, a deleted service) deletes its layouts.
 */
export class DiagramLayouts1765000000000 implements MigrationInterface {
  name = 'DiagramLayouts1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE diagram_layouts (
        version_id uuid NOT NULL REFERENCES artifact_versions(id) ON DELETE CASCADE,
        engine varchar(64) NOT NULL,
        inputs_key varchar(64) NOT NULL,
        layout jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (version_id, engine, inputs_key)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE diagram_layouts`);
  }
}
