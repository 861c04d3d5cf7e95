import { DomainsErrorCode } from '@sc/contracts';
import { errorFactoryFor } from '../../common/errors/error-status';

// The codes live in @sc/contracts; their statuses in common/errors/error-status.ts.
export { DomainsErrorCode };

export const domainsError = errorFactoryFor<DomainsErrorCode>();
