import * as path from 'node:path';
import { DEFAULT_SYNC_LIMITS, ME_PATH, serviceFilesPath, type SyncArtifact } from '@sc/contracts/core';
import type { MeResponse, ServiceRevisionFiles } from '@sc/contracts';
import { diffArtifacts, type ArtifactsDiff, type SideArtifact } from './artifact-diff';
import { CliError, type CliProblem } from './cli-error';
import { openPooledDiagramChecker, type DiagramChecker } from './diagram-check';
import { readSqlTables } from './schema-read';
import { diffMarkdown, diffText, summaryLine, type DiffSides } from './diff-format';
import { ExitCode } from './exit-codes';
import { resolveGateway, requireToken, type GatewayTarget } from './gateway';
import { redactingIo, runReportingErrors, type CliIo } from './io';
import type { DiffJson, DiffSideJson } from './output-types';
import { loadSync } from './prepare-sync';
import { transportFor, type SyncContext } from './run-sync';
import { getWithToken, type TransportOptions } from './transport';

export interface DiffOptions {
  config?: string;
  /** Compare with this revision on the server instead of the current one. */
  against?: number;
  /** Compare with another checkout instead of the server. */
  base?: string;
  json: boolean;
  format: 'text' | 'markdown';
  /** Exit 4 (ExitCode.DiffChanged) when something changed. */
  exitCode: boolean;
  /** Linked from the markdown (the preview of `sync --preview`). */
  previewUrl?: string;
  enterprise: boolean;
  timeoutMs?: number;
  retries?: number;
}

/** One side of the comparison: its artifacts as a sync would send them, and how to name it. */
interface Side {
  json: DiffSideJson;
  words: string;
  artifacts: SyncArtifact[];
  /** Prefix of the file names in this side's problems. */
  label: string;
}

/**
 * `service-cli diff`: the repository's artifacts (as `sync` would send them) against the service's revision on
 * the server (or another checkout), diagram by diagram with the dashboard's graph diff. Returns the exit code.
 */
export async function runDiff(options: DiffOptions, context: SyncContext): Promise<ExitCode> {
  const io = redactingIo(context.io, [context.env['SERVICE_TOKEN']?.trim()]);
  return runReportingErrors(io, options.json, () => diff(options, context, io));
}

async function diff(options: DiffOptions, context: SyncContext, io: CliIo): Promise<ExitCode> {
  if (options.base !== undefined && options.against !== undefined) {
    throw new CliError(ExitCode.Configuration, 'invalid_arguments', '--base compares two checkouts and --against a revision on the server: give one of them.');
  }
  const after = await checkoutSide(options.config, context.cwd, 'the checkout');
  const service = after.service;
  const before = options.base !== undefined ? await baseSide(options, context) : await serverSide(options, context, io, service);

  const parsed = await parseSides([before, after.side], context.checkDiagram);
  const errors = parsed.problems.filter((problem) => problem.severity === 'error');
  if (errors.length) throw new CliError(ExitCode.Validation, 'validation_failed', 'A diagram, context file or SQL schema could not be parsed; nothing was compared.', errors);
  const [beforeArtifacts, afterArtifacts] = parsed.sides as [SideArtifact[], SideArtifact[]];
  const result = diffArtifacts(beforeArtifacts, afterArtifacts);
  const sides: DiffSides = { service, before: before.words, after: after.side.words };
  const exitCode = options.exitCode && result.changed ? ExitCode.DiffChanged : ExitCode.Ok;
  if (options.json) io.out(JSON.stringify(diffJson(result, before, after.side, service, exitCode, options.previewUrl), null, 2));
  else if (options.format === 'markdown') io.out(diffMarkdown(result, sides, options.previewUrl).trimEnd());
  else io.out(diffText(result, sides));
  return exitCode;
}

function diffJson(result: ArtifactsDiff, before: Side, after: Side, service: string, exitCode: ExitCode, previewUrl: string | undefined): DiffJson {
  return {
    ok: true,
    exitCode,
    changed: result.changed,
    service,
    before: before.json,
    after: after.json,
    ...(previewUrl ? { previewUrl } : {}),
    summaryLine: summaryLine(result),
    summary: result.summary,
    diagrams: result.diagrams,
    artifacts: result.artifacts,
  };
}

/** A checkout's artifacts exactly as `sync` would send them (its config and files read by the sync's own code). */
async function checkoutSide(config: string | undefined, dir: string, words: string): Promise<{ side: Side; service: string }> {
  const loaded = await loadSync(config, dir);
  if (!loaded.bundle) {
    throw new CliError(ExitCode.Validation, 'validation_failed', `${words === 'the checkout' ? '' : `${words}: `}${loaded.loaded.displayPath} or the files it names are invalid; nothing was compared.`, loaded.problems);
  }
  const service = loaded.bundle.service.name;
  return {
    service,
    side: { json: { source: 'directory', dir, config: loaded.loaded.displayPath }, words: `${words} (${loaded.loaded.displayPath})`, artifacts: loaded.bundle.artifacts, label: words === 'the checkout' ? '' : `${dir}: ` },
  };
}

async function baseSide(options: DiffOptions, context: SyncContext): Promise<Side> {
  const baseDir = path.resolve(context.cwd, options.base as string);
  // The same config path, relative to the other checkout.
  const config = options.config !== undefined ? path.relative(context.cwd, path.resolve(context.cwd, options.config)) : undefined;
  return (await checkoutSide(config, baseDir, `the checkout in ${options.base}`)).side;
}

/** The service's current revision (or --against) on the server, read with SERVICE_TOKEN (read scope). */
async function serverSide(options: DiffOptions, context: SyncContext, io: CliIo, service: string): Promise<Side> {
  const token = requireToken(context.env);
  const gateway = resolveGateway(context.env, options.enterprise);
  if (!options.json) for (const notice of gateway.notices) io.err(notice);
  const transport: TransportOptions = {
    ...transportFor(options, context),
    onRetry: (attempt, delayMs, reason) => {
      if (!options.json) io.err(`Attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s …`);
    },
  };
  const organization = await tokenOrganization(gateway, token, transport);
  const query = options.against !== undefined ? `?revision=${options.against}` : '';
  // JSON escaping may make the answer larger than the files it holds.
  const answer = await getWithToken(`${gateway.baseUrl}${serviceFilesPath(organization, service)}${query}`, token, transport, 'Reading the revision', 2 * DEFAULT_SYNC_LIMITS.maxSyncBytes);
  const json = (revision: number | null): DiffSideJson => ({ source: 'server', gateway: gateway.baseUrl, organization, revision });
  if (answer.status === 404 && 'code' in answer && answer.code === 'service_not_found' && options.against === undefined) {
    // A new service: everything is added.
    return { json: json(null), words: `nothing (service ${service} is not on ${gateway.baseUrl} yet)`, artifacts: [], label: 'server: ' };
  }
  if (answer.status !== 200 || !('body' in answer) || !isRevisionFiles(answer.body)) throw readFailure(answer, `service ${service}${query ? ` revision ${options.against}` : ''}`);
  const files = answer.body;
  return {
    json: json(files.revision),
    words: `revision ${files.revision} on ${gateway.baseUrl}`,
    label: `revision ${files.revision}: `,
    artifacts: files.artifacts.map((artifact) => ({
      kind: artifact.kind,
      name: artifact.name,
      file: { path: artifact.file.path, content: artifact.file.content, sha256: artifact.file.sha256 },
      ...(artifact.context ? { context: { path: artifact.context.path, content: artifact.context.content, sha256: artifact.context.sha256 } } : {}),
      ...(artifact.notes ? { notes: { path: artifact.notes.path, content: artifact.notes.content, sha256: artifact.notes.sha256 } } : {}),
      ...(artifact.engine ? { engine: artifact.engine } : {}),
      ...(artifact.format ? { format: artifact.format } : {}),
    })),
  };
}

/** The token's organization (GET /api/v1/me): the read API's paths name it. */
async function tokenOrganization(gateway: GatewayTarget, token: string, transport: TransportOptions): Promise<string> {
  const answer = await getWithToken(`${gateway.baseUrl}${ME_PATH}`, token, transport, 'Reading the token\'s organization');
  const me = 'body' in answer ? (answer.body as MeResponse | undefined) : undefined;
  if (answer.status === 200 && typeof me?.organization?.id === 'string') return me.organization.id;
  throw readFailure(answer, 'the token\'s organization');
}

function readFailure(answer: Awaited<ReturnType<typeof getWithToken>>, what: string): CliError {
  const message = 'message' in answer && answer.message ? `: ${answer.message}` : '';
  const details = 'details' in answer ? answer.details : [];
  const code = 'code' in answer ? answer.code : undefined;
  switch (answer.status) {
    case 200:
      return new CliError(ExitCode.ServerOrNetwork, 'gateway_bad_response', `The gateway answered 200 for ${what} but not with what service-cli expects; is SERVICE_GATEWAY_URL a system-context installation of this release?`);
    case 401:
      return new CliError(ExitCode.Configuration, 'token_rejected', `The gateway rejected SERVICE_TOKEN (401${message}). It may be revoked, expired or from another installation.`, details);
    case 403:
      return new CliError(ExitCode.Configuration, 'token_forbidden', `The token may not read ${what} (403${message}). service-cli diff needs a token with the "read" scope (a CI token may have both "sync" and "read").`, details);
    case 404:
      return new CliError(ExitCode.Configuration, code ?? 'not_found', `The gateway has no ${what} (404${message}).`, details);
    default:
      return new CliError(answer.status < 500 ? ExitCode.Validation : ExitCode.ServerOrNetwork, code ?? 'gateway_error', `The gateway refused to read ${what} (${answer.status}${message}).`, details);
  }
}

function isRevisionFiles(body: unknown): body is ServiceRevisionFiles {
  const files = body as ServiceRevisionFiles | undefined;
  return typeof files === 'object' && files !== null && typeof files.revision === 'number' && Array.isArray(files.artifacts);
}

/**
 * Builds both sides' compared artifacts: every architecture diagram parsed and its context applied by the sync's
 * checker (worker threads, the server's code), with the side's databases known, so both graphs come from one code;
 * every SQL schema read into tables by the server's parsers (@sc/diagram/node).
 */
async function parseSides(sides: Side[], checker?: DiagramChecker): Promise<{ sides: SideArtifact[][]; problems: CliProblem[] }> {
  const diagrams = sides.reduce((count, side) => count + side.artifacts.filter((artifact) => artifact.kind === 'architecture-diagram').length, 0);
  const pooled = checker || diagrams === 0 ? undefined : openPooledDiagramChecker(diagrams);
  // Without diagrams nothing is parsed, so no worker thread is started.
  const check = (checker ?? pooled?.check) as DiagramChecker;
  const problems: CliProblem[] = [];
  try {
    const built = await Promise.all(
      sides.map((side) => {
        const databaseNames = side.artifacts.filter((artifact) => artifact.kind === 'database-schema').map((artifact) => artifact.name);
        return Promise.all(
          side.artifacts.map(async (artifact): Promise<SideArtifact> => {
            const files: SideArtifact['files'] = [
              { role: 'main', path: artifact.file.path, sha256: artifact.file.sha256 },
              ...(artifact.context ? [{ role: 'context' as const, path: artifact.context.path, sha256: artifact.context.sha256 }] : []),
              ...(artifact.notes ? [{ role: 'notes' as const, path: artifact.notes.path, sha256: artifact.notes.sha256 }] : []),
            ];
            if (artifact.kind === 'database-schema') {
              const read = await readSqlTables(artifact, `${side.label}${artifact.file.path}`);
              if (read.problem) problems.push(read.problem);
              return { kind: artifact.kind, name: artifact.name, files, ...(read.tables ? { tables: read.tables } : {}) };
            }
            if (artifact.kind !== 'architecture-diagram') return { kind: artifact.kind, name: artifact.name, files };
            const checked = await check({
              diagramFile: `${side.label}${artifact.file.path}`,
              mermaid: artifact.file.content,
              ...(artifact.context ? { contextFile: `${side.label}${artifact.context.path}`, context: artifact.context.content } : {}),
              databaseNames,
            });
            problems.push(...checked.problems);
            return { kind: artifact.kind, name: artifact.name, files, ...(checked.graph ? { graph: checked.graph } : {}) };
          }),
        );
      }),
    );
    return { sides: built, problems };
  } finally {
    await pooled?.close();
  }
}
