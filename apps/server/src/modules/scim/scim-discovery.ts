import { ENTERPRISE_USER_SCHEMA } from './scim-patch';
import { GROUP_SCHEMA, USER_SCHEMA, listResponse } from './scim-resources';

/** The largest page a list answers (RFC 7644 §3.4.2.4 lets the server cap `count`); ServiceProviderConfig says so. */
export const SCIM_MAX_RESULTS = 200;

/** RFC 7643 §5: what this server supports, for clients that read it before provisioning. */
export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${baseUrl.replace(/\/scim\/v2\/.*$/, '')}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'SCIM token', description: 'A SCIM token an owner creates in the SSO settings, sent as "Authorization: Bearer <token>".', primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string): Record<string, unknown>[] {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A member of the organization',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A group whose members get roles by the organization’s group→role rules',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

type Attribute = Record<string, unknown>;

function attribute(name: string, options: Partial<Attribute> = {}): Attribute {
  return { name, type: 'string', multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...options };
}

function complex(name: string, subAttributes: Attribute[], options: Partial<Attribute> = {}): Attribute {
  return attribute(name, { type: 'complex', subAttributes, ...options });
}

const multiValuedSubAttributes = [attribute('value'), attribute('display'), attribute('type'), attribute('primary', { type: 'boolean' })];

export function schemas(baseUrl: string): Record<string, unknown>[] {
  const schema = (id: string, name: string, attributes: Attribute[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, 'User', [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      complex('name', ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((sub) => attribute(sub))),
      attribute('displayName'),
      attribute('nickName'),
      attribute('title'),
      attribute('userType'),
      attribute('preferredLanguage'),
      attribute('locale'),
      attribute('timezone'),
      attribute('active', { type: 'boolean' }),
      complex('emails', multiValuedSubAttributes, { multiValued: true }),
      complex('phoneNumbers', multiValuedSubAttributes, { multiValued: true }),
      complex('groups', [attribute('value', { mutability: 'readOnly' }), attribute('display', { mutability: 'readOnly' })], { multiValued: true, mutability: 'readOnly' }),
    ]),
    schema(GROUP_SCHEMA, 'Group', [
      attribute('displayName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      complex('members', [attribute('value', { mutability: 'immutable' }), attribute('display', { mutability: 'readOnly' })], { multiValued: true }),
    ]),
    schema(ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', [
      ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) => attribute(name)),
      complex('manager', [attribute('value'), attribute('displayName', { mutability: 'readOnly' })]),
    ]),
  ];
}

export function listOf(resources: Record<string, unknown>[]): Record<string, unknown> {
  return listResponse(resources.length, 1, resources);
}
