#!/usr/bin/env bash
# The boardgame.io anchor benchmark and Xenolog's port of it, run one after
# the other on this machine and printed as one table (BENCHMARKS.md, "The
# anchor, side by side").
#
#   tests/anchor/side_by_side.sh [--runs 3] [--durable 2000] [--keep]
#
# - copies ../shared/anchors/boardgameio (or $ANCHOR) to a temporary folder
#   (the shared folder is never written), runs `npm ci --no-audit --no-fund`
#   there (npm registry needed) and
#   `NODE_ENV=production node --expose-gc bench.js --runs R --skip-client`:
#   the bare reducer with `log.push` (bgio's fast live path; the Client path,
#   quadratic in the log, is skipped), replay, seek at 50,000, log JSON size;
# - runs `cargo run --release -p xenolog-saves --example anchor` with the same
#   plan (mulberry32, seed 12345, 100,000 commands), R runs, and the durable
#   path over the first D commands;
# - prints metric, boardgame.io, Xenolog, and how many times better Xenolog is.
#
# Uses $CARGO_TARGET_DIR if set. Needs node (20), npm and cargo. Takes about
# 3 minutes after the builds with --runs 3 on the project's 2-core VM.
set -euo pipefail

RUNS=3
DURABLE=2000
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --durable) DURABLE="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    *) echo "side_by_side.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ANCHOR="${ANCHOR:-$ROOT/../shared/anchors/boardgameio}"
[ -f "$ANCHOR/bench.js" ] || { echo "side_by_side.sh: no bench.js in $ANCHOR" >&2; exit 2; }
TMP="$(mktemp -d)"
if [ "$KEEP" = 1 ]; then echo "results kept in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi

mkdir "$TMP/bgio"
cp -R "$ANCHOR"/. "$TMP/bgio/"
chmod -R u+w "$TMP/bgio"
rm -rf "$TMP/bgio/node_modules"

echo "== boardgame.io: npm ci" >&2
(cd "$TMP/bgio" && npm ci --no-audit --no-fund >&2)
echo "== boardgame.io: bench.js --runs $RUNS --skip-client" >&2
(cd "$TMP/bgio" && NODE_ENV=production node --expose-gc bench.js --runs "$RUNS" --skip-client \
   --out "$TMP/bgio.json" | tee "$TMP/bgio.txt" >&2)

echo "== Xenolog: anchor example --runs $RUNS --durable $DURABLE" >&2
(cd "$ROOT" && cargo run --quiet --release -p xenolog-saves --example anchor -- \
   --runs "$RUNS" --durable "$DURABLE" --json "$TMP/xenolog.json" | tee "$TMP/xenolog.txt" >&2)

echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version), $(rustc --version)"
node "$ROOT/tests/anchor/table.js" "$TMP/bgio.json" "$TMP/xenolog.json"
