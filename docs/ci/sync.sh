#!/usr/bin/env bash
# service-cli sync as one shell step, for any CI (copy this file into your repository and run it from its root).
# Merge/pull requests: `service-cli sync --dry-run` (checks .service.yaml and every file it names; sends nothing).
# The default branch: `service-cli sync` (sends them to the service).
#
# Needs bash, Node.js 20.19 or newer with npm, and the service reachable from the CI runner:
#   SERVICE_GATEWAY_URL          your installation, e.g. https://context.example.com
#   SERVICE_TOKEN                an API token with the "sync" scope, from the CI's secrets (the dry run does not need it)
# Optional:
#   SERVICE_CI_BRANCH            the branch being built (default: the CI's variable, else git's current branch)
#   SERVICE_CI_DEFAULT_BRANCH    the branch whose builds sync (default: the CI's variable, else main)
#   SERVICE_CI_MERGE_REQUEST     non-empty for a merge/pull request build (default: detected from the CI's variables)
#   SERVICE_CI_CONFIG            path of .service.yaml (default: .service.yaml)
#   SERVICE_CLI_PREFIX           where service-cli is installed (default: $HOME/.service-cli; no root needed)
set -euo pipefail

: "${SERVICE_GATEWAY_URL:?set SERVICE_GATEWAY_URL to your installation, e.g. https://context.example.com}"
gateway=${SERVICE_GATEWAY_URL%/}
prefix=${SERVICE_CLI_PREFIX:-$HOME/.service-cli}
config=${SERVICE_CI_CONFIG:-.service.yaml}
# GitLab, GitHub Actions, Bitbucket, Jenkins, Azure Pipelines; then git.
branch=${SERVICE_CI_BRANCH:-${CI_COMMIT_BRANCH:-${GITHUB_REF_NAME:-${BITBUCKET_BRANCH:-${BRANCH_NAME:-${BUILD_SOURCEBRANCHNAME:-$(git rev-parse --abbrev-ref HEAD 2>/dev/null || true)}}}}}}
default_branch=${SERVICE_CI_DEFAULT_BRANCH:-${CI_DEFAULT_BRANCH:-main}}
merge_request=${SERVICE_CI_MERGE_REQUEST:-${CI_MERGE_REQUEST_IID:-${GITHUB_HEAD_REF:-${BITBUCKET_PR_ID:-${CHANGE_ID:-${SYSTEM_PULLREQUEST_PULLREQUESTID:-}}}}}}

# The CLI of the server's own version, from the server itself (its SHA-256: $gateway/downloads/service-cli.tgz.sha256).
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$gateway/downloads/service-cli.tgz" >&2
cli=$prefix/node_modules/.bin/service-cli
"$cli" --version >&2

if [ -z "$merge_request" ] && [ "$branch" = "$default_branch" ]; then
  echo "service-cli: $branch is the default branch: syncing $config to $gateway" >&2
  exec "$cli" sync --config "$config"
fi
echo "service-cli: ${merge_request:+merge request, }branch ${branch:-unknown} (default: $default_branch): checking $config without sending (sync --dry-run)" >&2
exec "$cli" sync --dry-run --config "$config"
