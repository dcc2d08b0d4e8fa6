#!/usr/bin/env bash
# Every test of the project, from a fresh clone: installs what is missing (npm packages,
# Debian's Chromium), then typecheck, lint, format check, unit tests, database tests on PGlite (and on
# PostgreSQL when DATABASE_URL is set), a production build and the browser tests with
# JavaScript on and off, and the operations tests. Ends with one line: "Tests: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  bash scripts/install.sh || exit 1
fi

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "Installing Debian's Chromium for the browser tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null || { echo "could not install chromium"; exit 1; }
fi

OUT="$(mktemp -d)"
status=0
TIMES=""
step() {
  local name="$1" started=$SECONDS
  echo
  echo "=== $name"
  shift
  "$@" || status=1
  TIMES="${TIMES}$(printf '%6ds  %s' $((SECONDS - started)) "$name")"$'\n'
  echo "--- $name: $((SECONDS - started)) s"
}

step "typecheck" npx tsc
step "lint" npx eslint --max-warnings 0 app db tests server
step "format (Prettier)" npx prettier --check --log-level warn .
step "unit tests" npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$OUT/unit.json"
step "database tests on PGlite" env TEST_DB_DRIVER=pglite npx vitest run --project db --reporter=default --reporter=json --outputFile.json="$OUT/db-pglite.json"
if [ -n "${DATABASE_URL:-}" ]; then
  step "database tests on PostgreSQL" env TEST_DB_DRIVER=postgres npx vitest run --project db --reporter=default --reporter=json --outputFile.json="$OUT/db-postgres.json"
else
  echo; echo "=== database tests on PostgreSQL: skipped (set DATABASE_URL to run them)"
fi
step "production build" npx remix build
# Operations (tests/ops): the built app as child processes on private PostgreSQL clusters and
# PGlite: faults, drain, restore drill, two instances. PostgreSQL parts skip with a printed
# reason when its server binaries are missing.
step "operations tests" npx vitest run --project ops --reporter=default --reporter=json --outputFile.json="$OUT/ops.json"
step "browser tests (JavaScript on and off)" env PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/e2e.json" npx playwright test --reporter=list,json
step "no secrets in the browser-test server log" npx tsx scripts/check-e2e-log.ts

echo
echo "Time per step:"
printf '%s' "$TIMES"
printf '%6ds  %s\n' "$SECONDS" "in all"
node scripts/summarize-tests.mjs "$OUT" || status=1
exit $status
