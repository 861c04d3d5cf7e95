import { isEmail } from 'class-validator';
import { ScimError, invalidValue } from './scim-error';
import { ENTERPRISE_USER_SCHEMA, isObject } from './scim-patch';
import type { ScimGroup, ScimUser } from './scim.entities';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/**
 * The User attributes kept (RFC 7643 §4.1 and the enterprise extension §4.3). Anything else a client sends is
 * ignored, `password` above all: members sign in through SSO, never with a password.
 */
const KEPT_USER_ATTRIBUTES = ['name', 'displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'emails', 'phoneNumbers', 'addresses', ENTERPRISE_USER_SCHEMA];
const MULTI_VALUED = new Set(['emails', 'phoneNumbers', 'addresses']);
/** Bounds what one user's stored attributes may weigh (an IdP sends a few hundred bytes). */
const MAX_ATTRIBUTES_BYTES = 16_384;

/** A User as a client sent it (POST, PUT, or the result of a PATCH), checked and reduced to what is stored. */
export interface UserInput {
  userName: string;
  externalId: string | null;
  active: boolean;
  attributes: Record<string, unknown>;
  /** The address the member signs in with: the primary email, else the work one, else the first, else userName. */
  email: string;
  displayName: string | null;
}

export function readUserInput(body: unknown): UserInput {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM User object.', 'invalidSyntax');
  const field = (name: string): unknown => body[Object.keys(body).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name];
  const userName = field('userName');
  if (typeof userName !== 'string' || userName.trim() === '' || userName.length > 320) throw invalidValue('userName is required: a string of at most 320 characters.');
  const externalId = optionalString(field('externalId'), 'externalId', 255);
  const active = readBoolean(field('active'), 'active') ?? true;
  const attributes: Record<string, unknown> = {};
  for (const name of KEPT_USER_ATTRIBUTES) {
    const value = field(name);
    if (value === undefined || value === null) continue;
    if (MULTI_VALUED.has(name)) {
      if (!Array.isArray(value) || !value.every(isObject)) throw invalidValue(`${name} must be a list of objects.`);
      attributes[name] = value.map((item) => ('primary' in item ? { ...item, primary: readBoolean(item['primary'], `${name}.primary`) ?? false } : item));
    } else {
      attributes[name] = value;
    }
  }
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_BYTES) throw invalidValue(`The user's attributes are larger than ${MAX_ATTRIBUTES_BYTES} bytes.`);
  const email = signInEmail(attributes['emails'], userName.trim());
  const name = isObject(attributes['name']) ? attributes['name'] : {};
  const displayName =
    stringOrNull(attributes['displayName']) ?? stringOrNull(name['formatted']) ?? ([name['givenName'], name['familyName']].filter((part) => typeof part === 'string' && part.trim()).join(' ') || null);
  return { userName: userName.trim(), externalId, active, attributes, email, displayName: displayName?.slice(0, 200) ?? null };
}

function signInEmail(emails: unknown, userName: string): string {
  const values = Array.isArray(emails) ? emails.filter(isObject) : [];
  const chosen = values.find((item) => item['primary'] === true) ?? values.find((item) => String(item['type']).toLowerCase() === 'work') ?? values[0];
  const candidate = typeof chosen?.['value'] === 'string' ? chosen['value'].trim() : userName;
  if (!isEmail(candidate) || candidate.length > 320) {
    throw invalidValue('The user needs an email address to sign in with: a primary or work entry in emails, or a userName that is an email address.');
  }
  return candidate;
}

/** Entra ID sends booleans as the strings "True" and "False"; both spellings are accepted. */
export function readBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalidValue(`${name} must be true or false.`);
}

function optionalString(value: unknown, name: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw invalidValue(`${name} must be a string of at most ${max} characters.`);
  return value;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

export function etagOf(version: number): string {
  return `W/"${version}"`;
}

/** The User's attributes as PATCH edits them: what readUserInput reads back. */
export function userAttributes(user: ScimUser): Record<string, unknown> {
  return { userName: user.userName, ...(user.externalId !== null ? { externalId: user.externalId } : {}), active: user.active, ...user.attributes };
}

export function toUserResource(user: ScimUser, groups: ScimGroup[], baseUrl: string): Record<string, unknown> {
  return {
    schemas: [USER_SCHEMA, ...(ENTERPRISE_USER_SCHEMA in user.attributes ? [ENTERPRISE_USER_SCHEMA] : [])],
    id: user.id,
    ...userAttributes(user),
    groups: groups.map((group) => ({ value: group.id, display: group.displayName, $ref: `${baseUrl}/Groups/${group.id}` })),
    meta: { resourceType: 'User', created: user.createdAt.toISOString(), lastModified: user.updatedAt.toISOString(), location: `${baseUrl}/Users/${user.id}`, version: etagOf(user.version) },
  };
}

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

export function readGroupInput(body: unknown): GroupInput {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM Group object.', 'invalidSyntax');
  const field = (name: string): unknown => body[Object.keys(body).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name];
  const displayName = field('displayName');
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 255) throw invalidValue('displayName is required: a string of at most 255 characters.');
  const members = field('members') ?? [];
  if (!Array.isArray(members) || !members.every((member) => isObject(member) && typeof member['value'] === 'string')) {
    throw invalidValue('members must be a list of {"value": "<User id>"}.');
  }
  return {
    displayName: displayName.trim(),
    externalId: optionalString(field('externalId'), 'externalId', 255),
    memberIds: [...new Set(members.map((member) => (member as { value: string }).value))],
  };
}

export function groupAttributes(group: ScimGroup, members: ScimUser[]): Record<string, unknown> {
  return {
    displayName: group.displayName,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    members: members.map((member) => ({ value: member.id, display: member.userName })),
  };
}

export function toGroupResource(group: ScimGroup, members: ScimUser[], baseUrl: string, options: { excludeMembers?: boolean } = {}): Record<string, unknown> {
  const attributes = groupAttributes(group, members);
  if (options.excludeMembers) delete attributes['members'];
  else attributes['members'] = (attributes['members'] as { value: string; display: string }[]).map((member) => ({ ...member, $ref: `${baseUrl}/Users/${member.value}` }));
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...attributes,
    meta: { resourceType: 'Group', created: group.createdAt.toISOString(), lastModified: group.updatedAt.toISOString(), location: `${baseUrl}/Groups/${group.id}`, version: etagOf(group.version) },
  };
}

export function listResponse(total: number, startIndex: number, resources: unknown[]): Record<string, unknown> {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}
