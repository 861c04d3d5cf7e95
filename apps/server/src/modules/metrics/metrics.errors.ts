import { domainErrorFactory } from '../../common/errors/domain-error';

export enum MetricsErrorCode {
  /** Metrics are off, or served on SERVICE_METRICS_PORT instead of this port. */
  NotFound = 'not_found',
  /** SERVICE_METRICS_TOKEN is set and the request did not carry it as a bearer token. */
  TokenInvalid = 'metrics_token_invalid',
}

export const metricsError = domainErrorFactory<MetricsErrorCode>({
  [MetricsErrorCode.NotFound]: 404,
  [MetricsErrorCode.TokenInvalid]: 401,
});
