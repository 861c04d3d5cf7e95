import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

export interface MiniIdpOptions {
  clientId: string;
  clientSecret: string;
  /** Paths served; the test checks the service derives exactly these. */
  paths: { authorize: string; token: string; userinfo: string; jwks?: string; emails?: string };
  /** `basic-only`: the token endpoint refuses credentials in the body (invalid_client), like a misconfigured client. */
  tokenAuth?: 'post' | 'basic-only';
  /** Claims of an ID token to return (signed with this server's key), or none. `nonce`/`aud`/`iss` default to the right values. */
  idTokenClaims?: (request: { nonce: string | null }) => Record<string, unknown> | null;
  userinfo: (request: { url: URL; authorization: string | undefined }) => { status?: number; body: unknown };
  emails?: unknown;
  /** The authorization endpoint answers with ?error=… instead of a code. */
  authorizeError?: { error: string; error_description?: string };
  issuer?: string;
  /** Delays the token answer (timeouts). */
  tokenDelayMs?: number;
  /** Signs ID tokens with a key that is not in the published JWKS (a forgery). */
  forgeIdTokens?: boolean;
}

interface IssuedCode {
  redirectUri: string;
  nonce: string | null;
  challenge: string | null;
}

/**
 * A tiny OAuth 2.0 / OIDC-shaped server on loopback for provider shapes `oidc-provider` cannot play
 * (GitHub's user/emails endpoints, Entra and Okta URL layouts, a Basic-only token endpoint). It approves
 * every authorization request at once, checks client credentials and PKCE, and records what it received.
 */
export class MiniIdp {
  readonly authorizeRequests: URL[] = [];
  readonly tokenRequests: { authorization: string | undefined; form: URLSearchParams }[] = [];
  readonly userinfoRequests: { url: URL; host: string | undefined; authorization: string | undefined }[] = [];
  readonly emailsRequests: { url: URL; authorization: string | undefined }[] = [];
  readonly issuedAccessTokens: string[] = [];
  private readonly codes = new Map<string, IssuedCode>();
  private keys?: { privateKey: CryptoKey; forgeryKey: CryptoKey; jwk: Record<string, unknown> };

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly options: MiniIdpOptions,
  ) {}

  static async start(options: MiniIdpOptions): Promise<MiniIdp> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const idp = new MiniIdp(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    // Key generation is slow on a busy machine; do it before any request can wait for it.
    await idp.signingKeys();
    server.on('request', (req, res) => {
      idp.handle(req, res).catch((error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      });
    });
    return idp;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const { paths } = this.options;
    if (url.pathname === paths.authorize) return this.authorize(url, res);
    if (url.pathname === paths.token && req.method === 'POST') return this.token(req, res);
    if (url.pathname === paths.userinfo) {
      this.userinfoRequests.push({ url, host: req.headers.host, authorization: req.headers.authorization });
      if (!this.validBearer(req)) return json(res, 401, { message: 'Bad credentials' });
      const answer = this.options.userinfo({ url, authorization: req.headers.authorization });
      return json(res, answer.status ?? 200, answer.body);
    }
    if (paths.emails && url.pathname === paths.emails) {
      this.emailsRequests.push({ url, authorization: req.headers.authorization });
      if (!this.validBearer(req)) return json(res, 401, { message: 'Bad credentials' });
      return json(res, 200, this.options.emails ?? []);
    }
    if (paths.jwks && url.pathname === paths.jwks) return json(res, 200, { keys: [(await this.signingKeys()).jwk] });
    json(res, 404, { error: 'not_found' });
  }

  private authorize(url: URL, res: ServerResponse): void {
    this.authorizeRequests.push(url);
    const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
    redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (this.options.authorizeError) {
      redirect.searchParams.set('error', this.options.authorizeError.error);
      if (this.options.authorizeError.error_description) redirect.searchParams.set('error_description', this.options.authorizeError.error_description);
    } else {
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, { redirectUri: url.searchParams.get('redirect_uri') ?? '', nonce: url.searchParams.get('nonce'), challenge: url.searchParams.get('code_challenge') });
      redirect.searchParams.set('code', code);
    }
    res.writeHead(302, { location: redirect.toString() }).end();
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    if (this.options.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.tokenDelayMs).unref());
    this.tokenRequests.push({ authorization: req.headers.authorization, form });
    if (this.options.tokenAuth === 'basic-only') {
      const basic = req.headers.authorization?.startsWith('Basic ');
      if (!basic) return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed: HTTP Basic expected.' });
    } else if (form.get('client_id') !== this.options.clientId || form.get('client_secret') !== this.options.clientSecret) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    const issued = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    if (!issued || issued.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'Unknown code or redirect_uri mismatch.' });
    const verifier = form.get('code_verifier') ?? '';
    if (issued.challenge !== createHash('sha256').update(verifier).digest('base64url')) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed.' });
    const accessToken = `at-${randomBytes(16).toString('hex')}`;
    this.issuedAccessTokens.push(accessToken);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: 300 };
    const claims = this.options.idTokenClaims?.({ nonce: issued.nonce });
    if (claims) body['id_token'] = await this.signIdToken(claims, issued.nonce);
    json(res, 200, body);
  }

  private validBearer(req: IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return token !== undefined && this.issuedAccessTokens.includes(token);
  }

  private async signingKeys(): Promise<{ privateKey: CryptoKey; forgeryKey: CryptoKey; jwk: Record<string, unknown> }> {
    if (!this.keys) {
      const jose = await import('jose');
      const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
      const forgery = await jose.generateKeyPair('RS256');
      this.keys = { privateKey, forgeryKey: forgery.privateKey, jwk: { ...(await jose.exportJWK(publicKey)), kid: 'mini-1', alg: 'RS256', use: 'sig' } };
    }
    return this.keys;
  }

  private async signIdToken(claims: Record<string, unknown>, nonce: string | null): Promise<string> {
    const jose = await import('jose');
    const keys = await this.signingKeys();
    const privateKey = this.options.forgeIdTokens ? keys.forgeryKey : keys.privateKey;
    const now = Math.floor(Date.now() / 1000);
    return new jose.SignJWT({ iss: this.options.issuer ?? this.origin, aud: this.options.clientId, iat: now, exp: now + 300, ...(nonce ? { nonce } : {}), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'mini-1' })
      .sign(privateKey);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
