import { Controller, Delete, Get, HttpCode, Param, Query, Req, Res, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ListPage } from '@sc/contracts';
import type {
  DatabaseListItem,
  DatabaseView,
  DiagramDiff,
  DiagramSource,
  FlowListItem,
  FlowView,
  JobsView,
  ServiceDetail,
  ServiceListItem,
  ServiceRevisionFiles,
  ServiceRevisionItem,
  SummaryView,
  TextArtifactListItem,
} from '@sc/contracts';
import { matchesIfNoneMatch } from '../../../common/http/if-none-match';
import { sendImage } from '../../../common/http/send-image';
import { ListPagePipe, NAME_CURSOR, NUMBER_CURSOR, type PageRequest } from '../../../common/http/paging';
import { CurrentPrincipal, OrgAccess, OrgPagedList } from '../../access/decorators';
import type { Principal } from '../../access/principal';
import type { AnswerEncoding, SerializedAnswer } from './answer-cache';
import { ArtifactsReadService } from './artifacts-read.service';
import { type DiagramImageQuery, diagramImageOptions } from './diagram-image-query';
import { ServiceDeletionService } from '../retention/service-deletion.service';
import { RevisionNumberPipe } from './revision-number.pipe';
import { ArtifactRevision, type ArtifactRevisionParams, ServiceRevision, type ServiceRevisionParams } from './service-revision-params';

/**
 * A read any member may make whose handler answers with sendAnswer: the route, its access rule and the OpenAPI
 * note of sendAnswer's ETag contract, written once for every such route. `note` follows that sentence.
 */
function ViewAnswerRoute(path: string, view: string, note = ''): MethodDecorator {
  return applyDecorators(
    Get(path),
    OrgAccess('viewer'),
    ApiOkResponse({ description: `${view} (JSON) with a strong ETag; If-None-Match answers 304.${note}` }),
  );
}

/**
 * The artifact read API: a session of any member, or an API token with the read (or admin) scope.
 * `?revision=n` reads an earlier revision; without it, the current one.
 */
@ApiTags('services')
@Controller('orgs/:orgId/services')
export class ServicesController {
  constructor(
    private readonly artifacts: ArtifactsReadService,
    private readonly deletion: ServiceDeletionService,
  ) {}

  @OrgPagedList('viewer', 'By name')
  list(@Param('orgId') orgId: string, @Query(new ListPagePipe(NAME_CURSOR)) page: PageRequest<string>): Promise<ListPage<ServiceListItem>> {
    return this.artifacts.listServices(orgId, page);
  }

  @Get(':service')
  @OrgAccess('viewer')
  get(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<ServiceDetail> {
    return this.artifacts.getService(orgId, service, revision);
  }

  /** Deletes the service, its revisions and artifact versions, and the stored files nothing else references (audited). */
  @Delete(':service')
  @HttpCode(204)
  @OrgAccess('admin')
  async remove(@Param('orgId') orgId: string, @Param('service') service: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deletion.deleteService(orgId, service, principal);
  }

  @OrgPagedList('viewer', 'Newest first', ':service/revisions')
  revisions(@Param('orgId') orgId: string, @Param('service') service: string, @Query(new ListPagePipe(NUMBER_CURSOR)) page: PageRequest<string>): Promise<ListPage<ServiceRevisionItem>> {
    return this.artifacts.listRevisions(orgId, service, page);
  }

  @ViewAnswerRoute(':service/diagrams/:name', 'DiagramView')
  async diagram(
    @ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.sendAnswer(req, res, await this.artifacts.getDiagram(orgId, service, name, revision));
  }

  /**
   * The layout of the diagram's default view, computed by the server once per content (DiagramLayout); the same
   * guard, organization and role rules as the diagram. 404 diagram_layout_not_found while none is stored.
   */
  @ViewAnswerRoute(':service/diagrams/:name/layout', 'DiagramLayout', ' 404 diagram_layout_not_found while none is stored.')
  async diagramLayout(
    @ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.sendAnswer(req, res, await this.artifacts.getDiagramLayout(orgId, service, name, revision));
  }

  /**
   * The diagram drawn as a standalone SVG (the dashboard's drawing: libs/diagram render-svg.ts; no script, nothing
   * referenced outside the file), or that SVG rendered to PNG with resvg (`?scale=1..4`, default 2; at most 40
   * megapixels: reduced to fit, the scale rendered in X-Image-Scale). `?collapsed=g1,g2` draws those groups collapsed.
   */
  @Get([':service/diagrams/:name/image.svg', ':service/diagrams/:name/image.png'])
  @OrgAccess('viewer')
  @ApiOkResponse({
    description:
      'image/svg+xml or image/png with a strong ETag; If-None-Match answers 304. A PNG over 40 megapixels at ?scale= is rendered at the largest scale that fits, said in X-Image-Scale; 422 diagram_image_too_large only when even scale 0.25 would not fit.',
  })
  async diagramImage(
    @ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams,
    @Query() query: DiagramImageQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const format = req.path.endsWith('.png') ? 'png' : 'svg';
    const image = await this.artifacts.getDiagramImage(orgId, service, name, diagramImageOptions(query, format), revision);
    sendImage(req, res, image, format === 'png' ? 'image/png' : 'image/svg+xml', { cacheControl: 'private, max-age=60' });
  }

  /** The Mermaid and context files exactly as synced (Export To Mermaid of a synced diagram). */
  @Get(':service/diagrams/:name/source')
  @OrgAccess('viewer')
  diagramSource(@ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams): Promise<DiagramSource> {
    return this.artifacts.getDiagramSource(orgId, service, name, revision);
  }

  /** Every artifact's files of the revision exactly as synced (`service-cli diff` compares a checkout with them). */
  @Get(':service/files')
  @OrgAccess('viewer')
  files(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<ServiceRevisionFiles> {
    return this.artifacts.getRevisionFiles(orgId, service, revision);
  }

  @Get(':service/diagrams/:name/diff')
  @OrgAccess('viewer')
  diff(
    @Param('orgId') orgId: string,
    @Param('service') service: string,
    @Param('name') name: string,
    @Query('from', RevisionNumberPipe) from?: number,
    @Query('to', RevisionNumberPipe) to?: number,
  ): Promise<DiagramDiff> {
    return this.artifacts.diffDiagram(orgId, service, name, from, to);
  }

  @Get(':service/flows')
  @OrgAccess('viewer')
  flows(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<FlowListItem[]> {
    return this.artifacts.listFlows(orgId, service, revision);
  }

  @Get(':service/flows/:name')
  @OrgAccess('viewer')
  flow(@ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams): Promise<FlowView> {
    return this.artifacts.getFlow(orgId, service, name, revision);
  }

  @Get(':service/databases')
  @OrgAccess('viewer')
  databases(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<DatabaseListItem[]> {
    return this.artifacts.listDatabases(orgId, service, revision);
  }

  @Get(':service/databases/:name')
  @OrgAccess('viewer')
  database(@ArtifactRevision() { orgId, service, name, revision }: ArtifactRevisionParams): Promise<DatabaseView> {
    return this.artifacts.getDatabase(orgId, service, name, revision);
  }

  @Get(':service/jobs')
  @OrgAccess('viewer')
  jobs(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<JobsView> {
    return this.artifacts.getJobs(orgId, service, revision);
  }

  @Get(':service/summary')
  @OrgAccess('viewer')
  summary(@ServiceRevision() { orgId, service, revision }: ServiceRevisionParams): Promise<SummaryView> {
    return this.artifacts.getSummary(orgId, service, revision);
  }

  /**
   * Sends a serialized read answer with its strong ETag. Reached only after the guard's organization and role
   * checks and the lookups, so a 304 never confirms anything the caller may not read. `private, no-cache`: the
   * browser keeps the answer but asks again every time (the access check runs again), and a 304 saves the body.
   * A cached answer goes out as the compressed bytes kept beside it (brotli when accepted, else gzip; answers under
   * the middleware's 1 KB threshold as they are); the compression middleware leaves a response with a
   * Content-Encoding alone. With the cache off the middleware compresses it, like every other answer.
   */
  /** The list of one kind of text artifact (docs, API specs): routes defined from TEXT_ROUTES below the class. */
  private texts({ orgId, service, revision }: ServiceRevisionParams, kind: TextKind): Promise<TextArtifactListItem[]> {
    return this.artifacts.listTexts(orgId, service, kind, revision);
  }

  /** One text artifact by name, sent with its ETag: routes defined from TEXT_ROUTES below the class. */
  private async text({ orgId, service, name, revision }: ArtifactRevisionParams, kind: TextKind, req: Request, res: Response): Promise<void> {
    await this.sendAnswer(req, res, await this.artifacts.getText(orgId, service, kind, name, revision));
  }

  private async sendAnswer(req: Request, res: Response, answer: SerializedAnswer): Promise<void> {
    res.setHeader('ETag', answer.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (matchesIfNoneMatch(req, answer.etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type('application/json');
    const encoding = req.method === 'HEAD' || Buffer.byteLength(answer.body) < COMPRESSION_THRESHOLD_BYTES ? false : acceptedEncoding(req);
    const compressed = encoding ? await this.artifacts.compressedAnswer(answer, encoding) : null;
    if (!encoding || !compressed) {
      res.send(answer.body);
      return;
    }
    res.vary('Accept-Encoding');
    res.setHeader('Content-Encoding', encoding);
    res.send(compressed);
  }
}

type TextKind = 'doc' | 'api-spec';

/**
 * Docs and API specs are read alike: a list (`GET :service/<segment>`) and one by name (`…/<segment>/:name`). Their
 * routes are defined from this table onto ServicesController, each pair around the one `texts`/`text` handler pair,
 * under the method names they always had: a route's OpenAPI operation is named after its method, and Express 5
 * paths cannot say `:kind(docs|api-specs)`.
 */
const TEXT_ROUTES: readonly { segment: string; kind: TextKind; list: string; view: string }[] = [
  { segment: 'docs', kind: 'doc', list: 'docs', view: 'doc' },
  { segment: 'api-specs', kind: 'api-spec', list: 'apiSpecs', view: 'apiSpec' },
];

type TextHandlers = { texts: ServicesController['texts']; text: ServicesController['text'] };

for (const { segment, kind, list, view } of TEXT_ROUTES) {
  defineRoute(ServicesController, list, [Get(`:service/${segment}`), OrgAccess('viewer')], [ServiceRevision()], [Object], function (this: TextHandlers, params: ServiceRevisionParams) {
    return this.texts(params, kind);
  });
  defineRoute(
    ServicesController,
    view,
    [ViewAnswerRoute(`:service/${segment}/:name`, 'TextArtifactView')],
    [ArtifactRevision(), Req(), Res()],
    [Object, Object, Object],
    function (this: TextHandlers, params: ArtifactRevisionParams, req: Request, res: Response) {
      return this.text(params, kind, req, res);
    },
  );
}

/**
 * Adds a route handler to a controller as a class body would declare it: the method, then its decorators and
 * parameter decorators with the parameter types TypeScript would record (Nest and Swagger read them).
 */
function defineRoute(
  controller: abstract new (...args: never[]) => unknown,
  name: string,
  decorators: MethodDecorator[],
  parameters: ParameterDecorator[],
  types: unknown[],
  handler: (...args: never[]) => unknown,
): void {
  const prototype = controller.prototype as object;
  // Swagger names the operation and finds its parameters by the function's own name.
  Object.defineProperty(handler, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: handler, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
  const parameterDecorators = parameters.map((decorate, index) => (target: object, key: string | symbol) => decorate(target, key, index));
  const metadata = [Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', types), Reflect.metadata('design:returntype', Promise)];
  const decorated = Reflect.decorate([...decorators, ...parameterDecorators, ...metadata], prototype, name, descriptor) as PropertyDescriptor | undefined;
  if (decorated) Object.defineProperty(prototype, name, decorated);
}

/** The compression middleware's default threshold (app.factory.ts): smaller answers are sent uncompressed. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/** brotli when the client takes it (as the compression middleware prefers), else gzip, else none. */
function acceptedEncoding(req: Request): AnswerEncoding | false {
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return false;
}
