import type { MeResponse, SsoProviderResponse } from '@sc/contracts';
import { call, sessionHeaders, type SeededOrganization, type TestApp } from '../support';
import type { TestBrowser } from '@sc/testing-idp';

export const CLIENT_ID = 'service-client';
export const CLIENT_SECRET = 'very-secret-client-secret-9f8e7d6c';

export function callbackUrl(t: TestApp, orgId: string, slug: string): string {
  return `${t.baseUrl}/api/v1/auth/orgs/${orgId}/callback/${slug}`;
}

export function loginUrl(t: TestApp, orgId: string, slug: string, redirect?: string): string {
  return `${t.baseUrl}/api/v1/auth/orgs/${orgId}/login/${slug}${redirect !== undefined ? `?redirect=${encodeURIComponent(redirect)}` : ''}`;
}

/**
 * Creates a provider through the admin API as the organization's owner; fails the test on any error. Enabled unless
 * the body says otherwise: these tests drive sign-ins, so they confirm enabling it before any test sign-in.
 */
export async function createProvider(t: TestApp, org: SeededOrganization, body: Record<string, unknown>): Promise<SsoProviderResponse> {
  const response = await call<SsoProviderResponse>(t.baseUrl, 'POST', `/api/v1/orgs/${org.organizationId}/sso/providers`, {
    headers: sessionHeaders(org.owner),
    body: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, enabled: true, confirmUntested: true, ...body },
  });
  if (response.status !== 201) throw new Error(`create provider: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function patchProvider(t: TestApp, org: SeededOrganization, slug: string, body: Record<string, unknown>): Promise<SsoProviderResponse> {
  const response = await call<SsoProviderResponse>(t.baseUrl, 'PATCH', `/api/v1/orgs/${org.organizationId}/sso/providers/${slug}`, { headers: sessionHeaders(org.owner), body });
  if (response.status !== 200) throw new Error(`patch provider: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** GET /api/v1/me with the browser's cookies for the service. */
export async function meOf(t: TestApp, browser: TestBrowser): Promise<{ status: number; body: MeResponse & { error?: { code: string } } }> {
  const page = await browser.request(`${t.baseUrl}/api/v1/me`);
  return { status: page.status, body: JSON.parse(page.text) as MeResponse & { error?: { code: string } } };
}

/** Stops a browser before it leaves the API for an SPA page (the redirect target after sign-in). */
export function isSpaPage(t: TestApp): (url: URL) => boolean {
  return (url) => url.origin === t.baseUrl && !url.pathname.startsWith('/api/');
}

export function isCallback(t: TestApp): (url: URL) => boolean {
  return (url) => url.origin === t.baseUrl && url.pathname.includes('/callback/');
}

export async function countRows(t: TestApp, table: string): Promise<number> {
  const rows = (await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[];
  return Number(rows[0]?.n);
}

/** Every text value in the database, to prove secrets and tokens are not in it. */
export async function databaseText(t: TestApp, tables: string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) parts.push(JSON.stringify(await t.dataSource.query(`SELECT * FROM ${table}`)));
  return parts.join('\n');
}
