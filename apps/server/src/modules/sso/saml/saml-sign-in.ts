import { Injectable } from '@nestjs/common';
import type { Profile, SAML, SamlConfig } from '@node-saml/node-saml';
import { SAML_CLOCK_SKEW_SECONDS, samlServiceProviderUrls, SsoErrorCode } from '@sc/contracts';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/tokens';
import { AppConfig } from '../../../config/app-config';
import type { ConsumedState } from '../../oauth-state/oauth-state.service';
import type { Claims } from '../domain/claims';
import type { ProviderIdentity } from '../passport/org-sso.strategy';
import type { SignInProvider } from '../sso-providers.service';
import { ssoError } from '../sso.errors';
import { loadNodeSaml, type NodeSaml } from './node-saml';
import { SamlAssertionsRepository } from './saml-assertions.repository';

/**
 * The AuthnRequest ID carries the one-time state: `_` + state (an ID must be an XML name, and the state is
 * base64url). The response's InResponseTo gives the state back, which the existing state table consumes.
 */
const REQUEST_ID_PREFIX = '_';

/** RSA with SHA-256 or better: SHA-1 signatures and digests are refused before node-saml verifies anything. */
const ALLOWED_SIGNATURE_METHODS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const ALLOWED_DIGEST_METHODS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SKEW_MS = SAML_CLOCK_SKEW_SECONDS * 1000;

/** A posted response before any check: what the state lookup needs. */
export interface PostedResponse {
  /** Response/@InResponseTo turned back into the state value; null for an IdP-initiated response. */
  state: string | null;
}

/**
 * SAML Web Browser SSO on @node-saml/node-saml (signature, audience, validity), plus what it leaves to the service
 * provider: signature algorithms, Destination, Recipient, issuer, the InResponseTo ↔ state binding and assertion
 * replay. Every refusal is a DomainError with a saml_* code (or invalid_or_expired_state from the state).
 */
@Injectable()
export class SamlSignIn {
  constructor(
    private readonly assertions: SamlAssertionsRepository,
    private readonly appConfig: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The HTTP-Redirect URL of an AuthnRequest whose ID carries `state`. */
  async authorizationUrl(provider: SignInProvider, state: string): Promise<string> {
    return this.saml(await loadNodeSaml(), provider, () => `${REQUEST_ID_PREFIX}${state}`).getAuthorizeUrlAsync('', undefined, {});
  }

  /** The SP metadata an admin hands the IdP: entity ID, ACS (HTTP-POST), signed assertions wanted. */
  async metadata(provider: SignInProvider): Promise<string> {
    const { generateServiceProviderMetadata } = await loadNodeSaml();
    const urls = this.urls(provider);
    return generateServiceProviderMetadata({ issuer: urls.spEntityId, callbackUrl: urls.acsUrl, wantAssertionsSigned: true, identifierFormat: null });
  }

  /** Reads what the state lookup needs from a posted response, before anything is trusted. */
  async peek(samlResponse: unknown): Promise<PostedResponse> {
    const { doc } = await decode(samlResponse);
    const inResponseTo = doc.documentElement.getAttribute('InResponseTo');
    if (!inResponseTo) return { state: null };
    return { state: inResponseTo.startsWith(REQUEST_ID_PREFIX) ? inResponseTo.slice(REQUEST_ID_PREFIX.length) : inResponseTo };
  }

  /**
   * Validates a posted response for `provider`, bound to the consumed `state` (null: IdP-initiated, which the caller
   * allowed), records its assertion ID, and returns the identity for the shared sign-in decision.
   */
  async identify(provider: SignInProvider, samlResponse: unknown, state: ConsumedState, idpInitiated: boolean): Promise<ProviderIdentity> {
    const lib = await loadNodeSaml();
    const { xml, doc } = await decode(samlResponse);
    checkAlgorithms(lib, doc);
    const urls = this.urls(provider);
    const destination = doc.documentElement.getAttribute('Destination');
    // Profiles §4.1.4.5: a signed response must carry a Destination; whatever carries one must name this ACS.
    if (destination && destination !== urls.acsUrl) throw destinationMismatch(`Destination ${destination}`, urls.acsUrl);

    let profile: Profile;
    try {
      const result = await this.saml(lib, provider).validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') });
      if (!result.profile) throw new Error('the response carries no assertion');
      profile = result.profile;
    } catch (error) {
      throw mapLibraryError(lib, error);
    }

    // Only the verified assertion is read from here on: what node-saml returns is the signed bytes.
    const assertion = await verifiedAssertion(lib, profile);
    if (provider.entity.idpEntityId && profile.issuer !== provider.entity.idpEntityId) {
      throw ssoError(SsoErrorCode.SamlResponseInvalid, `The assertion was issued by "${profile.issuer ?? ''}", not by the IdP of this provider (${provider.entity.idpEntityId}).`);
    }
    // node-saml judges Conditions by the system clock; the SubjectConfirmationData is judged by the same one.
    const confirmation = bearerConfirmation(lib, assertion, Date.now());
    if (confirmation.recipient !== urls.acsUrl) throw destinationMismatch(`Recipient ${confirmation.recipient ?? '(none)'}`, urls.acsUrl);
    if (!idpInitiated) {
      const responseInResponseTo = doc.documentElement.getAttribute('InResponseTo');
      if (!confirmation.inResponseTo || confirmation.inResponseTo !== responseInResponseTo) {
        throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The assertion answers another sign-in request than the response carrying it (SubjectConfirmationData InResponseTo).');
      }
    } else if (confirmation.inResponseTo) {
      throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The assertion answers a sign-in request this browser did not start.');
    }

    const now = this.clock.now();
    await this.assertions.deleteExpiredBefore(now);
    const accepted = await this.assertions.accept({
      organizationId: provider.entity.organizationId,
      providerId: provider.entity.id,
      assertionIdHash: sha256Hex(confirmation.assertionId),
      now,
      // After this an assertion fails its own validity check anyway (node-saml allows the same skew).
      expiresAt: new Date(confirmation.notOnOrAfter + SKEW_MS),
    });
    if (!accepted) throw ssoError(SsoErrorCode.SamlAssertionReplayed, 'This SAML assertion was already used to sign in; sign in again at the identity provider.');

    const claims = claimsOf(profile);
    return {
      kind: 'identity',
      state,
      claims,
      idTokenClaimNames: [],
      userinfoClaimNames: [],
      githubEmailsUsed: false,
      assertionClaimNames: Object.keys(profile.attributes ?? {}),
      idTokenCheck: `SAML ${signedParts(lib, doc)} verified against the IdP's metadata certificate; audience ${urls.spEntityId}, recipient and destination ${urls.acsUrl}, validity (±${SAML_CLOCK_SKEW_SECONDS / 60} min), ${idpInitiated ? 'IdP-initiated (allowed by this provider)' : 'InResponseTo bound to this sign-in'}, assertion ID not seen before.`,
      warnings: [],
    };
  }

  private urls(provider: SignInProvider) {
    return samlServiceProviderUrls(this.appConfig.publicUrl, provider.entity.organizationId, provider.entity.slug);
  }

  private saml({ SAML, ValidateInResponseTo }: NodeSaml, provider: SignInProvider, requestId?: () => string): SAML {
    const urls = this.urls(provider);
    const config: SamlConfig = {
      entryPoint: provider.entity.idpSsoUrl ?? undefined,
      issuer: urls.spEntityId,
      callbackUrl: urls.acsUrl,
      audience: urls.spEntityId,
      idpCert: provider.entity.idpCertificates,
      // Either the response or the assertion must be validly signed (node-saml checks the assertion when the
      // response is not); which one is recorded in the test report.
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      acceptedClockSkewMs: SKEW_MS,
      // InResponseTo is bound to the state table by the caller, not node-saml's in-memory cache (several instances).
      validateInResponseTo: ValidateInResponseTo.never,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      ...(requestId ? { generateUniqueId: requestId } : {}),
    };
    return new SAML(config);
  }
}

async function decode(samlResponse: unknown): Promise<{ xml: string; doc: Document }> {
  if (typeof samlResponse !== 'string' || samlResponse === '') {
    throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The request carries no SAMLResponse form field; the identity provider must POST its response here.');
  }
  const { parseDomFromString } = await loadNodeSaml();
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The SAMLResponse is not a base64-encoded XML document.');
  }
  const root = doc.documentElement;
  if (!root || root.localName !== 'Response' || root.namespaceURI !== 'urn:oasis:names:tc:SAML:2.0:protocol') {
    throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The SAMLResponse is not a SAML 2.0 samlp:Response.');
  }
  return { xml, doc };
}

/** Refuses SHA-1 (and anything unknown) in every signature of the document, signed or not. */
function checkAlgorithms({ xpath }: NodeSaml, doc: Document): void {
  const methods = xpath.selectAttributes(doc, "//*[local-name()='SignatureMethod']/@Algorithm").map((a) => a.value);
  const digests = xpath.selectAttributes(doc, "//*[local-name()='DigestMethod']/@Algorithm").map((a) => a.value);
  const refused = [...methods.filter((m) => !ALLOWED_SIGNATURE_METHODS.has(m)), ...digests.filter((d) => !ALLOWED_DIGEST_METHODS.has(d))];
  if (refused.length > 0) {
    throw ssoError(SsoErrorCode.SamlSignatureInvalid, `The response is signed with ${refused.join(', ')}; this service accepts RSA signatures with SHA-256 or better only. Configure the IdP to sign with RSA-SHA256.`);
  }
}

/** node-saml's errors are plain Errors: their messages say which check failed. */
function mapLibraryError({ SamlStatusError }: NodeSaml, error: unknown): Error {
  if (error instanceof SamlStatusError) return ssoError(SsoErrorCode.SamlResponseInvalid, `The identity provider answered with an error: ${error.message}`);
  const message = error instanceof Error ? error.message : String(error);
  if (/signature/i.test(message)) {
    return ssoError(SsoErrorCode.SamlSignatureInvalid, 'Neither the SAML response nor its assertion carries a valid signature of the IdP (a certificate from its metadata); re-read the metadata if the IdP changed its certificate.');
  }
  if (/expired|not yet valid/i.test(message)) {
    return ssoError(SsoErrorCode.SamlAssertionExpired, `The SAML assertion is not valid now (${message}); ${SAML_CLOCK_SKEW_SECONDS / 60} minutes of clock difference are allowed. Sign in again, and check the clocks if it persists.`);
  }
  if (/audience/i.test(message)) return ssoError(SsoErrorCode.SamlAudienceMismatch, `The SAML assertion is meant for another service provider (${message}). Set the IdP's audience (SP entity ID) to this provider's entity ID.`);
  return ssoError(SsoErrorCode.SamlResponseInvalid, `The SAML response cannot be used: ${message}.`);
}

async function verifiedAssertion({ parseDomFromString }: NodeSaml, profile: Profile): Promise<Element> {
  const xml = typeof profile.getAssertionXml === 'function' ? profile.getAssertionXml() : '';
  const doc = await parseDomFromString(xml);
  return doc.documentElement;
}

interface BearerConfirmation {
  assertionId: string;
  recipient: string | null;
  inResponseTo: string | null;
  notOnOrAfter: number;
}

/** The bearer SubjectConfirmation of the verified assertion that is valid now (the profile requires one). */
function bearerConfirmation({ xpath }: NodeSaml, assertion: Element, nowMs: number): BearerConfirmation {
  const assertionId = assertion.getAttribute('ID');
  if (!assertionId) throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The assertion has no ID.');
  const data = xpath
    .selectElements(assertion, "*[local-name()='Subject']/*[local-name()='SubjectConfirmation']")
    .filter((confirmation) => confirmation.getAttribute('Method') === BEARER)
    .flatMap((confirmation) => xpath.selectElements(confirmation, "*[local-name()='SubjectConfirmationData']"));
  if (data.length === 0) throw ssoError(SsoErrorCode.SamlResponseInvalid, 'The assertion has no bearer SubjectConfirmation (Web Browser SSO profile).');
  const usable = data.find((element) => {
    const notOnOrAfter = Date.parse(element.getAttribute('NotOnOrAfter') ?? '');
    return Number.isFinite(notOnOrAfter) && nowMs - SKEW_MS < notOnOrAfter;
  });
  if (!usable) throw ssoError(SsoErrorCode.SamlAssertionExpired, `The assertion's SubjectConfirmationData has expired or has no NotOnOrAfter (${SAML_CLOCK_SKEW_SECONDS / 60} minutes of clock difference are allowed).`);
  return {
    assertionId,
    recipient: usable.getAttribute('Recipient'),
    inResponseTo: usable.getAttribute('InResponseTo'),
    notOnOrAfter: Date.parse(usable.getAttribute('NotOnOrAfter') ?? ''),
  };
}

/**
 * The claims of an assertion: every attribute by its Name (one value as a string, several as an array, so a
 * groups attribute with several groups is an array claim rules match element by element), plus the subject as
 * `nameID` and `nameIDFormat`, and the `issuer`.
 */
function claimsOf(profile: Profile): Claims {
  const claims: Claims = {};
  for (const [name, value] of Object.entries(profile.attributes ?? {})) claims[name] = value;
  claims['nameID'] = profile.nameID;
  if (profile.nameIDFormat) claims['nameIDFormat'] = profile.nameIDFormat;
  if (profile.issuer) claims['issuer'] = profile.issuer;
  return claims;
}

/** Which parts carry a signature (node-saml verified one of them; the verified bytes no longer hold it). */
function signedParts({ xpath }: NodeSaml, doc: Document): string {
  const signature = "*[local-name()='Signature' and namespace-uri()='http://www.w3.org/2000/09/xmldsig#']";
  const response = xpath.selectElements(doc, `/*/${signature}`).length > 0;
  const assertion = xpath.selectElements(doc, `/*/*[local-name()='Assertion']/${signature}`).length > 0;
  return response && assertion ? 'response and assertion signatures' : response ? 'response signature' : 'assertion signature';
}

function destinationMismatch(what: string, acsUrl: string) {
  return ssoError(SsoErrorCode.SamlDestinationMismatch, `The SAML response was sent for another address (${what}); this provider's ACS URL is ${acsUrl}. Set it as the IdP's ACS (reply) URL.`);
}
