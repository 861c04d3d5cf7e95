/**
 * Diagram drafts: diagrams drawn or edited in the dashboard, stored per organization under
 * /api/v1/orgs/:orgId/drafts, and exported to a Mermaid file plus a context file (Export To Mermaid).
 *
 * `graph` is libs/diagram's OverlaidGraph of kind flowchart (nodes with id, label, optional shape and parent and
 * overlay; edges; groups). Like the other graph-bearing responses the types are generic over it so this library
 * stays independent of libs/diagram; the admin app reads `Draft<OverlaidGraph>`.
 */
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import { asInstance } from './as-instance';
import type { ErrorDetail } from './errors';
import { NAME_MAX_LENGTH } from './service-config/names';

/** Drafts are flowcharts: what Export To Mermaid writes with subgraphs and `@{ shape: … }`. */
export const DRAFT_KIND = 'flowchart' as const;
export type DraftKind = typeof DRAFT_KIND;

export const DRAFT_NAME_MAX_LENGTH = 200;

/** Where a node or group is drawn (canvas units). Groups carry their size; nodes may. Never exported. */
export interface DraftLayoutBox {
  /** The node's or group's id. */
  id: string;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

/**
 * Canvas positions of nodes and of groups, at most one per id of the draft's graph. Lists rather than objects
 * keyed by id: request bodies lose the keys `__proto__`, `constructor` and `prototype` (the framework strips
 * them), and those are valid node ids.
 */
export interface DraftLayout {
  nodes: DraftLayoutBox[];
  groups: DraftLayoutBox[];
}

/**
 * The synced diagram a draft was copied from ("Edit a copy"), with the SHA-256 of the two files that revision
 * synced, so the editor can tell whether an export equals what the repository last synced.
 */
export interface DraftSource {
  service: string;
  diagram: string;
  revision: number;
  /** Repository path of the Mermaid file in that revision. */
  path: string;
  sha256: string;
  contextPath: string | null;
  contextSha256: string | null;
}

/** Who created or last saved a draft: a member (through a session) or an API token. Null once deleted. */
export type DraftActor = { kind: 'user'; id: string; name: string; email: string } | { kind: 'token'; id: string; name: string };

/** One draft in GET /drafts. */
export interface DraftSummary {
  id: string;
  name: string;
  kind: DraftKind;
  /** Increases by one on every save; the ETag of GET /drafts/:id and what PUT sends back in If-Match. */
  version: number;
  nodeCount: number;
  edgeCount: number;
  createdAt: string;
  createdBy: DraftActor | null;
  updatedAt: string;
  updatedBy: DraftActor | null;
  source: DraftSource | null;
}

/** GET/POST/PUT answer. */
export interface Draft<Graph = unknown> extends DraftSummary {
  graph: Graph;
  layout: DraftLayout;
  /** Overlay warnings by the context rules (e.g. an unknown property), each with its JSON path; saving is allowed. */
  warnings: ErrorDetail[];
}

/** GET /drafts?limit=&cursor= answers DraftSummary[], the latest change first, paged like every list (list-page.ts). */

/** `from` of POST /drafts: a synced architecture diagram; the current revision unless `revision` is given. */
export class DraftFromDiagram {
  @IsString()
  @Length(1, NAME_MAX_LENGTH)
  service!: string;

  @IsString()
  @Length(1, NAME_MAX_LENGTH)
  diagram!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  revision?: number;
}

/**
 * POST /drafts. One of four starts:
 * - `{name}`: an empty diagram;
 * - `{name, graph, layout}`: a copy of a drawn diagram (e.g. "save as a copy" after a conflict);
 * - `{name, from: {service, diagram, revision?}}`: a synced diagram with its context applied (layout empty);
 * - `{name, mermaid, context?}`: pasted Mermaid and context text, validated like a sync (every error with line,
 *   column and JSON path).
 */
export class CreateDraftRequest {
  @IsString()
  @Length(1, DRAFT_NAME_MAX_LENGTH)
  name!: string;

  @IsOptional()
  @ValidateNested()
  @Transform(({ value }) => asInstance(DraftFromDiagram, value))
  from?: DraftFromDiagram;

  @IsOptional()
  @IsString()
  mermaid?: string;

  @IsOptional()
  @IsString()
  context?: string;

  /** Taken as sent (not copied by class-transformer): the server validates it field by field with JSON paths. */
  @IsOptional()
  @IsObject()
  @Transform(({ obj }) => (obj as { graph?: unknown }).graph)
  graph?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  @Transform(({ obj }) => (obj as { layout?: unknown }).layout)
  layout?: Record<string, unknown>;
}

/** PUT /drafts/:id with `If-Match: "<version>"`: the whole draft as the editor has it. */
export class UpdateDraftRequest {
  @IsString()
  @Length(1, DRAFT_NAME_MAX_LENGTH)
  name!: string;

  @IsDefined()
  @IsObject()
  @Transform(({ obj }) => (obj as { graph?: unknown }).graph)
  graph!: Record<string, unknown>;

  @IsDefined()
  @IsObject()
  @Transform(({ obj }) => (obj as { layout?: unknown }).layout)
  layout!: Record<string, unknown>;
}

/** The `.service.yaml` entry, Mermaid file and context file of a draft: GET /drafts/:id/export. */
export interface DraftExport<Context = unknown> {
  draftId: string;
  version: number;
  mermaid: string;
  /** The context file's content as an object … */
  context: Context;
  /** … and as the exact text of the file (what `digests.context` is computed over). */
  contextText: string;
  /** `<slug>.mmd` and `<slug>.context.json`, the slug made from the draft's name. */
  fileNames: { diagram: string; context: string };
  /** SHA-256 (hex) of the UTF-8 bytes of each file, the digests a sync stores. */
  digests: { diagram: string; context: string };
  /** The `architectureDiagrams` entry of `.service.yaml` that would sync the two files from `.service/diagrams/`. */
  serviceYaml: string;
  /**
   * For a draft copied from a synced diagram: that diagram's current revision and whether its files have the
   * same digests as this export (the repository already holds what was drawn). Null otherwise, or when the
   * diagram is no longer synced.
   */
  synced: { service: string; diagram: string; revision: number; sha256: string; contextSha256: string | null; equal: boolean } | null;
}

/** `details` of 409 draft_version_conflict: the version that is stored now and who saved it. */
export interface DraftConflictDetail extends ErrorDetail {
  currentVersion: number;
  updatedAt: string;
  updatedBy: DraftActor | null;
}

/**
 * The base name of a draft's exported files and of its `.service.yaml` entry: the draft name in lower case
 * ASCII with runs of anything else as "-" (a valid artifact name, see NAME_PATTERN); "diagram" when nothing is left.
 */
export function draftFileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_MAX_LENGTH)
    .replace(/-+$/, '');
  return slug || 'diagram';
}
