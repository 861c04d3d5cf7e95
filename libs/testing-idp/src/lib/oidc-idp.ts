import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestBrowser, Page } from './browser';
import type { OidcProviderModule } from './oidc-provider';
import { readBody } from './read-body';

/**
 * import() of a package that ships no type declarations: the specifier is a plain string, so TypeScript
 * does not look for them, and the caller names the module's shape (./oidc-provider.d.ts). import() stays
 * native under module node16, which the ESM-only oidc-provider needs.
 */
async function importUntyped<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

export interface OidcAccount {
  email?: string | null;
  name?: string;
  groups?: string[];
  [claim: string]: unknown;
}

export interface OidcIdpOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  accounts: Record<string, OidcAccount>;
}

/**
 * A certified OpenID provider (the `oidc-provider` package) on 127.0.0.1 with one confidential client
 * (client_secret_post only), UserInfo and JWKS, and minimal login and consent interaction pages of our own.
 */
export class OidcIdp {
  /** Values of every access token the provider issued (to prove they never reach logs or the database). */
  readonly issuedAccessTokens: string[] = [];
  readonly issuedIdTokens: string[] = [];
  /** The Authorization header of each token request (client_secret_post sends none). */
  readonly tokenRequestAuthorization: (string | undefined)[] = [];
  /** How many times the key set (JWKS) was fetched: a client that caches it fetches it less than once per sign-in. */
  jwksRequests = 0;

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
    readonly options: OidcIdpOptions,
  ) {}

  static async start(options: OidcIdpOptions): Promise<OidcIdp> {
    const { default: Provider } = await importUntyped<OidcProviderModule>('oidc-provider');
    const jose = await import('jose');
    const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
    const signingKey = { ...(await jose.exportJWK(privateKey)), kid: 'test-1', alg: 'RS256', use: 'sig' };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          redirect_uris: options.redirectUris,
          token_endpoint_auth_method: 'client_secret_post',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      findAccount: (_ctx: unknown, id: string) => {
        const account = options.accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: () => ({ sub: id, ...account }) };
      },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['oidc-test-cookie-key'] },
      pkce: { required: () => true },
      jwks: { keys: [signingKey] },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      adapter: MemoryStore,
    } as never);
    const idp = new OidcIdp(issuer, server, options);
    provider.on('access_token.saved', (token: { jti: string }) => idp.issuedAccessTokens.push(token.jti));
    provider.on('grant.success', (ctx: { body?: { id_token?: string }; oidc?: { body?: Record<string, unknown> } }) => {
      if (typeof ctx.body?.id_token === 'string') idp.issuedIdTokens.push(ctx.body.id_token);
    });
    const handle = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/token')) idp.tokenRequestAuthorization.push(req.headers.authorization);
      if (req.url?.startsWith('/jwks')) idp.jwksRequests++;
      if (req.url?.startsWith('/interaction/')) {
        idp.interaction(provider as unknown as InteractionApi, req, res).catch((error: Error) => {
          res.statusCode = 500;
          res.end(error.message);
        });
        return;
      }
      void handle(req, res);
    });
    return idp;
  }

  get discoveryUrl(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  private async interaction(provider: InteractionApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const path = req.url ?? '';
    if (req.method === 'GET') {
      res.setHeader('content-type', 'text/html');
      const action = details.prompt.name === 'login' ? 'login' : 'confirm';
      res.end(`<html><body><form data-prompt="${details.prompt.name}" method="post" action="/interaction/${details.uid}/${action}">${action === 'login' ? '<input name="login">' : ''}<button>Continue</button></form></body></html>`);
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    if (path.endsWith('/login')) {
      const login = form.get('login') ?? '';
      if (!this.options.accounts[login]) {
        res.statusCode = 400;
        res.end('unknown account');
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      return;
    }
    if (path.endsWith('/confirm')) {
      const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params['client_id']) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    res.statusCode = 404;
    res.end();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface InteractionApi {
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string; details: unknown }; params: Record<string, unknown>; session?: { accountId: string } }>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: unknown, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  Grant: new (input: { accountId?: string; clientId: string }) => { addOIDCScope(scope: string): void; addOIDCClaims(claims: string[]): void; save(): Promise<string> };
}

/** oidc-provider's storage: in memory, per model (its built-in one prints a development warning). */
class MemoryStore {
  private static readonly rows = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    MemoryStore.rows.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const row = MemoryStore.rows.get(this.key(id));
    return row && row.expiresAt > Date.now() ? row.payload : undefined;
  }

  async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    return [...MemoryStore.rows.entries()].find(([key, row]) => key.startsWith(`${this.model}:`) && row.payload['uid'] === uid)?.[1].payload;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const row = MemoryStore.rows.get(this.key(id));
    if (row) row.payload['consumed'] = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryStore.rows.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, row] of MemoryStore.rows) if (row.payload['grantId'] === grantId) MemoryStore.rows.delete(key);
  }
}


/**
 * Drives a browser through the provider: follows redirects, answers the login page with `account` and the
 * consent page, and stops before `stopBefore` URLs (e.g. the service callback) when asked to.
 */
export async function signInAtIdp(browser: TestBrowser, idp: OidcIdp, startUrl: string, account: string, options: { stopBefore?: (url: URL) => boolean } = {}): Promise<Page & { stoppedAt?: string }> {
  let page = await browser.follow(startUrl, { stopBefore: options.stopBefore });
  for (let step = 0; step < 4 && !page.stoppedAt && page.url.startsWith(idp.issuer) && page.url.includes('/interaction/'); step++) {
    const prompt = /data-prompt="(\w+)"/.exec(page.text)?.[1];
    const action = /action="([^"]+)"/.exec(page.text)?.[1];
    if (!prompt || !action) throw new Error(`Unexpected provider page at ${page.url}: ${page.text.slice(0, 200)}`);
    page = await browser.follow(new URL(action, page.url).toString(), { stopBefore: options.stopBefore, first: { method: 'POST', form: prompt === 'login' ? { login: account } : {} } });
  }
  return page;
}
