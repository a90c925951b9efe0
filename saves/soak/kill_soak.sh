#!/usr/bin/env bash
# Kill soak (issue 16): SIGKILL the campaign writer at random moments, 1,000
# times by default, while it plays, starts branches from earlier cursors,
# switches branches and moves the cursor, exports and imports battles, edits
# the campaign (rosters, models, skills, campaign undo/redo, roster battles),
# and writes notes and bookmarks (`xenolog-crash-writer mixed`).
#
# After every kill the campaign is opened, every acknowledged operation is
# looked for on disk, every battle and the campaign layer are verified.
# It prints: kills made, kills that landed mid-operation (by kind),
# acknowledged operations (by kind) and how many were lost (must be 0),
# files failing verify (must be 0), and opened-after-kill (must equal kills).
#
# Usage: saves/soak/kill_soak.sh [KILLS]     (from anywhere in the repo)
# Not run in CI: CI runs the same code path for 10 kills
# (store::crash::mixed::ten_kills_over_every_kind_of_write).
set -euo pipefail
cd "$(dirname "$0")/../.."
kills="${1:-1000}"
echo "building (release)..."
cargo test --release --locked -p xenolog-saves --test store --no-run
start=$(date +%s)
XENOLOG_KILL_SOAK_KILLS="$kills" cargo test --release --locked -p xenolog-saves \
    --test store -- --ignored --exact store::crash::mixed::kill_soak --nocapture
end=$(date +%s)
echo "kill soak: $kills kills, wall time $((end - start)) s (after the build)"
