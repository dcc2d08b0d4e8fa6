#!/usr/bin/env bash
# Installs the locked packages. npm 11 on these machines writes lock files that leave out
# rollup's platform-specific optional packages, and `npm ci` then refuses the lock as out of
# sync; `npm install` installs the same locked versions and fills the gap.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund 2>/dev/null || npm install --no-audit --no-fund
