import { ExecutionContext, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { parseRevisionNumber } from './revision-number.pipe';

/** The service a read route names (`:orgId`, `:service`) and the revision it reads (`?revision=n`; absent: the current one). */
export interface ServiceRevisionParams {
  orgId: string;
  service: string;
  revision?: number;
}

/** ServiceRevisionParams and the artifact the route names (`:name`). */
export interface ArtifactRevisionParams extends ServiceRevisionParams {
  name: string;
}

/**
 * A parameter decorator that reads `pathNames` from the route's path and `?revision=` (parsed as RevisionNumberPipe
 * does, so a malformed one is the same 400 invalid_revision). Swagger cannot see into a custom decorator, so it
 * also documents the parameters as `@Param`/`@Query('revision')` did, in the same order and shape (the OpenAPI
 * document stays as it was: `revision` there says required, as the reflected Number parameter always did).
 */
function revisionParams(pathNames: readonly string[]): () => ParameterDecorator {
  const documented = applyDecorators(...pathNames.map((name) => ApiParam({ name, type: String })), ApiQuery({ name: 'revision', type: Number }));
  return createParamDecorator(
    (_data: unknown, context: ExecutionContext) => {
      const { params, query } = context.switchToHttp().getRequest<Request>();
      const named = Object.fromEntries(pathNames.map((name) => [name, params[name]]));
      const revision = parseRevisionNumber(query['revision']);
      return revision === undefined ? named : { ...named, revision };
    },
    [
      (target, key) => {
        if (key === undefined) return;
        documented(target, key, Object.getOwnPropertyDescriptor(target, key) as TypedPropertyDescriptor<unknown>);
      },
    ],
  );
}

/** `@ServiceRevision() params: ServiceRevisionParams` on a `:orgId/services/:service…` read route. */
export const ServiceRevision = revisionParams(['orgId', 'service']);

/** `@ArtifactRevision() params: ArtifactRevisionParams` on a `…/:service/<kind>/:name` read route. */
export const ArtifactRevision = revisionParams(['orgId', 'service', 'name']);
