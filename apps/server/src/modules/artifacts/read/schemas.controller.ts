import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { contextJsonSchema, CONTEXT_SCHEMA_PATH } from '@sc/diagram';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { matchesIfNoneMatch } from '../../../common/http/if-none-match';
import { AppConfig } from '../../../config/app-config';
import { Public } from '../../access/decorators';

/** Outside /api/v1 (app.factory.ts excludes it from the global prefix): the address a context file's `"$schema"` names. */
export const SCHEMA_ROUTES = [CONTEXT_SCHEMA_PATH.slice(1)];

/**
 * The schema changes only with a server release: caches may keep it an hour, then revalidate against the strong
 * ETag (its SHA-256), which answers 304 while it is unchanged.
 */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * JSON Schemas for the files a repository syncs. Public, no authentication: the format is the same for everyone
 * and holds no secret, and editors fetch it without credentials.
 */
@ApiTags('schemas')
@Controller('schemas')
@Public()
export class SchemasController {
  private readonly body: string;
  private readonly etag: string;

  constructor(config: AppConfig) {
    // Generated from the validator's own description of the context file (libs/diagram context-reference.ts).
    this.body = `${JSON.stringify(contextJsonSchema(`${config.publicUrl.replace(/\/+$/, '')}${CONTEXT_SCHEMA_PATH}`), null, 2)}\n`;
    this.etag = `"sha256-${createHash('sha256').update(this.body).digest('hex')}"`;
  }

  /** The JSON Schema (draft-07) of a context file (`*.context.json`). */
  @Get('context.v1.json')
  context(@Req() req: Request, @Res() res: Response): void {
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('ETag', this.etag);
    res.type('application/schema+json; charset=utf-8');
    if (matchesIfNoneMatch(req, this.etag)) {
      res.status(304).end();
      return;
    }
    res.send(this.body);
  }
}
