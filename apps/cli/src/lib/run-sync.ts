import { createHash } from 'node:crypto';
import { byKindAndName, plural, previewLabelProblem, SYNC_CHECK_PATH, SYNC_PREVIEW_PARAM, syncBundleDigest, type SyncBundle, type SyncResult } from '@sc/contracts/core';
import { ExitCode } from './exit-codes';
import { CliError, type CliProblem } from './cli-error';
import { detailLines, formatBytes, formatProblems, progressPrinter, renderTable } from './format';
import { resolveGateway, requireToken, TOKEN_PAGE_HINT, type Env, type GatewayTarget } from './gateway';
import { checkGatewayVersion } from './handshake';
import { redactingIo, runReportingErrors, type CliIo } from './io';
import type { SyncDoneJson, SyncDryRunJson } from './output-types';
import type { DiagramChecker } from './diagram-check';
import { loadSync, validateSync, type ArtifactRow, type LoadedSync, type PreparedSync } from './prepare-sync';
import { checkSyncDigest, DEFAULT_TRANSPORT_OPTIONS, postSyncBundle, type TransportOptions } from './transport';
import { resolveSyncSource, type GitRunner } from './sync-source';

export interface SyncOptions {
  config?: string;
  dryRun: boolean;
  enterprise: boolean;
  json: boolean;
  timeoutMs?: number;
  retries?: number;
  /** Print the parser's own report under each Mermaid problem. */
  verbose?: boolean;
  /** `--strict` / `--no-strict`: warnings fail the sync; undefined leaves it to `.service.yaml`'s `strict`. */
  strict?: boolean;
  /** `--preview`: store the bundle as a preview of the service (labelled `label`), not as a new revision. */
  preview?: boolean;
  /** `--label`: the preview's label; default: the branch of the CI environment or git (sync-source.ts). */
  label?: string;
}

export interface SyncContext {
  cwd: string;
  env: Env;
  io: CliIo;
  userAgent: string;
  /** This CLI's release, compared with the gateway's in the version handshake. */
  cliVersion: string;
  /** Test hook for the backoff (the CLI uses real timers). */
  transport?: Partial<Pick<TransportOptions, 'backoffBaseMs' | 'backoffMaxMs' | 'sleep' | 'random'>>;
  /** Test hook: the Mermaid + context validator (the CLI parses on worker threads, see openPooledDiagramChecker). */
  checkDiagram?: DiagramChecker;
  /** Test hook: how `git rev-parse` is run for the sync's commit and branch. */
  git?: GitRunner;
}

/** `service-cli sync`: validate everything locally, then (unless --dry-run) post the bundle. Returns the exit code. */
export async function runSync(options: SyncOptions, context: SyncContext): Promise<ExitCode> {
  // Redact the token from everything printed, whatever path the output takes.
  const io = redactingIo(context.io, [context.env['SERVICE_TOKEN']?.trim()]);
  return runReportingErrors(io, options.json, () => (options.dryRun ? dryRun(options, context, io) : realSync(options, context, io)), { verbose: options.verbose });
}

async function dryRun(options: SyncOptions, context: SyncContext, io: CliIo): Promise<ExitCode> {
  // A dry run needs no gateway or token, but says where a real sync would go when it can.
  let gateway: GatewayTarget | undefined;
  let gatewayNote: string;
  try {
    gateway = resolveGateway(context.env, options.enterprise);
    gatewayNote = `A real sync would post to ${gateway.syncUrl} (from ${gateway.source}).`;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    gatewayNote = `A real sync would fail: ${error.message}`;
  }
  const prepared = await prepare(await loadSync(options.config, context.cwd, options.strict), options, context, io);
  const ok = !hasErrors(prepared) && strictRefusal(prepared.strict, prepared.problems) === undefined;
  const exitCode = ok ? ExitCode.Ok : ExitCode.Validation;
  if (options.json) {
    const output: SyncDryRunJson = {
      ok,
      exitCode,
      dryRun: true,
      config: prepared.loaded.displayPath,
      ...(prepared.loaded.config ? { service: prepared.loaded.config.service.name } : {}),
      ...(prepared.repositoryUrl ? { repositoryUrl: prepared.repositoryUrl } : {}),
      gateway: gateway ? { url: gateway.syncUrl, source: gateway.source } : null,
      artifacts: prepared.rows,
      problems: prepared.problems,
    };
    io.out(JSON.stringify(output, null, 2));
    return exitCode;
  }
  io.out(`Dry run of ${prepared.loaded.displayPath}${prepared.loaded.config ? ` (service ${prepared.loaded.config.service.name})` : ''}: nothing is sent.`);
  if (prepared.repositoryUrl) io.out(`Repository: ${prepared.repositoryUrl}`);
  if (prepared.rows.length) io.out(artifactTable(prepared.rows));
  if (prepared.problems.length) io.err(formatProblems(prepared.problems, options));
  for (const notice of gateway?.notices ?? []) io.err(notice);
  io.out(gatewayNote);
  if (!context.env['SERVICE_TOKEN']?.trim()) io.out(`SERVICE_TOKEN is not set; a real sync needs it. ${TOKEN_PAGE_HINT}`);
  const refusal = strictRefusal(prepared.strict, prepared.problems);
  if (ok) io.out(`${plural(prepared.rows.length, 'artifact')} valid; the sync would send them.`);
  // The verdict sums up the problems printed on stderr, so it goes there too: a log of stderr alone ends with it.
  else if (hasErrors(prepared)) io.err('Invalid: fix the errors above; a real sync would send nothing.');
  else io.err(`Invalid: ${refusal}; a real sync would send nothing.`);
  return exitCode;
}

async function realSync(options: SyncOptions, context: SyncContext, io: CliIo): Promise<ExitCode> {
  // Configuration problems (exit 2) are reported before the slower validation.
  const token = requireToken(context.env);
  const gateway = resolveGateway(context.env, options.enterprise);
  for (const notice of gateway.notices) io.err(notice);

  const transport = transportFor(options, context);
  const step = (text: string): void => {
    if (!options.json) io.err(text);
  };
  const debug = (text: string): void => {
    if (context.env['SERVICE_CLI_DEBUG']) io.err(`debug: ${text}`);
  };

  // Reading and hashing the files is cheap; parsing every Mermaid file is not. When the gateway already has
  // exactly this bundle (same digest), the parse and the upload are skipped: the server accepted these bytes.
  const loadedSync = await loadSync(options.config, context.cwd, options.strict);
  // Where the files come from (CI variables, git): the server keeps it with the revision and in the audit log.
  const source = await resolveSyncSource(context.env, loadedSync.loaded.rootDir, context.git);
  // Nothing known: no `source` at all (a gateway of an older release need not know the field).
  const sourced = Object.keys(source).length > 0 ? { source } : {};
  if (sourced.source) debug(`source: ${JSON.stringify(source)}`);
  const previewLabel = options.preview ? checkedPreviewLabel(options.label ?? source.branch) : undefined;
  // A preview is always sent: the digest check only says whether the current revision holds these files.
  if (loadedSync.bundle && previewLabel === undefined) {
    // The first request, once the config is valid (an invalid one fails without touching the network): an outdated
    // CLI stops here with the upgrade command instead of failing later in a way that does not say why.
    for (const warning of await checkGatewayVersion(gateway, context.cliVersion, transport, debug)) io.err(warning);
    const result = await unchangedResult(gateway, token, { ...loadedSync.bundle, ...sourced }, transport, debug);
    if (result) {
      const warnings = [...loadedSync.problems, ...loadedSync.limitWarnings];
      failIfStrict(loadedSync.strict, warnings, loadedSync.loaded.displayPath);
      if (!options.json && warnings.length) io.err(formatProblems(warnings, options));
      step(`The gateway's revision ${result.revision} of ${result.service} already holds exactly these files; nothing was re-validated or sent.`);
      return printDone(options, io, gateway, loadedSync.loaded.displayPath, loadedSync.rows, warnings, result);
    }
  }

  const prepared = await prepare(loadedSync, options, context, io);
  if (hasErrors(prepared) || !prepared.bundle) {
    throw new CliError(ExitCode.Validation, 'validation_failed', `${prepared.loaded.displayPath} or the files it names are invalid; nothing was sent.`, prepared.problems);
  }
  const warnings = prepared.problems;
  failIfStrict(prepared.strict, warnings, prepared.loaded.displayPath);
  if (!options.json && warnings.length) io.err(formatProblems(warnings, options));

  if (previewLabel !== undefined) {
    // The handshake ran with the digest check above, which a preview skips.
    for (const warning of await checkGatewayVersion(gateway, context.cliVersion, transport, debug)) io.err(warning);
  }
  const url = previewLabel === undefined ? gateway.syncUrl : `${gateway.syncUrl}?${SYNC_PREVIEW_PARAM}=${encodeURIComponent(previewLabel)}`;
  step(`Sending ${plural(prepared.bundle.artifacts.length, 'artifact')} of service ${prepared.bundle.service.name} to ${url}${previewLabel === undefined ? '' : ' as a preview'} …`);
  const result = await postSyncBundle(url, token, { ...prepared.bundle, ...sourced }, {
    ...transport,
    onRetry: (attempt, delayMs, reason) => step(`Attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s …`),
  });
  return printDone(options, io, gateway, prepared.loaded.displayPath, prepared.rows, warnings, result);
}

/** The preview's label (`--label`, else the CI or git branch), checked with the gateway's rule before anything is sent. */
function checkedPreviewLabel(label: string | undefined): string {
  if (label === undefined) {
    throw new CliError(
      ExitCode.Configuration,
      'preview_label_missing',
      'sync --preview needs a label: pass --label <branch>, or run it where the branch is known (GITHUB_HEAD_REF, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME, SERVICE_SYNC_BRANCH or a git checkout on a branch).',
    );
  }
  const problem = previewLabelProblem(label);
  if (problem !== null) throw new CliError(ExitCode.Configuration, 'invalid_preview_label', problem);
  return label;
}

/** The transport of a command with `--timeout` and `--retries` (sync, diff): the defaults, the flags, then the test hooks. */
export function transportFor(options: { timeoutMs?: number; retries?: number }, context: Pick<SyncContext, 'transport' | 'userAgent'>): TransportOptions {
  return {
    ...DEFAULT_TRANSPORT_OPTIONS,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...context.transport,
    userAgent: context.userAgent,
  };
}

/**
 * Asks the gateway whether its current revision of the service has this bundle's digest, and if so returns the
 * result an unchanged POST would have given (every artifact unchanged). Undefined means "sync as usual": not
 * current, or the check failed (an older gateway without the endpoint answers 404), which is only worth a
 * debug line because the full sync reports real problems itself.
 */
async function unchangedResult(gateway: GatewayTarget, token: string, bundle: SyncBundle, transport: TransportOptions, debug: (text: string) => void): Promise<SyncResult | undefined> {
  const digest = syncBundleDigest(bundle, (text) => createHash('sha256').update(text, 'utf8').digest('hex'));
  const checked = await checkSyncDigest(`${gateway.baseUrl}${SYNC_CHECK_PATH}`, token, { service: bundle.service.name, digest, ...(bundle.source ? { source: bundle.source } : {}) }, transport);
  if (!checked.ok) {
    debug(`sync check unavailable (${checked.reason}); validating and sending the bundle.`);
    return undefined;
  }
  const { result } = checked;
  if (!result.current || result.revision === null) {
    debug(`sync check: bundle ${digest} is not the current revision${result.revision === null ? '' : ` (${result.revision})`}; validating and sending it.`);
    return undefined;
  }
  return {
    organizationId: result.organizationId,
    service: result.service,
    revision: result.revision,
    status: 'unchanged',
    created: [],
    updated: [],
    unchanged: bundle.artifacts.map(({ kind, name }) => ({ kind, name })).sort(byKindAndName),
    removed: [],
    serviceUrl: result.serviceUrl,
  };
}

function printDone(options: SyncOptions, io: CliIo, gateway: GatewayTarget, config: string, rows: ArtifactRow[], warnings: SyncDoneJson['problems'], result: SyncResult): ExitCode {
  if (options.json) {
    const output: SyncDoneJson = { ok: true, exitCode: 0, dryRun: false, config, gateway: { url: gateway.syncUrl, source: gateway.source }, artifacts: rows, problems: warnings, result };
    io.out(JSON.stringify(output, null, 2));
  } else {
    io.out(resultSummary(result));
  }
  return ExitCode.Ok;
}

async function prepare(loaded: LoadedSync, options: SyncOptions, context: SyncContext, io: CliIo): Promise<PreparedSync> {
  const progress = progressPrinter((text) => io.err(text), io.isTTY && !options.json);
  try {
    return await validateSync(
      loaded,
      options.json ? undefined : (done, total, label) => progress.update(done, total, done === total ? `validated ${plural(total, 'artifact')}` : `validating ${label}`),
      context.checkDiagram,
    );
  } finally {
    progress.done();
  }
}

/** Why a strict sync fails on these problems, or undefined (not strict, or no warning). */
function strictRefusal(strict: boolean, problems: readonly CliProblem[]): string | undefined {
  const warnings = problems.filter((problem) => problem.severity === 'warning').length;
  if (!strict || warnings === 0) return undefined;
  return `strict mode (strict: true in .service.yaml, or --strict) fails on ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

function failIfStrict(strict: boolean, problems: CliProblem[], config: string): void {
  const refusal = strictRefusal(strict, problems);
  if (refusal) throw new CliError(ExitCode.Validation, 'strict_warnings', `${config}: ${refusal}; nothing was sent.`, problems);
}

function hasErrors(prepared: PreparedSync): boolean {
  return prepared.problems.some((problem) => problem.severity === 'error');
}

/**
 * The dry run's table: the short columns side by side, then under each row its files, SHA-256 and context report,
 * so it fits TEXT_WIDTH columns (the long cells side by side made a 277-column line for the sample repository).
 */
export function artifactTable(rows: readonly ArtifactRow[]): string {
  const table = renderTable(
    ['KIND', 'NAME', 'SIZE', 'DIAGRAM', 'NODES', 'EDGES'],
    rows.map((row) => [
      row.kind,
      row.name,
      formatBytes(row.size),
      row.diagramKind ?? (row.engine ? `(${row.engine})` : row.format ? `(${row.format})` : '-'),
      row.nodes !== undefined ? String(row.nodes) : '-',
      row.edges !== undefined ? String(row.edges) : '-',
    ]),
  ).split('\n');
  const details = (row: ArtifactRow): string[] => [
    ...detailLines('files', [row.path, row.contextPath, row.notesPath].filter((file): file is string => Boolean(file)).map((file, index) => (index ? `+ ${file}` : file)), DETAIL_INDENT, DETAIL_LABEL_WIDTH),
    ...detailLines('sha-256', row.sha256, DETAIL_INDENT, DETAIL_LABEL_WIDTH),
    ...(row.context ? detailLines('context', contextCell(row), DETAIL_INDENT, DETAIL_LABEL_WIDTH) : []),
  ];
  // renderTable's first two lines are the header and its rule; each artifact's row follows in order.
  return [...table.slice(0, 2), ...rows.flatMap((row, index) => [table[index + 2], ...details(row)])].join('\n');
}

const DETAIL_INDENT = 4;
const DETAIL_LABEL_WIDTH = 'sha-256'.length;

/**
 * The context line. When the Mermaid file failed, the context file was still checked on its own (JSON, every
 * field), but its keys could not be matched to the diagram's ids: the line says so instead of "0 unmatched".
 */
function contextCell(row: ArtifactRow): string {
  const context = row.context;
  if (!context) return '-';
  const counts = `${plural(context.errors, 'error')}, ${plural(context.warnings, 'warning')}`;
  if (row.diagramKind === undefined) return `${counts}; ids not checked (the diagram has errors)`;
  return `${context.applied} applied, ${context.unmatched} unmatched, ${counts}`;
}

function resultSummary(result: SyncResult): string {
  const { preview } = result;
  const lines = [
    preview
      ? `Stored preview "${preview.label}" of service ${result.service}, compared with revision ${result.revision} (not synced: the current revision is unchanged). It expires ${preview.expiresAt}.`
      : result.status === 'unchanged'
        ? `Service ${result.service} is unchanged at revision ${result.revision}.`
        : `Synced service ${result.service}: revision ${result.revision}.`,
  ];
  const groups: Array<[string, SyncResult['created']]> = [
    ['created', result.created],
    ['updated', result.updated],
    ['unchanged', result.unchanged],
    ['removed', result.removed],
  ];
  for (const [label, refs] of groups) {
    // Unchanged artifacts are the bulk of a routine sync: count them, list only what moved.
    const names = label !== 'unchanged' && refs.length ? `: ${refs.map((ref) => `${ref.kind} ${ref.name}`).join(', ')}` : '';
    lines.push(`  ${label.padEnd(9)} ${refs.length}${names}`);
  }
  lines.push(preview ? `Preview page: ${preview.url}` : `Service page: ${result.serviceUrl}`);
  return lines.join('\n');
}
