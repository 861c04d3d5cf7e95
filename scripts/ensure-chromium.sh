#!/usr/bin/env bash
# Makes sure the browser end-to-end tests have Debian's Chromium (never a downloaded browser build).
# Called by `npm test` (pretest), `nx run admin:e2e` and .ci/run. Silent when Chromium is there; installs
# Debian's `chromium` package when it is missing and this user can (root with apt-get); otherwise exits 1
# with one line saying what to run.
#   CHROMIUM_PATH  the executable the tests launch (default /usr/bin/chromium; apps/admin/e2e/support/browser.ts)
set -euo pipefail
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$chromium" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $chromium is missing; installing Debian's chromium package (apt-get) …" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$chromium" ] && exit 0
  echo "ensure-chromium: apt-get installed chromium, but $chromium is still missing; set CHROMIUM_PATH to the installed executable." >&2
  exit 1
fi

echo "ensure-chromium: the browser tests need Chromium at $chromium: run \`sudo apt-get update && sudo apt-get install -y chromium\` (Debian/Ubuntu), or set CHROMIUM_PATH to an installed Chromium." >&2
exit 1
