import { GATEWAY_SYNC_PATH } from '@sc/contracts/core';
import { ExitCode } from './exit-codes';
import { CliError } from './cli-error';

/**
 * The hosted offering's gateway, used by `--enterprise`. The spec leaves the hosted address unspecified, so it
 * is one constant here and SERVICE_ENTERPRISE_GATEWAY_URL overrides it (documented in `sync --help`).
 */
export const DEFAULT_ENTERPRISE_GATEWAY_URL = 'https://gateway.system-context.cloud';
/** The dashboard page where a sync token is created (named in the missing-token error). */
export const TOKEN_PAGE_HINT = 'In the dashboard open your organization → API tokens, create a token with the "sync" scope and store it as the SERVICE_TOKEN secret of your CI.';

export interface GatewayTarget {
  /** Base URL without a trailing slash. */
  baseUrl: string;
  /** Full URL of the sync endpoint. */
  syncUrl: string;
  source: 'SERVICE_GATEWAY_URL' | 'SERVICE_ENTERPRISE_GATEWAY_URL' | 'built-in hosted gateway';
  /** Things the user should know (which variable won, cleartext HTTP). */
  notices: string[];
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Picks the gateway: --enterprise → hosted (env override or the built-in URL), else SERVICE_GATEWAY_URL. */
export function resolveGateway(env: Env, enterprise: boolean): GatewayTarget {
  const selfHosted = nonEmpty(env['SERVICE_GATEWAY_URL']);
  const notices: string[] = [];
  let raw: string;
  let source: GatewayTarget['source'];
  if (enterprise) {
    const override = nonEmpty(env['SERVICE_ENTERPRISE_GATEWAY_URL']);
    raw = override ?? DEFAULT_ENTERPRISE_GATEWAY_URL;
    source = override ? 'SERVICE_ENTERPRISE_GATEWAY_URL' : 'built-in hosted gateway';
    if (selfHosted) notices.push('--enterprise is set: using the hosted gateway and ignoring SERVICE_GATEWAY_URL.');
  } else if (selfHosted) {
    raw = selfHosted;
    source = 'SERVICE_GATEWAY_URL';
  } else {
    throw new CliError(
      ExitCode.Configuration,
      'gateway_not_configured',
      'No gateway: set SERVICE_GATEWAY_URL to your installation\'s address (e.g. https://context.example.com), or pass --enterprise for the hosted service.',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(ExitCode.Configuration, 'gateway_url_invalid', `${source} is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(ExitCode.Configuration, 'gateway_url_invalid', `${source} must be an http:// or https:// URL.`);
  }
  if (url.username || url.password) {
    // Never echo the URL: the credentials in it are exactly what must not reach a log.
    throw new CliError(ExitCode.Configuration, 'gateway_url_has_credentials', `${source} contains a user name or password; remove them (the token comes from SERVICE_TOKEN).`);
  }
  if (url.search || url.hash) {
    throw new CliError(ExitCode.Configuration, 'gateway_url_invalid', `${source} must not have a query string or fragment.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    notices.push(`Warning: ${source} uses plain http; the token travels unencrypted. Use https.`);
  }
  // People paste the full endpoint as often as the base address; accept both.
  const trimmed = url.toString().replace(/\/+$/, '');
  const baseUrl = trimmed.endsWith(GATEWAY_SYNC_PATH) ? trimmed.slice(0, -GATEWAY_SYNC_PATH.length) : trimmed;
  return { baseUrl, syncUrl: `${baseUrl}${GATEWAY_SYNC_PATH}`, source, notices };
}

/** The dashboard page where a read token for `service-cli mcp` is created (named in its missing-token error). */
export const READ_TOKEN_PAGE_HINT = 'In the dashboard open your organization → API tokens, create a token with the "read" scope and give it to the assistant as SERVICE_TOKEN.';

/** The token (a sync token for CI, a read token for `mcp`: `hint` says where to create it), or exit 2 saying where. */
export function requireToken(env: Env, hint = TOKEN_PAGE_HINT): string {
  const token = nonEmpty(env['SERVICE_TOKEN']);
  if (!token) {
    throw new CliError(ExitCode.Configuration, 'token_missing', `SERVICE_TOKEN is not set. ${hint}`);
  }
  if (/\s/.test(token)) {
    throw new CliError(ExitCode.Configuration, 'token_invalid', 'SERVICE_TOKEN contains whitespace; copy the token again without spaces or line breaks.');
  }
  return token;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}
