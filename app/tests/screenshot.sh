#!/usr/bin/env sh
# Start the real xenolog (release build) under Xvfb on the sample campaign in
# a temporary home, save a screenshot of its first full frame, and check it is
# not blank and the board drew. Needs xvfb-run and Mesa (see README).
#
#   app/tests/screenshot.sh [OUT.png]     (default: app/tests/screenshot/sample-campaign.png)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/screenshot/sample-campaign.png"}
mkdir -p "$(dirname "$out")"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
XENOLOG_REQUIRE_XVFB=1 XENOLOG_SCREENSHOT_OUT="$out" \
    cargo test --release -p xenolog --test gui_screenshot -- --nocapture
echo "screenshot: $out"
