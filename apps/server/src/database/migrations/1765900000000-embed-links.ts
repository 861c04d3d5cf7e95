import { sqlMigration } from './sql-migration';

const notify = `EXECUTE FUNCTION sc_notify_cache_change('embeds')`;

/**
 * Embed links (modules/embeds): read-only links to a diagram's image (or every diagram of a service) for READMEs,
 * wikis and portals. The token is stored as its SHA-256 only, beside its visible prefix. Deleting the service or the
 * organization deletes its links; a deleted creator leaves the link (created_by_user_id NULL).
 *
 * Every instance caches resolved links (EmbedLinksService): any change to a link but its `last_used_at` (written at most
 * once a minute), a deletion (a cascade included) or a truncate notifies `embeds` on sc_cache_changes, so a revoked link
 * answers 404 on every instance at once (database/cache-changes.ts).
 */
export const EmbedLinks1765900000000 = sqlMigration('EmbedLinks1765900000000', {
  up: [
    `
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
      )`,
    `CREATE INDEX embed_links_organization_created ON embed_links (organization_id, created_at DESC, id DESC)`,
    `CREATE INDEX embed_links_service ON embed_links (service_id)`,
    `CREATE TRIGGER embed_links_embeds_deleted AFTER DELETE ON embed_links FOR EACH STATEMENT ${notify}`,
    `
      CREATE TRIGGER embed_links_embeds_changed AFTER UPDATE ON embed_links FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      ${notify}`,
    `CREATE TRIGGER embed_links_embeds_truncated AFTER TRUNCATE ON embed_links FOR EACH STATEMENT ${notify}`,
  ],
  down: [`DROP TABLE embed_links`],
});
