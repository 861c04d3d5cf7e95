import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture } from '@angular/core/testing';
import type { AuditEntry } from '@sc/contracts';
import { query, rowsText, settle, submitForm, textOf, typeInto } from '../../../testing/dom';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { member, sample } from '../../../testing/fixtures';
import { expectFirstPage, nextPage } from '../../../testing/http';
import { createWithInputs, setUpTestApp } from '../../../testing/providers';
import { AuditLogPage } from './audit-log.page';

const AUDIT = '/api/v1/orgs/acme/audit';

const entry = sample<AuditEntry>(() => ({
  id: 'e1',
  createdAt: '2026-01-02T10:00:00Z',
  action: 'member.role_changed',
  actor: { type: 'user', userId: 'u-olga', email: 'olga@acme.test', tokenId: null, tokenPrefix: null },
  target: { type: 'member', id: 'u-bob', label: 'bob@acme.test' },
  before: { role: 'viewer' },
  after: { role: 'editor' },
  ipAddress: '192.0.2.7',
}));

describe('AuditLogPage', () => {
  let fixture: ComponentFixture<AuditLogPage>;
  let http: HttpTestingController;

  beforeEach(() => {
    http = setUpTestApp();
    fixture = createWithInputs(AuditLogPage, { orgId: 'acme' });
    fixture.detectChanges();
    // Members by id: the page names people instead of showing their ids.
    http.expectOne('/api/v1/orgs/acme/members').flush([member({ userId: 'u-olga', email: 'olga@acme.test', displayName: 'Olga', role: 'owner' })]);
  });

  afterEach(() => http.verify());

  it('lists time, action, actor, target, changes and address, and pages through older entries', async () => {
    const first = expectFirstPage(http, AUDIT, 50);
    first.flush(
      [
        entry({ id: 'e2' }),
        entry({
          id: 'e1',
          action: 'token.created',
          actor: { type: 'token', userId: 'u-olga', email: 'olga@acme.test', tokenId: 't1', tokenPrefix: 'sct_ab12cd34' },
          target: { type: 'token', id: 't2', label: 'deploy' },
          before: null,
          after: { name: 'deploy', scopes: ['admin'] },
        }),
      ],
      nextPage(AUDIT, '17'),
    );
    await settle(fixture);
    const rows = rowsText(fixture);
    expect(rows[0]).toContain('Role changed');
    expect(rows[0]).toContain('Olga (olga@acme.test)');
    expect(rows[0]).toContain('bob@acme.test');
    expect(rows[0]).toContain('Role: viewer → editor');
    expect(rows[0]).toContain('192.0.2.7');
    expect(rows[1]).toContain('API token created');
    expect(rows[1]).toContain('API token sct_ab12cd34 (created by Olga)');
    expect(rows[1]).toContain('Scopes: admin');

    query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').click();
    fixture.detectChanges();
    const older = http.expectOne((request) => request.url === AUDIT && request.params.get('cursor') === '17');
    older.flush([entry({ id: 'e0', action: 'organization.created', target: { type: 'organization', id: 'acme', label: 'Acme' }, before: null, after: { name: 'Acme' } })]);
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(3);
    expect(fixture.nativeElement.querySelector('[data-testid=audit-more]')).toBeNull();
  });

  it('puts the applied filters in the URL, and reads the list and the download from the URL\'s filters', async () => {
    http.expectOne((request) => request.url === AUDIT).flush([entry({})]);
    await settle(fixture);
    expect(query<HTMLAnchorElement>(fixture, '[data-testid=audit-download]').getAttribute('href')).toBe(`${AUDIT}/export`);

    const navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    fixture.componentInstance.form.controls.action.setValue('member.removed');
    typeInto(fixture, '[data-testid=audit-actor]', ' olga@acme.test ');
    typeInto(fixture, '[data-testid=audit-target]', 'rders');
    typeInto(fixture, '[data-testid=audit-from]', '2026-01-01');
    typeInto(fixture, '[data-testid=audit-to]', '2026-01-31');
    submitForm(fixture, '[data-testid=audit-filters]');
    expect(navigate).toHaveBeenCalledWith([], expect.objectContaining({ queryParams: { action: 'member.removed', actor: 'olga@acme.test', target: 'rders', from: '2026-01-01', to: '2026-01-31' } }));

    // The router binds the query string to the page's inputs (what opening a shared link does too).
    for (const [name, value] of Object.entries({ action: 'member.removed', actor: 'olga@acme.test', target: 'rders', from: '2026-01-01', to: '2026-01-31' })) fixture.componentRef.setInput(name, value);
    fixture.detectChanges();
    const filtered = http.expectOne((request) => request.url === AUDIT);
    expect(filtered.request.params.get('action')).toBe('member.removed');
    expect(filtered.request.params.get('actor')).toBe('olga@acme.test');
    expect(filtered.request.params.get('target')).toBe('rders');
    expect(filtered.request.params.get('from')).toBe(new Date(2026, 0, 1).toISOString());
    expect(filtered.request.params.get('to')).toBe(new Date(2026, 1, 1).toISOString());
    filtered.flush([]);
    await settle(fixture);
    expect(textOf(fixture)).toContain('No entries match these filters');
    expect(query<HTMLInputElement>(fixture, '[data-testid=audit-target]').value).toBe('rders');
    const href = query<HTMLAnchorElement>(fixture, '[data-testid=audit-download]').getAttribute('href') ?? '';
    expect(new URL(href, 'http://x').searchParams.get('action')).toBe('member.removed');

    query<HTMLButtonElement>(fixture, '[data-testid=audit-clear]').click();
    expect(navigate).toHaveBeenLastCalledWith([], expect.objectContaining({ queryParams: { action: null, actor: null, target: null, from: null, to: null } }));
  });

  it('shows relative times with the exact time on hover', async () => {
    http.expectOne((request) => request.url === AUDIT).flush([entry({ createdAt: '2026-01-02T10:00:00Z' })]);
    await settle(fixture);
    const time = query(fixture, 'td.mat-column-time time');
    expect(time.getAttribute('title')).toBe('2026-01-02 10:00:00 UTC');
    expect(time.getAttribute('datetime')).toBe('2026-01-02T10:00:00Z');
    expect(time.textContent?.trim()).toMatch(/ago$|^yesterday$/);
  });

  it('folds long change lists after four lines and names target types', async () => {
    const settings = { slug: 'corp', displayName: 'Corp', type: 'generic', clientId: 'acme', enabled: true, hasClientSecret: true };
    http.expectOne((request) => request.url === AUDIT).flush([entry({ action: 'sso_provider.created', target: { type: 'sso_provider', id: 'p1', label: 'corp' }, before: null, after: settings })]);
    await settle(fixture);
    const cell = query(fixture, 'td.mat-column-changes');
    expect(Array.from(cell.querySelectorAll(':scope > div')).map((line) => line.textContent?.trim())).toEqual(['Slug: corp', 'Display name: Corp', 'Type: generic', 'Client ID: acme']);
    expect(cell.querySelector('summary')?.textContent?.trim()).toBe('2 more');
    expect(rowsText(fixture)[0]).toContain('SSO provider');
  });

  it('offers to try again when the log cannot be read', async () => {
    http.expectOne((request) => request.url === AUDIT).flush({ error: { code: 'insufficient_role', message: 'This action needs the admin role or higher; your role is editor.', details: [] } }, { status: 403, statusText: 'Forbidden' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('This action needs the admin role or higher');
  });
});
