import type { ValidationError } from 'class-validator';
import type { ErrorDetail } from '@sc/contracts';
import { domainErrorFactory } from './domain-error';

/** Codes the HTTP layer itself produces (modules declare their own enums). */
export enum CommonErrorCode {
  ValidationFailed = 'validation_failed',
  BadRequest = 'bad_request',
  /** A JSON body nests objects and arrays deeper than MAX_JSON_DEPTH. */
  JsonTooDeep = 'json_too_deep',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  RateLimited = 'rate_limited',
  InternalError = 'internal_error',
}

export const commonError = domainErrorFactory<CommonErrorCode>({
  [CommonErrorCode.ValidationFailed]: 400,
  [CommonErrorCode.BadRequest]: 400,
  [CommonErrorCode.JsonTooDeep]: 400,
  [CommonErrorCode.NotFound]: 404,
  [CommonErrorCode.MethodNotAllowed]: 405,
  [CommonErrorCode.PayloadTooLarge]: 413,
  [CommonErrorCode.UnsupportedMediaType]: 415,
  [CommonErrorCode.RateLimited]: 429,
  [CommonErrorCode.InternalError]: 500,
});

/** Flattens class-validator errors (nested objects and arrays included) into one detail per failed field. */
export function validationDetails(errors: ValidationError[], parentPath = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const path = parentPath ? (/^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : `${parentPath}.${error.property}`) : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      path,
      // class-validator prefixes messages with the bare property name; show the full path instead.
      message: message.startsWith(`${error.property} `) ? `${path}${message.slice(error.property.length)}` : message,
    }));
    return [...own, ...validationDetails(error.children ?? [], path)];
  });
}

export function validationFailed(errors: ValidationError[]) {
  const details = validationDetails(errors);
  const summary = details.length === 1 ? details[0].message : `${details.length} fields are invalid`;
  return commonError(CommonErrorCode.ValidationFailed, `The request is invalid: ${summary}.`, details);
}
