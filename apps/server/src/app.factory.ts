import { INestApplication, ValidationPipe } from '@nestjs/common';
import { DiscoveryService, ModulesContainer, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { json, urlencoded, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { join } from 'node:path';
import { AppModule } from './app.module';
import { AllExceptionsFilter, mapError } from './common/errors/all-exceptions.filter';
import { validationFailed } from './common/errors/common.errors';
import { bodyClassesOf, describeRequestSchemas } from './common/openapi/validation-schemas';
import { AppConfig } from './config/app-config';
import { GATEWAY_SYNC_PATH } from './modules/artifacts/gateway.controller';

export const API_PREFIX = 'api/v1';

/** Creates the application exactly as production runs it (main.ts); tests use configureApp on their own module. */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false, abortOnError: false });
  configureApp(app);
  return app;
}

/**
 * The HTTP pipeline: shared by main.ts and the integration tests so tests exercise production behaviour.
 * Must be called before `init()`/`listen()`.
 */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  express.disable('x-powered-by');
  // Behind a reverse proxy the client address (rate limits, logs) comes from X-Forwarded-For.
  express.set('trust proxy', config.trustProxy);
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
  app.use(cookieParser());
  // The sync gateway reads its own body after authentication, with the sync limits applied to the decompressed
  // bytes (SERVICE_SYNC_MAX_BYTES), so the general parsers must leave that stream untouched.
  app.use(exceptOnGateway(json({ limit: config.bodyLimitBytes })));
  app.use(exceptOnGateway(urlencoded({ limit: config.bodyLimitBytes, extended: false })));
  // body-parser fails before Nest's pipeline runs, so its errors need their own handler in the same shape.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const { status, body } = mapError(error);
    res.status(status).json(body);
  });
  // API answers may carry one-time secrets (setup, token creation, sign-in links): never cache them.
  app.use(`/${API_PREFIX}`, (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory: (errors) => validationFailed(errors) }),
  );
  app.useGlobalFilters(new AllExceptionsFilter());
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
  const controllers = new DiscoveryService(app.get(ModulesContainer)).getControllers().flatMap((wrapper) => (wrapper.metatype ? [wrapper.metatype as new () => unknown] : []));
  describeRequestSchemas(document, bodyClassesOf(controllers));
  SwaggerModule.setup('api/docs', app, document);
  if (config.adminDir) serveAdminApp(express, config.adminDir);
}

function exceptOnGateway(parser: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path === GATEWAY_SYNC_PATH ? next() : parser(req, res, next));
}

/** The built Angular SPA at `/`: static files, and index.html for any other non-API GET (client-side routes). */
function serveAdminApp(app: NestExpressApplication, adminDir: string): void {
  app.useStaticAssets(adminDir, { index: false, maxAge: '1h' });
  const indexHtml = join(adminDir, 'index.html');
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || req.path === '/api') return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  });
}
