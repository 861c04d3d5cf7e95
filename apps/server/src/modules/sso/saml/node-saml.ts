/** What the SAML sign-in and metadata reading use of node-saml, loaded by loadNodeSaml. */
export type NodeSaml = Awaited<ReturnType<typeof importNodeSaml>>;

let nodeSaml: Promise<NodeSaml> | undefined;

/**
 * @node-saml/node-saml (with xml-crypto, xmldom and xpath), loaded at the first SAML use rather than at startup:
 * requiring it took about 0.6 s of every server start and of every integration test file (measured inside Jest),
 * and only SAML providers use it. A module that fails to load fails that use with the loader's error.
 */
export function loadNodeSaml(): Promise<NodeSaml> {
  return (nodeSaml ??= importNodeSaml());
}

async function importNodeSaml() {
  const [saml, xml] = await Promise.all([import('@node-saml/node-saml'), import('@node-saml/node-saml/lib/xml.js')]);
  return {
    SAML: saml.SAML,
    SamlStatusError: saml.SamlStatusError,
    ValidateInResponseTo: saml.ValidateInResponseTo,
    generateServiceProviderMetadata: saml.generateServiceProviderMetadata,
    parseDomFromString: xml.parseDomFromString,
    xpath: xml.xpath,
  };
}
