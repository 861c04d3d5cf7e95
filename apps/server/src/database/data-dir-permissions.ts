import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Group and other permission bits: the embedded database, its lock and secret.key belong to the service user alone. */
const GROUP_OTHER = 0o077;

/** Creates `dir` (and missing parents) readable by the service user only. An existing directory keeps its mode. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export interface LoosePermissions {
  /** Directories (given ones and those inside `trees`) that group or others may read or enter. */
  directories: string[];
  /** Number of files group or others may read or write, and a few of them for the message. */
  fileCount: number;
  examples: string[];
}

/**
 * Finds entries looser than 0700/0600: `paths` are checked themselves (the data directory, secret.key),
 * `trees` also with everything below them (the PGlite directory). Missing paths are skipped.
 */
export function findLoosePermissions(paths: string[], trees: string[]): LoosePermissions {
  const found: LoosePermissions = { directories: [], fileCount: 0, examples: [] };
  const note = (path: string, stats: Stats) => {
    if (stats.isSymbolicLink() || (stats.mode & GROUP_OTHER) === 0) return;
    if (stats.isDirectory()) found.directories.push(path);
    else {
      found.fileCount++;
      if (found.examples.length < 3) found.examples.push(path);
    }
  };
  for (const path of paths) {
    const stats = statOrNull(path);
    if (stats) note(path, stats);
  }
  for (const tree of trees) walk(tree, note);
  return found;
}

/**
 * Removes group and other bits from everything below `dir` (not `dir` itself, whose mode the operator owns).
 * Needed because PGlite's Emscripten file system sets the modes of the files it unpacks at initdb (0666) and
 * of its relation cache file (0644) explicitly, so a process umask does not keep them private.
 */
export function restrictTree(dir: string): void {
  walk(dir, (path, stats) => {
    if (!stats.isSymbolicLink() && path !== dir && (stats.mode & GROUP_OTHER) !== 0) chmodSync(path, stats.mode & 0o700);
  });
}

function walk(dir: string, visit: (path: string, stats: Stats) => void): void {
  const stats = statOrNull(dir);
  if (!stats) return;
  visit(dir, stats);
  if (!stats.isDirectory()) return;
  for (const name of readdirSync(dir)) walk(join(dir, name), visit);
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
