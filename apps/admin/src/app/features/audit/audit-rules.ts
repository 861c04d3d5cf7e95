import { AUDIT_ACTION_LABELS, type AuditEntry, type AuditFilter, type AuditTargetType } from '@sc/contracts';

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
};

export function targetTypeLabel(entry: AuditEntry): string {
  return TARGET_TYPE_LABELS[entry.target.type] ?? entry.target.type;
}

export function actionLabel(entry: AuditEntry): string {
  return AUDIT_ACTION_LABELS[entry.action] ?? entry.action;
}

/** Who acted, as a person reads it. */
export function actorLabel(entry: AuditEntry): string {
  const { actor } = entry;
  const who = actor.email ?? actor.userId ?? 'unknown member';
  switch (actor.type) {
    case 'token':
      return `API token ${actor.tokenPrefix ?? actor.tokenId ?? ''}${actor.email ? ` (${actor.email})` : ''}`;
    case 'sso':
      return `${who} via SSO sign-in`;
    case 'setup':
      return `${who} via first-run setup`;
    case 'host':
      return `sign-in-link command on the server host, for ${who}`;
    default:
      return who;
  }
}

/** The changed fields: `role: viewer → editor` for changes, `role: viewer` for what was created or deleted. */
export function changeLines(entry: AuditEntry): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => {
    if (entry.before === null) return `${key}: ${show(after[key])}`;
    if (entry.after === null) return `${key}: ${show(before[key])}`;
    return `${key}: ${show(before[key])} → ${show(after[key])}`;
  });
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
