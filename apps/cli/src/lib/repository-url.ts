import { execFile } from 'node:child_process';

/**
 * Removes credentials from a repository URL before it leaves the machine or reaches a log. CI checkouts
 * often carry a token in the remote (`https://x-access-token:ghp_…@github.com/org/repo.git`), and people
 * paste such URLs into .service.yaml. User info, query and fragment are dropped (tokens hide in both);
 * scp-style `git@host:org/repo.git` keeps its user, which is an account name, not a secret.
 */
export function stripRepositoryUrlCredentials(url: string): string {
  const trimmed = url.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    return trimmed.replace(/[?#].*$/, '');
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    // Not parseable: still cut anything between "://" and the last "@" of the authority.
    return trimmed.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1').replace(/[?#].*$/, '');
  }
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

/**
 * The `origin` remote of the git checkout holding `dir`, or undefined when git, the checkout or the remote is
 * missing. Used when .service.yaml names no repositoryUrl; CI checkouts are exactly where remotes carry tokens
 * (`https://gitlab-ci-token:…@…`), so callers must strip credentials before using the result.
 */
export function detectGitRemoteUrl(dir: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, 'remote', 'get-url', 'origin'], { timeout: 5_000, windowsHide: true }, (error, stdout) => {
      const url = stdout.trim();
      resolve(error || !url ? undefined : url);
    });
  });
}
