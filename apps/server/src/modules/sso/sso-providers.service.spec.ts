import { codeOf, oidcProviderRequest as provider, serviceSpec, SPEC_CLIENT_SECRET as SECRET } from '../../testing/service-spec';
import { OrganizationsService } from '../organizations/organizations.service';
import { SsoModule } from './sso.module';
import { SsoProvidersService } from './sso-providers.service';

const spec = serviceSpec([SsoModule]);

/** SsoProvidersService on a real (in-memory PGlite) database, one per file: organizations "acme" and "globex". */
async function sut() {
  const { app, ctx } = spec;
  const acme = await ctx.newOrg({ id: 'acme' });
  const globex = await ctx.newOrg({ id: 'globex' });
  return { app, providers: app.get(SsoProvidersService), acme, globex };
}

describe('SsoProvidersService', () => {
  it('starts a provider disabled; enabling it needs a test sign-in passed within 24 hours or an explicit confirmation', async () => {
    const { app, providers, acme } = await sut();
    expect(await codeOf(providers.create('acme', provider('eager', { enabled: true }), acme.asOwner))).toBe('provider_not_tested');
    const created = await providers.create('acme', provider('corp'), acme.asOwner);
    expect(created.enabled).toBe(false);

    expect(await codeOf(providers.update('acme', 'corp', { enabled: true }, acme.asOwner))).toBe('provider_not_tested');
    // A failed test does not count, a passed one does, for 24 hours.
    await providers.recordTest(created.id, { ok: false, errorCode: 'token_exchange_failed', message: 'no' });
    expect(await codeOf(providers.update('acme', 'corp', { enabled: true }, acme.asOwner))).toBe('provider_not_tested');
    await providers.recordTest(created.id, { ok: true, errorCode: null, message: 'ok' });
    app.clock.advance(25 * 3600_000);
    expect(await codeOf(providers.update('acme', 'corp', { enabled: true }, acme.asOwner))).toBe('provider_not_tested');
    await providers.recordTest(created.id, { ok: true, errorCode: null, message: 'ok' });
    expect((await providers.update('acme', 'corp', { enabled: true }, acme.asOwner)).enabled).toBe(true);

    // Confirming instead of testing is the other way in.
    await providers.create('acme', provider('untested'), acme.asOwner);
    expect((await providers.update('acme', 'untested', { enabled: true, confirmUntested: true }, acme.asOwner)).enabled).toBe(true);
  });

  it('keeps slugs unique per organization and permanent, and a provider inside its organization', async () => {
    const { providers, acme, globex } = await sut();
    await providers.create('acme', provider('corp'), acme.asOwner);
    expect(await codeOf(providers.create('acme', provider('corp'), acme.asOwner))).toBe('slug_taken');
    // Another organization has its own slugs, and never sees acme's provider.
    await providers.create('globex', provider('corp', { displayName: 'Globex corp' }), globex.asOwner);
    expect((await providers.get('acme', 'corp')).displayName).toBe('corp');
    expect(await codeOf(providers.update('acme', 'corp', { slug: 'renamed' }, acme.asOwner))).toBe('slug_immutable');
    expect(await codeOf(providers.delete('globex', 'missing', globex.asOwner))).toBe('provider_not_found');
    expect(await codeOf(providers.get('acme', 'Not A Slug'))).toBe('provider_not_found');
    await providers.delete('globex', 'corp', globex.asOwner);
    expect((await providers.list('acme')).map((listed) => listed.slug)).toEqual(['corp']);
  });

  it('while SSO is required, the last enabled provider can be neither disabled nor deleted', async () => {
    const { app, providers, acme } = await sut();
    await providers.create('acme', provider('corp', { enabled: true, confirmUntested: true }), acme.asOwner);
    await app.get(OrganizationsService).setRequireSso('acme', true);
    expect(await codeOf(providers.update('acme', 'corp', { enabled: false }, acme.asOwner))).toBe('sso_required_last_provider');
    expect(await codeOf(providers.delete('acme', 'corp', acme.asOwner))).toBe('sso_required_last_provider');

    // With a second enabled provider the first may go.
    await providers.create('acme', provider('backup', { enabled: true, confirmUntested: true }), acme.asOwner);
    expect((await providers.update('acme', 'corp', { enabled: false }, acme.asOwner)).enabled).toBe(false);
    await providers.delete('acme', 'corp', acme.asOwner);
    expect(await codeOf(providers.delete('acme', 'backup', acme.asOwner))).toBe('sso_required_last_provider');
  });

  it('never answers the client secret, and opens it only for a sign-in', async () => {
    const { providers, acme } = await sut();
    await providers.create('acme', provider('corp'), acme.asOwner);
    await providers.update('acme', 'corp', { clientSecret: 'rotated-secret-9876543210' }, acme.asOwner);
    const answered = JSON.stringify([await providers.get('acme', 'corp'), await providers.list('acme'), await providers.listPublic('acme')]);
    expect(answered).not.toContain(SECRET);
    expect(answered).not.toContain('rotated-secret-9876543210');
    expect((await providers.forSignIn('acme', 'corp')).clientSecret).toBe('rotated-secret-9876543210');
  });
});
