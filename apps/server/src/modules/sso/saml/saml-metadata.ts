import { X509Certificate } from 'node:crypto';
import { loadNodeSaml } from './node-saml';

/** What sign-in needs from an IdP's metadata. */
export interface IdpMetadata {
  entityId: string;
  /** SingleSignOnService with the HTTP-Redirect binding: where the AuthnRequest goes. */
  ssoUrl: string;
  /** Signing certificates as PEM; a response must be signed by one of them. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const MD = "*[local-name()='EntityDescriptor' and namespace-uri()='urn:oasis:names:tc:SAML:2.0:metadata']";
const IDP = "*[local-name()='IDPSSODescriptor' and namespace-uri()='urn:oasis:names:tc:SAML:2.0:metadata']";

/**
 * Reads an IdP metadata document with node-saml's own XML parser (xmldom) and XPath. Throws an Error whose message
 * says what is missing, for the admin; the caller turns it into invalid_provider_config on the right field.
 * An EntitiesDescriptor (a federation's aggregate) is refused: it names many IdPs, and picking one is not ours.
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  const { parseDomFromString, xpath } = await loadNodeSaml();
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch (error) {
    throw new Error(`the metadata is not well-formed XML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'}).`);
  }
  const root = doc.documentElement;
  if (!root || root.localName !== 'EntityDescriptor' || root.namespaceURI !== 'urn:oasis:names:tc:SAML:2.0:metadata') {
    throw new Error('the metadata must be one SAML 2.0 md:EntityDescriptor (an aggregate of several entities is not accepted).');
  }
  const entityId = root.getAttribute('entityID')?.trim();
  if (!entityId) throw new Error('the EntityDescriptor has no entityID.');
  const descriptors = xpath.selectElements(doc, `/${MD}/${IDP}`);
  if (descriptors.length !== 1) throw new Error('the metadata must describe an identity provider (one IDPSSODescriptor).');
  const descriptor = descriptors[0];
  const redirect = xpath
    .selectElements(descriptor, "*[local-name()='SingleSignOnService']")
    .find((service) => service.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = redirect?.getAttribute('Location')?.trim();
  if (!ssoUrl) throw new Error('the IdP offers no SingleSignOnService with the HTTP-Redirect binding, which this service uses.');
  const certificates = xpath
    .selectElements(descriptor, "*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']")
    .map((element) => toPem(element.textContent ?? ''));
  if (certificates.length === 0) throw new Error('the IdP lists no signing certificate (KeyDescriptor use="signing" with an X509Certificate).');
  return { entityId, ssoUrl, certificates };
}

/** base64 DER → PEM, after checking it is an X.509 certificate node:crypto can read. */
function toPem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw new Error('a signing certificate in the metadata is not a valid X.509 certificate.');
  }
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}
