import type { ApiSpecFormat, ArtifactKind, DatabaseEngine } from '../sync';

/** The `.service.yaml` file name `service-cli` looks for by default. */
export const SERVICE_CONFIG_FILE_NAME = '.service.yaml';
export const SERVICE_CONFIG_VERSION = 1 as const;

export interface ServiceMetadataConfig {
  /** Unique in the organization; see NAME_PATTERN. */
  name: string;
  description?: string;
  repositoryUrl?: string;
}

export interface ArchitectureDiagramConfig {
  name: string;
  /** Mermaid source file. */
  path: string;
  /** Optional context JSON overlay; when set the file must exist and is sent with the diagram. */
  contextPath?: string;
}

export interface FlowConfig {
  name: string;
  path: string;
  notesPath?: string;
}

export interface DatabaseConfig {
  name: string;
  engine: DatabaseEngine;
  /** `.sql` for postgres, mysql and sqlite; `.json` for dynamodb and mongodb. */
  schemaPath: string;
  notesPath?: string;
}

export interface JobsConfig {
  /** jobs.md */
  notesPath?: string;
  /** job-dependencies.mmd */
  dependenciesPath?: string;
}

export interface DocConfig {
  name: string;
  path: string;
}

export interface ApiSpecConfig {
  name: string;
  path: string;
  format: ApiSpecFormat;
}

/** A valid `.service.yaml` (version 1). Lists are always present (empty when the file omits them). */
export interface ServiceConfig {
  version: typeof SERVICE_CONFIG_VERSION;
  service: ServiceMetadataConfig;
  architectureDiagrams: ArchitectureDiagramConfig[];
  flows: FlowConfig[];
  databases: DatabaseConfig[];
  jobs?: JobsConfig;
  summaryPath?: string;
  docs: DocConfig[];
  apiSpecs: ApiSpecConfig[];
  /**
   * Warnings fail the sync (for CI): a mistyped node id in a context, an unknown key… `service-cli sync --strict`
   * and `--no-strict` override it for one run. The CLI sends it with the bundle, so the gateway refuses too.
   */
  strict?: boolean;
}

/** Where a value sits in the config, e.g. `['architectureDiagrams', 0, 'contextPath']`. */
export type ConfigKeyPath = ReadonlyArray<string | number>;

export enum ServiceConfigProblemCode {
  YamlSyntaxError = 'yaml_syntax_error',
  NotAMapping = 'config_not_a_mapping',
  UnsupportedVersion = 'unsupported_config_version',
  MissingField = 'missing_field',
  InvalidType = 'invalid_type',
  InvalidValue = 'invalid_value',
  InvalidName = 'invalid_name',
  /** A free-text field (description, repositoryUrl) over its limit in SERVICE_TEXT_LIMITS. */
  TextTooLong = 'text_too_long',
  /** A NUL or an unpaired surrogate (see findUnstorableCharacter). */
  UnstorableCharacter = 'unstorable_character',
  DuplicateName = 'duplicate_name',
  UnknownKey = 'unknown_key',
  InvalidPath = 'invalid_path',
  PathEscapesRepository = 'path_escapes_repository',
  SchemaExtensionMismatch = 'schema_extension_mismatch',
  NoArtifacts = 'no_artifacts',
  // Filesystem checks (made by the CLI, reported in the same list):
  FileNotFound = 'file_not_found',
  ContextFileNotFound = 'context_file_not_found',
  NotAFile = 'not_a_file',
  SymlinkEscapesRepository = 'symlink_escapes_repository',
  FileUnreadable = 'file_unreadable',
  FileNotUtf8 = 'file_not_utf8',
  FileContainsNul = 'file_contains_nul',
}

/** One problem with a `.service.yaml`; all of them are reported at once. */
export interface ServiceConfigProblem {
  severity: 'error' | 'warning';
  code: ServiceConfigProblemCode;
  message: string;
  /** The config file, as the caller named it; for a problem in a named file's content, that file. */
  file: string;
  /** 1-based line in the config file, when known. */
  line?: number;
  /** 1-based column, for problems inside a file's content (`file` is then that file). */
  column?: number;
  /** Dotted key path, e.g. `architectureDiagrams[1].contextPath`. */
  path?: string;
  hint?: string;
}

/** The role a file plays in its artifact. */
export type ArtifactFileRole = 'main' | 'context' | 'notes';

export interface PlannedArtifactFile {
  role: ArtifactFileRole;
  /** Normalized path relative to the config file's directory. */
  path: string;
  /** Where the path is written in the config (for line numbers in later errors). */
  keyPath: ConfigKeyPath;
}

/** One artifact a valid config asks to sync, before any file is read. */
export interface PlannedArtifact {
  kind: ArtifactKind;
  name: string;
  engine?: DatabaseEngine;
  format?: ApiSpecFormat;
  files: PlannedArtifactFile[];
}
