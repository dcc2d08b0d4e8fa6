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

# Debian's packages the tests drive: Chromium (browser tests) and poppler-utils (pdftotext and
# pdftoppm read the invoice and statement PDFs back).
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_updated=""
apt_install() {
  echo "Installing Debian's $1 for the tests..."
  if [ -z "$apt_updated" ]; then $SUDO apt-get update -qq || return 1; apt_updated=1; fi
  $SUDO apt-get install -y -qq "$1" >/dev/null
}
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  apt_install chromium || { echo "could not install chromium"; exit 1; }
fi
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
  apt_install poppler-utils || { echo "could not install poppler-utils"; exit 1; }
fi

OUT="$(mktemp -d)"
mkdir -p "$OUT/logs"
touch "$OUT/times" "$OUT/failed"

# One step: its output goes to its own log, printed whole (under a lock, so lanes never
# interleave) when the step ends; its time and any failure are kept for the closing table.
step() {
  local name="$1" started=$SECONDS rc
  shift
  local log="$OUT/logs/$(printf '%s' "$name" | tr -c 'a-zA-Z0-9' '-').log"
  echo "... $name: started"
  "$@" >"$log" 2>&1
  rc=$?
  local took=$((SECONDS - started))
  printf '%6ds  %s\n' "$took" "$name" >>"$OUT/times"
  [ "$rc" -eq 0 ] || echo "$name" >>"$OUT/failed"
  flock "$OUT/print.lock" sh -c 'printf "\n=== %s\n" "$1"; cat "$2"; printf -- "--- %s: %s s, exit %s\n" "$1" "$3" "$4"' _ \
    "$name" "$log" "$took" "$rc"
}

# The steps run in three stages of lanes that share the machine's cores (decision 0840): what
# waits on a server (PostgreSQL, the operations tests' child processes) runs beside what burns
# CPU (PGlite, the type checker), and the browser tests run alone at the end.
# Stage 1: static checks, unit tests and the production build.
step "typecheck" npx tsc &
{ step "lint" npx eslint --max-warnings 0 app db tests server; step "format (Prettier)" npx prettier --check --log-level warn .; } &
{
  step "unit tests" npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$OUT/unit.json"
  step "production build" npx remix build
} &
wait

# Stage 2: the database tests on PGlite and the operations tests (the built app as child
# processes on private PostgreSQL clusters and PGlite: faults, drain, restore drill, two
# instances, two files at a time) start together; the database tests on PostgreSQL take the
# first lane to finish. The operations tests leave a core idle much of the time: the browser
# tests' server seeds its database and starts meanwhile (tests/e2e/serve.sh, the command
# Playwright would run), and stage 3 uses it instead of waiting for a fresh one.
stop_e2e_server() {
  [ -n "$e2e_server" ] || return 0
  kill -TERM -- "-$e2e_server" 2>/dev/null
  wait "$e2e_server" 2>/dev/null
  e2e_server=""
}
E2E_PORT="${E2E_PORT:-3210}"
export E2E_PORT
# What Playwright waits for (playwright.config.ts): the sign-in page answers.
e2e_up() { node -e 'fetch(process.argv[1]).then(() => process.exit(0), () => process.exit(1))' "http://localhost:$E2E_PORT/login"; }
e2e_server=""
if e2e_up; then
  echo "Port $E2E_PORT is in use: the browser tests will refuse to start on it."
else
  # In a process group of its own (setsid), so that stopping it stops npx, tsx, the seeding
  # script and the server it started, not only the first of them.
  setsid bash tests/e2e/serve.sh >"$OUT/logs/e2e-server.log" 2>&1 &
  e2e_server=$!
  trap 'stop_e2e_server' EXIT
fi
step "database tests on PGlite" env TEST_DB_DRIVER=pglite npx vitest run --project db --reporter=default --reporter=json --outputFile.json="$OUT/db-pglite.json" &
pglite_lane=$!
step "operations tests" npx vitest run --project ops --reporter=default --reporter=json --outputFile.json="$OUT/ops.json" &
ops_lane=$!
# With the two ids: a bare `wait -n` would also return for stage 1's jobs, already waited for.
wait -n "$pglite_lane" "$ops_lane"
lanes=("$pglite_lane" "$ops_lane")
if [ -n "${DATABASE_URL:-}" ]; then
  step "database tests on PostgreSQL" env TEST_DB_DRIVER=postgres npx vitest run --project db --reporter=default --reporter=json --outputFile.json="$OUT/db-postgres.json" &
  lanes+=($!)
else
  echo; echo "=== database tests on PostgreSQL: skipped (set DATABASE_URL to run them)"
fi
# The lanes only: a bare `wait` would also wait for the browser tests' server, which runs on.
wait "${lanes[@]}"

# Stage 3: the browser tests, JavaScript on and off, with the machine to themselves, on the
# server started in stage 2 (E2E_SERVER_STARTED: playwright.config.ts then reuses it). If it
# did not come up, Playwright starts its own as usual.
e2e_started=""
if [ -n "$e2e_server" ]; then
  for _ in $(seq 1 240); do
    if e2e_up; then e2e_started=1; break; fi
    kill -0 "$e2e_server" 2>/dev/null || break
    sleep 0.5
  done
  if [ -z "$e2e_started" ]; then
    echo "The browser tests' server did not start in stage 2; Playwright starts its own:"
    cat "$OUT/logs/e2e-server.log"
    stop_e2e_server
  fi
fi
step "browser tests (JavaScript on and off)" env E2E_SERVER_STARTED="$e2e_started" PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/e2e.json" npx playwright test --reporter=list,json
if [ -n "$e2e_server" ]; then
  stop_e2e_server
  printf "\n=== the browser tests' server (started in stage 2)\n"
  cat "$OUT/logs/e2e-server.log"
fi
step "no secrets in the browser-test server log" npx tsx scripts/check-e2e-log.ts

echo
echo "Time per step (the lanes of a stage overlap):"
cat "$OUT/times"
printf '%6ds  %s\n' "$SECONDS" "in all"
status=0
if [ -s "$OUT/failed" ]; then
  echo "Failed steps:"; sed 's/^/  /' "$OUT/failed"
  status=1
fi
node scripts/summarize-tests.mjs "$OUT" || status=1
exit $status
