#!/usr/bin/env bash
# Starts the browser tests' server (tests/e2e/start-server.ts) on E2E_PORT (default 3210): the
# one command both Playwright's webServer (playwright.config.ts) and scripts/test-all.sh, which
# starts it early, run. The seeding process (not the server, which runs with
# NODE_ENV=production) hashes the fixture users' passwords at bcrypt's lowest cost; a hash
# carries its cost, so the server's compares are cheap too (decision 0840).
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${E2E_PORT:-3210}" NODE_ENV=test TEST_BCRYPT_COST=4 exec npx tsx tests/e2e/start-server.ts
