import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import { json, urlencoded, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { basename, join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import { AppModule } from './app.module';
import { AllExceptionsFilter, mapError } from './common/errors/all-exceptions.filter';
import { requestValidationPipe } from './common/http/validation-pipe';
import { refuseUnusableInput } from './common/http/json-input';
import { applyHttpTimeouts } from './common/http/server-timeouts';
import * as contracts from '@sc/contracts';
import { describeRequestSchemas, requestBodyClasses } from './common/openapi/validation-schemas';
import { AppConfig } from './config/app-config';
import { metricsEndpoint } from './modules/metrics/metrics.endpoint';
import { MetricsService } from './modules/metrics/metrics.service';
import { readsOwnBody } from './modules/artifacts/sync/raw-body-routes';
import { DOWNLOAD_ROUTES } from './modules/cli-package/downloads.controller';
import { SCHEMA_ROUTES } from './modules/artifacts/read/schemas.controller';
import { EMBED_ROUTES, isEmbedPath } from './modules/embeds/embed-public.controller';
import { MCP_ROUTES } from './modules/mcp/mcp.controller';
import { SCIM_ROUTES } from './modules/scim/scim.controller';
import { isScimPath, sendScimBodyReadError } from './modules/scim/scim-http';

/** Nest's global prefix: @sc/contracts' API_PREFIX ("/api/v1") without its leading slash. */
export const API_PREFIX = contracts.API_PREFIX.slice(1);

/** Creates the application exactly as production runs it (main.ts); tests use configureApp on their own module. */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false, abortOnError: false });
  configureApp(app);
  return app;
}

/** Binds the HTTP server to HOST and PORT (main.ts; a test checks the address). */
export async function listen(app: INestApplication, config: Pick<AppConfig, 'host' | 'port'>): Promise<void> {
  await app.listen(config.port, config.host);
}

/**
 * The HTTP pipeline: shared by main.ts and the integration tests so tests exercise production behaviour.
 * Must be called before `init()`/`listen()`.
 */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  // SIGTERM/SIGINT: drain (ShutdownService), close, then exit 0 (process.exit also flushes pino).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  express.disable('x-powered-by');
  // Behind a reverse proxy the client address (rate limits, logs) comes from X-Forwarded-For.
  express.set('trust proxy', config.trustProxy);
  applyHttpTimeouts(express.getHttpServer(), config.httpTimeouts);
  // HSTS and upgrade-insecure-requests only make sense when the service is really served over https.
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'upgrade-insecure-requests': config.secureCookies ? [] : null,
          // Diagram image nodes show https (and data:) images from the synced context; the browser loads them, never the server.
          'img-src': ["'self'", 'data:', 'https:'],
        },
      },
      strictTransportSecurity: config.secureCookies,
    }),
  );
  // Text answers (the admin's scripts and styles, API JSON) travel compressed: brotli when the client takes it,
  // else gzip. Already-compressed types (images, fonts) and answers under 1 KB are sent as they are. Brotli
  // quality 5 is about as fast as gzip and 7% smaller on the admin's chunks (the default 4 is no smaller than gzip).
  app.use(compression({ brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } } }));
  app.use(cookieParser());
  app.use(metricsEndpoint(app.get(MetricsService)));
  // Routes that read their own body (the sync gateway: modules/artifacts/sync/raw-body-routes.ts) skip these parsers.
  // SCIM clients send application/scim+json (RFC 7644 §3.1).
  app.use(exceptOnGateway(json({ limit: config.bodyLimitBytes, type: ['application/json', 'application/scim+json'] })));
  app.use(exceptOnGateway(urlencoded({ limit: config.bodyLimitBytes, extended: false })));
  app.use(refuseUnusableInput);
  // body-parser fails before Nest's pipeline runs, so its errors need their own handler in the same shape (on SCIM
  // paths, the SCIM error body their clients read).
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (isScimPath(req.path)) return sendScimBodyReadError(res, error);
    const { status, body } = mapError(error);
    res.status(status).json(body);
  });
  // API answers may carry one-time secrets (setup, token creation, sign-in links): never cache them.
  app.use(`/${API_PREFIX}`, (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // The CLI package downloads live at /downloads/… (what `npm install -g <url>` reads), and the context file's JSON
  // Schema at /schemas/context.v1.json (what a `"$schema"` names), embed links at /embed/… (what a README shows) and
  // the MCP server at /mcp, outside the API prefix. The SCIM service provider lives at /scim/v2/… too: the path
  // identity providers are given (modules/scim).
  app.setGlobalPrefix(API_PREFIX, { exclude: [...PUBLIC_FILE_ROUTES, ...MCP_ROUTES, SCIM_ROUTES] });
  app.useGlobalPipes(requestValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  // Built on the first request for it, not at every start (a tenth of a second or more of CPU for each server and
  // each test app); Swagger keeps the document once built.
  SwaggerModule.setup('api/docs', app, () => openApiDocument(app));
  if (config.adminDir) serveAdminApp(express, config.adminDir);
}

/** The OpenAPI document of every route, with the request bodies' validation rules as JSON Schemas. */
function openApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('System Context Service')
      .setDescription('Organizations, members, API tokens, SSO and synced architecture artifacts.')
      .setVersion('1')
      .addBearerAuth()
      .addCookieAuth('sc_session')
      .build(),
  );
  describeRequestSchemas(document, requestBodyClasses(document, contracts));
  return document;
}

function exceptOnGateway(parser: RequestHandler): RequestHandler {
  return (req, res, next) => (readsOwnBody(req.path) ? next() : parser(req, res, next));
}

const PUBLIC_FILE_ROUTES = [...DOWNLOAD_ROUTES, ...SCHEMA_ROUTES, ...EMBED_ROUTES];
/** Paths outside the API prefix the admin app's fallback must leave to their controllers (embeds: isEmbedPath). */
const SERVER_PATHS = new Set([...DOWNLOAD_ROUTES, ...SCHEMA_ROUTES, ...MCP_ROUTES].map((route) => `/${route}`));

/** The built Angular SPA at `/`: static files, and index.html for any other non-API GET (client-side routes). */
function serveAdminApp(app: NestExpressApplication, adminDir: string): void {
  app.useStaticAssets(adminDir, { index: false, setHeaders: (res: Response, path: string) => res.setHeader('Cache-Control', adminCacheControl(basename(path))) });
  const indexHtml = join(adminDir, 'index.html');
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || req.path === '/api' || isScimPath(req.path) || SERVER_PATHS.has(req.path) || isEmbedPath(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  });
}

/** Angular names every built script, style and font after a hash of its content (outputHashing: all). */
const HASHED_ASSET = /-[A-Z0-9]{8}\.(js|css|woff2?|ttf|otf|svg|png|jpe?g|gif|webp|avif)$/;

/**
 * A hashed file never changes under its name, so browsers keep it for a year; index.html names the current
 * hashes, so it is revalidated on every load (a deployment shows at once); other files (favicon) for an hour.
 */
function adminCacheControl(file: string): string {
  if (file === 'index.html') return 'no-cache';
  return HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
}
