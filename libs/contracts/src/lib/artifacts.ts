/**
 * Responses of the artifact read API under /api/v1/orgs/:orgId/services (a session, or an API token with the
 * read scope). Every artifact endpoint accepts `?revision=n` and defaults to the service's current revision.
 *
 * Graph-bearing responses are generic over the graph and report types so this library stays independent of
 * libs/diagram; the admin app reads them as `DiagramView<OverlaidGraph, ApplyReport>` (from @sc/diagram).
 */
import type { TokenRef } from './members';
import type { ApiSpecFormat, ArtifactKind, DatabaseEngine, SyncArtifactRef, SyncPreview, SyncSource } from './sync';

/** GET /services → ServiceListItem[] */
export interface ServiceListItem {
  name: string;
  description: string | null;
  repositoryUrl: string | null;
  /** 0 until the first sync that stored artifacts. */
  currentRevision: number;
  /** ISO time of the last successful sync, including syncs that changed nothing. */
  lastSyncedAt: string | null;
  createdAt: string;
  /** Artifacts in the current revision. */
  artifactCount: number;
}

/** One artifact as listed in a revision. */
export interface ArtifactListItem {
  kind: ArtifactKind;
  name: string;
  path: string;
  sha256: string;
  /** UTF-8 bytes of the main file. */
  size: number;
  contextPath: string | null;
  notesPath: string | null;
  engine: DatabaseEngine | null;
  format: ApiSpecFormat | null;
  /** Mermaid diagram kind (flowchart, state, sequence, c4) for Mermaid-based artifacts. */
  diagramKind: string | null;
  /** The revision in which this exact version of the artifact first appeared. */
  sinceRevision: number;
}

/** GET /services/:service[?revision=n] */
export interface ServiceDetail extends ServiceListItem {
  /** The revision the artifact list belongs to. */
  revision: number;
  /**
   * ISO time of the sync that stored `revision` (null before the first one). Unlike `lastSyncedAt`, which is the
   * service's latest sync, this belongs to the revision shown.
   */
  revisionSyncedAt: string | null;
  artifacts: ArtifactListItem[];
}

/** GET /services/:service/revisions → ServiceRevisionItem[], newest first. */
export interface ServiceRevisionItem {
  number: number;
  createdAt: string;
  artifactCount: number;
  created: SyncArtifactRef[];
  updated: SyncArtifactRef[];
  removed: SyncArtifactRef[];
  /** The API token that synced it and its creator, as they were then (null: synced before this was recorded and the token is gone). */
  syncedBy: TokenRef | null;
  /** The commit, branch and CI run the CLI reported (null: it reported none). */
  source: SyncSource | null;
}

/** GET /services/:service/diagrams/:name[?revision=n] */
export interface DiagramView<Graph = unknown, Report = unknown> {
  name: string;
  /** Mermaid diagram kind: flowchart, state, sequence or c4. */
  kind: string;
  revision: number;
  path: string;
  mermaid: string;
  /** SHA-256 (hex) of the Mermaid file as synced (always set by GET /diagrams/:name; optional for views built from flows). */
  sha256?: string;
  contextPath: string | null;
  /** SHA-256 (hex) of the context file as synced, or null when the diagram has none. */
  contextSha256?: string | null;
  /** The parsed context JSON, or null when the diagram has none. */
  context: unknown;
  /** The graph with the context overlays attached. */
  graph: Graph;
  /** The context report (applied, unmatched, warnings); null without a context. */
  report: Report | null;
}

/**
 * GET /services/:service/diagrams/:name/layout[?revision=n]: where the dashboard draws every node, group and edge of
 * the diagram's default view (every group expanded, no change highlights), computed once per diagram content by
 * the server with the dashboard's own layout code (libs/diagram, `layoutDefaultView`), so a first visit draws at
 * once without ELK in the browser. The dashboard uses it only when `engine` is its own LAYOUT_ENGINE_VERSION and
 * `fingerprint` is that of the layout input it built (node sizes, groups, edges, direction); otherwise it lays the
 * diagram out itself. 404 `diagram_layout_not_found` while none is stored yet (the server then computes it).
 */
export interface DiagramLayout {
  engine: string;
  fingerprint: string;
  /**
   * ELK's result for each container (the top level `\u0000root` and every group), as the dashboard's layoutDiagram
   * lays one out per container: its size, its members' top-left corners and its edges' routes, relative to it,
   * rounded to 1/100 px. The page replays them through layoutDiagram, which keeps them in its layout cache, so a
   * later collapse re-lays out only the containers above the collapsed group and those its edges enter, as after a
   * layout of its own.
   */
  containers: Record<string, DiagramLayoutContainer>;
}

export interface DiagramLayoutContainer {
  width: number;
  height: number;
  /**
   * Members' positions by id: [x, y]; [x, y, width, height] for a member ELK made larger than the size it was given
   * (a box grown so that its many lines leave it apart).
   */
  children: Record<string, [number, number] | [number, number, number, number]>;
  /** Routed edges by id: start, bend and end points as [x0, y0, x1, y1, …], and the label's top-left corner. */
  edges: Record<string, { points: number[]; label?: [number, number] }>;
  /** The group's ports (where edges cross its frame) by id: [x, y] relative to it; absent when it has none. */
  ports?: Record<string, [number, number]>;
}

/** One synced file exactly as the CLI sent it (the text whose UTF-8 bytes have `sha256`). */
export interface SyncedFile {
  /** Repository path as synced, e.g. `.service/diagrams/topology.mmd`. */
  path: string;
  /** The last segment of `path`: the name to save the file under. */
  fileName: string;
  content: string;
  sha256: string;
}

/**
 * GET /services/:service/diagrams/:name/source[?revision=n]: the diagram's Mermaid file and context file exactly
 * as synced (byte-identical), for Export To Mermaid of a synced diagram. `exact` is always true: nothing is
 * regenerated from the graph.
 */
export interface DiagramSource {
  name: string;
  kind: string;
  revision: number;
  exact: true;
  mermaid: SyncedFile;
  /** Null when the diagram was synced without a context file. */
  context: SyncedFile | null;
}

/** One artifact of a revision with its files exactly as synced (see ServiceRevisionFiles). */
export interface RevisionArtifactFiles {
  kind: ArtifactKind;
  name: string;
  file: SyncedFile;
  context: SyncedFile | null;
  notes: SyncedFile | null;
  engine: DatabaseEngine | null;
  format: ApiSpecFormat | null;
}

/**
 * GET /services/:service/files?revision=n: every artifact of one revision (the current one without `revision`) with
 * its files exactly as synced, by kind then name. `service-cli diff` compares them with a checkout, parsing both
 * sides with the same code; revision 0 (every artifact removed) has none.
 */
export interface ServiceRevisionFiles {
  service: string;
  revision: number;
  artifacts: RevisionArtifactFiles[];
}

/** One element that exists on both sides of a diff but differs; `fields` names the top-level fields that differ. */
export interface GraphElementChange<T> {
  key: string;
  before: T;
  after: T;
  fields: string[];
}

export interface GraphElementDiff<T> {
  added: T[];
  removed: T[];
  changed: GraphElementChange<T>[];
}

/**
 * GET /services/:service/diagrams/:name/diff?from=a&to=b. Nodes and groups are matched by id; edges by
 * `source->target#n` (the n-th edge between the same pair, in source order), because Mermaid's generated
 * edge ids are not stable.
 */
export interface DiagramDiff<Node = unknown, Edge = unknown, Group = unknown> {
  name: string;
  from: number;
  to: number;
  /** False when the diagram is identical in both revisions. */
  changed: boolean;
  nodes: GraphElementDiff<Node>;
  edges: GraphElementDiff<Edge>;
  groups: GraphElementDiff<Group>;
}

/** GET /services/:service/flows → FlowListItem[] */
export interface FlowListItem {
  name: string;
  path: string;
  kind: string;
  notesPath: string | null;
  nodeCount: number;
  edgeCount: number;
}

/** GET /services/:service/flows/:name */
export interface FlowView<Graph = unknown> {
  name: string;
  kind: string;
  revision: number;
  path: string;
  mermaid: string;
  graph: Graph;
  notesPath: string | null;
  notes: string | null;
}

export interface SqlColumn {
  name: string;
  /** The type: as written for MySQL and SQLite (`VARCHAR(255)`), as PostgreSQL's parser prints it for PostgreSQL (`numeric(10, 2)`, `text[]`). */
  type: string;
  nullable: boolean;
  primaryKey: boolean;
  unique: boolean;
  /** The default expression as SQL text, when present. */
  default: string | null;
  /** `table.column` this column references, when declared inline or by a table-level FOREIGN KEY. */
  references: string | null;
  /** COMMENT ON COLUMN (PostgreSQL schemas). */
  comment?: string;
}

export interface SqlTable {
  /** Schema-qualified when the DDL qualifies it (`public.orders`). */
  name: string;
  columns: SqlColumn[];
  primaryKey: string[];
  /** `view` for a view or materialized view (PostgreSQL schemas: columns by name, without types); absent for a table. */
  kind?: 'view';
  /** COMMENT ON TABLE / VIEW (PostgreSQL schemas). */
  comment?: string;
}

/** GET /services/:service/databases → DatabaseListItem[] */
export interface DatabaseListItem {
  name: string;
  engine: DatabaseEngine;
  path: string;
  notesPath: string | null;
  /** SQL engines: the number of tables parsed; JSON engines: the number of tables/collections listed. */
  tableCount: number;
}

/** GET /services/:service/databases/:name */
export interface DatabaseView {
  name: string;
  engine: DatabaseEngine;
  revision: number;
  path: string;
  /** The schema file as stored. */
  schema: string;
  /** SQL engines: tables and columns parsed from the DDL. Empty for JSON engines. */
  tables: SqlTable[];
  /** DynamoDB / MongoDB: the parsed JSON document; null for SQL engines. */
  document: unknown;
  /** DynamoDB table names / MongoDB collection names found in the document. */
  collections: string[];
  notesPath: string | null;
  notes: string | null;
}

/** GET /services/:service/jobs */
export interface JobsView<Graph = unknown> {
  revision: number;
  notesPath: string | null;
  notes: string | null;
  dependencies: { path: string; mermaid: string; kind: string; graph: Graph } | null;
}

/** GET /services/:service/summary */
export interface SummaryView {
  revision: number;
  path: string;
  markdown: string;
}

/** GET /services/:service/docs and /api-specs → TextArtifactListItem[] */
export interface TextArtifactListItem {
  name: string;
  path: string;
  size: number;
  format: ApiSpecFormat | null;
}

/** GET /services/:service/docs/:name and /api-specs/:name */
export interface TextArtifactView extends TextArtifactListItem {
  revision: number;
  content: string;
}

/** GET /services/:service/previews → PreviewListItem[], newest first (expired previews are not listed). */
export interface PreviewListItem extends SyncPreview, Omit<ServiceRevisionItem, 'number'> {
  /**
   * The current revision when the preview was pushed: created/updated/removed compare the preview with it (the preview
   * page compares with the current revision at reading time).
   */
  baseRevision: number;
}

/** The nodes, edges and groups of a diagram added, removed and changed (a DiagramDiff without its revisions). */
export type GraphChanges<Node = unknown, Edge = unknown, Group = unknown> = Pick<DiagramDiff<Node, Edge, Group>, 'changed' | 'nodes' | 'edges' | 'groups'>;

/** One architecture diagram of a preview compared with the service's current revision. */
export interface PreviewDiagram<Graph = unknown, Report = unknown, Node = unknown, Edge = unknown, Group = unknown> {
  name: string;
  /** added: only in the preview; removed: only in the current revision; changed: its graph differs. */
  status: 'added' | 'changed' | 'removed' | 'unchanged';
  /** Elements (nodes, edges and groups together) added, changed and removed. */
  counts: { added: number; changed: number; removed: number };
  /** The preview's diagram (null when removed or unchanged: the page only lists those). */
  diagram: DiagramView<Graph, Report> | null;
  /** Against the current revision (null when unchanged). */
  changes: GraphChanges<Node, Edge, Group> | null;
}

/** GET /services/:service/previews/:id */
export interface PreviewView<Graph = unknown, Report = unknown, Node = unknown, Edge = unknown, Group = unknown> extends PreviewListItem {
  service: string;
  /** The revision the diagrams are compared with: the service's current one. */
  currentRevision: number;
  /** Every architecture diagram of the preview or the current revision, by name. */
  diagrams: Array<PreviewDiagram<Graph, Report, Node, Edge, Group>>;
}
