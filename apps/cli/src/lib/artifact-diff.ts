import type { SqlColumn, SqlTable } from '@sc/contracts';
import type { ArtifactKind } from '@sc/contracts/core';
import { diffGraphs, diffSqlTables, keyEdges, type OverlaidGraph, type SchemaTableChange } from '@sc/diagram';

/**
 * What `service-cli diff` compares: the artifacts of one side (a checkout, or a revision on the server), each with
 * its files' hashes and, for an architecture diagram, its overlaid graph (Mermaid parsed, context applied) built by
 * the same code on both sides.
 */
export interface SideArtifact {
  kind: ArtifactKind;
  name: string;
  /** Path and SHA-256 of the main file, then the context and notes files when there are any. */
  files: Array<{ role: 'main' | 'context' | 'notes'; path: string; sha256: string }>;
  /** Architecture diagrams only. */
  graph?: OverlaidGraph;
  /** SQL database schemas only (postgres, mysql, sqlite): the tables the server's parsers read. */
  tables?: SqlTable[];
}

export type ChangeStatus = 'added' | 'removed' | 'changed' | 'unchanged';

/** A node, edge or group named in words: its id (an edge's `source->target#n`) and its label when it has one. */
export interface ElementRef {
  id: string;
  label?: string;
}

export interface ElementChange extends ElementRef {
  /** The differing top-level fields (label, shape, parent, overlay …). */
  fields: string[];
}

export interface ElementDiff {
  added: ElementRef[];
  removed: ElementRef[];
  changed: ElementChange[];
}

export interface DiagramDiffEntry {
  name: string;
  status: ChangeStatus;
  /** The Mermaid diagram kind (of the new side, else the old). */
  diagramKind?: string;
  /** The diagram's main file (of the new side, else the old). */
  path: string;
  nodes: ElementDiff;
  edges: ElementDiff;
  groups: ElementDiff;
  /**
   * The files changed but the drawing did not (comments, formatting, or a context field outside the graph such as
   * its `name`): `changed` with no element listed.
   */
  filesOnly: boolean;
}

export interface ArtifactDiffEntry {
  kind: ArtifactKind;
  name: string;
  status: ChangeStatus;
  path: string;
  /** Which of the artifact's files differ (main, context, notes); empty unless `changed`. */
  files: Array<'main' | 'context' | 'notes'>;
  /**
   * SQL database schemas: the tables that differ, column by column (empty when the files changed but the tables
   * did not). Absent for other artifacts and for schemas of other engines (compared by their files).
   */
  tables?: TableDiffEntry[];
}

/** A column named with its type and nullability (an added or removed column). */
export interface ColumnRef {
  name: string;
  type: string;
  nullable: boolean;
}

/** The column fields a schema diff compares. */
export type ColumnField = Exclude<keyof SqlColumn, 'name'>;

export interface ColumnChange {
  name: string;
  /** The fields that differ: type, nullable, default, primaryKey, unique, references, comment. */
  fields: ColumnField[];
  /** Those fields' values before and after (a comment or default that is absent: null). */
  before: Partial<Record<ColumnField, string | boolean | null>>;
  after: Partial<Record<ColumnField, string | boolean | null>>;
}

/**
 * A table that differs, as the library's schema diff gives it (status, view kind, primary key, comment), its columns
 * named in short: an added or removed column by name, type and nullability, a changed one by the fields that differ.
 */
export type TableDiffEntry = Omit<SchemaTableChange, 'columns'> & { columns: { added: ColumnRef[]; removed: ColumnRef[]; changed: ColumnChange[] } };

export interface CountTriple {
  added: number;
  removed: number;
  changed: number;
}

export interface DiffSummary {
  diagrams: CountTriple;
  nodes: CountTriple;
  edges: CountTriple;
  groups: CountTriple;
  /** The other artifacts (flows, schemas, job notes, summary, docs, API specs). */
  artifacts: CountTriple;
  /** Tables of SQL schemas added, removed and changed. */
  tables: CountTriple;
  /** Columns added, removed and changed within changed tables (an added or removed table counts as a table only). */
  columns: CountTriple;
}

export interface ArtifactsDiff {
  changed: boolean;
  summary: DiffSummary;
  /** Every architecture diagram of either side, by name. */
  diagrams: DiagramDiffEntry[];
  /** Every other artifact of either side, by kind then name. */
  artifacts: ArtifactDiffEntry[];
}

const EMPTY_GRAPH: Pick<OverlaidGraph, 'nodes' | 'edges' | 'groups'> = { nodes: [], edges: [], groups: [] };

/** Compares two sides artifact by artifact (matched by kind and name); diagrams element by element with diffGraphs. */
export function diffArtifacts(before: readonly SideArtifact[], after: readonly SideArtifact[]): ArtifactsDiff {
  const key = (artifact: SideArtifact) => `${artifact.kind}\u0000${artifact.name}`;
  const old = new Map(before.map((artifact) => [key(artifact), artifact]));
  const current = new Map(after.map((artifact) => [key(artifact), artifact]));
  const keys = [...new Set([...old.keys(), ...current.keys()])].sort();
  const diagrams: DiagramDiffEntry[] = [];
  const artifacts: ArtifactDiffEntry[] = [];
  for (const id of keys) {
    const a = old.get(id);
    const b = current.get(id);
    const either = (b ?? a) as SideArtifact;
    const status: ChangeStatus = !a ? 'added' : !b ? 'removed' : sameFiles(a, b) ? 'unchanged' : 'changed';
    if (either.kind === 'architecture-diagram') diagrams.push(diagramEntry(either, status, a?.graph, b?.graph));
    else artifacts.push(artifactEntry(either, status, a, b));
  }
  diagrams.sort((x, y) => x.name.localeCompare(y.name));
  const summary: DiffSummary = {
    diagrams: countStatuses(diagrams),
    nodes: countElements(diagrams, 'nodes'),
    edges: countElements(diagrams, 'edges'),
    groups: countElements(diagrams, 'groups'),
    artifacts: countStatuses(artifacts),
    tables: countStatuses(artifacts.flatMap((artifact) => artifact.tables ?? [])),
    columns: countColumns(artifacts),
  };
  const changed = [...diagrams, ...artifacts].some((entry) => entry.status !== 'unchanged');
  return { changed, summary, diagrams, artifacts };
}

function diagramEntry(artifact: SideArtifact, status: ChangeStatus, before: OverlaidGraph | undefined, after: OverlaidGraph | undefined): DiagramDiffEntry {
  const none: ElementDiff = { added: [], removed: [], changed: [] };
  const base = { name: artifact.name, status, ...((after ?? before)?.kind ? { diagramKind: (after ?? before)?.kind } : {}), path: mainPath(artifact) };
  if (status === 'unchanged') return { ...base, nodes: none, edges: none, groups: none, filesOnly: false };
  const diff = diffGraphs(before ?? EMPTY_GRAPH, after ?? EMPTY_GRAPH);
  const edgeRef = (edge: { source: string; target: string; label?: string }, key: string): ElementRef => ({ id: key, ...(edge.label ? { label: edge.label } : {}) });
  // diffGraphs matches edges by keyEdges' `source->target#n`; added and removed edges are named by their own side's key.
  const keysOf = (edges: OverlaidGraph['edges']) => new Map([...keyEdges(edges)].map(([key, edge]) => [edge, key]));
  const beforeKeys = keysOf(before?.edges ?? []);
  const afterKeys = keysOf(after?.edges ?? []);
  const nodes = elementDiff(diff.nodes, (node) => ({ id: node.id, ...(node.label && node.label !== node.id ? { label: node.label } : {}) }));
  const groups = elementDiff(diff.groups, (group) => ({ id: group.id, ...(group.label && group.label !== group.id ? { label: group.label } : {}) }));
  const edges: ElementDiff = {
    added: diff.edges.added.map((edge) => edgeRef(edge, afterKeys.get(edge) ?? '')),
    removed: diff.edges.removed.map((edge) => edgeRef(edge, beforeKeys.get(edge) ?? '')),
    changed: diff.edges.changed.map((change) => ({ ...edgeRef(change.after, change.key), fields: change.fields })),
  };
  return { ...base, nodes, edges, groups, filesOnly: status === 'changed' && !diff.changed };
}

function artifactEntry(either: SideArtifact, status: ChangeStatus, before: SideArtifact | undefined, after: SideArtifact | undefined): ArtifactDiffEntry {
  const entry: ArtifactDiffEntry = { kind: either.kind, name: either.name, status, path: mainPath(either), files: status === 'changed' && before && after ? changedRoles(before, after) : [] };
  // Tables are compared when each side that has the schema has its tables read (one side only: all added or removed).
  const comparable = (!before || before.tables) && (!after || after.tables) && (before?.tables ?? after?.tables);
  if (!comparable) return entry;
  const tables = status === 'unchanged' ? [] : diffSqlTables(before?.tables ?? [], after?.tables ?? []).tables.map(tableEntry);
  return { ...entry, tables };
}

function tableEntry(change: SchemaTableChange): TableDiffEntry {
  const ref = (column: SqlColumn): ColumnRef => ({ name: column.name, type: column.type, nullable: column.nullable });
  const values = (column: SqlColumn, fields: readonly ColumnField[]) => Object.fromEntries(fields.map((field) => [field, column[field] ?? null]));
  return {
    ...change,
    columns: {
      added: change.columns.added.map(ref),
      removed: change.columns.removed.map(ref),
      changed: change.columns.changed.map((column) => {
        const fields = column.fields.filter((field): field is ColumnField => field !== 'name');
        return { name: column.name, fields, before: values(column.before, fields), after: values(column.after, fields) };
      }),
    },
  };
}

function countColumns(artifacts: readonly ArtifactDiffEntry[]): CountTriple {
  const changedTables = artifacts.flatMap((artifact) => artifact.tables ?? []).filter((table) => table.status === 'changed');
  const sum = (pick: (table: TableDiffEntry) => number) => changedTables.reduce((total, table) => total + pick(table), 0);
  return { added: sum((table) => table.columns.added.length), removed: sum((table) => table.columns.removed.length), changed: sum((table) => table.columns.changed.length) };
}

function elementDiff<T>(diff: { added: T[]; removed: T[]; changed: Array<{ after: T; fields: string[] }> }, ref: (element: T) => ElementRef): ElementDiff {
  return {
    added: diff.added.map(ref),
    removed: diff.removed.map(ref),
    changed: diff.changed.map((change) => ({ ...ref(change.after), fields: change.fields })),
  };
}

function sameFiles(a: SideArtifact, b: SideArtifact): boolean {
  return changedRoles(a, b).length === 0;
}

/** Roles whose file differs (content or path), or exists on one side only. */
function changedRoles(a: SideArtifact, b: SideArtifact): Array<'main' | 'context' | 'notes'> {
  const roles = ['main', 'context', 'notes'] as const;
  return roles.filter((role) => {
    const x = a.files.find((file) => file.role === role);
    const y = b.files.find((file) => file.role === role);
    return x?.sha256 !== y?.sha256 || x?.path !== y?.path;
  });
}

function mainPath(artifact: SideArtifact): string {
  return artifact.files.find((file) => file.role === 'main')?.path ?? '';
}

/** How many entries were added, removed and changed (diagrams, artifacts, tables). */
export function countStatuses(entries: ReadonlyArray<{ status: ChangeStatus }>): CountTriple {
  const count = (status: ChangeStatus) => entries.filter((entry) => entry.status === status).length;
  return { added: count('added'), removed: count('removed'), changed: count('changed') };
}

function countElements(diagrams: readonly DiagramDiffEntry[], part: 'nodes' | 'edges' | 'groups'): CountTriple {
  const sum = (pick: (diff: ElementDiff) => number) => diagrams.reduce((total, diagram) => total + pick(diagram[part]), 0);
  return { added: sum((diff) => diff.added.length), removed: sum((diff) => diff.removed.length), changed: sum((diff) => diff.changed.length) };
}
