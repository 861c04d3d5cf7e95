import { domainErrorFactory } from '../../common/errors/domain-error';

export enum AuditErrorCode {
  InvalidCursor = 'audit_cursor_invalid',
  InvalidRange = 'audit_range_invalid',
}

export const auditError = domainErrorFactory<AuditErrorCode>({
  [AuditErrorCode.InvalidCursor]: 400,
  [AuditErrorCode.InvalidRange]: 400,
});
