import { sqlMigration } from './sql-migration';

/**
 * Who did what (issue 23): a provider's last test sign-in (enabling needs a recent pass), how each membership was
 * added, and who synced each revision from which commit, branch and CI run. Existing rows are filled from what is
 * already recorded: the SSO sign-in log's test entries, the audit log's `member.added` entries (else "unknown"),
 * and the revision's token with its creator.
 */
export const Provenance1765200000000 = sqlMigration('Provenance1765200000000', {
  up: [
    `
      ALTER TABLE sso_providers
        ADD COLUMN last_test_at timestamptz,
        ADD COLUMN last_test_ok boolean,
        ADD COLUMN last_test_error_code varchar(64),
        ADD COLUMN last_test_message varchar(2000)`,
    `
      UPDATE sso_providers p
         SET last_test_at = e.created_at, last_test_ok = e.outcome = 'success', last_test_error_code = e.error_code, last_test_message = e.message
        FROM (SELECT DISTINCT ON (provider_id) provider_id, created_at, outcome, error_code, message
                FROM sso_audit_events WHERE test AND provider_id IS NOT NULL
               ORDER BY provider_id, created_at DESC) e
       WHERE e.provider_id = p.id`,

    `ALTER TABLE memberships ADD COLUMN added_by jsonb NOT NULL DEFAULT '{"kind":"unknown"}'`,
    `
      UPDATE memberships m
         SET added_by = CASE
               WHEN a.actor_type = 'setup' THEN '{"kind":"setup"}'::jsonb
               WHEN a.actor_type = 'user' AND a.actor_user_id = m.user_id THEN '{"kind":"organization"}'::jsonb
               WHEN a.actor_type = 'user' THEN jsonb_build_object('kind', 'member', 'userId', a.actor_user_id, 'email', a.actor_email)
               WHEN a.actor_type = 'token' THEN jsonb_build_object('kind', 'token', 'tokenId', a.actor_token_id, 'tokenName', t.name,
                                                                   'tokenPrefix', a.actor_token_prefix, 'userId', a.actor_user_id, 'email', a.actor_email)
               WHEN a.actor_type = 'sso' THEN jsonb_build_object('kind', 'sso', 'providerSlug', NULL, 'providerName', NULL)
               ELSE m.added_by
             END
        FROM (SELECT DISTINCT ON (organization_id, target_id) * FROM audit_events
               WHERE action = 'member.added' AND target_type = 'member'
               ORDER BY organization_id, target_id, seq DESC) a
        LEFT JOIN api_tokens t ON t.id = a.actor_token_id
       WHERE a.organization_id = m.organization_id AND a.target_id = m.user_id::text`,
    // An SSO sign-up's provider: the first identity link the user has in the organization.
    `
      UPDATE memberships m
         SET added_by = jsonb_build_object('kind', 'sso', 'providerSlug', p.slug, 'providerName', p.display_name)
        FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id
       WHERE m.added_by->>'kind' = 'sso' AND i.organization_id = m.organization_id AND i.user_id = m.user_id
         AND i.created_at = (SELECT min(created_at) FROM sso_identities f WHERE f.organization_id = m.organization_id AND f.user_id = m.user_id)`,

    `ALTER TABLE service_revisions ADD COLUMN synced_by jsonb, ADD COLUMN source jsonb`,
    `
      UPDATE service_revisions r
         SET synced_by = jsonb_build_object('tokenId', t.id, 'tokenName', t.name, 'tokenPrefix', t.prefix, 'userId', t.created_by_user_id, 'email', u.email)
        FROM api_tokens t LEFT JOIN users u ON u.id = t.created_by_user_id
       WHERE t.id = r.token_id`,
  ],
  down: [
    `ALTER TABLE service_revisions DROP COLUMN synced_by, DROP COLUMN source`,
    `ALTER TABLE memberships DROP COLUMN added_by`,
    `
      ALTER TABLE sso_providers DROP COLUMN last_test_at, DROP COLUMN last_test_ok, DROP COLUMN last_test_error_code, DROP COLUMN last_test_message`,
  ],
});
