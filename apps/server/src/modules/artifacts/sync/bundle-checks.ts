import {
  API_SPEC_FORMATS,
  ARTIFACT_KINDS,
  DATABASE_ENGINES,
  SERVICE_TEXT_LIMITS,
  SQL_DATABASE_ENGINES,
  SYNC_BUNDLE_VERSION,
  findUnstorableCharacter,
  isNormalizedRepositoryPath,
  isPlainObject,
  nameProblem,
  textFieldProblem,
  unstorableCharacterMessage,
  type ErrorDetail,
  type SyncArtifact,
  type SyncBundle,
  type SyncFile,
  type SyncProblemDetail,
  syncSourceProblems,
} from '@sc/contracts';
import { positionOf } from '@sc/diagram';
import { sha256Hex } from '../../../common/crypto/tokens';
import { fieldPath, unstorableCollector, walkJson } from '../../../common/http/json-input';
import type { ArtifactsLimits } from '../artifacts.config';
import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';

/**
 * The gateway never trusts the CLI. These checks run before any parsing, cheapest first: the bundle's shape
 * (400), the configured limits (413), then the rules every artifact must follow (422 details).
 */

type ShapeResult = { ok: true; bundle: SyncBundle } | { ok: false; details: ErrorDetail[] };

const COMPANIONS = ['context', 'notes'] as const;

/** JSON path of a file's content in the bundle: `$.artifacts[3].context.content`. */
const FILE_CONTENT_PATH = /^\$\.artifacts\[\d+\]\.(?:file|context|notes)\.content$/;

/** Checks the JSON shape of a bundle and reports every deviation with its JSON path. */
export function parseBundleShape(body: unknown): ShapeResult {
  const details: ErrorDetail[] = [];
  const problem = (path: string, message: string) => details.push({ path, message });
  if (!isPlainObject(body)) return { ok: false, details: [{ path: '$', message: 'The body must be a JSON object.' }] };
  if (body['version'] !== SYNC_BUNDLE_VERSION) {
    problem('$.version', `Unsupported bundle version ${JSON.stringify(body['version'])}; this server accepts version ${SYNC_BUNDLE_VERSION}.`);
  }
  const service = body['service'];
  if (!isPlainObject(service)) {
    problem('$.service', 'service must be an object with name, description and repositoryUrl.');
  } else {
    if (typeof service['name'] !== 'string') problem('$.service.name', 'service.name must be a string.');
    for (const key of ['description', 'repositoryUrl'] as const) {
      if (service[key] !== undefined && service[key] !== null && typeof service[key] !== 'string') {
        problem(`$.service.${key}`, `service.${key} must be a string when present.`);
      }
    }
  }
  if (body['strict'] !== undefined && typeof body['strict'] !== 'boolean') problem('$.strict', 'strict must be true or false when present.');
  if (body['source'] !== undefined) {
    for (const { path, message } of syncSourceProblems(body['source'])) problem(`$.source${path ? `.${path}` : ''}`, message);
  }
  const artifacts = body['artifacts'];
  if (!Array.isArray(artifacts)) {
    problem('$.artifacts', 'artifacts must be an array.');
  } else {
    artifacts.forEach((artifact, index) => checkArtifactShape(artifact, `$.artifacts[${index}]`, problem));
  }
  // Every string but file contents may reach a query before the artifact rules have run (the service name looks
  // up the cached analyses): none may hold a NUL (PostgreSQL 22021) or an unpaired surrogate. File contents are
  // checked with the artifact rules, which name the line and column.
  walkJson(body, unstorableCollector(details, (path) => FILE_CONTENT_PATH.test(path)), fieldPath, '$');
  return details.length > 0 ? { ok: false, details } : { ok: true, bundle: body as unknown as SyncBundle };
}

function checkArtifactShape(artifact: unknown, at: string, problem: (path: string, message: string) => void): void {
  if (!isPlainObject(artifact)) return problem(at, 'Each artifact must be an object.');
  if (!ARTIFACT_KINDS.includes(artifact['kind'] as never)) {
    problem(`${at}.kind`, `kind must be one of ${ARTIFACT_KINDS.join(', ')}.`);
  }
  if (typeof artifact['name'] !== 'string') problem(`${at}.name`, 'name must be a string.');
  checkFileShape(artifact['file'], `${at}.file`, problem);
  for (const companion of COMPANIONS) {
    if (artifact[companion] !== undefined) checkFileShape(artifact[companion], `${at}.${companion}`, problem);
  }
  if (artifact['engine'] !== undefined && !DATABASE_ENGINES.includes(artifact['engine'] as never)) {
    problem(`${at}.engine`, `engine must be one of ${DATABASE_ENGINES.join(', ')}.`);
  }
  if (artifact['format'] !== undefined && !API_SPEC_FORMATS.includes(artifact['format'] as never)) {
    problem(`${at}.format`, `format must be one of ${API_SPEC_FORMATS.join(', ')}.`);
  }
}

function checkFileShape(file: unknown, at: string, problem: (path: string, message: string) => void): void {
  if (!isPlainObject(file)) return problem(at, 'A file must be an object with path, content and sha256.');
  for (const key of ['path', 'content', 'sha256'] as const) {
    if (typeof file[key] !== 'string') problem(`${at}.${key}`, `${key} must be a string.`);
  }
}

/** Every file of an artifact: the main file first, then its companions. */
export function artifactFiles(artifact: SyncArtifact): SyncFile[] {
  return [artifact.file, artifact.context, artifact.notes].filter((file): file is SyncFile => file !== undefined);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Throws the 413 naming the first limit the bundle exceeds. */
export function enforceLimits(bundle: SyncBundle, limits: ArtifactsLimits): void {
  if (bundle.artifacts.length > limits.maxArtifacts) {
    throw artifactsError(
      ArtifactsErrorCode.TooManyArtifacts,
      `The sync has ${bundle.artifacts.length} artifacts; the limit is ${limits.maxArtifacts} (SERVICE_SYNC_MAX_ARTIFACTS).`,
      [{ message: 'Artifact count over the limit.', limit: 'SERVICE_SYNC_MAX_ARTIFACTS', max: limits.maxArtifacts, actual: bundle.artifacts.length }],
    );
  }
  let total = 0;
  const oversized: ErrorDetail[] = [];
  for (const artifact of bundle.artifacts) {
    for (const file of artifactFiles(artifact)) {
      const bytes = utf8Bytes(file.content);
      total += bytes;
      const { max, limit } = fileLimit(artifact, file, limits);
      if (bytes > max) {
        oversized.push({ message: `${file.path} is ${bytes} bytes; the limit is ${max} bytes (${limit}).`, file: file.path, artifact: { kind: artifact.kind, name: artifact.name }, limit, max, actual: bytes });
      }
    }
  }
  if (oversized.length > 0) {
    const variables = [...new Set(oversized.map((detail) => detail.limit))].join(', ');
    throw artifactsError(ArtifactsErrorCode.FileTooLarge, `${oversized.length} file(s) exceed their size limit (${variables}).`, oversized);
  }
  if (total > limits.maxSyncBytes) {
    throw syncTooLarge(limits.maxSyncBytes, `The files of this sync add up to ${total} bytes`);
  }
}

/** A database schema's own file may be as large as SERVICE_SYNC_MAX_SCHEMA_BYTES; every other file SERVICE_SYNC_MAX_FILE_BYTES. */
function fileLimit(artifact: SyncArtifact, file: SyncFile, limits: ArtifactsLimits): { max: number; limit: string } {
  return artifact.kind === 'database-schema' && file === artifact.file
    ? { max: limits.maxSchemaBytes, limit: 'SERVICE_SYNC_MAX_SCHEMA_BYTES' }
    : { max: limits.maxFileBytes, limit: 'SERVICE_SYNC_MAX_FILE_BYTES' };
}

export function syncTooLarge(maxSyncBytes: number, what: string) {
  return artifactsError(
    ArtifactsErrorCode.SyncTooLarge,
    `${what}; the limit per sync is ${maxSyncBytes} bytes (SERVICE_SYNC_MAX_BYTES).`,
    [{ message: 'Sync size over the limit.', limit: 'SERVICE_SYNC_MAX_BYTES', max: maxSyncBytes }],
  );
}

/**
 * A NUL or an unpaired surrogate in a file (PostgreSQL cannot store the first; the second is not text), with the
 * line and column where it is. Checked before any parser sees the content.
 */
function unstorableCharacterIn(file: SyncFile): SyncProblemDetail | undefined {
  const inPath = findUnstorableCharacter(file.path);
  if (inPath) return { code: 'unstorable_character', message: `The path "${file.path}" ${unstorableCharacterMessage(inPath)}.`, file: file.path };
  const found = findUnstorableCharacter(file.content);
  if (!found) return undefined;
  const { line, column } = positionOf(file.content, found.index);
  return { code: 'unstorable_character', message: `${file.path} ${unstorableCharacterMessage(found)} (line ${line}, column ${column}).`, file: file.path, line, column };
}

/** Kinds a service has at most one of (the jobs notes, the job-dependency graph, the summary). */
const SINGLE_KINDS = new Set<SyncArtifact['kind']>(['job-notes', 'job-dependencies', 'service-summary']);

/**
 * The rules that do not need a parser: names, paths, hashes, uniqueness and which companion fields each
 * kind allows. Returns every problem, each tied to its artifact and file.
 */
export function checkBundleRules(bundle: SyncBundle): SyncProblemDetail[] {
  const problems: SyncProblemDetail[] = [];
  const serviceNameProblem = nameProblem(bundle.service.name);
  if (serviceNameProblem) problems.push({ code: 'invalid_name', message: `Service name: ${serviceNameProblem}`, path: '$.service.name' });
  for (const key of ['description', 'repositoryUrl'] as const) {
    const value = bundle.service[key];
    const problem = typeof value === 'string' ? textFieldProblem(value, SERVICE_TEXT_LIMITS[key]) : undefined;
    if (problem) problems.push({ code: problem.code, message: `service.${key}: ${problem.message}`, path: `$.service.${key}` });
  }

  const seen = new Set<string>();
  const kindsSeen = new Set<SyncArtifact['kind']>();
  for (const artifact of bundle.artifacts) {
    const ref = { kind: artifact.kind, name: artifact.name };
    const add = (code: string, message: string, file?: string) => problems.push({ code, message, artifact: ref, ...(file ? { file } : {}) });

    const artifactNameProblem = nameProblem(artifact.name);
    if (artifactNameProblem) add('invalid_name', artifactNameProblem);
    const key = `${artifact.kind}/${artifact.name}`;
    if (seen.has(key)) add('duplicate_name', `Two ${artifact.kind} artifacts are named "${artifact.name}"; names are unique per kind.`);
    seen.add(key);
    if (SINGLE_KINDS.has(artifact.kind) && kindsSeen.has(artifact.kind)) {
      add('duplicate_artifact', `A service has at most one ${artifact.kind} artifact.`);
    }
    kindsSeen.add(artifact.kind);

    if (artifact.kind === 'database-schema' && !artifact.engine) add('missing_engine', 'A database schema needs an engine.');
    if (artifact.kind === 'database-schema' && artifact.engine) {
      const expected = SQL_DATABASE_ENGINES.includes(artifact.engine) ? '.sql' : '.json';
      if (!artifact.file.path.toLowerCase().endsWith(expected)) {
        add('schema_extension_mismatch', `"${artifact.file.path}" must be a ${expected} file for engine ${artifact.engine}.`, artifact.file.path);
      }
    }
    if (artifact.kind !== 'database-schema' && artifact.engine) add('unexpected_field', `engine applies to database schemas only, not to ${artifact.kind}.`);
    if (artifact.kind === 'api-spec' && !artifact.format) add('missing_format', 'An API spec needs a format.');
    if (artifact.kind !== 'api-spec' && artifact.format) add('unexpected_field', `format applies to API specs only, not to ${artifact.kind}.`);
    if (artifact.context && artifact.kind !== 'architecture-diagram') {
      add('unexpected_field', `A context file applies to architecture diagrams only, not to ${artifact.kind}.`, artifact.context.path);
    }
    if (artifact.notes && artifact.kind !== 'flow' && artifact.kind !== 'database-schema') {
      add('unexpected_field', `A notes file applies to flows and databases only, not to ${artifact.kind}.`, artifact.notes.path);
    }

    for (const file of artifactFiles(artifact)) {
      if (!isNormalizedRepositoryPath(file.path)) {
        add('invalid_path', `"${file.path}" is not a normalized path inside the repository (relative, forward slashes, no "..").`, file.path);
      }
      if (sha256Hex(file.content) !== file.sha256.toLowerCase()) {
        add('sha256_mismatch', `The SHA-256 sent for ${file.path} does not match its content; the file was altered or truncated in transit.`, file.path);
      }
      const unstorable = unstorableCharacterIn(file);
      if (unstorable) problems.push({ ...unstorable, artifact: ref });
    }
  }
  return problems;
}
