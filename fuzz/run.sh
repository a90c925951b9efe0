#!/usr/bin/env bash
# Rerun the fuzz targets of Xenolog (harnesses: tests/src/fuzzing.rs).
#
#   fuzz/run.sh [EXECUTIONS] [TARGET...]   run each target EXECUTIONS times
#                                          (default 10,000,000; every target)
#   FUZZ_SECONDS=S fuzz/run.sh ...         also stop each target after S seconds
#   fuzz/run.sh cmin [TARGET...]           minimise fuzz/corpus/<target> with
#                                          what fuzz/corpus-new/<target> found
#                                          and the seeds (fuzz/seeds/<target>;
#                                          cargo run -p xenolog-tests --example
#                                          fuzz_seeds -- fuzz/seeds), using the
#                                          binaries built by the last run, and
#                                          re-pack fuzz/corpus/<target>.tar.zst
#   fuzz/run.sh unpack [TARGET...]         only unpack the corpora (see below)
#   fuzz/run.sh pack [TARGET...]           only re-pack fuzz/corpus/<target>/
#                                          into its archive (after a hand edit)
#
# The corpus of a target is committed as ONE archive, fuzz/corpus/<target>.tar.zst
# (a flat tar of the inputs, named as libFuzzer names them, in name order,
# zstd -19; tests/tests/fuzz_corpus.rs reads it in `cargo test`). A run or a
# cmin first unpacks it into fuzz/corpus/<target>/ (ignored by git) when that
# folder is missing or older than the archive. Needs GNU tar and zstd.
#
# Each run reads fuzz/corpus/<target> and writes what it finds to
# fuzz/corpus-new/<target> (ignored by git), so the committed corpus only
# changes through `cmin`. A crash is saved to fuzz/artifacts/<target>/;
# move it to fuzz/regressions/<target>/ once fixed (tests/tests/fuzz_corpus.rs
# runs that folder in `cargo test`).
#
# Per target it prints executions, exec/s, peak RSS and crashes, and appends
# them to fuzz/results.log. Runs one target at a time, niced. The build is
# nightly with libFuzzer and no sanitizer (the code under test is safe Rust),
# with debug assertions and overflow checks on; set FUZZ_FLAGS to change it
# (e.g. FUZZ_FLAGS="-s address").
set -u
cd "$(dirname "$0")"

ALL=(entry_record snapshot_record battle_file open_battle data_dimx data_invasion data_alien
     data_saucers start_from_files skills_table campaign_record play_json_dimx play_json_saucers
     play_json_alien play_json_invasion play_json_any)
FLAGS=${FUZZ_FLAGS:-"-s none -a"}
TOOLCHAIN=${FUZZ_TOOLCHAIN:-+nightly}

max_len() {
    case "$1" in
        entry_record) echo 4096 ;;
        snapshot_record) echo 32768 ;;
        battle_file|open_battle) echo 65536 ;;
        play_json_*) echo 2048 ;;
        # Twice the largest shipped data file (4.4 KB).
        data_*|start_from_files) echo 8192 ;;
        *) echo 16384 ;;
    esac
}

BIN=target/x86_64-unknown-linux-gnu/release

# Unpack corpus/<target>.tar.zst into corpus/<target>/ unless that folder is
# newer than the archive (unpacking writes into it, so it then is; a checkout
# or a cmin that changes the archive makes the archive newer again).
unpack() {
    local t=$1 a="corpus/$1.tar.zst"
    [ -f "$a" ] || { mkdir -p "corpus/$t"; return 0; }
    [ -d "corpus/$t" ] && [ "corpus/$t" -nt "$a" ] && return 0
    rm -rf "corpus/$t" && mkdir -p "corpus/$t" &&
        zstd -dcq "$a" | tar -xf - -C "corpus/$t" ||
        { echo "$t: cannot unpack $a" >&2; return 1; }
}

# Pack the files of folder $2 (default corpus/<target>) into
# corpus/<target>.tar.zst: flat, in name order, with fixed owners, modes and
# times, so the same inputs always make the same archive.
pack() {
    local t=$1 dir=${2:-corpus/$1} tmp
    tmp=$(mktemp "corpus/.$t.XXXXXX")
    (cd "$dir" && find . -maxdepth 1 -type f -printf '%f\n' | LC_ALL=C sort |
        tar --format=ustar --owner=0 --group=0 --numeric-owner --mtime=@0 \
            --mode=0644 --no-recursion --verbatim-files-from -cf - -T -) |
        zstd -19 -q -o "$tmp" -f &&
        mv "$tmp" "corpus/$t.tar.zst" ||
        { rm -f "$tmp"; echo "$t: cannot pack $dir" >&2; return 1; }
}

case "${1:-}" in
    cmin|pack|unpack)
        cmd=$1
        shift
        targets=("$@")
        [ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")
        for t in "${targets[@]}"; do
            case $cmd in
                unpack) unpack "$t" || exit 1 ;;
                pack) pack "$t" || exit 1 ;;
                cmin)
                    # libFuzzer's merge (what `cargo fuzz cmin` runs) with the
                    # built binaries.
                    unpack "$t" || exit 1
                    mkdir -p "corpus-new/$t" "seeds/$t"
                    out=$(mktemp -d)
                    nice "$BIN/$t" -merge=1 "$out" "corpus/$t" "corpus-new/$t" "seeds/$t" \
                        -max_len="$(max_len "$t")" -rss_limit_mb=2048 -timeout=10 \
                        >"cmin-$t.log" 2>&1 ||
                        { echo "$t: merge failed, see fuzz/cmin-$t.log"; rm -rf "$out"; continue; }
                    pack "$t" "$out" || { rm -rf "$out"; exit 1; }
                    rm -rf "corpus/$t" && mv "$out" "corpus/$t" && touch "corpus/$t"
                    ;;
            esac
            [ "$cmd" = unpack ] && continue
            echo "$t: $(find "corpus/$t" -maxdepth 1 -type f | wc -l) files," \
                "$(du -sb "corpus/$t" | cut -f1) bytes; corpus/$t.tar.zst" \
                "$(stat -c %s "corpus/$t.tar.zst") bytes"
        done
        exit 0
        ;;
esac

RUNS=${1:-10000000}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL[@]}")

# One build of every target, then each binary is run directly (a rebuild
# between targets would only cost time). FUZZ_NO_BUILD=1 runs what is built.
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
    # shellcheck disable=SC2086
    cargo $TOOLCHAIN fuzz build $FLAGS || exit 1
fi
printf '%-20s %12s %8s %9s %8s %s\n' target executions exec/s peak_MB crashes seconds
for t in "${targets[@]}"; do
    unpack "$t" || exit 1
    mkdir -p "corpus-new/$t" "artifacts/$t"
    log="run-$t.log"
    start=$(date +%s)
    # shellcheck disable=SC2086
    nice "$BIN/$t" "corpus-new/$t" "corpus/$t" \
        -runs="$RUNS" -rss_limit_mb=2048 -max_len="$(max_len "$t")" -timeout=10 \
        -print_final_stats=1 -artifact_prefix="artifacts/$t/" \
        ${FUZZ_SECONDS:+-max_total_time=$FUZZ_SECONDS} >"$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    crashes=$(find "artifacts/$t" -type f | wc -l)
    line=$(printf '%-20s %12s %8s %9s %8s %s' "$t" "${execs:-?}" "${rate:-?}" "${rss:-?}" "$crashes" "$secs")
    [ $rc -ne 0 ] && line="$line  (exit $rc: see fuzz/$log)"
    echo "$line"
    echo "$(date -u +%FT%TZ) runs=$RUNS $line" >>results.log
done
