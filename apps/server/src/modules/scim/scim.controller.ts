import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { scimBaseUrl } from '@sc/contracts';
import type { Response } from 'express';
import { IfMatchVersion, type IfMatchRule } from '../../common/http/if-match';
import { AppConfig } from '../../config/app-config';
import { Public } from '../access/decorators';
import type { ScimActor } from '../audit/audit.service';
import { SCIM_MAX_RESULTS, listOf, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { ScimError } from './scim-error';
import { parseScimFilter, type ScimFilter } from './scim-filter';
import { ScimContentTypeInterceptor, ScimExceptionFilter, ScimTokenGuard, type ScimRequest } from './scim-http';
import { etagOf } from './scim-resources';
import { ScimGroupsService } from './scim-groups.service';
import { ScimUsersService, type ExpectedVersion, type ScimAnswer } from './scim-users.service';

/** Excluded from the /api/v1 prefix (app.factory.ts). */
export const SCIM_ROUTES = 'scim/v2/{*path}';

/**
 * If-Match (RFC 7644 §3.14) is optional and `*` matches any version; a header naming no version parses to null,
 * which no resource's version meets (412 once the resource is found).
 */
const SCIM_IF_MATCH: IfMatchRule = { optional: true, wildcard: true };

/** A User or a Group by id: the routes that change a resource, one handler each for both types. */
const GROUP_ROUTE = 'Groups/:id';
const CHANGE_ROUTES = ['Users/:id', GROUP_ROUTE];

/** What the change routes call, alike for Users and Groups. */
type ScimResources = Pick<ScimUsersService, 'replace' | 'patch' | 'delete'>;

/** Query parameters of a list (RFC 7644 §3.4.2): strings as sent, read by `readListQuery`. */
type ListQuery = Record<string, string | string[] | undefined>;

/**
 * SCIM 2.0 service provider of one organization, at `/scim/v2/orgs/:organizationId` (outside `/api/v1`, the path
 * identity providers are given). `@Public()` for the global AuthGuard: ScimTokenGuard authenticates with a SCIM
 * token of that organization instead. The parameter is named `organizationId`, not `orgId`, because `:orgId`
 * routes take sessions and API tokens; the isolation test covers these routes with SCIM tokens.
 * Bodies are JSON read by the SCIM rules (case-insensitive attribute names, Entra's string booleans), not DTOs.
 */
@ApiExcludeController()
@Controller('scim/v2/orgs/:organizationId')
@Public()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
@UseInterceptors(ScimContentTypeInterceptor)
export class ScimController {
  constructor(
    private readonly users: ScimUsersService,
    private readonly groups: ScimGroupsService,
    private readonly config: AppConfig,
  ) {}

  @Get('ServiceProviderConfig')
  serviceProviderConfig(@Param('organizationId') organizationId: string): Record<string, unknown> {
    return serviceProviderConfig(this.baseUrl(organizationId));
  }

  @Get('ResourceTypes')
  resourceTypes(@Param('organizationId') organizationId: string): Record<string, unknown> {
    return listOf(resourceTypes(this.baseUrl(organizationId)));
  }

  @Get('ResourceTypes/:id')
  resourceType(@Param('organizationId') organizationId: string, @Param('id') id: string): Record<string, unknown> {
    const found = resourceTypes(this.baseUrl(organizationId)).find((type) => type['id'] === id);
    if (!found) throw new ScimError(404, `No resource type "${id}"; this server has User and Group.`);
    return found;
  }

  @Get('Schemas')
  schemas(@Param('organizationId') organizationId: string): Record<string, unknown> {
    return listOf(schemas(this.baseUrl(organizationId)));
  }

  @Get('Schemas/:id')
  schema(@Param('organizationId') organizationId: string, @Param('id') id: string): Record<string, unknown> {
    const found = schemas(this.baseUrl(organizationId)).find((schema) => schema['id'] === id);
    if (!found) throw new ScimError(404, `No schema "${id}".`);
    return found;
  }

  @Get('Users')
  listUsers(@Param('organizationId') organizationId: string, @Query() query: ListQuery): Promise<Record<string, unknown>> {
    const { filter, startIndex, count } = readListQuery(query);
    return this.users.list(organizationId, filter, startIndex, count);
  }

  @Post('Users')
  @HttpCode(201)
  async createUser(@Param('organizationId') organizationId: string, @Body() body: unknown, @Req() req: ScimRequest, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    return send(res, await this.users.create(organizationId, actorOf(req), body), true);
  }

  @Get('Users/:id')
  async getUser(@Param('organizationId') organizationId: string, @Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    return send(res, await this.users.get(organizationId, id));
  }

  @Get('Groups')
  listGroups(@Param('organizationId') organizationId: string, @Query() query: ListQuery): Promise<Record<string, unknown>> {
    const { filter, startIndex, count } = readListQuery(query);
    return this.groups.list(organizationId, filter, startIndex, count, excludesMembers(query));
  }

  @Post('Groups')
  @HttpCode(201)
  async createGroup(@Param('organizationId') organizationId: string, @Body() body: unknown, @Req() req: ScimRequest, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    return send(res, await this.groups.create(organizationId, actorOf(req), body), true);
  }

  @Get('Groups/:id')
  async getGroup(@Param('organizationId') organizationId: string, @Param('id') id: string, @Query() query: ListQuery, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    return send(res, await this.groups.get(organizationId, id, excludesMembers(query)));
  }

  /** Users and Groups change alike: a whole resource (PUT), a PATCH of operations, a DELETE; each with If-Match. */
  @Put(CHANGE_ROUTES)
  async replace(
    @Param('organizationId') organizationId: string,
    @Param('id') id: string,
    @Body() body: unknown,
    @IfMatchVersion(SCIM_IF_MATCH) ifMatch: ExpectedVersion,
    @Req() req: ScimRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    return send(res, await this.resourcesOf(req).replace(organizationId, actorOf(req), id, body, ifMatch));
  }

  @Patch(CHANGE_ROUTES)
  async patch(
    @Param('organizationId') organizationId: string,
    @Param('id') id: string,
    @Body() body: unknown,
    @IfMatchVersion(SCIM_IF_MATCH) ifMatch: ExpectedVersion,
    @Req() req: ScimRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    return send(res, await this.resourcesOf(req).patch(organizationId, actorOf(req), id, body, ifMatch));
  }

  @Delete(CHANGE_ROUTES)
  @HttpCode(204)
  async delete(@Param('organizationId') organizationId: string, @Param('id') id: string, @IfMatchVersion(SCIM_IF_MATCH) ifMatch: ExpectedVersion, @Req() req: ScimRequest): Promise<void> {
    await this.resourcesOf(req).delete(organizationId, actorOf(req), id, ifMatch);
  }

  /** The service of the resource type the matched route names. */
  private resourcesOf(req: ScimRequest): ScimResources {
    return (req.route as { path: string }).path.endsWith(GROUP_ROUTE) ? this.groups : this.users;
  }

  private baseUrl(organizationId: string): string {
    return scimBaseUrl(this.config.publicUrl, organizationId);
  }
}

function actorOf(req: ScimRequest): ScimActor {
  if (!req.scimActor) throw new Error('ScimTokenGuard did not run for this route.');
  return req.scimActor;
}

/** The resource with its ETag (RFC 7644 §3.14) and, for a creation, its Location. */
function send(res: Response, answer: ScimAnswer, created = false): Record<string, unknown> {
  res.setHeader('ETag', etagOf(answer.version));
  if (created) res.setHeader('Location', String((answer.resource['meta'] as { location: string }).location));
  return answer.resource;
}

/** `filter`, `startIndex` (1-based, values below 1 read as 1) and `count` (negative as 0, capped at SCIM_MAX_RESULTS). */
export function readListQuery(query: ListQuery): { filter: ScimFilter | null; startIndex: number; count: number } {
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) throw new ScimError(400, `Send "${name}" once.`, 'invalidValue');
    return value;
  };
  const integer = (name: string, fallback: number): number => {
    const raw = single(name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^-?\d{1,9}$/.test(raw)) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return Number(raw);
  };
  const filterText = single('filter');
  return {
    filter: filterText === undefined || filterText.trim() === '' ? null : parseScimFilter(filterText),
    startIndex: Math.max(1, integer('startIndex', 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, integer('count', 100))),
  };
}

/** `excludedAttributes=members` (Entra ID asks for groups without their members). */
function excludesMembers(query: ListQuery): boolean {
  const value = query['excludedAttributes'];
  return typeof value === 'string' && value.split(',').some((name) => name.trim().toLowerCase() === 'members');
}

