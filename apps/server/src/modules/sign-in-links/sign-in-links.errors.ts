import { SignInLinksErrorCode } from '@sc/contracts';
import { errorFactoryFor } from '../../common/errors/error-status';

// The codes live in @sc/contracts (the auth, members and organizations codes this module answers with); their
// statuses in common/errors/error-status.ts.
export { SignInLinksErrorCode };

export const signInLinksError = errorFactoryFor<SignInLinksErrorCode>();
