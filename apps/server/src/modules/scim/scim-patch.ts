import { ScimError } from './scim-error';
import { matchesElement, parseScimFilter, type ScimFilter } from './scim-filter';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const CORE_URN_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(?:User|Group):/i;

type Json = Record<string, unknown>;

interface PatchPath {
  /** The object the attribute lives in: the resource, or the enterprise extension object. */
  extension: string | null;
  attribute: string;
  filter: ScimFilter | null;
  subAttribute: string | null;
}

/**
 * Applies an RFC 7644 §3.5.2 PatchOp body to a copy of the resource's attributes and returns the copy; the caller
 * validates the result as it validates a PUT. Accepted as identity providers send them:
 * - `op` in any case (Entra ID sends "Add", "Replace", "Remove");
 * - a path-less add/replace whose value is an object, whose keys may be paths themselves (`"name.givenName"`,
 *   the enterprise extension's URN-prefixed names: Entra ID) or the extension URN with an object value;
 * - value paths with a filter and a sub-attribute: `emails[type eq "work"].value` (created when no element matches);
 * - remove of elements: `members[value eq "<id>"]` (Okta) or path `members` with a value list of `{value}` (Entra ID).
 * Booleans sent as strings ("True"/"False", Entra ID) are left for the caller's normalization of each attribute.
 */
export function applyPatch(resource: Json, body: unknown): Json {
  if (!isObject(body)) throw new ScimError(400, 'The PATCH body must be a JSON object.', 'invalidSyntax');
  const schemas = body['schemas'];
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) throw new ScimError(400, `The PATCH body's schemas must list ${PATCH_OP_SCHEMA}.`, 'invalidSyntax');
  const operations = body['Operations'] ?? body['operations'];
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimError(400, 'The PATCH body needs a non-empty "Operations" list.', 'invalidSyntax');
  const result = structuredClone(resource);
  operations.forEach((operation: unknown, index: number) => {
    if (!isObject(operation)) throw new ScimError(400, `Operations[${index}] must be an object.`, 'invalidSyntax');
    const op = typeof operation['op'] === 'string' ? operation['op'].toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, `Operations[${index}].op must be add, replace or remove.`, 'invalidSyntax');
    const path = typeof operation['path'] === 'string' && operation['path'].trim() !== '' ? operation['path'].trim() : null;
    const value = operation['value'];
    if (path === null) {
      if (op === 'remove') throw new ScimError(400, `Operations[${index}]: remove needs a path.`, 'noTarget');
      if (!isObject(value)) throw new ScimError(400, `Operations[${index}]: an ${op} without a path needs an object value.`, 'invalidValue');
      for (const [key, field] of Object.entries(value)) {
        if (key.toLowerCase() === ENTERPRISE_USER_SCHEMA.toLowerCase() && isObject(field)) {
          for (const [subKey, subField] of Object.entries(field)) applyAt(result, parsePath(`${ENTERPRISE_USER_SCHEMA}:${subKey}`), op, subField);
        } else {
          applyAt(result, parsePath(key), op, field);
        }
      }
      return;
    }
    applyAt(result, parsePath(path), op, value);
  });
  return result;
}

function applyAt(resource: Json, path: PatchPath, op: 'add' | 'replace' | 'remove', value: unknown): void {
  const container = path.extension ? objectAt(resource, path.extension, op !== 'remove') : resource;
  if (!container) return;
  const key = keyOf(container, path.attribute);
  const current = container[key];

  if (path.filter) {
    const elements = Array.isArray(current) ? (current as unknown[]).filter(isObject) : [];
    const matching = elements.filter((element) => matchesElement(path.filter as ScimFilter, element));
    if (op === 'remove') {
      if (path.subAttribute) matching.forEach((element) => delete element[keyOf(element, path.subAttribute as string)]);
      else container[key] = elements.filter((element) => !matching.includes(element));
      return;
    }
    if (matching.length === 0) {
      // Entra ID replaces `emails[type eq "work"].value` on a user without a work address: create the element.
      const created: Json = { ...equalityFields(path.filter) };
      if (path.subAttribute) created[path.subAttribute] = value;
      else if (isObject(value)) Object.assign(created, value);
      container[key] = [...elements, created];
      return;
    }
    for (const element of matching) {
      if (path.subAttribute) element[keyOf(element, path.subAttribute)] = value;
      else if (isObject(value)) Object.assign(element, value);
    }
    return;
  }

  if (path.subAttribute) {
    const parent = isObject(current) ? current : op === 'remove' ? null : (container[key] = {});
    if (!parent) return;
    if (op === 'remove') delete parent[keyOf(parent, path.subAttribute)];
    else parent[keyOf(parent, path.subAttribute)] = value;
    return;
  }

  if (op === 'remove') {
    if (Array.isArray(current) && Array.isArray(value)) {
      // Entra ID: {"op":"Remove","path":"members","value":[{"value":"<id>"}]} removes those members only.
      const removed = new Set(value.filter(isObject).map((item) => String(item['value'])));
      container[key] = current.filter((element) => !(isObject(element) && removed.has(String(element['value']))));
    } else {
      delete container[key];
    }
    return;
  }
  if (op === 'add' && Array.isArray(current)) {
    // add to a multi-valued attribute appends (RFC 7644 §3.5.2.1); an element with the same value is not repeated.
    const added = Array.isArray(value) ? value : [value];
    const known = new Set(current.filter(isObject).map((element) => JSON.stringify(element['value'])));
    container[key] = [...current, ...added.filter((item) => !(isObject(item) && known.has(JSON.stringify(item['value']))))];
    return;
  }
  if (op === 'add' && isObject(current) && isObject(value)) {
    Object.assign(current, value);
    return;
  }
  container[key] = value;
}

/** Parses `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, each optionally URN-prefixed. */
export function parsePath(raw: string): PatchPath {
  let path = raw.replace(CORE_URN_PREFIX, '');
  let extension: string | null = null;
  if (path.toLowerCase().startsWith(`${ENTERPRISE_USER_SCHEMA.toLowerCase()}:`)) {
    extension = ENTERPRISE_USER_SCHEMA;
    path = path.slice(ENTERPRISE_USER_SCHEMA.length + 1);
  } else if (path.toLowerCase() === ENTERPRISE_USER_SCHEMA.toLowerCase()) {
    throw new ScimError(400, `Patch attributes of ${ENTERPRISE_USER_SCHEMA} one by one ("${ENTERPRISE_USER_SCHEMA}:department").`, 'invalidPath');
  }
  const match = /^([A-Za-z][\w$-]*)(?:\[(.*)\])?(?:\.([A-Za-z][\w$-]*))?$/s.exec(path);
  if (!match) throw new ScimError(400, `"${raw}" is not an attribute path.`, 'invalidPath');
  return { extension, attribute: match[1], filter: match[2] !== undefined ? parseScimFilter(match[2]) : null, subAttribute: match[3] ?? null };
}

/** `type eq "work"` → `{type: "work"}`: the fields a new element must carry to match the value path's filter. */
function equalityFields(filter: ScimFilter): Json {
  if (filter.kind === 'compare' && filter.operator === 'eq') return { [filter.attribute]: filter.value };
  if (filter.kind === 'and') return { ...equalityFields(filter.left), ...equalityFields(filter.right) };
  throw new ScimError(400, 'No element matches the value path, and its filter does not say what a new one would be (use eq).', 'noTarget');
}

function objectAt(resource: Json, key: string, create: boolean): Json | null {
  const existing = resource[keyOf(resource, key)];
  if (isObject(existing)) return existing;
  if (!create) return null;
  const created: Json = {};
  resource[key] = created;
  return created;
}

/** The existing key named case-insensitively (SCIM attribute names are), else the name as given. */
function keyOf(object: Json, name: string): string {
  return Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
