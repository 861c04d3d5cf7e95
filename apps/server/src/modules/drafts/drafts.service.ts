import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DRAFT_KIND,
  draftFileSlug,
  plural,
  type CreateDraftRequest,
  type Draft,
  type DraftActor,
  type DraftConflictDetail,
  type DraftExport,
  type DraftLayout,
  type DraftSource,
  type DiagramView,
  type DraftSummary,
  type ErrorDetail,
  type ListPage,
  type UpdateDraftRequest,
} from '@sc/contracts';
import { DiagramExportError, exportToMermaid, validateDrawnGraph, validateParsedDiagram, type DiagramContext, type OverlaidGraph } from '@sc/diagram';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors/domain-error';
import { pageFrom, type PageRequest, type TimeIdPosition } from '../../common/http/paging';
import { ArtifactsReadService } from '../artifacts/read/artifacts-read.service';
import type { Principal } from '../access/principal';
import { MermaidParseService } from '../parsing/mermaid-parse.service';
import { TokensService } from '../tokens/tokens.service';
import type { User } from '../users/user.entity';
import { displayNameOf, UsersService } from '../users/users.service';
import { asDraftGraph, EMPTY_LAYOUT, exportFiles, inContextKeyOrder, issueDetail, layoutProblems, MAX_DRAFT_JSON_DEPTH, tooDeepPath } from './draft-checks';
import { draftNotFound } from './draft-params';
import { DraftRecord } from './draft.entity';
import { DraftsConfig } from './drafts.config';
import { DraftsErrorCode, draftsError } from './drafts.errors';
import { DraftsRepository } from './drafts.repository';

/** Who writes: the member behind a session, or an API token. */
interface Author {
  userId: string | null;
  tokenId: string | null;
}

/** A graph and layout that passed every rule, ready to store. */
interface CheckedDraft {
  graph: OverlaidGraph;
  layout: DraftLayout;
  nodeCount: number;
  edgeCount: number;
  warnings: ErrorDetail[];
}

/** The users and API tokens that created or saved drafts, by id, to name them in answers. */
interface Actors {
  users: Map<string, User>;
  tokens: Map<string, { id: string; name: string }>;
}

const EMPTY_GRAPH: OverlaidGraph = { kind: DRAFT_KIND, direction: 'LR', nodes: [], edges: [], groups: [] };

/**
 * Diagram drafts of an organization: create (empty, a copy, from a synced diagram, from pasted Mermaid + context),
 * read, save with optimistic concurrency (`If-Match` version, one conditional UPDATE), delete and export
 * (libs/diagram's exportToMermaid). Every saved graph passes validateDrawnGraph and the layout rules first.
 */
@Injectable()
export class DraftsService {
  constructor(
    private readonly drafts: DraftsRepository,
    private readonly config: DraftsConfig,
    private readonly clock: Clock,
    private readonly mermaid: MermaidParseService,
    private readonly artifacts: ArtifactsReadService,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
  ) {}

  /** The latest change first; the cursor is the (saved time, id) of the previous page's last draft (TIME_ID_CURSOR). */
  async list(organizationId: string, { limit, after }: Pick<PageRequest<TimeIdPosition>, 'limit' | 'after'>): Promise<ListPage<DraftSummary>> {
    const rows = await this.drafts.list(organizationId, { limit: limit + 1, after });
    const actors = await this.actorsOf(rows.slice(0, limit));
    return pageFrom(rows, limit, (draft) => summary(draft, actors), (draft) => [draft.updatedAt.toISOString(), draft.id]);
  }

  async get(organizationId: string, draftId: string): Promise<Draft<OverlaidGraph>> {
    const draft = await this.find(organizationId, draftId);
    return this.answer(draft, validateDrawnGraph(draft.graph, '$.graph').warnings.map(issueDetail));
  }

  async create(organizationId: string, principal: Principal, request: CreateDraftRequest): Promise<Draft<OverlaidGraph>> {
    const starts = [request.from, request.mermaid, request.graph].filter((start) => start !== undefined).length;
    if (starts > 1) {
      throw draftsError(DraftsErrorCode.InvalidRequest, 'Start a draft from one thing: "from" (a synced diagram), "mermaid" (pasted text) or "graph" with "layout" (a copy).');
    }
    if (request.context !== undefined && request.mermaid === undefined) {
      throw draftsError(DraftsErrorCode.InvalidRequest, '"context" is the context file of pasted Mermaid; send it together with "mermaid".', [{ path: 'context', message: 'context needs mermaid' }]);
    }
    if ((request.graph === undefined) !== (request.layout === undefined)) {
      throw draftsError(DraftsErrorCode.InvalidRequest, '"graph" and "layout" go together: send both (layout {"nodes": [], "groups": []} when nothing is placed yet).');
    }
    let start: { graph: unknown; layout: unknown; source: DraftSource | null; warnings: ErrorDetail[]; subject: string };
    if (request.from) start = await this.fromSyncedDiagram(organizationId, request.from);
    else if (request.mermaid !== undefined) start = await this.fromMermaid(request.name, request.mermaid, request.context);
    else if (request.graph !== undefined) start = { graph: request.graph, layout: request.layout, source: null, warnings: [], subject: 'The draft' };
    else start = { graph: EMPTY_GRAPH, layout: EMPTY_LAYOUT, source: null, warnings: [], subject: 'The draft' };

    const checked = this.check(start.graph, start.layout, start.subject);
    const author = authorOf(principal);
    const now = this.clock.now();
    const draft = Object.assign(new DraftRecord(), {
      id: randomUUID(),
      organizationId,
      name: draftName(request.name),
      kind: DRAFT_KIND,
      graph: checked.graph,
      layout: checked.layout,
      version: 1,
      nodeCount: checked.nodeCount,
      edgeCount: checked.edgeCount,
      source: start.source,
      createdAt: now,
      createdByUserId: author.userId,
      createdByTokenId: author.tokenId,
      updatedAt: now,
      updatedByUserId: author.userId,
      updatedByTokenId: author.tokenId,
    });
    await this.drafts.insert(draft);
    return this.answer(draft, [...start.warnings, ...checked.warnings]);
  }

  /**
   * Saves the whole draft if `version` (the request's If-Match) is the stored version. A stale version changes nothing
   * and answers 409 draft_version_conflict naming who saved last and when, so the editor can reload or save a copy.
   */
  async update(organizationId: string, draftId: string, principal: Principal, version: number, request: UpdateDraftRequest): Promise<Draft<OverlaidGraph>> {
    await this.find(organizationId, draftId);
    const checked = this.check(request.graph, request.layout, 'The draft');
    const author = authorOf(principal);
    const changes = {
      name: draftName(request.name),
      graph: checked.graph,
      layout: checked.layout,
      nodeCount: checked.nodeCount,
      edgeCount: checked.edgeCount,
      updatedAt: this.clock.now(),
      updatedByUserId: author.userId,
      updatedByTokenId: author.tokenId,
    };
    if (!(await this.drafts.updateIfVersion(organizationId, draftId, version, changes))) throw await this.conflict(organizationId, draftId, version);
    return this.answer(await this.find(organizationId, draftId), checked.warnings);
  }

  /** Deletes a draft; with a `version` (the request's If-Match) only if it is still at that version. */
  async remove(organizationId: string, draftId: string, version: number | undefined): Promise<void> {
    await this.find(organizationId, draftId);
    if (!(await this.drafts.delete(organizationId, draftId, version))) throw await this.conflict(organizationId, draftId, version ?? 0);
  }

  async export(organizationId: string, draftId: string): Promise<DraftExport<DiagramContext>> {
    const draft = await this.find(organizationId, draftId);
    const exported = (await this.unchangedCopyFiles(organizationId, draft)) ?? regeneratedFiles(draft);
    const digests = { diagram: sha256Hex(exported.mermaid), context: sha256Hex(exported.contextText) };
    return {
      draftId: draft.id,
      version: draft.version,
      mermaid: exported.mermaid,
      context: exported.context,
      contextText: exported.contextText,
      ...exportFiles(draftFileSlug(draft.name)),
      digests,
      synced: draft.source ? await this.syncedComparison(organizationId, draft.source, digests) : null,
    };
  }

  /**
   * A copy never saved since it was made (version 1) draws exactly the synced diagram it came from, so its files are
   * that diagram's files as synced, byte for byte: committing them changes nothing, and the export panel says so.
   * Written from the drawing they would differ in spacing and order from hand-written Mermaid. Null for any other
   * draft, a diagram synced without a context file, or a revision that is gone.
   */
  private async unchangedCopyFiles(organizationId: string, draft: DraftRecord): Promise<ExportedFiles | null> {
    const source = draft.source;
    if (!source || draft.version !== 1 || source.contextSha256 === null) return null;
    try {
      const files = await this.artifacts.getDiagramSource(organizationId, source.service, source.diagram, source.revision);
      if (!files.context) return null;
      return { mermaid: files.mermaid.content, context: JSON.parse(files.context.content) as DiagramContext, contextText: files.context.content };
    } catch (error) {
      if (error instanceof DomainError && error.status === 404) return null;
      throw error;
    }
  }

  /** The current revision of the diagram a draft was copied from, and whether its files equal the export. */
  private async syncedComparison(organizationId: string, source: DraftSource, digests: DraftExport['digests']): Promise<DraftExport['synced']> {
    try {
      const view = await this.artifacts.readDiagram(organizationId, source.service, source.diagram);
      const synced = syncedDigests(view);
      return { service: source.service, diagram: view.name, revision: view.revision, ...synced, equal: synced.sha256 === digests.diagram && synced.contextSha256 === digests.context };
    } catch (error) {
      // The service or diagram is gone from the current revision: nothing to compare with.
      if (error instanceof DomainError && error.status === 404) return null;
      throw error;
    }
  }

  private async fromSyncedDiagram(organizationId: string, from: NonNullable<CreateDraftRequest['from']>) {
    const view = await this.artifacts.readDiagram(organizationId, from.service, from.diagram, from.revision);
    if (view.kind !== DRAFT_KIND) {
      throw draftsError(
        DraftsErrorCode.KindUnsupported,
        `Diagram "${view.name}" of service ${from.service} is a ${view.kind} diagram; only flowcharts can be edited as drafts (a draft is a flowchart, and converting would drop what only ${view.kind} diagrams have).`,
      );
    }
    const source: DraftSource = {
      service: from.service,
      diagram: view.name,
      revision: view.revision,
      path: view.path,
      contextPath: view.contextPath,
      ...syncedDigests(view),
    };
    const files = await this.artifacts.getDiagramSource(organizationId, from.service, from.diagram, view.revision);
    const graph = asDraftGraph(inContextKeyOrder(view.graph as OverlaidGraph, files.context?.content ?? null));
    return { graph, layout: EMPTY_LAYOUT, source, warnings: [], subject: `Diagram "${view.name}" (revision ${view.revision}) cannot become a draft as it is` };
  }

  /** Pasted Mermaid and context, validated like a sync: parsed in the worker pool, every issue with its place. */
  private async fromMermaid(name: string, mermaid: string, context: string | undefined) {
    for (const [field, text] of [['mermaid', mermaid], ['context', context]] as const) {
      const bytes = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
      if (bytes > this.config.maxBytes) throw this.tooLarge(`The pasted ${field} is ${bytes} bytes; the limit is ${this.config.maxBytes} bytes`);
    }
    const slug = draftFileSlug(name);
    const fileNames = exportFiles(slug).fileNames;
    const parsed = await this.mermaid.parse(mermaid);
    const result = validateParsedDiagram(parsed, context, { fileNames });
    if (!result.ok || !result.graph) {
      const errors = result.errors.map(issueDetail);
      throw draftsError(DraftsErrorCode.SourceInvalid, `The pasted diagram is invalid: ${errors.length === 1 ? errors[0].message : `${plural(errors.length, 'problem')}, listed in details`}`, errors);
    }
    if (result.kind !== DRAFT_KIND) {
      throw draftsError(DraftsErrorCode.KindUnsupported, `The pasted diagram is a ${result.kind} diagram; only flowcharts can be edited as drafts.`, [{ file: fileNames.diagram, line: 1, message: 'start the diagram with "flowchart" or "graph"' }]);
    }
    return { graph: asDraftGraph(result.graph), layout: EMPTY_LAYOUT, source: null, warnings: result.warnings.map(issueDetail), subject: 'The pasted diagram cannot become a draft as it is' };
  }

  /** Size limits, then every graph and layout rule; throws with all problems, each with its JSON path. */
  private check(graph: unknown, layout: unknown, subject: string): CheckedDraft {
    const deep = tooDeepPath(graph, '$.graph') ?? tooDeepPath(layout, '$.layout');
    if (deep) {
      const message = `${deep}: nested more than ${MAX_DRAFT_JSON_DEPTH} levels deep`;
      throw draftsError(DraftsErrorCode.Invalid, `${subject}: ${message}.`, [{ path: deep, message }]);
    }
    const bytes = Buffer.byteLength(JSON.stringify({ graph, layout }), 'utf8');
    if (bytes > this.config.maxBytes) throw this.tooLarge(`${subject}: its graph and layout are ${bytes} bytes as JSON; the limit is ${this.config.maxBytes} bytes`, 'SERVICE_DRAFT_MAX_BYTES');
    const count = (key: string) => {
      const list = typeof graph === 'object' && graph !== null ? (graph as Record<string, unknown>)[key] : undefined;
      return Array.isArray(list) ? list.length : 0;
    };
    const elements = count('nodes') + count('groups');
    if (elements > this.config.maxNodes) throw this.tooLarge(`${subject}: it has ${elements} nodes and groups; the limit is ${this.config.maxNodes}`, 'SERVICE_DRAFT_MAX_NODES');
    if (count('edges') > this.config.maxEdges) throw this.tooLarge(`${subject}: it has ${count('edges')} edges; the limit is ${this.config.maxEdges}`, 'SERVICE_DRAFT_MAX_EDGES');

    const validated = validateDrawnGraph(graph, '$.graph');
    const problems = [...validated.errors.map(issueDetail), ...layoutProblems(layout, validated.graph ?? idsOf(graph))];
    if (problems.length > 0 || !validated.graph) {
      const summary = problems.length === 1 ? problems[0].message : `${plural(problems.length, 'problem')}, listed in details with their JSON paths`;
      throw draftsError(DraftsErrorCode.Invalid, `${subject}: ${summary}. Nothing was saved.`, problems);
    }
    return { graph: validated.graph, layout: layout as DraftLayout, nodeCount: count('nodes'), edgeCount: count('edges'), warnings: validated.warnings.map(issueDetail) };
  }

  private tooLarge(what: string, variable = 'SERVICE_DRAFT_MAX_BYTES') {
    return draftsError(DraftsErrorCode.TooLarge, `${what} (${variable}).`);
  }

  private async find(organizationId: string, draftId: string): Promise<DraftRecord> {
    const draft = await this.drafts.find(organizationId, draftId);
    if (!draft) throw draftNotFound();
    return draft;
  }

  /** After a conditional write matched nothing: the draft is gone (404) or was saved since `version` (409). */
  private async conflict(organizationId: string, draftId: string, version: number): Promise<DomainError> {
    const current = await this.drafts.find(organizationId, draftId);
    if (!current) return draftsError(DraftsErrorCode.NotFound, 'The draft was deleted meanwhile.');
    const updatedBy = actor(current.updatedByUserId, current.updatedByTokenId, await this.actorsOf([current]));
    const who = updatedBy ? (updatedBy.kind === 'user' ? `${updatedBy.name} (${updatedBy.email})` : `API token "${updatedBy.name}"`) : 'someone no longer in the organization';
    const updatedAt = current.updatedAt.toISOString();
    const message = `The draft was saved by ${who} at ${updatedAt} (now version ${current.version}); you edited version ${version}. Nothing was changed: reload the draft, or save your version as a copy.`;
    const detail: DraftConflictDetail = { path: 'If-Match', message, currentVersion: current.version, updatedAt, updatedBy };
    return draftsError(DraftsErrorCode.VersionConflict, message, [detail]);
  }

  private async answer(draft: DraftRecord, warnings: ErrorDetail[]): Promise<Draft<OverlaidGraph>> {
    return { ...summary(draft, await this.actorsOf([draft])), graph: draft.graph, layout: draft.layout, warnings };
  }

  private async actorsOf(drafts: DraftRecord[]): Promise<Actors> {
    const users = drafts.flatMap((d) => [d.createdByUserId, d.updatedByUserId]).filter((id): id is string => id !== null);
    const tokens = drafts.flatMap((d) => [d.createdByTokenId, d.updatedByTokenId]).filter((id): id is string => id !== null);
    const [usersById, tokensById] = await Promise.all([this.users.findByIds(users), this.tokens.namesByIds(tokens)]);
    return { users: usersById, tokens: tokensById };
  }
}

function summary(draft: DraftRecord, actors: Actors): DraftSummary {
  return {
    id: draft.id,
    name: draft.name,
    kind: draft.kind,
    version: draft.version,
    nodeCount: draft.nodeCount,
    edgeCount: draft.edgeCount,
    createdAt: draft.createdAt.toISOString(),
    createdBy: actor(draft.createdByUserId, draft.createdByTokenId, actors),
    updatedAt: draft.updatedAt.toISOString(),
    updatedBy: actor(draft.updatedByUserId, draft.updatedByTokenId, actors),
    source: draft.source,
  };
}

function actor(userId: string | null, tokenId: string | null, { users, tokens }: Actors): DraftActor | null {
  const user = userId === null ? undefined : users.get(userId);
  if (user) return { kind: 'user', id: user.id, name: displayNameOf(user), email: user.email };
  const token = tokenId === null ? undefined : tokens.get(tokenId);
  return token ? { kind: 'token', id: token.id, name: token.name } : null;
}

interface ExportedFiles {
  mermaid: string;
  context: DiagramContext;
  contextText: string;
}

/** The draft's files written from its drawing. */
function regeneratedFiles(draft: DraftRecord): ExportedFiles {
  let exported;
  try {
    exported = exportToMermaid(draft.graph);
  } catch (error) {
    // Saved graphs pass the same rules, so this only happens if the rules changed since the draft was saved.
    if (error instanceof DiagramExportError) throw draftsError(DraftsErrorCode.Invalid, `The draft cannot be exported: ${error.message}`, error.issues.map(issueDetail));
    throw error;
  }
  return { mermaid: exported.mermaid, context: exported.context, contextText: `${JSON.stringify(exported.context, null, 2)}\n` };
}

/** The SHA-256 of a synced diagram's files (the read API sends both; the Mermaid one can be recomputed from its text). */
function syncedDigests(view: DiagramView): { sha256: string; contextSha256: string | null } {
  return { sha256: view.sha256 ?? sha256Hex(view.mermaid), contextSha256: view.contextSha256 ?? null };
}

function authorOf(principal: Principal): Author {
  return principal.kind === 'session' ? { userId: principal.userId, tokenId: null } : { userId: null, tokenId: principal.tokenId };
}

/** Ids of a graph that failed validation, read leniently, so the layout can still be checked against them. */
function idsOf(graph: unknown): { nodes: { id: string }[]; groups: { id: string }[] } {
  const ids = (key: string) => {
    const list = typeof graph === 'object' && graph !== null ? (graph as Record<string, unknown>)[key] : undefined;
    return (Array.isArray(list) ? list : []).flatMap((item: unknown) => {
      const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
      return typeof id === 'string' ? [{ id }] : [];
    });
  };
  return { nodes: ids('nodes'), groups: ids('groups') };
}

/** The name as stored: trimmed, not blank, one line. */
function draftName(raw: string): string {
  const name = raw.trim();
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  const problem = name === '' ? 'name must not be blank.' : /[\u0000-\u001f\u007f]/.test(name) ? 'name must be one line without control characters.' : undefined;
  if (problem) throw draftsError(DraftsErrorCode.InvalidRequest, `The draft ${problem}`, [{ path: 'name', message: problem }]);
  return name;
}

