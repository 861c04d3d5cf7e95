/**
 * Lexical rules for the file paths in `.service.yaml` and in a sync bundle. Pure string logic (no `node:path`)
 * so the browser-safe entry can export it; the CLI adds the filesystem checks (existence, symlinks).
 */

export type RepositoryPathProblem =
  | { reason: 'empty' | 'absolute' | 'backslash' | 'control_character'; message: string }
  | { reason: 'escapes'; message: string };

export type NormalizeRepositoryPathResult = { ok: true; path: string } | { ok: false; problem: RepositoryPathProblem };

/**
 * Resolves `path` (relative to the config file's directory, which is the repository root for sync) to a
 * normalized forward-slash path. Refuses absolute paths (POSIX, UNC and Windows drive forms), backslashes,
 * control characters and any `..` that climbs above the root; `..` that stays inside is normalized away.
 */
export function normalizeRepositoryPath(path: string): NormalizeRepositoryPathResult {
  if (path.trim() === '') return fail('empty', 'The path is empty.');
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return fail('control_character', 'The path contains a control character.');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\\\')) {
    return fail('absolute', `"${path}" is absolute; paths are relative to the directory holding .service.yaml.`);
  }
  if (path.includes('\\')) return fail('backslash', `"${path}" contains a backslash; use forward slashes.`);

  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) {
        return fail('escapes', `"${path}" leads outside the repository (the directory holding .service.yaml).`);
      }
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return fail('empty', `"${path}" names the repository root, not a file.`);
  return { ok: true, path: segments.join('/') };
}

/** True for a path already in the form normalizeRepositoryPath produces (what a sync bundle must carry). */
export function isNormalizedRepositoryPath(path: string): boolean {
  const result = normalizeRepositoryPath(path);
  return result.ok && result.path === path;
}

function fail(reason: RepositoryPathProblem['reason'], message: string): NormalizeRepositoryPathResult {
  return { ok: false, problem: { reason, message } as RepositoryPathProblem };
}
