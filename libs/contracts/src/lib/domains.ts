/**
 * Verified email domains and sign-in by work email (issue 27 item 3). An owner adds a domain, publishes
 * `service-verification=<token>` as a DNS TXT record on it, and verifies; the server re-checks every verified or
 * pending domain daily. `/sign-in` routes an email address to the organizations that verified its domain.
 *
 * Endpoints (under /api/v1):
 *   GET    /orgs/:orgId/domains                     owner, admin → DomainResponse[]
 *   POST   /orgs/:orgId/domains                     owner: AddDomainRequest → 201 DomainResponse (409 domain_exists)
 *   POST   /orgs/:orgId/domains/:domainId/verify    owner → DomainResponse (the TXT lookup's outcome as its state)
 *   DELETE /orgs/:orgId/domains/:domainId           owner → 204 (404 domain_not_found)
 *   POST   /auth/sign-in-by-email                   public, rate-limited: SignInByEmailRequest → SignInByEmailResponse
 */
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { FIELD_LIMITS } from './field-limits';
import type { SsoPublicProvider } from './sso';

export const DOMAIN_STATES = ['pending', 'verified', 'failed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** The TXT record value an owner publishes: `service-verification=<token>`. */
export const DOMAIN_VERIFICATION_PREFIX = 'service-verification=';

/**
 * A lowercase DNS name with at least two labels (`example.com`, `eu.example.co.uk`); no trailing dot, no wildcard. The
 * length (253) is checked by MaxLength: no lookahead here, so the OpenAPI pattern stays a plain regular language.
 */
export const DOMAIN_NAME_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export class AddDomainRequest {
  @IsString()
  @MaxLength(FIELD_LIMITS.domainName)
  @Matches(DOMAIN_NAME_PATTERN, { message: 'domain must be a lowercase domain name such as example.com' })
  domain!: string;
}

export interface DomainResponse {
  id: string;
  domain: string;
  state: DomainState;
  /** The TXT record to publish on the domain. */
  txtRecord: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  /** Why the last check failed, in words (null when it passed or never ran). */
  lastError: string | null;
  createdAt: string;
}

export class SignInByEmailRequest {
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(FIELD_LIMITS.email)
  email!: string;
}

/** One organization the address's domain leads to, with its enabled providers' sign-in URLs. */
export interface SignInDestination {
  organizationId: string;
  organizationName: string;
  /** `/orgs/<id>/sign-in`: the organization's sign-in page. */
  signInPath: string;
  /** Its enabled providers (at least one); `loginUrl` starts the sign-in. */
  providers: SsoPublicProvider[];
}

/**
 * The same shape whatever the address: `destinations` depends only on the domain (verified domains of
 * organizations with an enabled provider), never on whether the address has an account.
 */
export interface SignInByEmailResponse {
  destinations: SignInDestination[];
}
