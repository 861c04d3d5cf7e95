import type { Role } from '@sc/contracts';
import { codeOf, serviceSpec } from '../../testing/service-spec';
import type { SessionPrincipal } from '../access/principal';
import { SessionsService } from '../sessions/sessions.service';
import { TokensService } from '../tokens/tokens.service';
import { UsersService } from '../users/users.service';
import { MembersModule } from './members.module';
import { MembersService } from './members.service';

const spec = serviceSpec([MembersModule]);

/** MembersService on a real (in-memory PGlite) database, one per file: organization "acme" with one owner. */
async function sut() {
  const { app, ctx } = spec;
  const members = app.get(MembersService);
  const acme = await ctx.newOrg({ id: 'acme', ownerEmail: 'owner@acme.example' });
  const add = (email: string, role: Role) => members.add('acme', acme.asOwner, { email, role });
  return { app, members, users: app.get(UsersService), tokens: app.get(TokensService), sessions: app.get(SessionsService), owner: acme.owner, asOwner: acme.asOwner, add };
}

describe('MembersService', () => {
  it('activeMember: the user and the membership exist and neither is disabled', async () => {
    const { members, users, owner, asOwner, add } = await sut();
    expect((await members.activeMember('acme', owner.id))?.role).toBe('owner');
    const editor = await add('editor@acme.example', 'editor');
    expect((await members.activeMember('acme', editor.userId))?.role).toBe('editor');
    // Not a member of another organization, and an id that is no UUID is nobody.
    expect(await members.activeMember('other', editor.userId)).toBeNull();
    expect(await members.activeMember('acme', 'not-a-uuid')).toBeNull();

    await members.setDisabled('acme', asOwner, editor.userId, true);
    expect(await members.activeMember('acme', editor.userId)).toBeNull();
    await members.setDisabled('acme', asOwner, editor.userId, false);
    expect((await members.activeMember('acme', editor.userId))?.role).toBe('editor');

    // A user disabled everywhere is no active member of any organization.
    await users.setDisabled(editor.userId, true);
    expect(await members.activeMember('acme', editor.userId)).toBeNull();
  });

  it('never demotes, disables or removes the last active owner', async () => {
    const { members, owner, asOwner, add } = await sut();
    expect(await codeOf(members.changeRole('acme', asOwner, owner.id, 'admin'))).toBe('last_owner');
    expect(await codeOf(members.setDisabled('acme', asOwner, owner.id, true))).toBe('last_owner');
    expect(await codeOf(members.remove('acme', asOwner, owner.id))).toBe('last_owner');
    // With a second owner the demotion passes.
    await add('second@acme.example', 'owner');
    expect((await members.changeRole('acme', asOwner, owner.id, 'admin')).role).toBe('admin');
  });

  it('removing a member revokes their API tokens and ends their sessions with the removal', async () => {
    const { members, tokens, sessions, asOwner, add } = await sut();
    const editor = await add('leaver@acme.example', 'editor');
    const asEditor: SessionPrincipal = { ...asOwner, userId: editor.userId, role: 'editor' };
    const { token } = await tokens.create({ organizationId: 'acme', name: 'CI', scopes: ['sync'], actor: asEditor });
    const session = await sessions.startSession({ userId: editor.userId, organizationId: 'acme' });
    expect((await tokens.lookup(token)).status).toBe('valid');
    expect((await sessions.lookup(session.cookieValue)).status).toBe('valid');

    await members.remove('acme', asOwner, editor.userId);
    expect((await tokens.lookup(token)).status).toBe('revoked');
    expect((await sessions.lookup(session.cookieValue)).status).toBe('unknown');
    expect(await members.activeMember('acme', editor.userId)).toBeNull();
  });

  it('applySsoMembership sets the role of SSO memberships only, and never demotes the last owner', async () => {
    const { app, members, owner, add } = await sut();
    const manual = await add('manual@acme.example', 'viewer');
    expect((await members.applySsoMembership({ organizationId: 'acme', userId: manual.userId, role: 'admin' })).role).toBe('viewer');

    const { user } = await app.get(UsersService).findOrCreate({ email: 'sso@acme.example' });
    expect((await members.applySsoMembership({ organizationId: 'acme', userId: user.id, role: 'editor' })).source).toBe('sso');
    expect((await members.applySsoMembership({ organizationId: 'acme', userId: user.id, role: 'admin' })).role).toBe('admin');

    // The only owner came in by setup (manual): a login never changes it, whatever the provider says.
    expect((await members.applySsoMembership({ organizationId: 'acme', userId: owner.id, role: 'viewer' })).role).toBe('owner');
  });
});
