#!/usr/bin/env bash
# Installs exactly the locked packages. rollup is pinned (package.json overrides) to a version
# whose platform packages the registry has for every platform, so the lock lists them all and
# `npm ci` accepts it on any machine.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
