import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_SYNC_LIMITS,
  SERVICE_CONFIG_FILE_NAME,
  ServiceConfigProblemCode,
  formatKeyPath,
  parseServiceConfig,
  type PlannedArtifact,
  type PlannedArtifactFile,
  type ServiceConfig,
  type ServiceConfigProblem,
} from '@sc/contracts/core';
import { ExitCode } from './exit-codes';
import { CliError } from './cli-error';
import { nulProblem, readRegularFile, type RegularFileRead } from './read-regular-file';

/** A file the config names, read from disk. */
export interface LoadedFile {
  /** Normalized path relative to the repository root (the config file's directory). */
  path: string;
  content: string;
  /** UTF-8 byte length. */
  size: number;
  sha256: string;
}

export interface LoadedArtifact extends PlannedArtifact {
  /** Files by role; a file that failed a check is missing here and has a problem instead. */
  loaded: Partial<Record<PlannedArtifactFile['role'], LoadedFile>>;
}

export interface LoadedConfig {
  /** Absolute path of the config file. */
  configPath: string;
  /** The config path as shown to the user (relative to the working directory when inside it). */
  displayPath: string;
  /** Absolute directory holding the config: paths resolve against it and must stay inside it. */
  rootDir: string;
  config?: ServiceConfig;
  artifacts: LoadedArtifact[];
  problems: ServiceConfigProblem[];
}

/** Largest file the CLI reads: twice the gateway's largest default per-file limit (schemas, 16 MiB), so this only guards memory. */
const MAX_READ_BYTES = 2 * DEFAULT_SYNC_LIMITS.maxSchemaBytes;
/** Files read at once (each holds a file descriptor while it is read). */
const READ_CONCURRENCY = 16;

/**
 * Reads and validates `.service.yaml`, then checks every file it names on disk: it exists, is a regular file,
 * its real path (symlinks resolved) stays inside the config's directory, and it is UTF-8 text without NUL.
 * All problems are collected; only a missing or unreadable config file throws (exit 2), or one that is not a
 * regular file (a FIFO or device would block the read: exit 1).
 */
export async function loadServiceConfig(configOption: string | undefined, cwd: string): Promise<LoadedConfig> {
  const configPath = await resolveConfigPath(configOption, cwd);
  const displayPath = displayPathOf(configPath, cwd);
  let read: RegularFileRead;
  try {
    read = await readRegularFile(configPath, displayPath, MAX_READ_BYTES);
  } catch (error) {
    throw new CliError(ExitCode.Configuration, 'config_unreadable', `Cannot read ${displayPath}: ${(error as Error).message}`);
  }
  if (!read.ok) throw new CliError(read.reason === 'not_a_file' ? ExitCode.Validation : ExitCode.Configuration, read.reason === 'not_a_file' ? 'config_not_a_file' : 'config_unreadable', read.message);
  const text = read.bytes.toString('utf8');
  const rootDir = path.dirname(configPath);
  const validation = parseServiceConfig(text, displayPath);
  const problems = [...validation.problems];
  const realRoot = await fs.realpath(rootDir);

  // Several files at a time: one after the other, a large repository waits for thousands of file system round trips.
  const planned = validation.artifacts.flatMap((artifact) => artifact.files);
  const reads: ReadResult[] = new Array(planned.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    for (let index = next++; index < planned.length; index = next++) {
      const file = planned[index];
      reads[index] = await readRepositoryFile(realRoot, rootDir, file, displayPathOf(path.join(rootDir, ...file.path.split('/')), cwd));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, planned.length) }, reader));

  const artifacts: LoadedArtifact[] = [];
  let readIndex = 0;
  for (const artifact of validation.artifacts) {
    const loaded: LoadedArtifact['loaded'] = {};
    for (const file of artifact.files) {
      const result = reads[readIndex++];
      if ('problem' in result) {
        const line = validation.lineOf(file.keyPath);
        problems.push({ severity: 'error', file: displayPath, path: formatKeyPath(file.keyPath), ...(line !== undefined ? { line } : {}), ...result.problem });
      } else if ('contentProblem' in result) {
        // A problem inside the file: it points at the file itself, not at the config line naming it.
        problems.push({ severity: 'error', ...result.contentProblem });
      } else {
        loaded[file.role] = result.file;
      }
    }
    artifacts.push({ ...artifact, loaded });
  }
  return { configPath, displayPath, rootDir, config: validation.config, artifacts, problems };
}

async function resolveConfigPath(configOption: string | undefined, cwd: string): Promise<string> {
  const candidate = path.resolve(cwd, configOption ?? SERVICE_CONFIG_FILE_NAME);
  let stat;
  try {
    stat = await fs.stat(candidate);
  } catch {
    throw new CliError(
      ExitCode.Configuration,
      'config_not_found',
      configOption
        ? `The config file ${configOption} does not exist.`
        : `No ${SERVICE_CONFIG_FILE_NAME} in ${cwd}. Run \`service-cli init\` to create one, or pass --config <path>.`,
    );
  }
  // `--config some/dir` means the .service.yaml inside it.
  return stat.isDirectory() ? resolveConfigPath(path.join(candidate, SERVICE_CONFIG_FILE_NAME), cwd) : candidate;
}

type ReadResult =
  | { file: LoadedFile }
  | { problem: Pick<ServiceConfigProblem, 'code' | 'message'> & { hint?: string } }
  | { contentProblem: Pick<ServiceConfigProblem, 'code' | 'message' | 'file' | 'line' | 'column'> };

/** `shown` is the file's path as the user sees it (relative to the working directory). */
async function readRepositoryFile(realRoot: string, rootDir: string, file: PlannedArtifactFile, shown: string): Promise<ReadResult> {
  const absolute = path.join(rootDir, ...file.path.split('/'));
  const notFound = file.role === 'context' ? ServiceConfigProblemCode.ContextFileNotFound : ServiceConfigProblemCode.FileNotFound;
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch {
    const what = file.role === 'context' ? 'The context file' : file.role === 'notes' ? 'The notes file' : 'The file';
    return { problem: { code: notFound, message: `${what} ${file.path} does not exist.` } };
  }
  if (!isInside(realRoot, real)) {
    return {
      problem: {
        code: ServiceConfigProblemCode.SymlinkEscapesRepository,
        message: `${file.path} is a symbolic link (or lies under one) that leads outside the repository; refusing to read it.`,
      },
    };
  }
  let read: RegularFileRead;
  try {
    read = await readRegularFile(real, file.path, MAX_READ_BYTES);
  } catch (error) {
    return { problem: { code: ServiceConfigProblemCode.FileUnreadable, message: `Cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.` } };
  }
  if (!read.ok) return { problem: { code: read.reason === 'not_a_file' ? ServiceConfigProblemCode.NotAFile : ServiceConfigProblemCode.FileUnreadable, message: read.message } };
  const bytes = read.bytes;
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { problem: { code: ServiceConfigProblemCode.FileNotUtf8, message: `${file.path} is not UTF-8 text.` } };
  }
  const nul = nulProblem(content, shown);
  if (nul) return { contentProblem: { code: ServiceConfigProblemCode.FileContainsNul, file: shown, ...nul } };
  return { file: { path: file.path, content, size: bytes.length, sha256: sha256Hex(bytes) } };
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export function displayPathOf(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  return relative && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : absolute;
}
