import { SsoErrorCode } from './error-codes';
import { ssoErrorWording } from './sso-error-wording';

describe('ssoErrorWording', () => {
  it('has a title, advice and a sign-in page sentence for a known code', () => {
    expect(ssoErrorWording(SsoErrorCode.SignupDisabled)).toEqual({
      title: 'You are not a member yet',
      whatToDo: 'Ask an administrator to add you to the organization, then sign in again.',
      signInPage: 'You are not a member of this organization yet. Ask an administrator to add you.',
    });
  });

  it('falls back per part, and never to inherited names a URL could carry', () => {
    expect(ssoErrorWording(SsoErrorCode.MissingCode)).toMatchObject({ title: 'Sign-in failed', whatToDo: 'Start the sign-in again from the sign-in page.' });
    for (const crafted of ['constructor', '__proto__', 'toString', 'Call 555-0100']) {
      expect(ssoErrorWording(crafted)).toEqual(ssoErrorWording('no_such_code'));
    }
  });
});
