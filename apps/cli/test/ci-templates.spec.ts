import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { load } from 'js-yaml';

/**
 * The copy-paste CI templates in docs/ci parse and keep their promise: install service-cli from the server,
 * `sync --dry-run` on merge/pull requests, `sync` (with the token) on the default branch, and the pull/merge request
 * comment through docs/ci/diff-comment.sh. docs/ci/sync.sh, the plain shell step, runs end to end in
 * apps/server/test/cli-package/packed-cli.spec.ts, diff-comment.sh in apps/server/test/cli-package/ci-diff-comment.spec.ts.
 */
const CI_DIR = path.join(__dirname, '../../../docs/ci');
const yaml = <T>(file: string): T => load(readFileSync(path.join(CI_DIR, file), 'utf8')) as T;
const INSTALL = /npm install -g .*"\$\{(GATEWAY_URL|SERVICE_GATEWAY_URL)%\/\}\/downloads\/service-cli\.tgz"/;

interface Step {
  name: string;
  if?: string;
  run: string;
  env?: Record<string, string>;
}

describe('docs/ci templates', () => {
  it('GitHub: a composite action that installs from the server, checks pull requests and syncs the default branch', () => {
    const action = yaml<{ inputs: Record<string, { required: boolean }>; runs: { using: string; steps: Step[] } }>('github/action.yml');
    expect(action.runs.using).toBe('composite');
    expect(action.inputs['gateway-url'].required).toBe(true);
    const [install, check, sync] = action.runs.steps;
    expect(install.run).toMatch(INSTALL);
    expect(check.if).toBe("github.event_name == 'pull_request'");
    expect(check.run).toBe('service-cli sync --dry-run --config "$CONFIG"');
    expect(check.env).not.toHaveProperty('SERVICE_TOKEN');
    expect(sync.if).toBe("github.event_name == 'push' && github.ref == format('refs/heads/{0}', github.event.repository.default_branch)");
    expect(sync.run).toBe('service-cli sync --config "$CONFIG"');
    expect(sync.env).toMatchObject({ SERVICE_TOKEN: '${{ inputs.token }}', SERVICE_GATEWAY_URL: '${{ inputs.gateway-url }}' });
  });

  it('GitHub: the workflow uses the action from the repository with the token from secrets', () => {
    const workflow = yaml<{ on: Record<string, unknown>; jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string> }> }> }>('github/workflow.yml');
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const steps = workflow.jobs['service-sync'].steps;
    expect(steps.find((step) => step.uses === './.github/actions/service-sync')?.with).toEqual({
      'gateway-url': '${{ vars.SERVICE_GATEWAY_URL }}',
      token: '${{ secrets.SERVICE_TOKEN }}',
    });
  });

  it('GitLab: a dry run in merge request pipelines and a sync on the default branch', () => {
    const jobs = yaml<Record<string, { extends?: string; before_script?: string[]; rules?: Array<{ if: string }>; script?: string[] }>>('gitlab/.gitlab-ci.yml');
    expect(jobs['.service-cli'].before_script?.[0]).toMatch(INSTALL);
    expect(jobs['service-check']).toEqual({ extends: '.service-cli', rules: [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }], script: ['service-cli sync --dry-run'] });
    expect(jobs['service-sync']).toEqual({
      extends: '.service-cli',
      rules: [{ if: '$CI_PIPELINE_SOURCE != "merge_request_event" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }],
      script: ['service-cli sync'],
    });
  });
  it('GitHub: on pull requests a job with pull-requests: write runs diff-comment.sh with the job token and SERVICE_TOKEN', () => {
    const workflow = yaml<{ jobs: Record<string, { if?: string; permissions?: Record<string, string>; steps: Array<{ run?: string; env?: Record<string, string> }> }> }>('github/workflow.yml');
    const job = workflow.jobs['service-diff'];
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const step = job.steps.find((candidate) => candidate.run !== undefined);
    expect(step?.run).toBe('bash ci/service-diff-comment.sh');
    expect(step?.env).toEqual({ SERVICE_GATEWAY_URL: '${{ vars.SERVICE_GATEWAY_URL }}', SERVICE_TOKEN: '${{ secrets.SERVICE_TOKEN }}', GITHUB_TOKEN: '${{ secrets.GITHUB_TOKEN }}' });
  });

  it('GitLab: the merge request note job runs diff-comment.sh with the CLI the before_script installed', () => {
    const jobs = yaml<Record<string, { extends?: string; rules?: Array<{ if: string }>; variables?: Record<string, string>; script?: string[] }>>('gitlab/.gitlab-ci.yml');
    expect(jobs['service-diff']).toEqual({
      extends: '.service-cli',
      rules: [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }],
      variables: { SERVICE_CLI: 'service-cli' },
      script: ['SERVICE_TOKEN="$SERVICE_DIFF_TOKEN" bash ci/service-diff-comment.sh'],
    });
  });
});
