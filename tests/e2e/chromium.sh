#!/usr/bin/env bash
# Debian's Chromium for the browser tests (playwright.config.ts launches this), with the
# browser-window features no journey uses switched off (decision 0840).
# Every new browser context opens a window, and Chromium 156 loads two WebUI pages into each
# (the omnibox's popup and its AI-mode popup), each in a renderer of its own: about 0.8 s of
# CPU a context, more than the journey's own page. Chromium keeps only the last
# --disable-features of its command line and Playwright passes its own list, so this joins
# every list it is given with ours into one.
set -euo pipefail
disabled="WebUIOmniboxPopup,WebUIOmniboxAimPopup"
[ "${E2E_KEEP_FEATURES:-}" = 1 ] && disabled=""
args=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled="${arg#--disable-features=}${disabled:+,$disabled}" ;;
    *) args+=("$arg") ;;
  esac
done
exec "${CHROMIUM_PATH:-/usr/bin/chromium}" "${args[@]}" ${disabled:+"--disable-features=$disabled"}
