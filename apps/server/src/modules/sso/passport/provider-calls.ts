import { OAuth2, dataCallback } from 'oauth';
import type { OutgoingHttpHeaders } from 'node:http';
import { SsoErrorCode } from '@sc/contracts';
import { boundedFetch, OutboundFetchError, OutboundPolicy, parseJsonBody } from '../../../common/http/bounded-fetch';
import { isGithubUserEndpoint } from '../domain/provider-settings';
import type { Claims } from '../domain/claims';
import { sentence } from '../domain/sentence';
import { ssoError } from '../sso.errors';


/**
 * node-oauth's client, with its transport replaced by the bounded fetch (timeout, size limit, https
 * policy). passport-oauth2 still builds the token request: a form body with grant_type, code,
 * redirect_uri, client_id, client_secret (client_secret_post; never HTTP Basic) and the PKCE verifier.
 */
export class BoundedOAuth2 extends OAuth2 {
  constructor(
    clientId: string,
    clientSecret: string,
    authorizeUrl: string,
    tokenUrl: string,
    private readonly policy: OutboundPolicy,
  ) {
    super(clientId, clientSecret, '', authorizeUrl, tokenUrl);
  }

  protected override _request(method: string, url: string, headers: OutgoingHttpHeaders | null, body: unknown, _accessToken: string | null, callback: dataCallback): void {
    const requestHeaders: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(headers ?? {})) if (typeof value === 'string') requestHeaders[name.toLowerCase()] = value;
    boundedFetch(url, { method: method === 'POST' ? 'POST' : 'GET', headers: requestHeaders, body: typeof body === 'string' && body !== '' ? body : undefined }, this.policy).then(
      (response) => {
        // GitHub answers token errors with HTTP 200 and an `error` member: treat those as errors too.
        const json = parseJsonBody(response) as { error?: unknown; access_token?: unknown } | undefined;
        if (!response.ok || (json && typeof json.error === 'string' && json.access_token === undefined)) {
          callback({ statusCode: response.ok ? 400 : response.status, data: response.text });
        } else {
          // node-oauth's typings omit the null error of a success.
          (callback as unknown as (err: null, result: string) => void)(null, response.text);
        }
      },
      (error: unknown) => callback({ statusCode: 0, data: undefined, ...(error instanceof OutboundFetchError ? { outbound: error } : {}) } as { statusCode: number }),
    );
  }
}

export interface UserinfoResult {
  claims: Claims;
  githubEmailsUsed: boolean;
}

/**
 * Calls UserInfo with the access token (GET, Bearer header; the configured URL's query string is kept).
 * When it is GitHub's user endpoint and `email` is null, reads `<userinfo>/emails` and uses the primary
 * verified address (callback rule 5). Failures → 502 userinfo_failed. The token is never logged.
 */
export async function fetchUserinfo(userinfoUrl: string, accessToken: string, policy: OutboundPolicy): Promise<UserinfoResult> {
  const claims = await fetchJsonObject(userinfoUrl, accessToken, policy, 'UserInfo');
  if (claims['email'] === null && typeof claims['login'] === 'string' && isGithubUserEndpoint(userinfoUrl)) {
    const emailsUrl = new URL(userinfoUrl);
    emailsUrl.pathname = `${emailsUrl.pathname.replace(/\/+$/, '')}/emails`;
    emailsUrl.search = '';
    const emails = await fetchJson(emailsUrl.toString(), accessToken, policy, 'GitHub emails');
    if (!Array.isArray(emails)) throw userinfoFailed(`The GitHub emails endpoint (${emailsUrl.origin}${emailsUrl.pathname}) did not return a list; the user:email scope is required.`);
    const primary = emails.find((e): e is { email: string } => typeof e === 'object' && e !== null && e.primary === true && e.verified === true && typeof e.email === 'string');
    return { claims: { ...claims, email: primary ? primary.email : null }, githubEmailsUsed: true };
  }
  return { claims, githubEmailsUsed: false };
}

async function fetchJsonObject(url: string, accessToken: string, policy: OutboundPolicy, what: string): Promise<Claims> {
  const json = await fetchJson(url, accessToken, policy, what);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw userinfoFailed(`${what} at ${new URL(url).origin} did not return a JSON object.`);
  return json as Claims;
}

async function fetchJson(url: string, accessToken: string, policy: OutboundPolicy, what: string): Promise<unknown> {
  let response;
  try {
    response = await boundedFetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'system-context-service' } }, policy);
  } catch (error) {
    if (error instanceof OutboundFetchError) throw userinfoFailed(`${what} request failed. ${error.message}`);
    throw error;
  }
  const location = `${new URL(url).origin}${new URL(url).pathname}`;
  if (!response.ok) throw userinfoFailed(`${what} at ${location} answered HTTP ${response.status}.`);
  const json = parseJsonBody(response);
  if (json === undefined) throw userinfoFailed(`${what} at ${location} did not return JSON.`);
  return json;
}

function userinfoFailed(message: string) {
  return ssoError(SsoErrorCode.UserinfoFailed, `${sentence(message)} Sign-in cannot continue without UserInfo; ask an administrator to check the provider's UserInfo URL and scopes.`);
}

export interface IdTokenExpectations {
  jwksUri: string | null;
  issuer: string | null;
  clientId: string;
  nonce: string;
  now: Date;
  policy: OutboundPolicy;
}

/**
 * Checks an ID token: signature against the provider's JWKS when one is known, then iss (when known),
 * aud = client ID, exp and nonce. Returns its claims and a one-line account of what was verified.
 */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<{ claims: Claims; check: string; warnings: string[] }> {
  const jose = await import('jose');
  let claims: Claims;
  const warnings: string[] = [];
  try {
    if (expected.jwksUri) {
      const keys = await fetchJwks(expected.jwksUri, expected.policy);
      const { payload } = await jose.jwtVerify(idToken, jose.createLocalJWKSet(keys), {
        issuer: expected.issuer ?? undefined,
        audience: expected.clientId,
        currentDate: expected.now,
        clockTolerance: 60,
        requiredClaims: ['exp'],
      });
      claims = payload as Claims;
    } else {
      claims = jose.decodeJwt(idToken) as Claims;
      warnings.push('ID token signature not verified: no JWKS URI is configured for this provider.');
      checkUnsignedClaims(claims, expected);
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (error as { code: string }).code.startsWith('ERR_J')) {
      throw invalidIdToken(`${error.message} (${(error as { code: string }).code}).`);
    }
    throw error;
  }
  if (!expected.issuer) warnings.push('ID token issuer not checked: the provider has no known issuer.');
  if (claims['nonce'] !== expected.nonce) throw invalidIdToken('its nonce does not match the one sent with this sign-in (a replayed or foreign token).');
  const check = `${expected.jwksUri ? 'signature (JWKS), ' : ''}${expected.issuer ? 'iss, ' : ''}aud, exp and nonce verified`;
  return { claims, check, warnings };
}

function checkUnsignedClaims(claims: Claims, expected: IdTokenExpectations): void {
  const aud = claims['aud'];
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(expected.clientId)) throw invalidIdToken(`its audience is not the client ID ${expected.clientId}.`);
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp * 1000 + 60_000 < expected.now.getTime()) throw invalidIdToken('it has expired.');
  if (expected.issuer && claims['iss'] !== expected.issuer) throw invalidIdToken(`its issuer is not ${expected.issuer}.`);
}

/**
 * Read at every sign-in and never kept in memory (a cache lifetime of zero): a key the provider rotates in is
 * accepted, and one it withdraws refused, at once on every instance. One small GET per sign-in is the price.
 */
async function fetchJwks(jwksUri: string, policy: OutboundPolicy): Promise<{ keys: Record<string, unknown>[] }> {
  let response;
  try {
    response = await boundedFetch(jwksUri, { headers: { accept: 'application/json' } }, policy);
  } catch (error) {
    if (error instanceof OutboundFetchError) throw invalidIdToken(`the provider's keys could not be read. ${error.message}`);
    throw error;
  }
  const json = parseJsonBody(response) as { keys?: unknown } | undefined;
  if (!response.ok || !json || !Array.isArray(json.keys)) throw invalidIdToken(`the provider's JWKS at ${jwksUri} answered HTTP ${response.status} without a key set.`);
  return json as { keys: Record<string, unknown>[] };
}

function invalidIdToken(reason: string) {
  return ssoError(SsoErrorCode.InvalidIdToken, sentence(`The provider's ID token was refused: ${reason}`));
}
