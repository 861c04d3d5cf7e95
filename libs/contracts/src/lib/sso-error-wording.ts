import { SsoErrorCode } from './error-codes';

/** What a person reads about a failed SSO sign-in, wherever they read it. */
export interface SsoErrorWording {
  /** Heading of the server's error page (GET …/callback/<slug> in a browser). */
  title: string;
  /** "What to do" on the server's error page, under the error's own message. */
  whatToDo: string;
  /** The admin's sign-in page, reached with `?error=<code>`: one sentence, never text from the URL. */
  signInPage: string;
}

const FALLBACK: SsoErrorWording = {
  title: 'Sign-in failed',
  whatToDo: 'Start the sign-in again. If it keeps failing, contact an administrator and mention the code below.',
  signInPage: 'The sign-in did not complete. Please try again; if it keeps failing, contact an administrator.',
};

/** Codes with their own words; any other code (or text from a URL) gets the fallback's. */
const WORDING: Partial<Record<SsoErrorCode, Partial<SsoErrorWording>>> = {
  [SsoErrorCode.InvalidOrExpiredState]: {
    title: 'This sign-in cannot be completed',
    whatToDo: 'Start a new sign-in from the sign-in page in this browser and finish it at the identity provider within 10 minutes. If an earlier attempt already signed you in, simply open the organization.',
    signInPage: 'Your sign-in took too long or was already used. Please start again.',
  },
  [SsoErrorCode.ProviderError]: {
    title: 'The identity provider did not complete the sign-in',
    whatToDo: 'If you cancelled at the provider, simply start again. Otherwise ask your administrator to check the application registered at the identity provider.',
    signInPage: 'The identity provider did not complete the sign-in. If you cancelled, simply start again.',
  },
  [SsoErrorCode.MissingCode]: { whatToDo: 'Start the sign-in again from the sign-in page.' },
  [SsoErrorCode.TokenExchangeFailed]: {
    whatToDo: 'Ask an administrator to check the provider settings: client ID, client secret, and that the client uses client_secret_post. The callback URL registered at the provider must equal the one shown in the SSO settings.',
  },
  [SsoErrorCode.InvalidIdToken]: { whatToDo: "Try again. If it keeps failing, an administrator should check the provider's issuer and JWKS settings (discovery fills them)." },
  [SsoErrorCode.UserinfoFailed]: { whatToDo: 'Try again. If it keeps failing, an administrator should check the UserInfo URL and the scopes.' },
  [SsoErrorCode.SubjectMismatch]: { whatToDo: 'Sign in again. If it keeps failing, an administrator should check the provider configuration.' },
  [SsoErrorCode.NoEmail]: {
    title: 'The provider returned no email address',
    whatToDo: 'Make sure your account at the provider has a visible, confirmed email address, or ask an administrator to check the email scope and the Email claim setting.',
    signInPage: 'The identity provider did not share your email address, which is needed to sign in.',
  },
  [SsoErrorCode.NoSubject]: { whatToDo: 'Ask an administrator to check the Subject claim setting of this provider.' },
  [SsoErrorCode.EmailDomainNotAllowed]: {
    title: 'This email domain is not allowed',
    whatToDo: "Sign in with an account from one of the organization's allowed email domains.",
    signInPage: 'Your email domain is not allowed in this organization. Use your work account.',
  },
  [SsoErrorCode.AccountDisabled]: {
    title: 'Your account is disabled',
    whatToDo: 'Contact an administrator of the organization to re-enable your account.',
    signInPage: 'Your account is disabled in this organization. Contact an administrator.',
  },
  [SsoErrorCode.SignupDisabled]: {
    title: 'You are not a member yet',
    whatToDo: 'Ask an administrator to add you to the organization, then sign in again.',
    signInPage: 'You are not a member of this organization yet. Ask an administrator to add you.',
  },
  [SsoErrorCode.IdentityConflict]: { whatToDo: 'Contact an administrator: your account is linked to another identity at this provider.' },
  [SsoErrorCode.ProviderNotFound]: {
    whatToDo: 'Go back to the sign-in page and choose one of the listed providers.',
    signInPage: 'That sign-in option does not exist any more. Choose one below.',
  },
  [SsoErrorCode.ProviderDisabled]: {
    whatToDo: 'Use another sign-in option, or ask an administrator to turn this provider on.',
    signInPage: 'That sign-in option is turned off. Use another one or contact an administrator.',
  },
  [SsoErrorCode.ClientSecretUnreadable]: { whatToDo: "An administrator must enter the provider's client secret again in the SSO settings." },
  [SsoErrorCode.SamlSignatureInvalid]: {
    whatToDo: "Try again. If it keeps failing, an administrator should save the provider again to re-read the IdP's metadata (its signing certificate may have changed) and check that the IdP signs with RSA-SHA256.",
  },
  [SsoErrorCode.SamlAssertionExpired]: { whatToDo: 'Start the sign-in again. If it keeps failing, the clocks of the identity provider and this service differ by more than 3 minutes.' },
  [SsoErrorCode.SamlAudienceMismatch]: { whatToDo: "An administrator should set the IdP's audience (entity ID) to the one shown in the SSO settings." },
  [SsoErrorCode.SamlDestinationMismatch]: { whatToDo: "An administrator should set the IdP's reply (ACS) URL to the one shown in the SSO settings." },
  [SsoErrorCode.SamlAssertionReplayed]: { whatToDo: 'Start a new sign-in from the sign-in page: each sign-in from the identity provider can be used once.' },
  [SsoErrorCode.SamlIdpInitiatedRefused]: {
    title: 'Start the sign-in here',
    whatToDo: "This organization accepts only sign-ins started from its own sign-in page. Open it and choose the provider there.",
    signInPage: 'Sign-ins started from the identity provider’s portal are not accepted here. Choose your provider below.',
  },
};

/**
 * The words for an SSO error code. `code` may come from a URL: only an own entry of the table is used (never
 * `constructor` or other inherited names), so a crafted link cannot put words on a page.
 */
export function ssoErrorWording(code: string): SsoErrorWording {
  const own = Object.prototype.hasOwnProperty.call(WORDING, code) ? WORDING[code as SsoErrorCode] : undefined;
  return { ...FALLBACK, ...own };
}
