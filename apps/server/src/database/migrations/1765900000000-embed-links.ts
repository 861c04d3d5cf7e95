import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Embed links (modules/embeds): read-only links to a diagram's image (or every diagram of a service) for READMEs,
 * wikis and portals. The token is stored as its SHA-256 only, beside its visible prefix. Deleting the service or the
 * organization deletes its links; a deleted creator leaves the link (created_by_user_id NULL).
 *
 * Every instance caches resolved links (EmbedLinksService): any change to a link but its `last_used_at` (written at most
 * once a minute), a deletion (a cascade included) or a truncate notifies `embeds` on sc_cache_changes, so a revoked link
 * answers 404 on every instance at once (database/cache-changes.ts).
 */
export class EmbedLinks1765900000000 implements MigrationInterface {
  name = 'EmbedLinks1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE embed_links (
        id uuid PRIMARY KEY,
        organization_id varchar(63) NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
        service_name varchar(100) NOT NULL,
        diagram varchar(100),
        revision integer CHECK (revision >= 1),
        prefix varchar(32) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        frame_ancestors json,
        created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX embed_links_organization_created ON embed_links (organization_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX embed_links_service ON embed_links (service_id)`);
    const notify = `EXECUTE FUNCTION sc_notify_cache_change('embeds')`;
    await queryRunner.query(`CREATE TRIGGER embed_links_embeds_deleted AFTER DELETE ON embed_links FOR EACH STATEMENT ${notify}`);
    await queryRunner.query(`
      CREATE TRIGGER embed_links_embeds_changed AFTER UPDATE ON embed_links FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      ${notify}`);
    await queryRunner.query(`CREATE TRIGGER embed_links_embeds_truncated AFTER TRUNCATE ON embed_links FOR EACH STATEMENT ${notify}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE embed_links`);
  }
}
