import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { SessionService } from '../../core/session.service';
import { query, textOf } from '../../../testing/dom';
import { ME } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SignedOutPage } from './signed-out.page';

describe('SignedOutPage', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: provideTestApp([{ path: 'signed-out', component: SignedOutPage }]) }));

  it('offers to sign in again to the organization whose session just ended', async () => {
    const session = TestBed.inject(SessionService);
    session.adopt(ME);
    const signingOut = session.signOut();
    TestBed.inject(HttpTestingController).expectOne('/api/v1/auth/sign-out').flush(null, { status: 204, statusText: 'No Content' });
    await signingOut;

    const fixture = TestBed.createComponent(SignedOutPage);
    fixture.detectChanges();
    const link = query<HTMLAnchorElement>(fixture, '[data-testid=sign-in-again]');
    expect(link.textContent?.trim()).toBe('Sign in to Acme');
    expect(link.getAttribute('href')).toBe('/orgs/acme/sign-in');
  });

  it('explains an expired session and offers no organization it does not know', () => {
    const fixture = TestBed.createComponent(SignedOutPage);
    fixture.componentRef.setInput('reason', 'expired');
    fixture.detectChanges();
    expect(textOf(fixture)).toContain('Your session has ended');
    expect(fixture.nativeElement.querySelector('[data-testid=sign-in-again]')).toBeNull();
  });
});
