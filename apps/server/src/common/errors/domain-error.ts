import type { ErrorDetail } from '@sc/contracts';

/**
 * Base class of every error a service throws on purpose. Each module declares its own
 * code enum and a status for each code; the global exception filter turns any DomainError
 * into `{"error":{"code","message","details"}}` with that status.
 */
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Declares a module's error factory from its code enum and a status per code, so a service
 * writes `throw tokensError(TokensErrorCode.Revoked, 'This API token was revoked.')`.
 */
export function domainErrorFactory<Code extends string>(statusByCode: Record<Code, number>) {
  return (code: Code, message: string, details: ErrorDetail[] = []) =>
    new DomainError<Code>(code, statusByCode[code], message, details);
}
