import { resolveSyncSource, sourceFromEnvironment, type GitRunner } from '../src/lib/sync-source';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const noGit: GitRunner = async () => undefined;

describe('the sync source read from the CI environment', () => {
  it('reads GitHub Actions: GITHUB_SHA, GITHUB_REF_NAME and the run page from server, repository and run id', () => {
    expect(sourceFromEnvironment({ GITHUB_SHA: SHA, GITHUB_REF_NAME: 'main', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/orders', GITHUB_RUN_ID: '123' })).toEqual({
      commit: SHA,
      branch: 'main',
      ciRunUrl: 'https://github.com/acme/orders/actions/runs/123',
    });
  });

  it("takes a GitHub pull request's head branch (GITHUB_HEAD_REF) over its merge ref name", () => {
    expect(sourceFromEnvironment({ GITHUB_REF_NAME: '42/merge', GITHUB_HEAD_REF: 'feature/login' }).branch).toBe('feature/login');
  });

  it('leaves the GitHub run link out when one of its parts is missing', () => {
    expect(sourceFromEnvironment({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_RUN_ID: '123' })).toEqual({});
  });

  it('reads GitLab CI: CI_COMMIT_SHA, CI_COMMIT_REF_NAME, CI_PIPELINE_URL', () => {
    expect(sourceFromEnvironment({ CI_COMMIT_SHA: SHA, CI_COMMIT_REF_NAME: 'develop', CI_PIPELINE_URL: 'https://gitlab.example/acme/orders/-/pipelines/9' })).toEqual({
      commit: SHA,
      branch: 'develop',
      ciRunUrl: 'https://gitlab.example/acme/orders/-/pipelines/9',
    });
  });

  it('reads generic CI variables (Jenkins, Buildkite, CircleCI), and SERVICE_SYNC_* before all of them', () => {
    expect(sourceFromEnvironment({ GIT_COMMIT: SHA, GIT_BRANCH: 'origin/main', BUILD_URL: 'https://jenkins.example/job/orders/7/' })).toEqual({ commit: SHA, branch: 'origin/main', ciRunUrl: 'https://jenkins.example/job/orders/7/' });
    expect(sourceFromEnvironment({ BUILDKITE_COMMIT: SHA, BUILDKITE_BRANCH: 'main', BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/orders/builds/5' }).ciRunUrl).toBe('https://buildkite.com/acme/orders/builds/5');
    expect(sourceFromEnvironment({ CIRCLE_SHA1: SHA, CIRCLE_BRANCH: 'main' })).toEqual({ commit: SHA, branch: 'main' });
    expect(sourceFromEnvironment({ SERVICE_SYNC_BRANCH: 'release', GITHUB_REF_NAME: 'main', CI_COMMIT_REF_NAME: 'x' }).branch).toBe('release');
  });

  it('reads nothing outside CI (blank values count as unset)', () => {
    expect(sourceFromEnvironment({ GITHUB_SHA: '  ', HOME: '/home/me' })).toEqual({});
  });
});

describe('resolveSyncSource', () => {
  it('completes commit and branch with git rev-parse in the work tree', async () => {
    const calls: string[][] = [];
    const git: GitRunner = async (dir, args) => {
      calls.push([dir, ...args]);
      return args.includes('--abbrev-ref') ? 'feature/x' : SHA;
    };
    expect(await resolveSyncSource({}, '/repo', git)).toEqual({ commit: SHA, branch: 'feature/x' });
    expect(calls).toEqual([
      ['/repo', 'rev-parse', 'HEAD'],
      ['/repo', 'rev-parse', '--abbrev-ref', 'HEAD'],
    ]);
  });

  it('does not ask git for what the CI told, and sends no branch for a detached checkout', async () => {
    const git: GitRunner = async (_dir, args) => (args.includes('--abbrev-ref') ? 'HEAD' : 'ffffffffffffffffffffffffffffffffffffffff');
    expect(await resolveSyncSource({ CI_COMMIT_SHA: SHA }, '/repo', git)).toEqual({ commit: SHA });
  });

  it('is empty outside CI and outside a work tree', async () => {
    expect(await resolveSyncSource({}, '/tmp', noGit)).toEqual({});
  });

  it('leaves out what the gateway would refuse: a CI link that is not http(s), a commit that is not one', async () => {
    expect(await resolveSyncSource({ SERVICE_SYNC_COMMIT: 'v1.2.3', SERVICE_SYNC_CI_RUN_URL: 'javascript:alert(1)', SERVICE_SYNC_BRANCH: 'main' }, '/repo', noGit)).toEqual({ branch: 'main' });
  });
});
