import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditAction, type AuditEntry, type AuditFilter, type AuditTargetType } from '@sc/contracts';

/** The filters as typed in the form: dates are whole days (`YYYY-MM-DD`) in the browser's time zone. */
export interface AuditFilterForm {
  action: string;
  actor: string;
  target: string;
  fromDay: string;
  toDay: string;
}

export const EMPTY_FILTER: AuditFilterForm = { action: '', actor: '', target: '', fromDay: '', toDay: '' };

/** The API filter: empty fields left out, `toDay` included (the range ends at the start of the next day). */
export function toAuditFilter(form: AuditFilterForm): AuditFilter {
  const filter: AuditFilter = {};
  if (form.action) filter.action = form.action as AuditFilter['action'];
  if (form.actor.trim()) filter.actor = form.actor.trim();
  if (form.target.trim()) filter.target = form.target.trim();
  const from = startOfDay(form.fromDay, 0);
  const to = startOfDay(form.toDay, 1);
  if (from) filter.from = from;
  if (to) filter.to = to;
  return filter;
}

/** The filters as the URL keeps them (`?action=…&actor=…&target=…&from=YYYY-MM-DD&to=YYYY-MM-DD`), so a filtered log can be shared and reloaded. */
export interface AuditFilterParams {
  action?: string;
  actor?: string;
  target?: string;
  from?: string;
  to?: string;
}

/** The form's values from the URL; an unknown action or a malformed day is ignored. */
export function formFromParams(params: AuditFilterParams): AuditFilterForm {
  const day = (value: string | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');
  return {
    action: params.action && AUDIT_ACTIONS.includes(params.action as AuditAction) ? params.action : '',
    actor: params.actor ?? '',
    target: params.target ?? '',
    fromDay: day(params.from),
    toDay: day(params.to),
  };
}

/** The URL's query parameters for the form (empty fields left out: `null` removes them from the URL). */
export function paramsFromForm(form: AuditFilterForm): Record<string, string | null> {
  const value = (text: string) => (text.trim() ? text.trim() : null);
  return { action: value(form.action), actor: value(form.actor), target: value(form.target), from: value(form.fromDay), to: value(form.toDay) };
}

function startOfDay(day: string, plusDays: number): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays).toISOString();
}

const TARGET_TYPE_LABELS: Record<AuditTargetType, string> = {
  organization: 'organization',
  member: 'member',
  token: 'API token',
  sso_provider: 'SSO provider',
  sign_in_link: 'sign-in link',
  service: 'service',
  diagram: 'diagram',
  scim_token: 'SCIM token',
  domain: 'domain',
  embed_link: 'embed link',
};

export function targetTypeLabel(entry: AuditEntry): string {
  return TARGET_TYPE_LABELS[entry.target.type] ?? entry.target.type;
}

export function actionLabel(entry: AuditEntry): string {
  return AUDIT_ACTION_LABELS[entry.action] ?? entry.action;
}

/** A member's name by user id, from the members list (null when the member is not known there). */
export type NameOf = (userId: string) => string | null;
const NO_NAMES: NameOf = () => null;

/** Who acted, as a person reads it: the member's name and email where known, never a bare id when a name is known. */
export function actorLabel(entry: AuditEntry, nameOf: NameOf = NO_NAMES): string {
  const { actor } = entry;
  const name = actor.userId ? nameOf(actor.userId) : null;
  const who = name && actor.email && name !== actor.email ? `${name} (${actor.email})` : (actor.email ?? name ?? actor.userId ?? 'unknown member');
  switch (actor.type) {
    case 'token': {
      const tokenName = typeof entry.after?.['tokenName'] === 'string' ? `“${entry.after['tokenName']}” ` : '';
      return `API token ${tokenName}${actor.tokenPrefix ?? actor.tokenId ?? ''}${actor.email ? ` (created by ${name ?? actor.email})` : ''}`;
    }
    case 'sso':
      return `${who} via SSO sign-in`;
    case 'setup':
      return `${who} via first-run setup`;
    case 'host':
      return `sign-in-link command on the server host, for ${who}`;
    case 'scim':
      return `SCIM provisioning with token ${actor.tokenPrefix ?? actor.tokenId ?? ''}${actor.email ? ` (created by ${name ?? actor.email})` : ''}`;
    default:
      return who;
  }
}

/** Field names as people say them; any other camelCase name is spelled out in words. */
const FIELD_LABELS: Record<string, string> = {
  createdByUserId: 'Created by',
  allowSignUp: 'Sign-up allowed',
  hasClientSecret: 'Client secret set',
  clientSecretReplaced: 'Client secret replaced',
  enabledWithoutTest: 'Enabled without a test sign-in',
  ciRunUrl: 'CI run',
  repositoryUrl: 'Repository',
  tokenName: 'Token',
  clientId: 'Client ID',
  userinfoUrl: 'UserInfo URL',
  authUrl: 'Authorization URL',
  tokenUrl: 'Token URL',
  jwksUri: 'JWKS URI',
  tenantId: 'Tenant ID',
  expiresAt: 'Expires',
  revokedAt: 'Revoked',
};

export function fieldLabel(key: string): string {
  const label = FIELD_LABELS[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Fields whose value is a user id: shown as the member's name where known. */
const USER_ID_FIELDS = new Set(['createdByUserId', 'userId']);

/**
 * The changed fields in words: `Role: viewer → editor` for a change, `Role: viewer` for what was created or deleted.
 * Booleans read yes/no, lists are joined, times are shown as UTC, user ids as the member's name where known.
 */
export function changeLines(entry: AuditEntry, nameOf: NameOf = NO_NAMES): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  // The database keeps JSON keys in its own order: the fields people look for first come first.
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort((a, b) => rank(a) - rank(b));
  const show = (key: string, value: unknown) => showValue(value, USER_ID_FIELDS.has(key) ? nameOf : NO_NAMES);
  // Something created or deleted: its empty fields say nothing.
  const whole = entry.before === null ? after : entry.after === null ? before : null;
  return keys.filter((key) => whole === null || !isEmpty(whole[key])).map((key) => {
    const label = fieldLabel(key);
    if (entry.before === null) return `${label}: ${show(key, after[key])}`;
    if (entry.after === null) return `${label}: ${show(key, before[key])}`;
    return `${label}: ${show(key, before[key])} → ${show(key, after[key])}`;
  });
}

/** Fields shown first, in this order (a sync's revision and outcome, then where it came from); the rest keep theirs. */
const FIRST_FIELDS = ['revision', 'status', 'code', 'message', 'problems', 'currentRevision', 'created', 'updated', 'removed', 'tokenName', 'repositoryUrl', 'commit', 'branch', 'ciRunUrl'];

function rank(key: string): number {
  const index = FIRST_FIELDS.indexOf(key);
  return index === -1 ? FIRST_FIELDS.length : index;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function showValue(value: unknown, nameOf: NameOf): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    if (ISO_TIME.test(value)) return `${value.slice(0, 19).replace('T', ' ')} UTC`;
    return nameOf(value) ?? value;
  }
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => showValue(item, nameOf)).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${key} ${showValue(item, nameOf)}`)
      .join(', ');
  }
  return String(value);
}
