/**
 * The bundle `service-cli sync` posts to POST /api/v1/gateway/sync (Authorization: Bearer <token with the
 * sync scope>; the body may be gzip-encoded). The server re-validates everything; the CLI validating first
 * only makes CI fail faster.
 */
export const SYNC_BUNDLE_VERSION = 1 as const;

/** Runtime lists of the unions below, so both sides validate against one source. */
export const ARTIFACT_KINDS = [
  'architecture-diagram',
  'flow',
  'database-schema',
  'job-notes',
  'job-dependencies',
  'service-summary',
  'doc',
  'api-spec',
] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** Kinds whose main file is Mermaid source that both sides parse. */
export const MERMAID_ARTIFACT_KINDS: readonly ArtifactKind[] = ['architecture-diagram', 'flow', 'job-dependencies'];

export const DATABASE_ENGINES = ['postgres', 'mysql', 'sqlite', 'dynamodb', 'mongodb'] as const;
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];
/** Engines whose schema file is SQL DDL (`.sql`); the others are JSON (`.json`). */
export const SQL_DATABASE_ENGINES: readonly DatabaseEngine[] = ['postgres', 'mysql', 'sqlite'];

export const API_SPEC_FORMATS = ['openapi', 'asyncapi', 'graphql', 'protobuf'] as const;
export type ApiSpecFormat = (typeof API_SPEC_FORMATS)[number];

/**
 * One file as sent: its path relative to the directory holding .service.yaml (normalized, forward slashes,
 * never absolute, never `..`; see isNormalizedRepositoryPath), its text and the SHA-256 (lowercase hex) of
 * its UTF-8 bytes.
 */
export interface SyncFile {
  path: string;
  content: string;
  sha256: string;
}

/**
 * One artifact. `name` is unique per kind within a sync. `file` is the main file (Mermaid source, schema,
 * markdown...). Companion files travel with their artifact: a diagram's context JSON, a flow's or a
 * database's notes markdown.
 */
export interface SyncArtifact {
  kind: ArtifactKind;
  name: string;
  file: SyncFile;
  context?: SyncFile;
  notes?: SyncFile;
  engine?: DatabaseEngine;
  format?: ApiSpecFormat;
}

/**
 * The gateway's default limits (the server can be configured higher or lower through SERVICE_SYNC_MAX_*);
 * sizes are UTF-8 bytes of the file contents. The CLI warns before sending when a bundle exceeds them.
 */
export const DEFAULT_SYNC_LIMITS = {
  maxFileBytes: 1024 * 1024,
  /** The main file of a database schema: dumps of large databases (`pg_dump --schema-only`) run to many megabytes. */
  maxSchemaBytes: 16 * 1024 * 1024,
  /** Admits the largest schema with room for the other files and the JSON escaping of the bundle. */
  maxSyncBytes: 32 * 1024 * 1024,
  maxArtifacts: 500,
} as const;

export interface SyncServiceMetadata {
  name: string;
  description?: string;
  /** Without credentials: the CLI strips user:password@ before sending. */
  repositoryUrl?: string;
}

export interface SyncBundle {
  version: typeof SYNC_BUNDLE_VERSION;
  service: SyncServiceMetadata;
  artifacts: SyncArtifact[];
  /**
   * Warnings fail the sync (`.service.yaml` `strict: true`, or `service-cli sync --strict`): the gateway answers 422
   * `sync_validation_failed` listing them, as for errors. Absent means false.
   */
  strict?: boolean;
  /** Where the files came from, when the CLI knows (CI variables, git); not part of the digest. */
  source?: SyncSource;
}

/**
 * The commit, branch and CI run a sync came from. Every field is optional: the CLI sends what it can read from the
 * CI environment (GitHub Actions, GitLab CI, generic variables) or `git rev-parse` in a work tree.
 */
export interface SyncSource {
  /** A git commit id (7 to 64 hexadecimal characters). */
  commit?: string;
  branch?: string;
  /** The CI run's page, an http(s) URL. */
  ciRunUrl?: string;
}

export const SYNC_SOURCE_LIMITS = { branch: 255, ciRunUrl: 2048 } as const;
const COMMIT_ID = /^[0-9a-f]{7,64}$/i;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Every problem of a sync's `source` (paths relative to it: `commit`, `branch`, `ciRunUrl`). The gateway checks the
 * bundle's and the sync check's source with it; the CLI drops what would fail rather than send it.
 */
export function syncSourceProblems(source: unknown): Array<{ path: string; message: string }> {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return [{ path: '', message: 'source must be an object with commit, branch and ciRunUrl.' }];
  const problems: Array<{ path: string; message: string }> = [];
  const fields = source as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!['commit', 'branch', 'ciRunUrl'].includes(key)) problems.push({ path: key, message: `${key} is not a source field (commit, branch, ciRunUrl).` });
  }
  const { commit, branch, ciRunUrl } = fields;
  if (commit !== undefined && (typeof commit !== 'string' || !COMMIT_ID.test(commit))) problems.push({ path: 'commit', message: 'commit must be a git commit id: 7 to 64 hexadecimal characters.' });
  if (branch !== undefined && (typeof branch !== 'string' || branch.length === 0 || branch.length > SYNC_SOURCE_LIMITS.branch || CONTROL_CHARACTERS.test(branch))) {
    problems.push({ path: 'branch', message: `branch must be 1 to ${SYNC_SOURCE_LIMITS.branch} characters without control characters.` });
  }
  if (ciRunUrl !== undefined && !isHttpUrl(ciRunUrl)) problems.push({ path: 'ciRunUrl', message: `ciRunUrl must be an http or https URL of at most ${SYNC_SOURCE_LIMITS.ciRunUrl} characters, without user name or password.` });
  return problems;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > SYNC_SOURCE_LIMITS.ciRunUrl) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export interface SyncArtifactRef {
  kind: ArtifactKind;
  name: string;
}

/** Stable order of artifact lists in sync results and stored change lists: by kind, then name. */
export function byKindAndName(a: SyncArtifactRef, b: SyncArtifactRef): number {
  return a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind.localeCompare(b.kind);
}

export interface SyncResult {
  organizationId: string;
  service: string;
  /** The service's current revision after this sync (unchanged when nothing changed). */
  revision: number;
  status: 'created' | 'unchanged';
  created: SyncArtifactRef[];
  updated: SyncArtifactRef[];
  unchanged: SyncArtifactRef[];
  removed: SyncArtifactRef[];
  /** The service's page in the dashboard, `{SERVICE_PUBLIC_URL}/orgs/<org>/services/<name>` (servicePageUrl). */
  serviceUrl: string;
  /**
   * Only for `POST /gateway/sync?preview=<label>` (`service-cli sync --preview`): the bundle was stored as this
   * preview, not as a revision. `revision` is then the service's current revision (unchanged, `status` is
   * "unchanged") and created/updated/unchanged/removed compare the preview with it.
   */
  preview?: SyncPreview;
}

/** A preview stored by `sync --preview` (answer of the sync, item of the previews list). */
export interface SyncPreview {
  id: string;
  label: string;
  /** The dashboard page of the preview (previewPageUrl). */
  url: string;
  /** ISO 8601; after it the preview answers 404 and the retention job deletes it (SERVICE_PREVIEW_DAYS after the push). */
  expiresAt: string;
}

/** The query parameter of the sync route that stores the bundle as a preview with that label. */
export const SYNC_PREVIEW_PARAM = 'preview';
/** Days a preview is kept when SERVICE_PREVIEW_DAYS is unset. */
export const DEFAULT_PREVIEW_DAYS = 14;
export const PREVIEW_LABEL_MAX = 200;
/** A branch name as CI reports it: letters, digits and `. _ - / + @ #`, starting with a letter or digit. */
const PREVIEW_LABEL = /^[A-Za-z0-9][A-Za-z0-9._\-/+@#]*$/;

/**
 * Why a preview label is refused, as a sentence, or null when it is fine. The gateway refuses the sync with it
 * (400 invalid_preview_label); the CLI checks its `--label` (or the CI branch it defaults to) before sending.
 */
export function previewLabelProblem(label: unknown): string | null {
  if (typeof label !== 'string' || label.length === 0) return 'The preview label is missing: give one (service-cli sync --preview --label <branch>).';
  if (label.length > PREVIEW_LABEL_MAX) return `The preview label is ${label.length} characters long; at most ${PREVIEW_LABEL_MAX} are allowed.`;
  if (!PREVIEW_LABEL.test(label)) {
    return `The preview label "${label.slice(0, 80)}" may hold only letters, digits and . _ - / + @ # and must start with a letter or digit.`;
  }
  return null;
}

/** The dashboard page of a preview (the admin app's route `orgs/:orgId/services/:service/previews/:id`). */
export function previewPageUrl(publicUrl: string, organizationId: string, service: string, previewId: string): string {
  return `${servicePageUrl(publicUrl, organizationId, service)}/previews/${encodeURIComponent(previewId)}`;
}

/**
 * The fragment that places a preview page on one diagram's section (`#diagram-<name>`): the page gives each drawn
 * diagram this id and scrolls to it; `service-cli diff --format markdown` links each changed diagram with it.
 */
export function previewDiagramFragment(diagram: string): string {
  return `diagram-${encodeURIComponent(diagram)}`;
}

/** A preview page URL placed on one diagram (previewDiagramFragment); any fragment already on the URL is replaced. */
export function previewDiagramUrl(previewUrl: string, diagram: string): string {
  return `${previewUrl.replace(/#.*$/, '')}#${previewDiagramFragment(diagram)}`;
}

/** The dashboard page of a synced service (the admin app's route `orgs/:orgId/services/:service`). */
export function servicePageUrl(publicUrl: string, organizationId: string, service: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/orgs/${encodeURIComponent(organizationId)}/services/${encodeURIComponent(service)}`;
}

/**
 * A 422 from the gateway carries one detail per problem:
 * `{ code, message, artifact: { kind, name }, file, line?, column?, path? }` where `path` is a JSON path
 * into a context file and `line`/`column` point into the named file.
 */
export interface SyncProblemDetail {
  code: string;
  message: string;
  artifact?: SyncArtifactRef;
  file?: string;
  line?: number;
  column?: number;
  path?: string;
  /** Mermaid problems: the source line with a caret under the column, for a monospaced display under the message. */
  excerpt?: string;
  /** Mermaid problems: the parser's own report (expected tokens), for a verbose or details view only. */
  detail?: string;
}

/**
 * The fields of a bundle the digest covers: the service metadata and, per artifact, everything that identifies
 * its content except the content itself (the SHA-256 already stands for it). A `SyncBundle` fits as is.
 */
export interface SyncDigestInput {
  service: SyncServiceMetadata;
  /** A strict sync has another digest: a revision stored by a lenient sync is not "current" for a strict one. */
  strict?: boolean;
  artifacts: ReadonlyArray<{
    kind: ArtifactKind;
    name: string;
    engine?: DatabaseEngine;
    format?: ApiSpecFormat;
    file: Pick<SyncFile, 'path' | 'sha256'>;
    context?: Pick<SyncFile, 'path' | 'sha256'>;
    notes?: Pick<SyncFile, 'path' | 'sha256'>;
  }>;
}

/** SHA-256 of UTF-8 text as lowercase hex (node:crypto on both sides; kept out of this browser-safe library). */
export type Sha256Hex = (utf8Text: string) => string;

/** Bumped whenever the canonical form below changes, so old and new digests never compare equal. */
const SYNC_DIGEST_FORMAT = 'sync-bundle-digest/1';

/**
 * The canonical digest of a bundle: equal digests mean the server would store exactly the same revision and
 * metadata, so `service-cli sync` can ask POST /gateway/sync/check instead of re-validating and re-sending.
 * Artifacts are sorted by their serialized form (plain code-unit order, never locale-dependent) so the order in
 * .service.yaml does not matter; absent optional fields serialize as null; hashes are lowercased.
 */
export function syncBundleDigest(bundle: SyncDigestInput, sha256Hex: Sha256Hex): string {
  const file = (value: Pick<SyncFile, 'path' | 'sha256'> | undefined) => (value ? [value.path, value.sha256.toLowerCase()] : null);
  const artifacts = bundle.artifacts
    .map((artifact) =>
      JSON.stringify([artifact.kind, artifact.name, artifact.engine ?? null, artifact.format ?? null, file(artifact.file), file(artifact.context), file(artifact.notes)]),
    )
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const { name, description, repositoryUrl } = bundle.service;
  // `strict` is appended only when set, so the digests of lenient bundles stay what they were.
  return sha256Hex(JSON.stringify([SYNC_DIGEST_FORMAT, [name, description ?? null, repositoryUrl ?? null], artifacts, ...(bundle.strict ? ['strict'] : [])]));
}

/** Path of the sync below the gateway's base URL (POST, the bundle as JSON, gzip-encoded or not). */
export const GATEWAY_SYNC_PATH = '/api/v1/gateway/sync';

/** Path of the digest check below the gateway's base URL. */
export const SYNC_CHECK_PATH = `${GATEWAY_SYNC_PATH}/check`;

/**
 * Answer of the check. `current` is true only when the service's current revision was stored (or last
 * confirmed by an unchanged sync) from a bundle with exactly this digest; the sync can then be skipped, and the
 * check counts as an unchanged sync (the service's last sync time is updated). `revision` is null when the
 * organization has no such service yet.
 */
export interface SyncCheckResult {
  organizationId: string;
  service: string;
  revision: number | null;
  current: boolean;
  /** As in SyncResult: the service's page in the dashboard. */
  serviceUrl: string;
}
