#!/usr/bin/env bash
# Every test: lint, type check, unit tests, build, the runnable example
# (examples/data-tool), integration tests against the real server — on SQLite, then
# again on a throwaway PostgreSQL cluster (scripts/test-postgres.sh) — and Playwright in
# Debian's Chromium. Chromium and PostgreSQL are installed here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
  echo "== installing Debian's$missing for the tests"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >/dev/null
fi

echo "== lint";        npx eslint . --max-warnings=0 && npx prettier --check . >/dev/null
echo "== typecheck";   npx tsc --noEmit
echo "== unit";        npx vitest run
echo "== build";       npm run build
echo "== example";     node examples/data-tool/run.mjs
echo "== integration (SQLite)"; npx vitest run --config vitest.integration.config.ts

echo "== integration (PostgreSQL)"
pg=$(bash scripts/test-postgres.sh start)
pg_dir=$(printf '%s\n' "$pg" | sed -n 's/^INSIKA_TEST_PG_DIR=//p')
trap 'bash scripts/test-postgres.sh stop "$pg_dir"' EXIT
INSIKA_TEST_DATABASE_URL=$(printf '%s\n' "$pg" | sed -n 's/^INSIKA_TEST_DATABASE_URL=//p') \
  npx vitest run --config vitest.integration.config.ts
bash scripts/test-postgres.sh stop "$pg_dir"
trap - EXIT
echo "== browser";     npx playwright test
