import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture } from '@angular/core/testing';
import type { SsoAuditEntry } from '@sc/contracts';
import { query, rowsText, settle, textOf } from '../../../testing/dom';
import { answerLate, expectFirstPage, nextPage } from '../../../testing/http';
import { createWithInputs, setUpTestApp } from '../../../testing/providers';
import { SsoAuditComponent } from './sso-audit.component';
import { sample } from '../../../testing/fixtures';

const AUDIT = '/api/v1/orgs/acme/sso/audit';
const GLOBEX_AUDIT = '/api/v1/orgs/globex/sso/audit';

const entry = sample<SsoAuditEntry>(() => ({
  id: 'e1',
  createdAt: '2026-01-02T10:00:00Z',
  providerSlug: 'kc',
  providerId: 'p1',
  test: false,
  outcome: 'success',
  errorCode: null,
  message: 'Signed in as viewer (the default role).',
  email: 'ann@acme.test',
  userId: 'u1',
  subject: 's1',
  role: 'viewer',
  claimNames: {},
  warnings: [],
  ipAddress: null,
  userAgent: null,
}));

describe('SsoAuditComponent', () => {
  let fixture: ComponentFixture<SsoAuditComponent>;
  let http: HttpTestingController;

  const rows = () => rowsText(fixture);

  beforeEach(async () => {
    http = setUpTestApp();
    fixture = createWithInputs(SsoAuditComponent, { orgId: 'acme', providerSlugs: ['kc'] });
    fixture.detectChanges();
  });

  afterEach(() => http.verify());

  it('lists time, provider, outcome code, email and warnings, and pages through older entries', async () => {
    const first = expectFirstPage(http, AUDIT, 25);
    first.flush(
      [
        entry({ id: 'e2', outcome: 'failure', errorCode: 'email_domain_not_allowed', email: 'eve@other.test', message: 'Accounts from other.test may not sign in.', role: null }),
        entry({ id: 'e1', test: true, warnings: ['groups overage: _claim_names present'] }),
      ],
      nextPage(AUDIT, 'cursor-1'),
    );
    await settle(fixture);
    const [failure, success] = rows();
    expect(failure).toContain('email_domain_not_allowed');
    expect(failure).toContain('eve@other.test');
    expect(success).toContain('success');
    expect(success).toContain('test');
    expect(success).toContain('groups overage');

    query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').click();
    const older = http.expectOne((request) => request.url === AUDIT);
    expect(older.request.params.get('cursor')).toBe('cursor-1');
    older.flush([entry({ id: 'e0', email: 'old@acme.test' })]);
    await settle(fixture);
    expect(rows()).toHaveLength(3);
    expect(rows()[2]).toContain('old@acme.test');
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=audit-more]')).toBeNull();
  });

  it('shows only the answer to the latest filter', async () => {
    const first = http.expectOne((request) => request.url === AUDIT);
    fixture.componentInstance.outcome.set('failure');
    fixture.detectChanges();
    const latest = http.expectOne((request) => request.url === AUDIT && request.params.get('outcome') === 'failure');
    latest.flush([entry({ id: 'f', outcome: 'failure', errorCode: 'no_email', email: null })]);
    answerLate(first, [entry({ id: 'stale', email: 'stale@acme.test' })], nextPage(AUDIT, 'c'));
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('no_email');
  });

  it('filters by outcome from the first page again', async () => {
    http.expectOne((request) => request.url === AUDIT).flush([entry({})], nextPage(AUDIT, 'c'));
    await settle(fixture);
    fixture.componentInstance.outcome.set('failure');
    fixture.detectChanges();
    const filtered = http.expectOne((request) => request.url === AUDIT);
    expect(filtered.request.params.get('outcome')).toBe('failure');
    expect(filtered.request.params.has('cursor')).toBe(false);
    filtered.flush([]);
    await settle(fixture);
    expect(textOf(fixture)).toContain('No sign-in attempts yet');
  });

  function switchToGlobex(): void {
    fixture.componentRef.setInput('orgId', 'globex');
    fixture.detectChanges();
  }

  it('shows the organization switched to, even when the previous one answers last', async () => {
    const acme = http.expectOne((request) => request.url === AUDIT);
    switchToGlobex();
    http.expectOne((request) => request.url === GLOBEX_AUDIT).flush([entry({ id: 'g', email: 'gail@globex.test' })]);
    await settle(fixture);
    answerLate(acme, [entry({ id: 'a', email: 'ann@acme.test' })], nextPage(AUDIT, 'c'));
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('gail@globex.test');
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=audit-more]')).toBeNull();
  });

  it('does not add older entries of the organization just left to the new one', async () => {
    http.expectOne((request) => request.url === AUDIT).flush([entry({ id: 'a', email: 'ann@acme.test' })], nextPage(AUDIT, 'c'));
    await settle(fixture);
    query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').click();
    const older = http.expectOne((request) => request.url === AUDIT);
    switchToGlobex();
    http.expectOne((request) => request.url === GLOBEX_AUDIT).flush([entry({ id: 'g', email: 'gail@globex.test' })], nextPage(GLOBEX_AUDIT, 'g1'));
    await settle(fixture);
    answerLate(older, [entry({ id: 'a0', email: 'old@acme.test' })]);
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('gail@globex.test');
    expect(query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').disabled).toBe(false);
  });

  it('keeps the entries shown when older ones cannot be read', async () => {
    http.expectOne((request) => request.url === AUDIT).flush([entry({})], nextPage(AUDIT, 'c'));
    await settle(fixture);
    query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').click();
    http.expectOne((request) => request.url === AUDIT).flush('x', { status: 500, statusText: 'Error' });
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect((fixture.nativeElement as HTMLElement).querySelector('[role=alert]')).not.toBeNull();
    expect(query<HTMLButtonElement>(fixture, '[data-testid=audit-more]').disabled).toBe(false);
  });

  it('offers to try again when the attempts cannot be read', async () => {
    http.expectOne((request) => request.url === AUDIT).flush('x', { status: 500, statusText: 'Error' });
    await settle(fixture);
    query<HTMLButtonElement>(fixture, 'sc-load-error button').click();
    fixture.detectChanges();
    http.expectOne((request) => request.url === AUDIT).flush([entry({})]);
    await settle(fixture);
    expect(rows()).toHaveLength(1);
    expect((fixture.nativeElement as HTMLElement).querySelector('[role=alert]')).toBeNull();
  });
});
