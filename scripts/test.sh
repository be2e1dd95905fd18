#!/usr/bin/env bash
# Every test: lint, type check, unit tests, build, the runnable example
# (examples/data-tool), integration tests against the real server, and
# Playwright in Debian's Chromium (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi

echo "== lint";        npx eslint . --max-warnings=0 && npx prettier --check . >/dev/null
echo "== typecheck";   npx tsc --noEmit
echo "== unit";        npx vitest run
echo "== build";       npm run build
echo "== example";     node examples/data-tool/run.mjs
echo "== integration"; npx vitest run --config vitest.integration.config.ts
echo "== browser";     npx playwright test
