// Test support for the service specs (*.service.spec.ts); excluded from the production build (tsconfig.app.json).
import type { ModuleMetadata } from '@nestjs/common';
import type { CreateSsoProviderRequest, Role, TokenScope } from '@sc/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import type { Env } from '../config/env';
import type { SessionPrincipal, TokenPrincipal } from '../modules/access/principal';
import type { AuditActorInput } from '../modules/audit/audit.service';
import { MembersModule } from '../modules/members/members.module';
import { MembersService } from '../modules/members/members.service';
import { OrganizationsModule } from '../modules/organizations/organizations.module';
import { OrganizationsService } from '../modules/organizations/organizations.service';
import { TokensModule } from '../modules/tokens/tokens.module';
import { TokensService } from '../modules/tokens/tokens.service';
import type { User } from '../modules/users/user.entity';
import { UsersService } from '../modules/users/users.service';
import { createServiceTestModule, type ServiceTestModule } from './service-test-module';

/** An organization seeded by `ctx.newOrg()`: its id, its owner and the owner's session principal. */
export interface SeededOrg {
  id: string;
  owner: User;
  asOwner: SessionPrincipal;
}

/** A member seeded by `ctx.newMembership()`: the user and a session principal with the role. */
export interface SeededMember {
  user: User;
  role: Role;
  as: SessionPrincipal;
}

/**
 * Seeds rows through the services themselves (never raw SQL), the way a person or the setup would create them, so a
 * spec states only what matters to its rule. Names are unique per file (a counter), so caches keyed by them never
 * carry one test's rows into the next even before the tables are emptied.
 */
export class ServiceSpecContext {
  private sequence = 0;

  constructor(readonly app: ServiceTestModule) {}

  /** A user (`user-<n>@example.test` unless `email` is given). */
  async newUser(input: { email?: string; displayName?: string } = {}): Promise<User> {
    const { user } = await this.app.get(UsersService).findOrCreate({ email: input.email ?? `user-${this.next()}@example.test`, displayName: input.displayName });
    return user;
  }

  /** An organization (`org-<n>` unless `id` is given) with an owner, as first-run setup creates it. */
  async newOrg(input: { id?: string; name?: string; ownerEmail?: string } = {}): Promise<SeededOrg> {
    const id = input.id ?? `org-${this.next()}`;
    const owner = await this.app.inUnitOfWork(async () => {
      const user = await this.newUser({ email: input.ownerEmail ?? `owner-${this.next()}@${id}.example` });
      const actor: AuditActorInput = { kind: 'setup', userId: user.id, clientAddress: null };
      await this.app.get(OrganizationsService).create({ id, name: input.name ?? `Org ${id}` }, actor);
      await this.app.get(MembersService).addOwner(id, user, actor);
      return user;
    });
    return { id, owner, asOwner: this.sessionOf(id, owner.id, 'owner') };
  }

  /** A member of `org` with `role`, added by its owner (MembersService.add: the rules and the audit entry apply). */
  async newMembership(org: SeededOrg, role: Role, input: { email?: string } = {}): Promise<SeededMember> {
    const added = await this.app.get(MembersService).add(org.id, org.asOwner, { email: input.email ?? `${role}-${this.next()}@${org.id}.example`, role });
    const user = await this.app.get(UsersService).findById(added.userId);
    if (!user) throw new Error(`newMembership: user ${added.userId} was not stored`);
    return { user, role, as: this.sessionOf(org.id, user.id, role) };
  }

  /** An API token of `org` created by `by` (default: its owner); answers the raw token and a principal acting with it. */
  async newToken(org: SeededOrg, scopes: TokenScope[], input: { by?: SessionPrincipal; name?: string; expiresAt?: Date } = {}) {
    const by = input.by ?? org.asOwner;
    const name = input.name ?? `token ${this.next()}`;
    const created = await this.app.get(TokensService).create({ organizationId: org.id, name, scopes, actor: by, expiresAt: input.expiresAt });
    const as: TokenPrincipal = {
      kind: 'token',
      organizationId: org.id,
      scopes,
      tokenId: created.apiToken.id,
      tokenPrefix: created.apiToken.prefix,
      tokenName: name,
      createdByUserId: by.userId,
      creatorRole: by.role,
      creatorEmail: null,
      clientAddress: null,
    };
    return { token: created.token, apiToken: created.apiToken, as };
  }

  /** A session principal of `userId` in `organizationId` (what the auth guard hands a controller). */
  sessionOf(organizationId: string, userId: string, role: Role): SessionPrincipal {
    return { kind: 'session', organizationId, userId, role, sessionId: randomUUID(), clientAddress: null };
  }

  private next(): number {
    return ++this.sequence;
  }
}

/** What `serviceSpec` hands each test: the module (get, clock, inUnitOfWork) and the seeding helpers. */
export interface ServiceSpec {
  app: ServiceTestModule;
  ctx: ServiceSpecContext;
}

/**
 * One service test module (and one migrated database, a copy of the run's template: createServiceTestModule) per spec
 * file instead of per test: starting the module on a database costs seconds on the 2-core CI machine. Registers the
 * hooks and answers an object whose fields are set before each test:
 * - beforeAll: the real feature modules under test plus organizations, members and tokens (what `ctx` seeds through);
 * - beforeEach: every table emptied (migrations seed no rows), the spec clock back at its start, a fresh `ctx`;
 * - afterAll: the module closed.
 *
 * ```ts
 * const spec = serviceSpec([DraftsModule]);
 * it('…', async () => { const org = await spec.ctx.newOrg(); … spec.app.get(DraftsService) … });
 * ```
 */
export function serviceSpec(imports: NonNullable<ModuleMetadata['imports']>, env: Env = {}): ServiceSpec {
  const spec = {} as ServiceSpec;
  let emptyTables = '';
  beforeAll(async () => {
    spec.app = await createServiceTestModule([OrganizationsModule, MembersModule, TokensModule, ...imports], env);
    const tables: { name: string }[] = await spec.app.get(DataSource).query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'migrations'`);
    emptyTables = `TRUNCATE ${tables.map(({ name }) => `"${name}"`).join(', ')} RESTART IDENTITY CASCADE`;
  }, 120_000);
  beforeEach(async () => {
    await spec.app.get(DataSource).query(emptyTables);
    spec.app.clock.reset();
    spec.ctx = new ServiceSpecContext(spec.app);
  });
  afterAll(async () => {
    await spec.app?.close();
  });
  return spec;
}

/** The DomainError `promise` is refused with; fails the test when it succeeds or fails with anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The code of the DomainError `promise` is refused with (refusalOf). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  return (await refusalOf(promise)).code;
}

/** The client secret of `oidcProviderRequest` providers. */
export const SPEC_CLIENT_SECRET = 'client-secret-0123456789';

/** A generic OIDC provider with explicit endpoints at idp.example (nothing is discovered over the network). */
export function oidcProviderRequest(slug: string, extra: Partial<CreateSsoProviderRequest> = {}): CreateSsoProviderRequest {
  return {
    slug,
    displayName: slug,
    type: 'generic',
    authUrl: 'https://idp.example/authorize',
    tokenUrl: 'https://idp.example/token',
    userinfoUrl: 'https://idp.example/userinfo',
    issuer: 'https://idp.example',
    clientId: 'client',
    clientSecret: SPEC_CLIENT_SECRET,
    ...extra,
  } as CreateSsoProviderRequest;
}
