import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { mapError } from '../../common/errors/all-exceptions.filter';
import { MetricsService } from './metrics.service';

/** GET /metrics on the main port (outside the /api/v1 prefix, like Prometheus expects); see MetricsService.assertMainPortAccess. */
export function metricsEndpoint(metrics: MetricsService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    try {
      metrics.assertMainPortAccess(req.headers.authorization);
    } catch (error) {
      const { status, body } = mapError(error);
      res.status(status).json(body);
      return;
    }
    void metrics.send(res).catch(next);
  };
}
