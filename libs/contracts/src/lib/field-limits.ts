/**
 * Length limits of the request fields, in UTF-16 characters: the request classes validate them on the server and
 * the admin forms stop at the same numbers, so a form never sends what the server refuses.
 * (The `.service.yaml` text limits are SERVICE_TEXT_LIMITS, the SSO URL and claim limits SSO_LIMITS.)
 */
export const FIELD_LIMITS = {
  /** RFC 5321's longest address. */
  email: 320,
  /** A person's display name (members, the setup owner). */
  personName: 200,
  organizationName: 200,
  apiTokenName: 100,
  ssoDisplayName: 100,
  ssoClientId: 512,
  ssoClientSecret: 4096,
  /** A DNS name: Entra tenant, Okta domain, allowed email domain. */
  domainName: 253,
  ssoScopes: 1000,
} as const;
