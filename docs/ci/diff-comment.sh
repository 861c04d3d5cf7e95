#!/usr/bin/env bash
# service-cli diff as one pull/merge-request comment, for GitHub Actions, GitLab CI or any shell (copy this file into
# your repository, e.g. as ci/service-diff-comment.sh, and run it from the repository's root in pull/merge requests).
#
# 1. `service-cli sync --preview --json --label <branch>` stores the branch's artifacts as a preview on the service
#    (nothing is synced); skipped, with a note, when the service or the CLI does not know previews.
# 2. `service-cli diff --format markdown --preview-url <preview>` compares the branch with the service's current
#    revision: a summary line, a collapsible section per changed diagram, the link to the preview.
# 3. GitHub: creates or updates one comment on the pull request (found by the hidden marker the markdown starts with);
#    GitLab: the same with one merge request note; anywhere else: prints the markdown on stdout.
#
# Needs bash and Node.js 20.19 or newer with npm (node posts the comment: no curl or jq needed).
#   SERVICE_GATEWAY_URL        your installation, e.g. https://context.example.com
#   SERVICE_TOKEN              an API token with the "read" scope (diff) and the "sync" scope (the preview)
# Where to comment (SERVICE_CI_FORGE: github, gitlab or none; default: detected from the CI's variables):
#   GitHub Actions: GITHUB_TOKEN (the job's token with `pull-requests: write`), GITHUB_REPOSITORY, GITHUB_REF
#                   (refs/pull/<n>/merge) or SERVICE_CI_PR_NUMBER, GITHUB_API_URL (default https://api.github.com)
#   GitLab CI:      SERVICE_GITLAB_TOKEN (a project access token with the "api" scope; CI_JOB_TOKEN may not write
#                   notes), CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID
# Optional:
#   SERVICE_CI_CONFIG          path of .service.yaml (default: .service.yaml)
#   SERVICE_CI_BRANCH          the preview's label (default: the CI's branch variable, else git's current branch)
#   SERVICE_CI_PREVIEW         "false" skips the preview step
#   SERVICE_CLI                a service-cli to run instead of installing the server's release
#   SERVICE_CLI_PREFIX         where service-cli is installed (default: $HOME/.service-cli; no root needed)
set -euo pipefail

: "${SERVICE_GATEWAY_URL:?set SERVICE_GATEWAY_URL to your installation, e.g. https://context.example.com}"
gateway=${SERVICE_GATEWAY_URL%/}
config=${SERVICE_CI_CONFIG:-.service.yaml}
branch=${SERVICE_CI_BRANCH:-${CI_MERGE_REQUEST_SOURCE_BRANCH_NAME:-${GITHUB_HEAD_REF:-${CI_COMMIT_BRANCH:-$(git rev-parse --abbrev-ref HEAD 2>/dev/null || true)}}}}
forge=${SERVICE_CI_FORGE:-}
if [ -z "$forge" ]; then
  if [ "${GITHUB_ACTIONS:-}" = "true" ]; then forge=github; elif [ "${GITLAB_CI:-}" = "true" ]; then forge=gitlab; else forge=none; fi
fi

if [ -n "${SERVICE_CLI:-}" ]; then
  cli=$SERVICE_CLI
else
  # The CLI of the server's own version, from the server itself (its SHA-256: $gateway/downloads/service-cli.tgz.sha256).
  prefix=${SERVICE_CLI_PREFIX:-$HOME/.service-cli}
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$gateway/downloads/service-cli.tgz" >&2
  cli=$prefix/node_modules/.bin/service-cli
fi
"$cli" --version >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

preview_url=
if [ "${SERVICE_CI_PREVIEW:-true}" != "false" ]; then
  if "$cli" sync --preview --json --config "$config" ${branch:+--label "$branch"} >"$work/preview.json" 2>"$work/preview.err"; then
    preview_url=$(node -e 'const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.stdout.write(String(o.result?.preview?.url ?? ""))' "$work/preview.json")
    echo "service-cli: preview of ${branch:-this branch}: ${preview_url:-no URL in the answer}" >&2
  else
    # An older service or CLI without previews, or a token without the "sync" scope: the comment is still worth
    # having, without the link. Why: the --json error document, else what the CLI printed (an unknown flag).
    echo "service-cli: no preview (the comment has no link to one):" >&2
    node -e 'try { const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (o.error) console.log(`Error: ${o.error.message}`); } catch {}' "$work/preview.json" | cat - "$work/preview.err" | sed 's/^/  /' >&2
  fi
fi

# diff's own exit codes stop the job: 1 invalid checkout, 2 token or configuration, 3 server or network.
"$cli" diff --format markdown --config "$config" ${preview_url:+--preview-url "$preview_url"} >"$work/comment.md"

if [ "$forge" = "none" ]; then
  cat "$work/comment.md"
  exit 0
fi

# Creates the comment, or updates the one that starts with the marker (pages through every comment to find it).
SERVICE_CI_FORGE=$forge node - "$work/comment.md" <<'NODE'
const fs = require('node:fs');
const MARKER = '<!-- service-cli:diff -->';
const body = fs.readFileSync(process.argv[2], 'utf8');
const env = process.env;
const need = (name) => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set.`);
  return value;
};

async function call(method, url, headers, payload) {
  const response = await fetch(url, {
    method,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'service-cli-diff-comment', ...headers },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  if (!response.ok) throw new Error(`${method} ${url.replace(/\?.*$/, '')} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response.json();
}

async function findByMarker(listUrl, headers) {
  for (let page = 1; page <= 100; page++) {
    const items = await call('GET', `${listUrl}${listUrl.includes('?') ? '&' : '?'}per_page=100&page=${page}`, headers);
    const found = items.find((item) => typeof item.body === 'string' && item.body.startsWith(MARKER));
    if (found || items.length < 100) return found;
  }
  return undefined;
}

async function github() {
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
  const repository = need('GITHUB_REPOSITORY');
  const number = env.SERVICE_CI_PR_NUMBER || /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF || '')?.[1];
  if (!number) throw new Error('No pull request number: GITHUB_REF is not refs/pull/<n>/merge and SERVICE_CI_PR_NUMBER is not set.');
  const headers = { Authorization: `Bearer ${need('GITHUB_TOKEN')}`, 'X-GitHub-Api-Version': '2022-11-28' };
  const existing = await findByMarker(`${api}/repos/${repository}/issues/${number}/comments`, headers);
  if (existing) return ['updated', (await call('PATCH', `${api}/repos/${repository}/issues/comments/${existing.id}`, headers, { body })).html_url];
  return ['created', (await call('POST', `${api}/repos/${repository}/issues/${number}/comments`, headers, { body })).html_url];
}

async function gitlab() {
  const api = need('CI_API_V4_URL').replace(/\/$/, '');
  const notes = `${api}/projects/${encodeURIComponent(need('CI_PROJECT_ID'))}/merge_requests/${need('CI_MERGE_REQUEST_IID')}/notes`;
  const headers = { 'PRIVATE-TOKEN': need('SERVICE_GITLAB_TOKEN') };
  const existing = await findByMarker(`${notes}?sort=asc`, headers);
  if (existing) return ['updated', (await call('PUT', `${notes}/${existing.id}`, headers, { body })).id];
  return ['created', (await call('POST', notes, headers, { body })).id];
}

const forge = env.SERVICE_CI_FORGE;
(forge === 'github' ? github() : forge === 'gitlab' ? gitlab() : Promise.reject(new Error(`SERVICE_CI_FORGE must be github, gitlab or none, not "${forge}".`))).then(
  ([what, where]) => console.error(`service-cli: ${what} the ${forge === 'github' ? 'pull request comment' : 'merge request note'} ${where ?? ''}`),
  (error) => {
    console.error(`service-cli: could not comment: ${error.message}`);
    process.exit(4);
  },
);
NODE
