import type { CreatedApiTokenResponse, MemberResponse, Role, SetupResponse, SignInLinkResponse, TokenScope } from '@sc/contracts';
import { bearer, call, sessionFrom, sessionHeaders, type SessionCredentials } from './http';
import { TEST_SETUP_TOKEN, createTestApp, useSeeded, useTestApp, type TestApp, type TestAppOptions, type TestAppOptionsSource } from './test-app';

export interface SeededOrganization {
  organizationId: string;
  ownerUserId: string;
  ownerEmail: string;
  /** The owner's browser session. */
  owner: SessionCredentials;
  /** Same as owner.cookieHeader / owner.csrfToken, for convenience. */
  ownerCookieHeader: string;
  csrfToken: string;
  /** The one-time admin API token from setup (scope admin). */
  adminToken: string;
}

/** How setupOrganization names the organization and its owner. */
export interface OrganizationSeed {
  orgId?: string;
  orgName?: string;
  ownerEmail?: string;
  ownerName?: string;
}

/**
 * A fresh test app with its organization set up, for a spec that decides when its apps start and close (useSeededApp
 * otherwise). Closes the app again when setup fails, since the spec never gets it to close.
 */
export async function createSeededApp(seed: OrganizationSeed = {}, options: TestAppOptions = {}): Promise<{ t: TestApp; org: SeededOrganization }> {
  const t = await createTestApp(options);
  try {
    return { t, org: await setupOrganization(t, seed) };
  } catch (error: unknown) {
    await t.close();
    throw error;
  }
}

/**
 * useTestApp with its organization set up (`setupOrganization`, useSeeded): how most HTTP specs start,
 * `const { t, org } = useSeededApp({ orgId: 'acme' })`.
 */
export function useSeededApp(seed: OrganizationSeed = {}, options: TestAppOptionsSource = {}): { t: TestApp; org: SeededOrganization } {
  const t = useTestApp(options);
  return { t, org: useSeeded(() => setupOrganization(t, seed)) };
}

/**
 * First-run setup through the real POST /api/v1/setup (only once per app). For more organizations in
 * the same app use `createOrganization`.
 */
export async function setupOrganization(testApp: TestApp, input: OrganizationSeed = {}): Promise<SeededOrganization> {
  const organizationId = input.orgId ?? 'acme';
  const ownerEmail = input.ownerEmail ?? `owner@${organizationId}.example`;
  const response = await call<SetupResponse>(testApp.baseUrl, 'POST', '/api/v1/setup', {
    body: { token: TEST_SETUP_TOKEN, organization: { id: organizationId, name: input.orgName ?? `Org ${organizationId}` }, owner: { email: ownerEmail, name: input.ownerName ?? 'Owner' } },
  });
  expectStatus(response, 201, 'setup');
  const owner = sessionFrom(response.setCookie);
  return { organizationId, ownerUserId: response.body.user.id, ownerEmail, owner, ownerCookieHeader: owner.cookieHeader, csrfToken: owner.csrfToken, adminToken: response.body.apiToken.token };
}

/**
 * Another organization in the same app: an owner of `by` creates it (POST /api/v1/orgs, which signs the
 * creator in to the new organization), then a new owner is added and signed in there, so the result is as
 * independent as a setup-created organization. A session never moves between organizations, so the creator
 * gets back into `by` the way a person would: with a sign-in link they minted for themselves beforehand.
 * `by.owner` (and its copies) are updated in place with that new session.
 */
export async function createOrganization(testApp: TestApp, by: SeededOrganization, input: { orgId: string; ownerEmail?: string }): Promise<SeededOrganization> {
  const wayBack = await mintSignInLink(testApp, by.owner, by.organizationId, by.ownerUserId);
  const created = await call(testApp.baseUrl, 'POST', '/api/v1/orgs', { headers: sessionHeaders(by.owner), body: { id: input.orgId, name: `Org ${input.orgId}` } });
  expectStatus(created, 201, 'create organization');
  const creatorThere = sessionFrom(created.setCookie);
  const ownerEmail = input.ownerEmail ?? `owner@${input.orgId}.example`;
  const member = await addMember(testApp, creatorThere, input.orgId, { email: ownerEmail, role: 'owner' });
  const owner = await signInAs(testApp, creatorThere, input.orgId, member.userId);
  const token = await createToken(testApp, owner, input.orgId, { name: 'admin', scopes: ['admin'] });
  const creatorBack = await redeemSignInLink(testApp, wayBack);
  Object.assign(by.owner, creatorBack);
  by.ownerCookieHeader = creatorBack.cookieHeader;
  by.csrfToken = creatorBack.csrfToken;
  return { organizationId: input.orgId, ownerUserId: member.userId, ownerEmail, owner, ownerCookieHeader: owner.cookieHeader, csrfToken: owner.csrfToken, adminToken: token.token };
}

/** Adds a member by email with a role (as an owner/admin session or an admin token). */
export async function addMember(testApp: TestApp, as: SessionCredentials | string, orgId: string, input: { email: string; role: Role; displayName?: string }): Promise<MemberResponse> {
  const response = await call<MemberResponse>(testApp.baseUrl, 'POST', `/api/v1/orgs/${orgId}/members`, { headers: authHeaders(as), body: input });
  expectStatus(response, 201, 'add member');
  return response.body;
}

/** Signs a member in through a real one-time sign-in link minted by an owner session. */
export async function signInAs(testApp: TestApp, owner: SessionCredentials, orgId: string, userId: string): Promise<SessionCredentials> {
  return redeemSignInLink(testApp, await mintSignInLink(testApp, owner, orgId, userId));
}

/** An owner session mints a one-time sign-in link for a member; returns the link URL. */
export async function mintSignInLink(testApp: TestApp, owner: SessionCredentials, orgId: string, userId: string): Promise<string> {
  const minted = await call<SignInLinkResponse>(testApp.baseUrl, 'POST', `/api/v1/orgs/${orgId}/members/${userId}/sign-in-link`, { headers: sessionHeaders(owner) });
  expectStatus(minted, 201, 'mint sign-in link');
  return minted.body.url;
}

/** Redeems a sign-in link URL in a fresh browser (no cookies) and returns the new session. */
export async function redeemSignInLink(testApp: TestApp, url: string): Promise<SessionCredentials> {
  const redeemed = await call(testApp.baseUrl, 'POST', '/api/v1/auth/sign-in-link/redeem', { body: { token: new URL(url).hash.slice(1) } });
  expectStatus(redeemed, 200, 'redeem sign-in link');
  return sessionFrom(redeemed.setCookie);
}

/** A member with `role` and a signed-in session: `{ userId, session }`. */
export async function memberWithSession(testApp: TestApp, org: SeededOrganization, role: Role, email = `${role}-${Math.random().toString(36).slice(2, 8)}@${org.organizationId}.example`) {
  const member = await addMember(testApp, org.owner, org.organizationId, { email, role });
  return { userId: member.userId, email, session: await signInAs(testApp, org.owner, org.organizationId, member.userId) };
}

export async function createToken(testApp: TestApp, as: SessionCredentials | string, orgId: string, input: { name?: string; scopes: TokenScope[]; expiresAt?: string }): Promise<{ token: string; id: string }> {
  const response = await call<CreatedApiTokenResponse>(testApp.baseUrl, 'POST', `/api/v1/orgs/${orgId}/tokens`, { headers: authHeaders(as), body: { name: input.name ?? 'test token', ...input } });
  expectStatus(response, 201, 'create token');
  return { token: response.body.token, id: response.body.apiToken.id };
}

/** Session credentials or a raw API token → request headers. */
export function authHeaders(as: SessionCredentials | string): Record<string, string> {
  return typeof as === 'string' ? bearer(as) : sessionHeaders(as);
}

function expectStatus(response: { status: number; body: unknown }, status: number, what: string): void {
  if (response.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
}

/** Organization `acme` with a sync token (`ci`) and a read token (`reader`): what a spec that syncs and reads back needs. */
export async function seedSyncAndRead(testApp: TestApp): Promise<{ acme: SeededOrganization; syncToken: string; readToken: string }> {
  const acme = await setupOrganization(testApp, { orgId: 'acme' });
  const syncToken = (await createToken(testApp, acme.owner, 'acme', { name: 'ci', scopes: ['sync'] })).token;
  const readToken = (await createToken(testApp, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
  return { acme, syncToken, readToken };
}

/**
 * seedSyncAndRead, a viewer with a session, and another organization `globex`: the callers readCallers puts to a
 * read route.
 */
export async function seedReaders(testApp: TestApp): Promise<{ acme: SeededOrganization; syncToken: string; readToken: string; viewer: SessionCredentials; outsider: SeededOrganization }> {
  const { acme, syncToken, readToken } = await seedSyncAndRead(testApp);
  const viewer = (await memberWithSession(testApp, acme, 'viewer')).session;
  const outsider = await createOrganization(testApp, acme, { orgId: 'globex' });
  return { acme, syncToken, readToken, viewer, outsider };
}

/** One caller of an organization's read routes: who, the credentials (null: none), and whether it may read. */
export type ReadCaller = [who: string, as: SessionCredentials | string | null, allowed: boolean];

/**
 * The callers a read route of the organization must treat as the diagram read does: its read token and a viewer
 * may read; a sync-only token, another organization's owner and admin token, and nobody may not.
 */
export function readCallers(own: { readToken: string; viewer: SessionCredentials; syncToken: string }, outsider: SeededOrganization): ReadCaller[] {
  return [
    ['read token', own.readToken, true],
    ['viewer session', own.viewer, true],
    ['sync-only token', own.syncToken, false],
    ['owner of another organization', outsider.owner, false],
    ['admin token of another organization', outsider.adminToken, false],
    ['nobody', null, false],
  ];
}
