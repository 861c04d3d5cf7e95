import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { SessionService } from '../../core/session.service';
import { clickDialogButton, dialogOpened, query, rowsText, settle, textOf, typeInto } from '../../../testing/dom';
import type { ApiTokenResponse } from '@sc/contracts';
import { ME, apiToken, errorBody, member } from '../../../testing/fixtures';
import { setUpTestApp, verifyAndClearOverlays } from '../../../testing/providers';
import { MembersPage } from './members.page';

const OLGA = member({ userId: 'u-olga', email: 'olga@acme.test', displayName: 'Olga', role: 'owner' });
const BOB = member();
const BASE = '/api/v1/orgs/acme/members';

describe('MembersPage', () => {
  let fixture: ComponentFixture<MembersPage>;
  let http: HttpTestingController;

  async function open(members = [BOB, OLGA], role: 'owner' | 'admin' | 'viewer' = 'owner'): Promise<void> {
    TestBed.inject(SessionService).adopt({ ...ME, role });
    fixture = TestBed.createComponent(MembersPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.detectChanges();
    http.expectOne(BASE).flush(members);
    await settle(fixture);
  }


  /** Answers the confirmation's read of the member's API tokens. */
  async function flushTokens(tokens: ApiTokenResponse[]): Promise<void> {
    await settle(fixture);
    http.expectOne({ method: 'GET', url: `${BASE}/u-bob/tokens` }).flush(tokens);
    await settle(fixture);
  }

  beforeEach(() => (http = setUpTestApp()));

  afterEach(() => verifyAndClearOverlays(http));

  it('lists members strongest role first and marks the current user', async () => {
    await open();
    const rows = rowsText(fixture);
    expect(rows[0]).toContain('Olga (you)');
    expect(rows[1]).toContain('Bob');
    expect(rows[1]).toContain('bob@acme.test');
    expect(rows[1]).toContain('Active');
  });

  it('says how and by whom each member was added', async () => {
    await open([
      { ...OLGA, addedBy: { kind: 'setup' } },
      member({ userId: 'u-ada', displayName: 'Ada', addedBy: { kind: 'sso', providerSlug: 'kc', providerName: 'Keycloak' } }),
      member({ userId: 'u-bob', addedBy: { kind: 'member', userId: 'u-olga', email: 'olga@acme.test' } }),
      member({ userId: 'u-cy', displayName: 'Cy', addedBy: { kind: 'token', tokenId: 't1', tokenName: 'provisioning', tokenPrefix: 'sct_ab12cd34', userId: 'u-olga', email: 'olga@acme.test' } }),
      member({ userId: 'u-dan', displayName: 'Dan', addedBy: { kind: 'unknown' } }),
    ]);
    const addedBy = (userId: string) => query(fixture, `[data-testid=added-by-${userId}]`).textContent?.trim();
    expect(addedBy('u-olga')).toBe('First-run setup');
    expect(addedBy('u-ada')).toBe('SSO sign-up through Keycloak');
    expect(addedBy('u-bob')).toBe('Added by olga@acme.test');
    expect(addedBy('u-cy')).toBe('API token provisioning (created by olga@acme.test)');
    expect(addedBy('u-dan')).toBe('Unknown (added before this was recorded)');
    expect(textOf(fixture)).not.toContain('Invitation');
  });

  it('shows a disabled membership as such', async () => {
    await open([OLGA, member({ disabled: true })]);
    expect(rowsText(fixture)[1]).toContain('Disabled');
  });

  it('hides the add form and row actions from viewers', async () => {
    await open([BOB, OLGA], 'viewer');
    expect(fixture.nativeElement.querySelector('[data-testid=member-add-form]')).toBeNull();
    expect(fixture.nativeElement.querySelector('[data-testid^=actions-]')).toBeNull();
  });

  it('adds a member by email with the chosen role', async () => {
    await open([OLGA]);
    typeInto(fixture, 'input[formcontrolname=email]', ' carol@acme.test ');
    fixture.componentInstance.addForm.controls.role.setValue('editor');
    query<HTMLFormElement>(fixture, '[data-testid=member-add-form]').dispatchEvent(new Event('submit'));
    const request = http.expectOne({ method: 'POST', url: BASE });
    expect(request.request.body).toEqual({ email: 'carol@acme.test', role: 'editor' });
    request.flush(member({ userId: 'u-carol', email: 'carol@acme.test', displayName: 'carol@acme.test', role: 'editor' }), {
      status: 201,
      statusText: 'Created',
    });
    await settle(fixture);
    expect(rowsText(fixture).some((row) => row.includes('carol@acme.test') && row.includes('editor'))).toBe(true);
    expect(fixture.componentInstance.addForm.controls.email.value).toBe('');
    // The emptied form is ready for the next person, not showing "Enter an email address".
    expect(textOf(fixture)).not.toContain('Enter an email address.');
  });

  it('explains an invalid email without calling the server', async () => {
    await open([OLGA]);
    typeInto(fixture, 'input[formcontrolname=email]', 'carol');
    query<HTMLFormElement>(fixture, '[data-testid=member-add-form]').dispatchEvent(new Event('submit'));
    fixture.detectChanges();
    expect(textOf(fixture)).toContain('Enter a valid email address');
    http.expectNone({ method: 'POST', url: BASE });
  });

  it("shows the server's refusal of an add inline", async () => {
    await open([OLGA]);
    typeInto(fixture, 'input[formcontrolname=email]', 'bob@acme.test');
    query<HTMLFormElement>(fixture, '[data-testid=member-add-form]').dispatchEvent(new Event('submit'));
    http.expectOne({ method: 'POST', url: BASE }).flush(errorBody('member_exists', 'bob@acme.test is already a member.'), {
      status: 409,
      statusText: 'Conflict',
    });
    await settle(fixture);
    expect(query(fixture, '[role=alert]').textContent).toContain('bob@acme.test is already a member.');
  });

  it('changes a role with PATCH and shows the answer', async () => {
    await open();
    const change = fixture.componentInstance.changeRole(BOB, 'admin');
    const request = http.expectOne({ method: 'PATCH', url: `${BASE}/u-bob` });
    expect(request.request.body).toEqual({ role: 'admin' });
    request.flush({ ...BOB, role: 'admin' });
    await change;
    fixture.detectChanges();
    expect(fixture.componentInstance.members.value().find((m) => m.userId === 'u-bob')?.role).toBe('admin');
  });

  it('keeps the old role when the server refuses the change', async () => {
    await open();
    const change = fixture.componentInstance.changeRole(BOB, 'admin');
    http
      .expectOne({ method: 'PATCH', url: `${BASE}/u-bob` })
      .flush(errorBody('forbidden', 'Only owners can do this.'), { status: 403, statusText: 'Forbidden' });
    await change;
    expect(fixture.componentInstance.members.value().find((m) => m.userId === 'u-bob')?.role).toBe('viewer');
    expect(document.body.textContent).toContain('Only owners can do this.');
  });

  it('asks before making someone an owner and sends nothing when cancelled', async () => {
    await open();
    const change = fixture.componentInstance.changeRole(BOB, 'owner');
    await dialogOpened(fixture);
    expect(document.body.textContent).toContain('Make Bob an owner?');
    clickDialogButton('Cancel');
    await change;
    http.expectNone({ method: 'PATCH', url: `${BASE}/u-bob` });
  });

  it('disables a member after confirmation', async () => {
    await open();
    const toggle = fixture.componentInstance.toggleDisabled(BOB);
    await flushTokens([]);
    await dialogOpened(fixture);
    expect(document.body.textContent).toContain('They created no API tokens that are still in use.');
    clickDialogButton('Disable member');
    await settle(fixture);
    const request = http.expectOne({ method: 'PATCH', url: `${BASE}/u-bob` });
    expect(request.request.body).toEqual({ disabled: true });
    request.flush({ ...BOB, disabled: true });
    await toggle;
    fixture.detectChanges();
    expect(rowsText(fixture)[1]).toContain('Disabled');
  });

  it('enables a disabled member without asking', async () => {
    const disabledBob = member({ disabled: true });
    await open([OLGA, disabledBob]);
    const toggle = fixture.componentInstance.toggleDisabled(disabledBob);
    const request = http.expectOne({ method: 'PATCH', url: `${BASE}/u-bob` });
    expect(request.request.body).toEqual({ disabled: false });
    request.flush(BOB);
    await toggle;
  });

  it('removes a member after confirmation that lists the API tokens the removal revokes', async () => {
    await open();
    const removal = fixture.componentInstance.remove(BOB);
    await flushTokens([apiToken({ name: 'deploy', prefix: 'sct_deploy12', scopes: ['admin'], createdByUserId: 'u-bob' }), apiToken({ id: 't2', name: 'CI', createdByUserId: 'u-bob' })]);
    await dialogOpened(fixture);
    expect(document.body.textContent).toContain('Remove Bob?');
    expect(document.body.textContent).toContain('These 2 API tokens they created are revoked:');
    const items = Array.from(document.querySelectorAll('[data-testid=confirm-items] li')).map((item) => item.textContent?.trim());
    expect(items).toEqual(['deploy (sct_deploy12…, admin)', 'CI (sct_ab12cd34…, sync)']);
    clickDialogButton('Remove member');
    await settle(fixture);
    http.expectOne({ method: 'DELETE', url: `${BASE}/u-bob` }).flush(null, { status: 204, statusText: 'No Content' });
    await removal;
    fixture.detectChanges();
    expect(rowsText(fixture).some((row) => row.includes('Bob'))).toBe(false);
  });

  it('does not ask when the tokens to revoke cannot be read, and removes nothing', async () => {
    await open();
    const removal = fixture.componentInstance.remove(BOB);
    http.expectOne(`${BASE}/u-bob/tokens`).flush(errorBody('member_not_found', 'No such member in this organization.'), { status: 404, statusText: 'Not Found' });
    await removal;
    expect(document.querySelector('mat-dialog-container')).toBeNull();
    http.expectNone({ method: 'DELETE', url: `${BASE}/u-bob` });
  });

  it('shows a load failure with a retry', async () => {
    TestBed.inject(SessionService).adopt(ME);
    fixture = TestBed.createComponent(MembersPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.detectChanges();
    http.expectOne(BASE).flush('down', { status: 503, statusText: 'Unavailable' });
    await settle(fixture);
    expect(textOf(fixture)).toContain('The server had a problem (HTTP 503)');
    const retry = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('button')).find((b) =>
      b.textContent?.includes('Try again'),
    );
    retry?.click();
    fixture.detectChanges(); // the resource starts its reload on the next change detection
    http.expectOne(BASE).flush([OLGA]);
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(1);
  });

  it('loads the other organization when the router reuses the page for a new :orgId', async () => {
    await open([OLGA, BOB]);
    fixture.componentRef.setInput('orgId', 'globex');
    fixture.detectChanges();
    http.expectOne('/api/v1/orgs/globex/members').flush([member({ userId: 'u-gina', email: 'gina@globex.test', displayName: 'Gina' })]);
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(1);
    expect(rowsText(fixture)[0]).toContain('Gina');
  });

  it('appends the next page of members on "Load more" (cursor from the Link header)', async () => {
    TestBed.inject(SessionService).adopt({ ...ME, role: 'owner' });
    fixture = TestBed.createComponent(MembersPage);
    fixture.componentRef.setInput('orgId', 'acme');
    fixture.detectChanges();
    http.expectOne(BASE).flush([OLGA], { headers: { Link: `<${BASE}?cursor=abc&limit=100>; rel="next"` } });
    await settle(fixture);
    expect(rowsText(fixture)).toHaveLength(1);
    query<HTMLButtonElement>(fixture, '[data-testid=members-more]').click();
    http.expectOne(`${BASE}?cursor=abc`).flush([BOB]);
    await settle(fixture);
    expect(rowsText(fixture).map((row) => row.includes('Bob'))).toContain(true);
    expect(rowsText(fixture)).toHaveLength(2);
    expect((fixture.nativeElement as HTMLElement).querySelector('[data-testid=members-more]')).toBeNull();
  });
});
