import * as path from 'node:path';
import {
  DEFAULT_SYNC_LIMITS,
  MERMAID_ARTIFACT_KINDS,
  SYNC_BUNDLE_VERSION,
  type ArtifactKind,
  type SyncArtifact,
  type SyncBundle,
  type SyncFile,
} from '@sc/contracts/core';
import { openPooledDiagramChecker, type ContextReportSummary, type DiagramChecker } from './diagram-check';
import type { CliProblem } from './cli-error';
import { formatBytes } from './format';
import { loadServiceConfig, type LoadedArtifact, type LoadedConfig, type LoadedFile } from './load-config';
import { detectGitRemoteUrl, stripRepositoryUrlCredentials } from './repository-url';

/** One line of the dry-run table (and of `sync --json`'s `artifacts`). */
export interface ArtifactRow {
  kind: ArtifactKind;
  name: string;
  path: string;
  /** UTF-8 bytes of the main file. */
  size: number;
  sha256: string;
  diagramKind?: string;
  nodes?: number;
  edges?: number;
  groups?: number;
  contextPath?: string;
  context?: ContextReportSummary;
  notesPath?: string;
  engine?: string;
  format?: string;
  valid: boolean;
}

export interface PreparedSync {
  loaded: LoadedConfig;
  rows: ArtifactRow[];
  /** Every error and warning, config first, then per artifact in config order. */
  problems: CliProblem[];
  /** The repository URL that is sent, credentials stripped: from the config, else the git `origin` remote. */
  repositoryUrl?: string;
  /** As in LoadedSync: warnings fail the sync. */
  strict: boolean;
  /** Present only when there is no error. */
  bundle?: SyncBundle;
}

export type ProgressListener = (done: number, total: number, label: string) => void;

/**
 * The cheap half of `sync`: the config checked, every file read and hashed, the repository URL resolved, and
 * the bundle built when the config has no error. No Mermaid parse yet: enough to ask the gateway whether it
 * already has exactly this bundle.
 */
export interface LoadedSync {
  loaded: LoadedConfig;
  /** One row per artifact whose main file was read, without the diagram columns (those need the parse). */
  rows: ArtifactRow[];
  /** Config problems. */
  problems: CliProblem[];
  /** Warnings when the files exceed the gateway's default limits. */
  limitWarnings: CliProblem[];
  repositoryUrl?: string;
  /** Warnings fail the sync: `--strict`/`--no-strict` when given, else the config's `strict`. Sent in the bundle. */
  strict: boolean;
  /** Present only when the config has no error; it may still hold invalid diagrams. */
  bundle?: SyncBundle;
}

/**
 * Everything `sync` does before the network: read and validate the config, read every file, parse every
 * Mermaid file and context with the diagram library, and build the bundle. Shared by --dry-run and the real sync
 * so the preview is exactly what would be sent.
 */
export async function prepareSync(configOption: string | undefined, cwd: string, onProgress: ProgressListener = () => undefined, validateDiagram?: DiagramChecker): Promise<PreparedSync> {
  return validateSync(await loadSync(configOption, cwd), onProgress, validateDiagram);
}

/** `strictOption`: `sync --strict` (true) or `--no-strict` (false); undefined leaves it to the config's `strict`. */
export async function loadSync(configOption: string | undefined, cwd: string, strictOption?: boolean): Promise<LoadedSync> {
  const loaded = await loadServiceConfig(configOption, cwd);
  const strict = strictOption ?? loaded.config?.strict ?? false;
  const display = (file: LoadedFile): string => toDisplay(loaded, file.path);
  const problems: CliProblem[] = loaded.problems.map((problem) => ({ ...problem }));
  const limitWarnings = defaultLimitWarnings(loaded.artifacts, display);
  const rows = loaded.artifacts.flatMap((artifact) => (artifact.loaded.main ? [baseRow(artifact, artifact.loaded.main)] : []));
  const repositoryUrl = await resolveRepositoryUrl(loaded);
  const bundle = !hasErrors(problems) ? buildBundle(loaded, repositoryUrl, strict) : undefined;
  return { loaded, rows, problems, limitWarnings, ...(repositoryUrl ? { repositoryUrl } : {}), strict, ...(bundle ? { bundle } : {}) };
}

/**
 * The expensive half: every Mermaid file and context parsed (in parallel, on worker threads, unless a checker is
 * given); the bundle is kept only when nothing is invalid.
 */
export async function validateSync(input: LoadedSync, onProgress: ProgressListener = () => undefined, validateDiagram?: DiagramChecker): Promise<PreparedSync> {
  const { loaded } = input;
  // From the planned artifacts rather than the config, so they are known even when the config has errors.
  const databaseNames = loaded.artifacts.filter((artifact) => artifact.kind === 'database-schema').map((artifact) => artifact.name);
  const display = (file: LoadedFile): string => toDisplay(loaded, file.path);
  const isDiagram = (artifact: LoadedArtifact): boolean => MERMAID_ARTIFACT_KINDS.includes(artifact.kind) && artifact.loaded.main !== undefined;
  const pooled = validateDiagram ? undefined : openPooledDiagramChecker(loaded.artifacts.filter(isDiagram).length);
  const check = validateDiagram ?? pooled?.check;

  let done = 0;
  const total = loaded.artifacts.length;
  const validateArtifact = async (artifact: LoadedArtifact): Promise<{ row?: ArtifactRow; problems: CliProblem[] }> => {
    const main = artifact.loaded.main;
    if (!main) return { problems: [] };
    const row = baseRow(artifact, main);
    if (!check || !isDiagram(artifact)) return { row, problems: [] };
    const context = artifact.loaded.context;
    const contextMissing = artifact.files.some((file) => file.role === 'context') && !context;
    const result = await check({
      diagramFile: display(main),
      mermaid: main.content,
      ...(context ? { contextFile: display(context), context: context.content } : {}),
      databaseNames,
    });
    Object.assign(row, {
      diagramKind: result.summary.kind,
      nodes: result.summary.nodes,
      edges: result.summary.edges,
      groups: result.summary.groups,
      ...(result.summary.context ? { context: result.summary.context } : {}),
      valid: result.ok && !contextMissing,
    });
    return { row, problems: result.problems };
  };

  let checked: { row?: ArtifactRow; problems: CliProblem[] }[];
  try {
    checked = await Promise.all(
      loaded.artifacts.map(async (artifact) => {
        const result = await validateArtifact(artifact);
        onProgress(++done, total, `${artifact.kind} ${artifact.name}`);
        return result;
      }),
    );
  } finally {
    await pooled?.close();
  }
  // Each artifact reported itself above, the last one as total/total; only an empty config still needs its line.
  if (total === 0) onProgress(0, 0, 'validated');
  // Rows and problems in config order, whatever order the parses finished in.
  const rows = checked.flatMap((result) => (result.row ? [result.row] : []));
  const problems: CliProblem[] = [...input.problems, ...checked.flatMap((result) => result.problems), ...input.limitWarnings];

  const bundle = !hasErrors(problems) ? input.bundle : undefined;
  return { loaded, rows, problems, ...(input.repositoryUrl ? { repositoryUrl: input.repositoryUrl } : {}), strict: input.strict, ...(bundle ? { bundle } : {}) };
}

function hasErrors(problems: readonly CliProblem[]): boolean {
  return problems.some((problem) => problem.severity === 'error');
}

/**
 * Warnings (not errors: the gateway's limits are configurable) when the bundle exceeds the default limits,
 * so a CI log says which file to blame before the gateway answers 413.
 */
function defaultLimitWarnings(artifacts: readonly LoadedArtifact[], display: (file: LoadedFile) => string): CliProblem[] {
  const warnings: CliProblem[] = [];
  const warn = (message: string, file?: LoadedFile): void =>
    void warnings.push({ severity: 'warning', code: 'over_default_limit', message, ...(file ? { file: display(file) } : {}) });
  if (artifacts.length > DEFAULT_SYNC_LIMITS.maxArtifacts) {
    warn(`${artifacts.length} artifacts exceed the gateway's default limit of ${DEFAULT_SYNC_LIMITS.maxArtifacts} per sync.`);
  }
  let total = 0;
  for (const artifact of artifacts) {
    for (const [role, file] of Object.entries(artifact.loaded)) {
      total += file.size;
      // A database schema's own file has a limit of its own (dumps of large databases are megabytes).
      const schema = artifact.kind === 'database-schema' && role === 'main';
      const max = schema ? DEFAULT_SYNC_LIMITS.maxSchemaBytes : DEFAULT_SYNC_LIMITS.maxFileBytes;
      if (file.size > max) warn(`${formatBytes(file.size)} exceeds the gateway's default limit of ${formatBytes(max)} per ${schema ? 'schema file' : 'file'}.`, file);
    }
  }
  if (total > DEFAULT_SYNC_LIMITS.maxSyncBytes) {
    warn(`The files add up to ${formatBytes(total)}, over the gateway's default limit of ${formatBytes(DEFAULT_SYNC_LIMITS.maxSyncBytes)} per sync.`);
  }
  return warnings;
}

function baseRow(artifact: LoadedArtifact, main: LoadedFile): ArtifactRow {
  return {
    kind: artifact.kind,
    name: artifact.name,
    path: main.path,
    size: main.size,
    sha256: main.sha256,
    ...(artifact.loaded.context ? { contextPath: artifact.loaded.context.path } : {}),
    ...(artifact.loaded.notes ? { notesPath: artifact.loaded.notes.path } : {}),
    ...(artifact.engine ? { engine: artifact.engine } : {}),
    ...(artifact.format ? { format: artifact.format } : {}),
    valid: artifact.files.every((file) => artifact.loaded[file.role] !== undefined),
  };
}

async function resolveRepositoryUrl(loaded: LoadedConfig): Promise<string | undefined> {
  const configured = loaded.config?.service.repositoryUrl;
  const url = configured !== undefined && configured.trim() !== '' ? configured : await detectGitRemoteUrl(loaded.rootDir);
  return url ? stripRepositoryUrlCredentials(url) : undefined;
}

function buildBundle(loaded: LoadedConfig, repositoryUrl: string | undefined, strict: boolean): SyncBundle | undefined {
  const config = loaded.config;
  if (!config) return undefined;
  const artifacts: SyncArtifact[] = [];
  for (const artifact of loaded.artifacts) {
    const { main, context, notes } = artifact.loaded;
    if (!main) return undefined;
    artifacts.push({
      kind: artifact.kind,
      name: artifact.name,
      file: toSyncFile(main),
      ...(context ? { context: toSyncFile(context) } : {}),
      ...(notes ? { notes: toSyncFile(notes) } : {}),
      ...(artifact.engine ? { engine: artifact.engine } : {}),
      ...(artifact.format ? { format: artifact.format } : {}),
    });
  }
  const { name, description } = config.service;
  return {
    version: SYNC_BUNDLE_VERSION,
    service: {
      name,
      ...(description !== undefined ? { description } : {}),
      ...(repositoryUrl ? { repositoryUrl } : {}),
    },
    artifacts,
    ...(strict ? { strict } : {}),
  };
}

function toSyncFile(file: LoadedFile): SyncFile {
  return { path: file.path, content: file.content, sha256: file.sha256 };
}

/** A repository path as the user sees it from the working directory (so problems are clickable). */
function toDisplay(loaded: LoadedConfig, repositoryPath: string): string {
  const configDir = path.posix.dirname(loaded.displayPath);
  return configDir === '.' ? repositoryPath : `${configDir}/${repositoryPath}`;
}
