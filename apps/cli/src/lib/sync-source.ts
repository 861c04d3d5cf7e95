import { execFile } from 'node:child_process';
import { syncSourceProblems, type SyncSource } from '@sc/contracts/core';
import type { Env } from './gateway';

/** Runs `git <args>` in a directory; undefined when git, the work tree or the answer is missing. */
export type GitRunner = (dir: string, args: string[]) => Promise<string | undefined>;

export const runGit: GitRunner = (dir, args) =>
  new Promise((resolve) => {
    execFile('git', ['-C', dir, ...args], { timeout: 5_000, windowsHide: true }, (error, stdout) => {
      const answer = stdout.trim();
      resolve(error || !answer ? undefined : answer);
    });
  });

/**
 * The commit, branch and CI run of the CI environment, first match per field: `SERVICE_SYNC_COMMIT` /
 * `SERVICE_SYNC_BRANCH` / `SERVICE_SYNC_CI_RUN_URL` (any CI, set by hand), GitHub Actions, GitLab CI, then other CIs'
 * usual variables (Buildkite, CircleCI, Bitbucket Pipelines, Jenkins, Azure Pipelines).
 */
export function sourceFromEnvironment(env: Env): SyncSource {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const githubRun = get('GITHUB_SERVER_URL') && get('GITHUB_REPOSITORY') && get('GITHUB_RUN_ID') ? `${get('GITHUB_SERVER_URL')}/${get('GITHUB_REPOSITORY')}/actions/runs/${get('GITHUB_RUN_ID')}` : undefined;
  const azureRun = get('SYSTEM_COLLECTIONURI') && get('SYSTEM_TEAMPROJECT') && get('BUILD_BUILDID') ? `${get('SYSTEM_COLLECTIONURI')?.replace(/\/+$/, '')}/${get('SYSTEM_TEAMPROJECT')}/_build/results?buildId=${get('BUILD_BUILDID')}` : undefined;
  const first = (...values: Array<string | undefined>): string | undefined => values.find((value) => value !== undefined);
  return withoutUndefined({
    commit: first(get('SERVICE_SYNC_COMMIT'), get('GITHUB_SHA'), get('CI_COMMIT_SHA'), get('BUILDKITE_COMMIT'), get('CIRCLE_SHA1'), get('BITBUCKET_COMMIT'), get('GIT_COMMIT'), get('BUILD_SOURCEVERSION')),
    // A pull request's GITHUB_REF_NAME is "42/merge"; its head branch is GITHUB_HEAD_REF. A GitLab merge request
    // pipeline names its source branch in CI_MERGE_REQUEST_SOURCE_BRANCH_NAME.
    branch: first(get('SERVICE_SYNC_BRANCH'), get('GITHUB_HEAD_REF'), get('GITHUB_REF_NAME'), get('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'), get('CI_COMMIT_REF_NAME'), get('BUILDKITE_BRANCH'), get('CIRCLE_BRANCH'), get('BITBUCKET_BRANCH'), get('GIT_BRANCH'), get('BUILD_SOURCEBRANCHNAME')),
    ciRunUrl: first(get('SERVICE_SYNC_CI_RUN_URL'), githubRun, get('CI_PIPELINE_URL'), get('BUILDKITE_BUILD_URL'), get('CIRCLE_BUILD_URL'), get('BUILD_URL'), azureRun),
  });
}

/**
 * Where the files of a sync come from: the CI environment, completed by `git rev-parse HEAD` and
 * `git rev-parse --abbrev-ref HEAD` in the repository's work tree. Every field is optional; a value the gateway
 * would refuse (not a commit id, a CI link that is not http(s), a branch too long) is left out rather than sent.
 */
export async function resolveSyncSource(env: Env, dir: string, git: GitRunner = runGit): Promise<SyncSource> {
  const source = sourceFromEnvironment(env);
  if (source.commit === undefined) source.commit = await git(dir, ['rev-parse', 'HEAD']);
  if (source.branch === undefined) {
    const branch = await git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']);
    // A detached checkout (what most CIs make) answers "HEAD": no branch.
    if (branch !== 'HEAD') source.branch = branch;
  }
  const refused = new Set(syncSourceProblems(withoutUndefined(source)).map((problem) => problem.path));
  return withoutUndefined({
    commit: refused.has('commit') ? undefined : source.commit,
    branch: refused.has('branch') ? undefined : source.branch,
    ciRunUrl: refused.has('ciRunUrl') ? undefined : source.ciRunUrl,
  });
}

function withoutUndefined(source: SyncSource): SyncSource {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined)) as SyncSource;
}
