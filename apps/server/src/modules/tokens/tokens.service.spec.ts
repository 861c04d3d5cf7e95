import { codeOf, serviceSpec } from '../../testing/service-spec';
import { MembersService } from '../members/members.service';
import { TokensService } from './tokens.service';

const spec = serviceSpec([]);

/** TokensService on a real (in-memory PGlite) database, one per file: organizations "acme" (with an editor) and "globex". */
async function sut() {
  const { app, ctx } = spec;
  const acme = await ctx.newOrg({ id: 'acme' });
  const globex = await ctx.newOrg({ id: 'globex' });
  const editor = await ctx.newMembership(acme, 'editor');
  return { app, ctx, tokens: app.get(TokensService), acme, globex, editor };
}

describe('TokensService', () => {
  it('refuses an expiry that has passed; a token works until its expiry and not at it', async () => {
    const { app, ctx, tokens, acme } = await sut();
    expect(await codeOf(tokens.create({ organizationId: 'acme', name: 'late', scopes: ['read'], actor: acme.asOwner, expiresAt: app.clock.now() }))).toBe('token_expiry_in_past');

    const { token } = await ctx.newToken(acme, ['read'], { expiresAt: new Date(app.clock.now().getTime() + 3_600_000) });
    expect((await tokens.lookup(token)).status).toBe('valid');
    app.clock.advance(3_600_000);
    expect((await tokens.lookup(token)).status).toBe('expired');
    // Something that is no token of ours at all is unknown, without a database question.
    expect((await tokens.lookup('not-a-token')).status).toBe('unknown');
  });

  it('revokes only tokens of the organization, once: a second revocation keeps the first time', async () => {
    const { app, ctx, tokens, acme, globex } = await sut();
    const { token, apiToken } = await ctx.newToken(acme, ['sync']);
    expect(await codeOf(tokens.revoke('globex', apiToken.id, globex.asOwner))).toBe('token_not_found');
    expect(await codeOf(tokens.revoke('acme', 'not-a-uuid', acme.asOwner))).toBe('token_not_found');
    expect((await tokens.lookup(token)).status).toBe('valid');

    const first = await tokens.revoke('acme', apiToken.id, acme.asOwner);
    app.clock.advance(60_000);
    const second = await tokens.revoke('acme', apiToken.id, acme.asOwner);
    expect(second.revokedAt).toBe(first.revokedAt);
    expect((await tokens.lookup(token)).status).toBe('revoked');
  });

  it('writes "last used" at most once a minute per token', async () => {
    const { app, ctx, tokens, acme } = await sut();
    const { token, apiToken } = await ctx.newToken(acme, ['read']);
    const lastUsed = async () => (await tokens.list('acme', { limit: 100, after: undefined })).items.find((listed) => listed.id === apiToken.id)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await tokens.lookup(token);
    const firstUse = app.clock.now().toISOString();
    expect(await lastUsed()).toBe(firstUse);
    app.clock.advance(59_000);
    await tokens.lookup(token);
    expect(await lastUsed()).toBe(firstUse);
    // Past the minute the next use is written.
    app.clock.advance(1_001);
    await tokens.lookup(token);
    expect(await lastUsed()).toBe(app.clock.now().toISOString());
  });

  it('answers for the member who created a token: disabling that member revokes exactly their usable tokens', async () => {
    const { app, ctx, tokens, acme, editor } = await sut();
    const own = await ctx.newToken(acme, ['sync'], { by: editor.as, name: 'CI' });
    const soonExpired = await ctx.newToken(acme, ['read'], { by: editor.as, expiresAt: new Date(app.clock.now().getTime() + 1_000) });
    const owners = await ctx.newToken(acme, ['admin']);
    app.clock.advance(1_000);
    // The expired one is already unusable: the confirmation lists only what disabling the member would take away.
    expect((await tokens.listActiveCreatedBy('acme', editor.user.id)).map((listed) => listed.id)).toEqual([own.apiToken.id]);
    expect((await tokens.list('acme', { limit: 100, after: undefined })).items.find((listed) => listed.id === own.apiToken.id)).toMatchObject({ createdByUserId: editor.user.id, createdBy: { email: editor.user.email } });

    await app.get(MembersService).setDisabled('acme', acme.asOwner, editor.user.id, true);
    expect((await tokens.lookup(own.token)).status).toBe('revoked');
    expect((await tokens.lookup(soonExpired.token)).status).toBe('revoked');
    expect((await tokens.lookup(owners.token)).status).toBe('valid');
  });

  it('never hands the raw token or its hash out again after creation', async () => {
    const { ctx, tokens, acme } = await sut();
    const { token, apiToken } = await ctx.newToken(acme, ['read']);
    const listed = JSON.stringify(await tokens.list('acme', { limit: 100, after: undefined }));
    expect(listed).toContain(apiToken.id);
    expect(listed).toContain(apiToken.prefix);
    expect(listed).not.toContain(token);
    expect(listed).not.toMatch(/tokenHash|token_hash/);
  });
});
