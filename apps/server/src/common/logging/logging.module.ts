import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream, LoggerOptions } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig, type LogLevel } from '../../config/app-config';

/**
 * Structured JSON logs (pino). Request logs carry method, path and status only: no headers, cookies or
 * bodies; the redaction paths are a second line of defence for anything logged as an object. URLs are
 * logged without secrets in the path (sign-in links) or query (setup token, OAuth code and state).
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
  '*.refreshToken',
  '*.idToken',
];

export function redactUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/(\/auth\/sign-in-link\/)[^/]+/, '$1[REDACTED]');
  return query === undefined ? safePath : `${safePath}?[REDACTED]`;
}

/** Nest's per-module and per-route start-up lines: useful when debugging, noise otherwise. */
const STARTUP_NOISE = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

export function pinoOptions(level: LogLevel): LoggerOptions {
  const verbose = level === 'debug' || level === 'trace';
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    hooks: {
      logMethod(args, method) {
        const first = args[0] as unknown;
        const context = typeof first === 'object' && first !== null ? (first as { context?: unknown }).context : undefined;
        if (!verbose && typeof context === 'string' && STARTUP_NOISE.has(context)) return;
        method.apply(this, args);
      },
    },
  };
}

/**
 * 502: a service outside this server failed or could not be reached (an identity provider during discovery or a
 * sign-in). Its address is an administrator's input, not a server fault, so the request is logged at warn.
 */
const UPSTREAM_FAILED = 502;

/** Where log lines go: stdout by default; tests override it with a stream to inspect what is logged. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');
export type LogDestination = DestinationStream | null;

function httpLoggerOptions(config: AppConfig): Options {
  return {
    ...pinoOptions(config.logLevel),
    ...(config.logFormat === 'pretty' ? { transport: { target: 'pino-pretty', options: { singleLine: true, ignore: 'pid,hostname' } } } : {}),
    // The serializers below read the raw request and response: pino's standard ones (which would run first and build
    // objects with every header and the remote address, a syscall) are not needed for three fields.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.originalUrl ?? req.url ?? '') }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req: IncomingMessage, res: { statusCode: number }, error?: Error) =>
      error ? 'error' : res.statusCode === UPSTREAM_FAILED ? 'warn' : res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    // pino-http attaches a made-up "failed with status code 502" error with its own stack to every 5xx line; for a 502
    // the exception filter has logged the reason already, and a stack of pino-http's internals says nothing.
    customErrorObject: (_req: IncomingMessage, res: { statusCode: number }, _error: Error, value: Record<string, unknown>) => {
      if (res.statusCode !== UPSTREAM_FAILED) return value;
      const { err: _stack, ...withoutError } = value;
      return withoutError;
    },
  };
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig, LOG_DESTINATION],
      providers: [{ provide: LOG_DESTINATION, useValue: null }],
      useFactory: (config: AppConfig, destination: LogDestination) => ({
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        pinoHttp: destination ? [httpLoggerOptions(config), destination] : httpLoggerOptions(config),
      }),
    }),
  ],
})
export class LoggingModule {}
