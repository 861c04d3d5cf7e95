import { EmbedsErrorCode } from '@sc/contracts';
import { errorFactoryFor } from '../../common/errors/error-status';

export { EmbedsErrorCode };

export const embedsError = errorFactoryFor<EmbedsErrorCode>();
