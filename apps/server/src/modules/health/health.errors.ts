import { domainErrorFactory } from '../../common/errors/domain-error';

export enum HealthErrorCode {
  DatabaseUnavailable = 'database_unavailable',
  /** One or more readiness checks failed; details name each failed check. */
  NotReady = 'not_ready',
  /** SIGTERM arrived and the grace period is over: the work was stopped and rolled back. */
  ShuttingDown = 'shutting_down',
}

export const healthError = domainErrorFactory<HealthErrorCode>({
  [HealthErrorCode.DatabaseUnavailable]: 503,
  [HealthErrorCode.NotReady]: 503,
  [HealthErrorCode.ShuttingDown]: 503,
});
