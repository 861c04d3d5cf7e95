import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '../../config/app-config';

/**
 * Structured JSON logs (pino). Headers that carry credentials are redacted, and request URLs are logged
 * without secrets in the path (sign-in links) or query (setup token, OAuth code and state).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.secret',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.accessToken',
  '*.access_token',
];

export function redactUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/(\/auth\/sign-in-link\/)[^/]+/, '$1[REDACTED]');
  return query === undefined ? safePath : `${safePath}?[REDACTED]`;
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
          serializers: {
            req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method, url: redactUrl(req.url ?? '') }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          customLogLevel: (_req: IncomingMessage, res: { statusCode: number }, error?: Error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
        },
      }),
    }),
  ],
})
export class LoggingModule {}
