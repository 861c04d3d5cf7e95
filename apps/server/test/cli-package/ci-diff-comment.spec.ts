import type { ServiceDetail } from '@sc/contracts';
import { execFile, type ExecFileException } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { COLD_WORKER_TIMEOUT } from '../artifacts/bundles';
import { requireBuiltCli, CLI_BIN, copySampleRepo, runCli, WORKSPACE_ROOT } from '../artifacts/cli-process';
import { bearer, call, useTestApp, createToken, setupOrganization } from '../support';

/**
 * docs/ci/diff-comment.sh, the script the GitHub and GitLab templates run on pull/merge requests, end to end: the
 * built service-cli against a real server (the payments fixture synced as revision 1), and a fake GitHub / GitLab
 * API on 127.0.0.1 that keeps the comments. A pull request that changes a diagram gets one comment saying what
 * changed; the next push updates that comment (found by its marker) instead of adding one; nothing is synced.
 */
// Two CLI runs per script run (the preview step, then diff parsing both sides' diagrams in worker threads).
jest.setTimeout(240_000);

const SCRIPT = join(WORKSPACE_ROOT, 'docs/ci/diff-comment.sh');
const MARKER = '<!-- service-cli:diff -->';

interface Comment {
  id: number;
  body: string;
}

interface Forge {
  url: string;
  comments: Comment[];
  requests: Array<{ method: string; path: string; authorization?: string; privateToken?: string }>;
  close(): Promise<void>;
}

/**
 * The few routes of each forge the script uses, with their pagination (per_page, page). GitHub:
 * /repos/acme/payments/issues/7/comments and /repos/acme/payments/issues/comments/:id; GitLab:
 * /api/v4/projects/42/merge_requests/7/notes[/:id]. A human's comment is there from the start.
 */
async function startForge(): Promise<Forge> {
  const comments: Comment[] = [{ id: 1, body: 'Looks good to me, but see the diagram.' }];
  const requests: Forge['requests'] = [];
  let nextId = 100;
  const readBody = (req: IncomingMessage) =>
    new Promise<{ body?: string }>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body?: string }) : {}));
    });
  const server: Server = createServer((req, res) => {
    void readBody(req).then((payload) => {
      const url = new URL(req.url ?? '/', 'http://forge');
      requests.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, privateToken: req.headers['private-token'] as string | undefined });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const list = /^\/(repos\/acme\/payments\/issues\/7\/comments|api\/v4\/projects\/42\/merge_requests\/7\/notes)$/.test(url.pathname);
      const one = /^\/(?:repos\/acme\/payments\/issues\/comments|api\/v4\/projects\/42\/merge_requests\/7\/notes)\/(\d+)$/.exec(url.pathname);
      if (list && req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, comments.slice((page - 1) * perPage, page * perPage));
      }
      if (list && req.method === 'POST' && payload.body) {
        const comment = { id: nextId++, body: payload.body };
        comments.push(comment);
        return send(201, { ...comment, html_url: `http://forge/acme/payments/pull/7#issuecomment-${comment.id}` });
      }
      const existing = one ? comments.find((comment) => comment.id === Number(one[1])) : undefined;
      if (existing && (req.method === 'PATCH' || req.method === 'PUT') && payload.body) {
        existing.body = payload.body;
        return send(200, { ...existing, html_url: `http://forge/acme/payments/pull/7#issuecomment-${existing.id}` });
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, comments, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('docs/ci/diff-comment.sh (the pull/merge request comment)', () => {
  const t = useTestApp({ env: COLD_WORKER_TIMEOUT });
  let token: string;
  let readToken: string;
  let forge: Forge;
  let repo: { dir: string; remove(): void };
  let owner: Awaited<ReturnType<typeof setupOrganization>>['owner'];

  beforeAll(async () => {
    await requireBuiltCli();
    const acme = await setupOrganization(t, { orgId: 'acme' });
    owner = acme.owner;
    token = (await createToken(t, acme.owner, 'acme', { name: 'ci pull requests', scopes: ['sync', 'read'] })).token;
    readToken = (await createToken(t, acme.owner, 'acme', { name: 'reader', scopes: ['read'] })).token;
    repo = copySampleRepo();
    const synced = await runCli(['sync', '--retries', '0', '--timeout', '180'], { SERVICE_TOKEN: token, SERVICE_GATEWAY_URL: t.baseUrl }, repo.dir);
    if (synced.code !== 0) throw new Error(`The fixture did not sync:\n${synced.stdout}\n${synced.stderr}`);
  }, 240_000);
  beforeEach(async () => (forge = await startForge()));
  afterEach(() => forge?.close());
  afterAll(async () => {
    repo?.remove();
  });

  /** The pull request's change to the fixture's topology: a node relabelled, a node and edge added, an edge gone. */
  const editTopology = (replace: Array<[string, string]>) => {
    const file = join(repo.dir, '.service/diagrams/topology.mmd');
    writeFileSync(file, replace.reduce((text, [from, to]) => text.replace(from, to), readFileSync(file, 'utf8')));
  };

  function runScript(ci: Record<string, string>): Promise<Run> {
    // This machine's environment without SERVICE_* or a CI's own variables, then the CI's.
    const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(SERVICE_|GITHUB_|GITLAB_|CI_|NODE_OPTIONS$)/.test(key)));
    const env = { ...base, SERVICE_GATEWAY_URL: t.baseUrl, SERVICE_TOKEN: token, SERVICE_CLI: CLI_BIN, ...ci };
    return new Promise((resolve) => {
      execFile('bash', [SCRIPT], { cwd: repo.dir, env, timeout: 200_000, maxBuffer: 16 * 1024 * 1024 }, (error: ExecFileException | null, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  }

  /** The preview step stored the branch as a preview, and the comment links its page and the diagram's place on it. */
  const expectPreviewStep = (run: Run, body: string) => {
    const url = /service-cli: preview of feature\/cache: (\S+)/.exec(run.stderr)?.[1];
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/orgs/acme/services/payments/previews/[0-9a-f-]{36}$`));
    expect(body).toContain(`[See the change on the drawing (preview)](${url})`);
    expect(body).toContain(`<summary>Diagram <a href="${url}#diagram-topology"><code>topology</code></a> changed`);
  };

  it('GitHub: comments what the pull request changes, then updates the same comment on the next push; nothing is synced', async () => {
    const github = { SERVICE_CI_FORGE: 'github', GITHUB_TOKEN: 'ghs_test_token', GITHUB_REPOSITORY: 'acme/payments', GITHUB_REF: 'refs/pull/7/merge', GITHUB_HEAD_REF: 'feature/cache', GITHUB_API_URL: forge.url };
    editTopology([
      ['gateway[API gateway]', 'gateway[Public API gateway]'],
      ['  api --> rules\n', '  api --> cache[(Redis cache)]\n'],
    ]);
    const first = await runScript(github);
    expect(first.stderr).toContain('service-cli: created the pull request comment http://forge/acme/payments/pull/7#issuecomment-100');
    expect(first.code).toBe(0);
    expect(forge.comments).toHaveLength(2);
    const comment = forge.comments[1];
    expect(comment.body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(comment.body).toContain('**1 diagram changed: 1 node added, 1 node changed, 1 edge added, 1 edge removed.**');
    expect(comment.body).toContain('<code>topology</code></a> changed: 1 node added, 1 node changed, 1 edge added, 1 edge removed</summary>');
    expect(comment.body).toContain('- Changed node `gateway` “Public API gateway”: label');
    expect(comment.body).toContain('- Removed edge `api` → `rules`');
    expect(comment.body).toContain(`with revision 1 on ${t.baseUrl}`);
    expectPreviewStep(first, comment.body);
    expect(forge.requests.filter((request) => request.method !== 'GET').map((request) => [request.method, request.path, request.authorization])).toEqual([
      ['POST', '/repos/acme/payments/issues/7/comments', 'Bearer ghs_test_token'],
    ]);

    editTopology([['  events --> worker\n', '  events --> worker\n  worker --> audit[Audit log]\n']]);
    const second = await runScript(github);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('service-cli: updated the pull request comment http://forge/acme/payments/pull/7#issuecomment-100');
    expect(forge.comments.map((entry) => entry.id)).toEqual([1, 100]);
    expect(forge.comments[0].body).toBe('Looks good to me, but see the diagram.');
    expect(forge.comments[1].body).toContain('**1 diagram changed: 2 nodes added, 1 node changed, 2 edges added, 1 edge removed.**');
    expect(forge.requests.filter((request) => request.method !== 'GET').map((request) => [request.method, request.path])).toEqual([
      ['POST', '/repos/acme/payments/issues/7/comments'],
      ['PATCH', '/repos/acme/payments/issues/comments/100'],
    ]);
    // The comment is all that happened: the service is still at the revision synced before the pull request.
    const service = await call<ServiceDetail>(t.baseUrl, 'GET', '/api/v1/orgs/acme/services/payments', { headers: bearer(readToken) });
    expect(service.body.currentRevision).toBe(1);
  });

  it('GitLab: one merge request note, created then updated; the shell template prints the markdown', async () => {
    const gitlab = { SERVICE_CI_FORGE: 'gitlab', SERVICE_GITLAB_TOKEN: 'glpat-test', CI_API_V4_URL: `${forge.url}/api/v4`, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/cache' };
    const first = await runScript(gitlab);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('service-cli: created the merge request note 100');
    const second = await runScript(gitlab);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('service-cli: updated the merge request note 100');
    expect(forge.comments).toHaveLength(2);
    expect(forge.comments[1].body.startsWith(MARKER)).toBe(true);
    expectPreviewStep(second, forge.comments[1].body);
    expect(forge.requests.filter((request) => request.method !== 'GET').map((request) => [request.method, request.path, request.privateToken])).toEqual([
      ['POST', '/api/v4/projects/42/merge_requests/7/notes', 'glpat-test'],
      ['PUT', '/api/v4/projects/42/merge_requests/7/notes/100', 'glpat-test'],
    ]);

    const shell = await runScript({ SERVICE_CI_FORGE: 'none', SERVICE_CI_PREVIEW: 'false' });
    expect(shell.stderr).not.toContain('preview');
    expect(shell.code).toBe(0);
    expect(shell.stdout.startsWith(`${MARKER}\n`)).toBe(true);
    expect(shell.stdout).toContain('<summary>Diagram <code>topology</code> changed');
    expect(shell.stdout).not.toContain('(preview)');
    expect(forge.comments).toHaveLength(2);
  });

  it('comments without a link when the preview step fails (here: a token that may read but not sync)', async () => {
    const readOnly = await runScript({ SERVICE_CI_FORGE: 'none', SERVICE_TOKEN: readToken });
    expect(readOnly.code).toBe(0);
    expect(readOnly.stderr).toContain('service-cli: no preview (the comment has no link to one):');
    expect(readOnly.stderr).toMatch(/^ {2}Error: .*sync/m);
    expect(readOnly.stdout.startsWith(`${MARKER}\n`)).toBe(true);
    expect(readOnly.stdout).not.toContain('(preview)');
  });

  it('fails with diff\'s exit code when the token may not read, and with 4 when the forge refuses the comment', async () => {
    const syncOnly = (await createToken(t, owner, 'acme', { name: 'sync only', scopes: ['sync'] })).token;
    const refused = await runScript({ SERVICE_CI_FORGE: 'none', SERVICE_CI_PREVIEW: 'false', SERVICE_TOKEN: syncOnly });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('needs a token with the "read" scope');
    const noForge = await runScript({ SERVICE_CI_FORGE: 'github', SERVICE_CI_PREVIEW: 'false', GITHUB_TOKEN: 'ghs_test_token', GITHUB_REPOSITORY: 'acme/other', GITHUB_REF: 'refs/pull/7/merge', GITHUB_API_URL: forge.url });
    expect(noForge.code).toBe(4);
    expect(noForge.stderr).toContain('service-cli: could not comment: GET');
    expect(noForge.stderr).not.toContain('ghs_test_token');
  });
});
