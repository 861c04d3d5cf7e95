import { sqlMigration } from './sql-migration';

const ACCESS_TABLES = ['memberships', 'users', 'organizations', 'sessions', 'api_tokens'];
const SERVICES_TRIGGERS: [string, string][] = [
  ['services', 'UPDATE OR DELETE OR TRUNCATE'],
  ['service_revisions', 'DELETE OR TRUNCATE'],
  ['revision_artifacts', 'DELETE OR TRUNCATE'],
];
const notify = `EXECUTE FUNCTION sc_notify_cache_change('access')`;
/** Every trigger `up` creates, with its table: what `down` drops. */
const TRIGGERS: [string, string][] = [
  ['memberships', 'memberships_access_changed'],
  ['users', 'users_access_changed'],
  ['organizations', 'organizations_access_changed'],
  ['sessions', 'sessions_access_deleted'],
  ['sessions', 'sessions_access_changed'],
  ['api_tokens', 'api_tokens_access_deleted'],
  ['api_tokens', 'api_tokens_access_changed'],
  ...ACCESS_TABLES.map((table): [string, string] => [table, `${table}_access_truncated`]),
  ...SERVICES_TRIGGERS.map(([table]): [string, string] => [table, `${table}_services_changed`]),
];

/**
 * Committed changes that in-memory caches must not outlive send a notification on the channel `sc_cache_changes`,
 * which every instance LISTENs to (database/cache-changes.ts). Triggers rather than calls in the services: a change
 * made by any code path, a cascade (an organization or user deleted) or by hand in psql is covered too. pg_notify in
 * the changing transaction is delivered only when it commits, and never after a rollback.
 *
 * Payload `access` empties the authorization cache (modules/auth/auth-cache.ts): every change that can narrow what a
 * session or API token may do.
 *
 * What notifies: any update or delete of memberships and users, a deleted organization; a deleted session or one whose
 * user, organization, token or absolute expiry changed or whose idle expiry moved earlier (extending it on use does
 * not); a deleted API token or any change to one except its `last_used_at` (written at most once a minute per token).
 * TRUNCATE of any of these tables notifies too. Inserts never do: a new row grants, and the cache keeps no refusals.
 *
 * Payload `services` empties the read lookups (modules/artifacts/read/read-lookups.ts: a service by name, the version a
 * revision holds): any update, delete or truncate of services (every sync moves current_revision), and a deletion of
 * revisions or their artifact links (retention, a deleted service). Per statement: one notification however many rows.
 */
export const CacheChangeNotifications1764800000000 = sqlMigration('CacheChangeNotifications1764800000000', {
  up: [
    `
      CREATE FUNCTION sc_notify_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('sc_cache_changes', TG_ARGV[0]);
        RETURN NULL;
      END
      $$`,
    ...['memberships', 'users'].map((table) => `CREATE TRIGGER ${table}_access_changed AFTER UPDATE OR DELETE ON ${table} FOR EACH ROW ${notify}`),
    `CREATE TRIGGER organizations_access_changed AFTER DELETE ON organizations FOR EACH ROW ${notify}`,
    `CREATE TRIGGER sessions_access_deleted AFTER DELETE ON sessions FOR EACH ROW ${notify}`,
    `
      CREATE TRIGGER sessions_access_changed AFTER UPDATE ON sessions FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'last_seen_at' - 'idle_expires_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at' - 'idle_expires_at')
            OR NEW.idle_expires_at < OLD.idle_expires_at)
      ${notify}`,
    `CREATE TRIGGER api_tokens_access_deleted AFTER DELETE ON api_tokens FOR EACH ROW ${notify}`,
    `
      CREATE TRIGGER api_tokens_access_changed AFTER UPDATE ON api_tokens FOR EACH ROW
      WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
      ${notify}`,
    ...ACCESS_TABLES.map((table) => `CREATE TRIGGER ${table}_access_truncated AFTER TRUNCATE ON ${table} FOR EACH STATEMENT ${notify}`),
    ...SERVICES_TRIGGERS.map(
      ([table, events]) => `CREATE TRIGGER ${table}_services_changed AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION sc_notify_cache_change('services')`,
    ),
  ],
  down: [...TRIGGERS.map(([table, trigger]) => `DROP TRIGGER ${trigger} ON ${table}`), `DROP FUNCTION sc_notify_cache_change()`],
});
