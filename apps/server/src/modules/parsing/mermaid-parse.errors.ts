import { MermaidParseErrorCode } from '@sc/contracts';
import { errorFactoryFor } from '../../common/errors/error-status';

// The codes live in @sc/contracts (one list for the server, the admin and the CLI); their statuses in
// common/errors/error-status.ts. Re-exported so the module's code keeps importing its errors from here.
export { MermaidParseErrorCode };

export const mermaidParseError = errorFactoryFor<MermaidParseErrorCode>();
