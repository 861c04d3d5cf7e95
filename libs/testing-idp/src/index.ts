/**
 * Identity providers and a cookie-keeping HTTP client for tests, on 127.0.0.1 only: a certified OpenID
 * provider (oidc-provider), a small SAML 2.0 IdP signing with xml-crypto, small loopback servers shaped like GitHub,
 * Entra, Okta and misconfigured providers, a browser that follows redirects one hop at a time, and a DNS server
 * answering TXT records (domain verification). Test code only: lint forbids
 * importing it from production sources (every app's src folder, its specs excepted).
 */
export { TestBrowser, type Page } from './lib/browser';
export { MiniIdp, type MiniIdpOptions } from './lib/mini-idp';
export { OidcIdp, signInAtIdp, type OidcAccount, type OidcIdpOptions } from './lib/oidc-idp';
export { readBody } from './lib/read-body';
export { startDnsServer, type TestDnsServer } from './lib/dns-server';
export { makeSigningKey, SamlIdp, strangerKey, type ReceivedRequest, type ResponseOptions, type SamlUser, type SigningKey } from './lib/saml-idp';
