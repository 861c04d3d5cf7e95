import { findUnstorableCharacter, isPlainObject, type DatabaseEngine, type SqlTable, type SyncArtifact, type SyncArtifactRef, type SyncProblemDetail } from '@sc/contracts';
import { hintToAdd, jsonPath, parseStrictJson, positionOf, validateParsedDiagram, type ApplyReport, type DiagramIssue, type DiagramKind, type GraphModel, type OverlaidGraph } from '@sc/diagram';
import { isSqlEngine, type SqlEngine, type SqlSchemaResult } from '@sc/diagram/node';
import type { MermaidParser } from '../../parsing/mermaid-parser';
import { walkJson } from '../../../common/http/json-input';

/**
 * Server-side validation of artifact contents, with the same engine as the CLI (libs/diagram for Mermaid and
 * context files; PostgreSQL's parser (libpg-query) and node-sql-parser for SQL, server only). What it derives is stored with the artifact version so reads never
 * re-parse. Bump ANALYZER_VERSION when the derived shape or the engine's output changes: stored analyses of
 * another version are not reused.
 */
// 3: labels decode every HTML entity and carry line breaks as "\n" (libs/diagram labelText).
// 4: PostgreSQL schemas read by PostgreSQL's parser (types and defaults as it prints them, views, comments).
// 5: sequence diagrams keep their notes, blocks and activations (graph.steps, libs/diagram).
export const ANALYZER_VERSION = 5;
/** The first analyzer version whose sequence graphs carry `steps`: images of older ones parse the source again. */
export const SEQUENCE_STEPS_VERSION = 5;

export type ArtifactAnalysis =
  | {
      type: 'diagram';
      version: number;
      diagramKind: DiagramKind;
      /** The graph as Mermaid defines it, before any context. */
      graph: GraphModel;
      /** The graph with the context's overlays, when the artifact has a context. */
      overlaid: OverlaidGraph | null;
      report: ApplyReport | null;
      /** Every dbConfig.databaseName the context's matched nodes name: the only rule that depends on the rest of the sync. */
      databases: string[];
    }
  | { type: 'sql-schema'; version: number; tables: SqlTable[] }
  | { type: 'json-schema'; version: number; collections: string[] }
  | { type: 'text'; version: number };

/** A problem found in a file: the diagram library's issues, plus server-side ones such as a parse timeout. */
export type ArtifactIssue = Omit<DiagramIssue, 'code'> & { code: string };

/** Parses Mermaid off the main thread in the server (MermaidParseService); in-process in unit tests. */
export type { MermaidParser };

/**
 * Parses a SQL schema off the main thread in the server (SqlSchemaParseService); a parse that ran out of time
 * answers with its own problem code instead of the syntax error's.
 */
export type SqlSchemaParser = (sql: string, engine: SqlEngine) => Promise<SqlSchemaResult | { ok: false; code: string; message: string }>;

export interface AnalysisInput {
  artifact: SyncArtifact;
  /** The stored analysis of an identical version (same fingerprint), when there is one. */
  cached?: ArtifactAnalysis;
  /** Names of the databases in the same bundle: a context's dbConfig.databaseName must be one of them. */
  databaseNames: readonly string[];
}

export type AnalysisResult = { ok: true; analysis: ArtifactAnalysis } | { ok: false; problems: SyncProblemDetail[] };

const MERMAID_KINDS = new Set<SyncArtifact['kind']>(['architecture-diagram', 'flow', 'job-dependencies']);

export class ArtifactAnalyzer {
  constructor(
    private readonly parseMermaid: MermaidParser,
    private readonly parseSql: SqlSchemaParser,
  ) {}

  async analyze({ artifact, cached, databaseNames }: AnalysisInput): Promise<AnalysisResult> {
    const reusable = cached?.version === ANALYZER_VERSION ? cached : undefined;
    if (MERMAID_KINDS.has(artifact.kind)) return this.analyzeDiagram(artifact, reusable, databaseNames);
    if (artifact.kind === 'database-schema' && artifact.engine) return this.analyzeDatabase(artifact, artifact.engine, reusable);
    return { ok: true, analysis: { type: 'text', version: ANALYZER_VERSION } };
  }

  /**
   * validateDiagramWithContext (libs/diagram) with the Mermaid parse done by the injected parser (off the main
   * thread) or taken from the cache: the shared validateParsedDiagram checks and applies the context, so Mermaid
   * errors, context errors and application errors are all reported together, each with its file and position.
   */
  private async analyzeDiagram(artifact: SyncArtifact, cached: ArtifactAnalysis | undefined, databaseNames: readonly string[]): Promise<AnalysisResult> {
    const ref = toRef(artifact);
    // Same bytes, same engine version: the result cannot differ, except for dbConfig, which must name a
    // database of THIS sync. When every database the context names is still synced, the stored analysis
    // stands as is; otherwise the context is applied again (without re-parsing Mermaid) to report why.
    if (cached?.type === 'diagram' && cached.databases.every((name) => databaseNames.includes(name))) return { ok: true, analysis: cached };
    const parsed =
      cached?.type === 'diagram' ? ({ ok: true, kind: cached.diagramKind, graph: cached.graph } as const) : await this.parseMermaid(artifact.file.content);
    // A failed parse may carry server-side codes (a parse timeout) that are not diagram issue codes, so its issues
    // are reported here; the shared validation still checks the context file to report everything at once.
    const validated = validateParsedDiagram(parsed.ok ? parsed : { ok: false, issues: [] }, artifact.context?.content, {
      fileNames: { diagram: artifact.file.path, ...(artifact.context ? { context: artifact.context.path } : {}) },
      databaseNames,
    });
    const problems = [...(parsed.ok ? [] : issuesToProblems(parsed.issues, ref, artifact.file.path)), ...issuesToProblems(validated.errors, ref, artifact.file.path)];
    if (!parsed.ok || problems.length > 0) return { ok: false, problems };
    const base = { type: 'diagram', version: ANALYZER_VERSION, diagramKind: parsed.kind, graph: parsed.graph } as const;
    if (!validated.report || !validated.graph) return { ok: true, analysis: { ...base, overlaid: null, report: null, databases: [] } };
    // The stored report lists the context file's own warnings too, each with its file and position.
    const report: ApplyReport = { ...validated.report, warnings: validated.warnings };
    return { ok: true, analysis: { ...base, overlaid: validated.graph, report, databases: referencedDatabases(validated.graph) } };
  }

  private async analyzeDatabase(artifact: SyncArtifact, engine: DatabaseEngine, cached: ArtifactAnalysis | undefined): Promise<AnalysisResult> {
    const ref = toRef(artifact);
    const file = artifact.file.path;
    if (isSqlEngine(engine)) {
      if (cached?.type === 'sql-schema') return { ok: true, analysis: cached };
      const parsed = await this.parseSql(artifact.file.content, engine);
      if (!parsed.ok) {
        if ('code' in parsed) return { ok: false, problems: [{ code: parsed.code, message: `${file}: ${parsed.message}`, artifact: ref, file }] };
        return { ok: false, problems: [{ code: 'sql_syntax_error', message: parsed.message, artifact: ref, file, line: parsed.line, column: parsed.column }] };
      }
      return { ok: true, analysis: { type: 'sql-schema', version: ANALYZER_VERSION, tables: parsed.tables } };
    }
    const json = parseJsonDocument(artifact.file.content);
    if (!json.ok) {
      return {
        ok: false,
        problems: [{ code: 'schema_invalid_json', message: `The ${engine} schema is not valid JSON: ${json.message}`, artifact: ref, file, line: json.line, column: json.column }],
      };
    }
    const unusable = unusableJsonDocument(artifact.file.content, json.value);
    if (unusable) return { ok: false, problems: [{ ...unusable, artifact: ref, file }] };
    return { ok: true, analysis: { type: 'json-schema', version: ANALYZER_VERSION, collections: listCollections(json.value) } };
  }
}

/** The databases the context's matched nodes name: applyContext checks dbConfig on those only. */
function referencedDatabases(graph: OverlaidGraph): string[] {
  const names = graph.nodes.map((node) => node.overlay?.dbConfig?.databaseName);
  return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
}

type JsonResult = { ok: true; value: unknown } | { ok: false; message: string; line?: number; column?: number };

export function parseJsonDocument(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    if (!position) return { ok: false, message };
    return { ok: false, message, ...positionOf(text, Number(position[1])) };
  }
}

/**
 * A JSON schema document is served back as parsed JSON and its table names are stored, so it may not nest deeper
 * than MAX_JSON_DEPTH (JSON.stringify would overflow the stack on every read) nor hold a string that decodes to a
 * NUL or an unpaired surrogate (`\u0000`, `\ud800`: not storable). JSON.parse and one walk are the fast path; only
 * a refused document is parsed again by the strict parser, which tells the line, column and JSON path.
 */
function unusableJsonDocument(text: string, value: unknown): Omit<SyncProblemDetail, 'artifact' | 'file'> | undefined {
  let unstorable = false;
  const { tooDeepAt } = walkJson(
    value,
    (string) => {
      unstorable ||= findUnstorableCharacter(string) !== undefined;
    },
    jsonPath,
    '$',
  );
  if (tooDeepAt === undefined && !unstorable) return undefined;
  const located = parseStrictJson(text);
  if (located.error) {
    const { message, line, column, path = tooDeepAt } = located.error;
    return { code: 'schema_too_deep', message: `The schema is too deep: ${message}`, line, column, path };
  }
  const [first] = located.unstorableStrings;
  if (!first) return { code: 'unstorable_character', message: `The schema holds a string that cannot be stored (a NUL or an unpaired surrogate).` };
  return { code: 'unstorable_character', message: `${first.path} contains ${first.description}, which cannot be stored.`, line: first.line, column: first.column, path: first.path };
}

/**
 * Names the tables (DynamoDB: every `TableName`, as in CreateTable input, describe-table output or a list
 * of those) or collections (MongoDB: `collections` as a list or a map, a list of `{name}`, or a map keyed
 * by collection) a schema document declares.
 */
export function listCollections(document: unknown): string[] {
  const names = new Set<string>();
  collectTableNames(document, names, 0);
  if (names.size === 0) {
    const root = isPlainObject(document) && 'collections' in document ? document['collections'] : document;
    if (Array.isArray(root)) {
      for (const item of root) {
        const name = isPlainObject(item) ? (item['name'] ?? item['collection']) : item;
        if (typeof name === 'string') names.add(name);
      }
    } else if (isPlainObject(root)) {
      for (const key of Object.keys(root)) if (!key.startsWith('$')) names.add(key);
    }
  }
  return [...names];
}

function collectTableNames(value: unknown, names: Set<string>, depth: number): void {
  if (depth > 6) return;
  if (Array.isArray(value)) value.forEach((item) => collectTableNames(item, names, depth + 1));
  else if (isPlainObject(value)) {
    if (typeof value['TableName'] === 'string') names.add(value['TableName']);
    for (const child of Object.values(value)) if (typeof child === 'object') collectTableNames(child, names, depth + 1);
  }
}

export function issuesToProblems(issues: ArtifactIssue[], artifact: SyncArtifactRef, file: string): SyncProblemDetail[] {
  return issues.map((issue) => {
    const hint = hintToAdd(issue.message, issue.hint);
    return {
      code: issue.code,
      message: hint ? `${issue.message} ${hint}` : issue.message,
      artifact,
      file: issue.file ?? file,
      ...(issue.line !== undefined ? { line: issue.line } : {}),
      ...(issue.column !== undefined ? { column: issue.column } : {}),
      ...(issue.path !== undefined ? { path: issue.path } : {}),
      ...(issue.excerpt !== undefined ? { excerpt: issue.excerpt } : {}),
      ...(issue.detail !== undefined ? { detail: issue.detail } : {}),
    };
  });
}

function toRef(artifact: SyncArtifact): SyncArtifactRef {
  return { kind: artifact.kind, name: artifact.name };
}
