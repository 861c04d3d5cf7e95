import { API_SPEC_FORMATS, DATABASE_ENGINES, SQL_DATABASE_ENGINES, type ArtifactKind, type DatabaseEngine } from '../sync';
import { SERVICE_TEXT_LIMITS, textFieldProblem } from '../input-rules';
import { nameProblem } from './names';
import { normalizeRepositoryPath } from './repository-paths';
import {
  SERVICE_CONFIG_VERSION,
  ServiceConfigProblemCode as Code,
  type ConfigKeyPath,
  type PlannedArtifact,
  type PlannedArtifactFile,
  type ServiceConfig,
  type ServiceConfigProblem,
} from './service-config.types';
import { isPlainObject, parseYamlWithLines } from './yaml-document';

export interface ServiceConfigValidation {
  /** Present only when there are no errors (warnings allowed). Paths in it are normalized. */
  config?: ServiceConfig;
  /** The artifacts the config asks to sync (empty when there are errors). */
  artifacts: PlannedArtifact[];
  /** Every problem found, errors and warnings, in file order. */
  problems: ServiceConfigProblem[];
  /** 1-based line of a key path in the config file (for problems found later, e.g. a missing file). */
  lineOf(path: ConfigKeyPath): number | undefined;
}

export interface ValidateServiceConfigOptions {
  /** The config file's name as the user should see it in messages. */
  file: string;
  lineOf?: (path: ConfigKeyPath) => number | undefined;
}

type FieldKind = 'name' | 'path' | { maxLength: number } | { oneOf: readonly string[] };
interface FieldSpec {
  key: string;
  required: boolean;
  kind: FieldKind;
}

const NAME: FieldSpec = { key: 'name', required: true, kind: 'name' };
const PATH: FieldSpec = { key: 'path', required: true, kind: 'path' };
const NOTES: FieldSpec = { key: 'notesPath', required: false, kind: 'path' };

/** Each list section and the fields of its items; the one table the validator and planArtifacts read. */
const LIST_SECTIONS = {
  architectureDiagrams: [NAME, PATH, { key: 'contextPath', required: false, kind: 'path' }],
  flows: [NAME, PATH, NOTES],
  databases: [
    NAME,
    { key: 'engine', required: true, kind: { oneOf: DATABASE_ENGINES } },
    { key: 'schemaPath', required: true, kind: 'path' },
    NOTES,
  ],
  docs: [NAME, PATH],
  apiSpecs: [NAME, PATH, { key: 'format', required: true, kind: { oneOf: API_SPEC_FORMATS } }],
} satisfies Record<string, FieldSpec[]>;
type ListSection = keyof typeof LIST_SECTIONS;

const SERVICE_FIELDS: FieldSpec[] = [
  NAME,
  { key: 'description', required: false, kind: { maxLength: SERVICE_TEXT_LIMITS.description } },
  { key: 'repositoryUrl', required: false, kind: { maxLength: SERVICE_TEXT_LIMITS.repositoryUrl } },
];
const JOBS_FIELDS: FieldSpec[] = [NOTES, { key: 'dependenciesPath', required: false, kind: 'path' }];
const TOP_LEVEL_KEYS = ['version', 'service', ...Object.keys(LIST_SECTIONS), 'jobs', 'summaryPath', 'strict'];

/** Parses `.service.yaml` text and validates it; YAML syntax errors come back as a problem, never thrown. */
export function parseServiceConfig(text: string, file: string): ServiceConfigValidation {
  const parsed = parseYamlWithLines(text, file);
  if (!parsed.ok) {
    return {
      artifacts: [],
      problems: [
        {
          severity: 'error',
          code: Code.YamlSyntaxError,
          message: `${file} is not valid YAML: ${parsed.message}${parsed.column ? ` (column ${parsed.column})` : ''}.`,
          file,
          line: parsed.line,
        },
      ],
      lineOf: () => undefined,
    };
  }
  return validateServiceConfig(parsed.document.value, { file, lineOf: parsed.document.lineOf });
}

/**
 * Validates a parsed `.service.yaml` value without touching the filesystem (the server and the browser can
 * run it). Reports every problem at once: unknown keys are warnings, everything else is an error.
 */
export function validateServiceConfig(value: unknown, options: ValidateServiceConfigOptions): ServiceConfigValidation {
  const checker = new ConfigChecker(options);
  const config = checker.check(value);
  const problems = checker.problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const hasErrors = problems.some((problem) => problem.severity === 'error');
  const lineOf = options.lineOf ?? (() => undefined);
  // Artifacts are planned even when something else is wrong, so the caller can still check their files and
  // report every problem in one run; entries missing a name or their main path are left out.
  const artifacts = config ? planArtifacts(config) : [];
  return { ...(hasErrors || !config ? {} : { config }), artifacts, problems, lineOf };
}

/**
 * The artifacts a config syncs, with every file and where the config names it. Entries of a config that had
 * errors may lack fields; an entry without a name or main path is skipped and an invalid optional path dropped
 * (its problem is already reported).
 */
export function planArtifacts(config: ServiceConfig): PlannedArtifact[] {
  const artifacts: PlannedArtifact[] = [];
  const add = (
    kind: ArtifactKind,
    name: string | undefined,
    files: Array<[PlannedArtifactFile['role'], string | undefined, ConfigKeyPath]>,
    extra: Pick<PlannedArtifact, 'engine' | 'format'> = {},
  ): void => {
    const [main] = files;
    if (!name || !main?.[1]) return;
    const present = files.filter((file): file is [PlannedArtifactFile['role'], string, ConfigKeyPath] => typeof file[1] === 'string');
    artifacts.push({ kind, name, ...extra, files: present.map(([role, path, keyPath]) => ({ role, path, keyPath })) });
  };
  config.architectureDiagrams.forEach((entry, i) =>
    add('architecture-diagram', entry.name, [
      ['main', entry.path, ['architectureDiagrams', i, 'path']],
      ['context', entry.contextPath, ['architectureDiagrams', i, 'contextPath']],
    ]),
  );
  config.flows.forEach((entry, i) =>
    add('flow', entry.name, [
      ['main', entry.path, ['flows', i, 'path']],
      ['notes', entry.notesPath, ['flows', i, 'notesPath']],
    ]),
  );
  config.databases.forEach((entry, i) =>
    add(
      'database-schema',
      entry.name,
      [
        ['main', entry.schemaPath, ['databases', i, 'schemaPath']],
        ['notes', entry.notesPath, ['databases', i, 'notesPath']],
      ],
      entry.engine ? { engine: entry.engine } : {},
    ),
  );
  add('job-notes', JOB_NOTES_NAME, [['main', config.jobs?.notesPath, ['jobs', 'notesPath']]]);
  add('job-dependencies', JOB_DEPENDENCIES_NAME, [['main', config.jobs?.dependenciesPath, ['jobs', 'dependenciesPath']]]);
  add('service-summary', SERVICE_SUMMARY_NAME, [['main', config.summaryPath, ['summaryPath']]]);
  config.docs.forEach((entry, i) => add('doc', entry.name, [['main', entry.path, ['docs', i, 'path']]]));
  config.apiSpecs.forEach((entry, i) => add('api-spec', entry.name, [['main', entry.path, ['apiSpecs', i, 'path']]], entry.format ? { format: entry.format } : {}));
  return artifacts;
}

/** Fixed names of the single-instance artifacts (the config has no name field for them). */
export const JOB_NOTES_NAME = 'jobs';
export const JOB_DEPENDENCIES_NAME = 'job-dependencies';
export const SERVICE_SUMMARY_NAME = 'service-summary';

/** Formats a key path the way problems show it: `architectureDiagrams[1].contextPath`. */
export function formatKeyPath(path: ConfigKeyPath): string {
  return path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment), '');
}

class ConfigChecker {
  readonly problems: ServiceConfigProblem[] = [];

  constructor(private readonly options: ValidateServiceConfigOptions) {}

  check(value: unknown): ServiceConfig | undefined {
    if (!isPlainObject(value)) {
      this.error(Code.NotAMapping, [], value === undefined || value === null ? `${this.options.file} is empty.` : `${this.options.file} must be a YAML mapping (key: value lines) at the top level.`, {
        hint: 'Run `service-cli init` for a commented starter file.',
      });
      return undefined;
    }
    this.warnUnknownKeys(value, [], TOP_LEVEL_KEYS);

    if (value['version'] === undefined || value['version'] === null) {
      this.error(Code.MissingField, ['version'], 'The required key "version" is missing.', { hint: `Add "version: ${SERVICE_CONFIG_VERSION}" at the top.` });
    } else if (value['version'] !== SERVICE_CONFIG_VERSION) {
      this.error(Code.UnsupportedVersion, ['version'], `version ${JSON.stringify(value['version'])} is not supported; this tool reads version ${SERVICE_CONFIG_VERSION}.`);
    }

    let service: ServiceConfig['service'] | undefined;
    if (value['service'] === undefined || value['service'] === null) {
      this.error(Code.MissingField, ['service'], 'The required section "service" (with at least "name") is missing.');
    } else {
      service = this.checkRecord(value['service'], ['service'], SERVICE_FIELDS) as ServiceConfig['service'] | undefined;
    }

    const lists = {} as { [K in ListSection]: Record<string, unknown>[] };
    for (const section of Object.keys(LIST_SECTIONS) as ListSection[]) {
      lists[section] = this.checkList(value[section], section);
    }
    this.checkSchemaExtensions(lists.databases);

    let jobs: ServiceConfig['jobs'];
    if (value['jobs'] !== undefined && value['jobs'] !== null) {
      jobs = this.checkRecord(value['jobs'], ['jobs'], JOBS_FIELDS) as ServiceConfig['jobs'];
    }
    const summaryPath = this.checkField(value, [], { key: 'summaryPath', required: false, kind: 'path' });
    const strict = value['strict'];
    if (strict !== undefined && strict !== null && typeof strict !== 'boolean') {
      this.error(Code.InvalidType, ['strict'], `strict must be true or false, not ${describeType(strict)}.`, { hint: 'strict: true makes warnings fail the sync.' });
    }

    // The records were checked field by field against LIST_SECTIONS, which mirrors the ServiceConfig types;
    // the result is only handed out when no error was found.
    const config: ServiceConfig = {
      version: SERVICE_CONFIG_VERSION,
      service: service ?? { name: '' },
      ...(lists as unknown as Pick<ServiceConfig, ListSection>),
      ...(jobs ? { jobs } : {}),
      ...(typeof summaryPath === 'string' ? { summaryPath } : {}),
      ...(typeof strict === 'boolean' ? { strict } : {}),
    };
    const artifactCount = Object.values(lists).reduce((n, list) => n + list.length, 0) + (jobs?.notesPath ? 1 : 0) + (jobs?.dependenciesPath ? 1 : 0) + (summaryPath ? 1 : 0);
    if (artifactCount === 0) {
      this.warning(Code.NoArtifacts, [], 'The config lists no artifacts; a sync would remove every artifact of this service from the current view.');
    }
    return config;
  }

  private checkList(value: unknown, section: ListSection): Record<string, unknown>[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error(Code.InvalidType, [section], `"${section}" must be a list (lines starting with "- ").`);
      return [];
    }
    const items: Record<string, unknown>[] = [];
    const firstByName = new Map<string, number>();
    value.forEach((item, index) => {
      const record = this.checkRecord(item, [section, index], LIST_SECTIONS[section]);
      if (!record) return;
      items.push(record);
      const name = record['name'];
      if (typeof name !== 'string') return;
      const first = firstByName.get(name);
      if (first === undefined) {
        firstByName.set(name, index);
        return;
      }
      const firstLine = this.lineOf([section, first, 'name']);
      this.error(Code.DuplicateName, [section, index, 'name'], `The name "${name}" is used twice in "${section}"${firstLine ? ` (first on line ${firstLine})` : ''}; names must be unique per section.`);
    });
    return items;
  }

  /** Checks a mapping against its field specs; returns it with normalized paths, or undefined when it is not a mapping. */
  private checkRecord(value: unknown, at: ConfigKeyPath, fields: FieldSpec[]): Record<string, unknown> | undefined {
    if (!isPlainObject(value)) {
      this.error(Code.InvalidType, at, `${formatKeyPath(at)} must be a mapping with the keys ${fields.map((f) => f.key).join(', ')}.`);
      return undefined;
    }
    this.warnUnknownKeys(value, at, fields.map((field) => field.key));
    const record: Record<string, unknown> = {};
    for (const field of fields) {
      const checked = this.checkField(value, at, field);
      if (checked !== undefined) record[field.key] = checked;
    }
    return record;
  }

  /** Returns the field's value (a normalized path for path fields) or undefined when absent or invalid. */
  private checkField(parent: Record<string, unknown>, at: ConfigKeyPath, field: FieldSpec): string | undefined {
    const path = [...at, field.key];
    const value = parent[field.key];
    if (value === undefined || value === null) {
      if (field.required) this.error(Code.MissingField, path, `The required key "${field.key}" is missing in ${formatKeyPath(at) || 'the file'}.`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.error(Code.InvalidType, path, `${formatKeyPath(path)} must be a string, not ${describeType(value)}.`);
      return undefined;
    }
    const kind = field.kind;
    if (typeof kind === 'object' && 'maxLength' in kind) {
      const problem = textFieldProblem(value, kind.maxLength);
      if (problem) {
        this.error(problem.code === 'text_too_long' ? Code.TextTooLong : Code.UnstorableCharacter, path, `${formatKeyPath(path)}: ${problem.message}`);
        return undefined;
      }
      return value;
    }
    if (kind === 'name') {
      const problem = nameProblem(value);
      if (problem) {
        this.error(Code.InvalidName, path, `${formatKeyPath(path)}: ${problem}`);
        return undefined;
      }
      return value;
    }
    if (kind === 'path') {
      const normalized = normalizeRepositoryPath(value);
      if (!normalized.ok) {
        const code = normalized.problem.reason === 'escapes' || normalized.problem.reason === 'absolute' ? Code.PathEscapesRepository : Code.InvalidPath;
        this.error(code, path, `${formatKeyPath(path)}: ${normalized.problem.message}`);
        return undefined;
      }
      return normalized.path;
    }
    if (!kind.oneOf.includes(value)) {
      const suggestion = kind.oneOf.find((allowed) => allowed.toLowerCase() === value.toLowerCase());
      this.error(Code.InvalidValue, path, `${formatKeyPath(path)} is "${value}"; allowed: ${kind.oneOf.join(', ')}.`, suggestion ? { hint: `Did you mean "${suggestion}"?` } : {});
      return undefined;
    }
    return value;
  }

  private checkSchemaExtensions(databases: Record<string, unknown>[]): void {
    databases.forEach((database, index) => {
      const engine = database['engine'] as DatabaseEngine | undefined;
      const schemaPath = database['schemaPath'];
      if (!engine || typeof schemaPath !== 'string') return;
      const expected = SQL_DATABASE_ENGINES.includes(engine) ? '.sql' : '.json';
      if (!schemaPath.toLowerCase().endsWith(expected)) {
        this.error(Code.SchemaExtensionMismatch, ['databases', index, 'schemaPath'], `databases[${index}].schemaPath "${schemaPath}" must be a ${expected} file for engine ${engine}.`);
      }
    });
  }

  private warnUnknownKeys(value: Record<string, unknown>, at: ConfigKeyPath, known: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const suggestion = suggestKey(key, known);
      this.warning(Code.UnknownKey, [...at, key], `Unknown key "${key}"${at.length ? ` in ${formatKeyPath(at)}` : ''} is ignored.`, suggestion ? { hint: `Did you mean "${suggestion}"?` } : { hint: `Known keys: ${known.join(', ')}.` });
    }
  }

  private lineOf(path: ConfigKeyPath): number | undefined {
    return this.options.lineOf?.(path);
  }

  private error(code: Code, path: ConfigKeyPath, message: string, extra: { hint?: string } = {}): void {
    this.add('error', code, path, message, extra);
  }

  private warning(code: Code, path: ConfigKeyPath, message: string, extra: { hint?: string } = {}): void {
    this.add('warning', code, path, message, extra);
  }

  private add(severity: 'error' | 'warning', code: Code, path: ConfigKeyPath, message: string, extra: { hint?: string }): void {
    const line = this.lineOf(path);
    this.problems.push({
      severity,
      code,
      message,
      file: this.options.file,
      ...(line !== undefined ? { line } : {}),
      ...(path.length ? { path: formatKeyPath(path) } : {}),
      ...extra,
    });
  }
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isPlainObject(value)) return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/** A known key that differs only in case or by at most two edits (typos such as `contextpath`, `flow`). */
function suggestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  return known.find((candidate) => candidate.toLowerCase() === lower) ?? known.find((candidate) => editDistance(lower, candidate.toLowerCase()) <= 2);
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}
