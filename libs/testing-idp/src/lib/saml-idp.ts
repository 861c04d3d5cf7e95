import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** A signing key and its self-signed certificate, made by openssl for this test run only. */
export interface SigningKey {
  privateKey: string;
  certificate: string;
}

export function makeSigningKey(commonName: string): SigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', `/CN=${commonName}`, '-days', '2'], { stdio: 'ignore' });
    return { privateKey: readFileSync(join(dir, 'key.pem'), 'utf8'), certificate: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A key the IdP's metadata does not list (a forger's). */
export function strangerKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export interface SamlUser {
  nameId: string;
  email: string;
  name?: string;
  groups?: string[];
}

/** The AuthnRequest the IdP received (HTTP-Redirect binding, inflated). */
export interface ReceivedRequest {
  id: string;
  issuer: string;
  acsUrl: string;
}

export interface ResponseOptions {
  user: SamlUser;
  /** The SP's ACS URL: Destination and Recipient unless overridden. */
  acsUrl: string;
  audience: string;
  inResponseTo?: string | null;
  destination?: string | null;
  recipient?: string;
  /** Where the signature goes; 'none' leaves the response unsigned. */
  sign?: 'assertion' | 'response' | 'both' | 'none';
  signingKey?: string;
  sha1?: boolean;
  /** Shifts every timestamp (ms): -10 min makes an expired assertion. */
  timeShiftMs?: number;
  assertionId?: string;
  issuer?: string;
}

/**
 * A small SAML 2.0 identity provider on loopback: metadata, the HTTP-Redirect SSO endpoint (answers the HTML form a
 * browser would auto-post to the ACS) and signed responses built with xml-crypto, the signing library node-saml
 * itself verifies with. Tests also call `response()` directly to build tampered answers.
 */
export class SamlIdp {
  readonly requests: ReceivedRequest[] = [];
  /** Who signs in at the next /sso request. */
  user: SamlUser | null = null;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly entityId: string,
    readonly key: SigningKey,
  ) {}

  static async start(): Promise<SamlIdp> {
    const key = makeSigningKey('test-idp');
    // The handler needs the IdP, which needs the server's port: filled in once it listens.
    const started: { idp?: SamlIdp } = {};
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const idp = started.idp;
      if (!idp) {
        res.writeHead(503).end();
        return;
      }
      if (url.pathname === '/metadata') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.metadata());
        return;
      }
      if (url.pathname === '/sso') {
        const request = parseRequest(url.searchParams.get('SAMLRequest') ?? '');
        idp.requests.push(request);
        if (!idp.user) {
          res.writeHead(401).end('nobody signs in');
          return;
        }
        const samlResponse = idp.response({ user: idp.user, acsUrl: request.acsUrl, audience: request.issuer, inResponseTo: request.id });
        // What IdPs answer: a form the page posts at once (a browser runs the script; TestBrowser reads the form).
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<form method="post" action="${request.acsUrl}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"><button>Continue</button></form><script>document.forms[0].submit()</script>`);
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    started.idp = new SamlIdp(server, origin, `${origin}/entity`, key);
    return started.idp;
  }

  get metadataUrl(): string {
    return `${this.origin}/metadata`;
  }

  metadata(): string {
    const certificate = pemBody(this.key.certificate);
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${this.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.origin}/sso-post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.origin}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** A base64 SAMLResponse. */
  response(options: ResponseOptions): string {
    return Buffer.from(this.responseXml(options), 'utf8').toString('base64');
  }

  responseXml(options: ResponseOptions): string {
    const now = Date.now() + (options.timeShiftMs ?? 0);
    const instant = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const issuer = options.issuer ?? this.entityId;
    const inResponseTo = options.inResponseTo === undefined || options.inResponseTo === null ? '' : ` InResponseTo="${options.inResponseTo}"`;
    const destination = options.destination === null ? '' : ` Destination="${options.destination ?? options.acsUrl}"`;
    const assertionId = options.assertionId ?? `_a${randomUUID()}`;
    const { user } = options;
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
    const attributes = [attribute('email', [user.email]), ...(user.name ? [attribute('name', [user.name])] : []), ...(user.groups ? [attribute('groups', user.groups)] : [])].join('');
    let assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${instant(0)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escapeXml(user.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${instant(5 * 60_000)}" Recipient="${options.recipient ?? options.acsUrl}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${instant(-60_000)}" NotOnOrAfter="${instant(5 * 60_000)}"><saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${instant(0)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    const sign = options.sign ?? 'assertion';
    const key = options.signingKey ?? this.key.privateKey;
    if (sign === 'assertion' || sign === 'both') assertion = signElement(assertion, 'Assertion', key, options.sha1 === true);
    let response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${instant(0)}"${destination}${inResponseTo}><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    if (sign === 'response' || sign === 'both') response = signElement(response, 'Response', key, options.sha1 === true);
    return response;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Enveloped signature of the element `localName`, placed after its Issuer as the SAML schema orders it. */
function signElement(xml: string, localName: string, privateKey: string, sha1: boolean): string {
  const signer = new SignedXml({ privateKey, signatureAlgorithm: sha1 ? RSA_SHA1 : RSA_SHA256, canonicalizationAlgorithm: EXC_C14N });
  const element = `//*[local-name(.)='${localName}']`;
  signer.addReference({ xpath: element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: sha1 ? SHA1 : SHA256 });
  signer.computeSignature(xml, { location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

function parseRequest(samlRequest: string): ReceivedRequest {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  const issuer = /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? '';
  return { id: attribute('ID'), issuer, acsUrl: attribute('AssertionConsumerServiceURL') };
}

function pemBody(pem: string): string {
  return pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
