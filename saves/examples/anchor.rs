//! The boardgame.io anchor benchmark, Xenolog's side: bench.js's 100,000
//! commands of its hex-wargame (`xenolog_engine::games::hexwar`, the same
//! mulberry32 plan, seed 12345) played, replayed, sought and measured.
//!
//! ```sh
//! cargo run --release -p xenolog-saves --example anchor -- \
//!     [--n 100000] [--seek 50000] [--runs 5] [--durable 2000] [--json out.json]
//! ```
//!
//! `tests/anchor/side_by_side.sh` runs it beside bench.js and prints one
//! table. What is measured (each figure the median of `--runs` runs, min and
//! max in the JSON):
//!
//! - **live, in memory**: `Session::play` for every command (decide, encode
//!   command and events, hash the state, chain, snapshot every 64 entries,
//!   append), what bench.js's bare reducer + `log.push` does;
//! - **live, durable**: the first `--durable` commands as a player's go,
//!   JSON commands through `Campaign::play` (one SQLite transaction each,
//!   WAL with `synchronous=FULL`: one fsync per command);
//! - **replay**: `Session::verify` of the 100,000-entry log (check the hash
//!   chain, re-decide every command from the seed, compare dice, stream
//!   positions and state hashes), bench.js's `replay()` plus the checks;
//! - **seek to entry 50,000**: `Session::seek` (nearest snapshot, fold at most
//!   64 entries), as the timeline does; from a closed file
//!   (`open_read_only` + `load_battle` + `seek`); and bgio's way, replaying
//!   the first 50,000 commands from the setup;
//! - **bytes per entry**: the entry record as the store writes it (postcard,
//!   `xenolog_schema::codec::encode_entry`), and the campaign file's size
//!   over its entries (with snapshots, index and SQLite's pages);
//! - **heap held by the log**: a counting global allocator (over mimalloc,
//!   the app's allocator) reads the bytes allocated and not freed before the
//!   battle is created and after its 100,000 entries are played, as bench.js
//!   reads `heapUsed` after GC around its live run.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use xenolog_engine::games::hexwar::{self, HexWar, HexWarCommand, PLAN_SEED};
use xenolog_engine::{Actor, EntryId, Game, Session, StoredBattle};
use xenolog_saves::{Campaign, DiceMode};

/// Counts the bytes held (requested sizes, not the allocator's overhead).
struct Counting(mimalloc::MiMalloc);

static HELD: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to mimalloc unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { self.0.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { self.0.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { self.0.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting(mimalloc::MiMalloc);

fn held() -> isize {
    HELD.load(Ordering::Relaxed)
}

const SEED: u64 = 42;
const MIB: f64 = 1024.0 * 1024.0;

struct Args {
    n: usize,
    seek: usize,
    runs: usize,
    durable: usize,
    json: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        n: 100_000,
        seek: 50_000,
        runs: 5,
        durable: 2_000,
        json: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<usize>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--n" => a.n = number()?,
            "--seek" => a.seek = number()?,
            "--runs" => a.runs = number()?.max(1),
            "--durable" => a.durable = number()?,
            "--json" => a.json = Some(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if a.seek == 0 || a.seek > a.n {
        return Err(format!("--seek must be 1 to --n ({})", a.n));
    }
    a.durable = a.durable.min(a.n);
    Ok(a)
}

/// min, median, max.
fn stats(mut xs: Vec<f64>) -> serde_json::Value {
    xs.sort_by(f64::total_cmp);
    json!({ "min": xs[0], "median": xs[xs.len() / 2], "max": xs[xs.len() - 1], "all": xs })
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn play(commands: &[HexWarCommand]) -> Session<HexWar> {
    let mut s = Session::<HexWar>::new(SEED, Default::default()).expect("hexwar sets up");
    for (i, c) in commands.iter().enumerate() {
        let actor = Actor(s.state().current);
        if let Err(e) = s.play(actor, c, None) {
            panic!("plan command {i} ({c:?}) refused: {e}");
        }
    }
    s
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("anchor: {e}");
            std::process::exit(2);
        }
    };
    let plan = hexwar::plan(a.n, PLAN_SEED);
    let moves = plan
        .iter()
        .filter(|c| matches!(c, HexWarCommand::Move { .. }))
        .count();
    let fires = plan
        .iter()
        .filter(|c| matches!(c, HexWarCommand::Fire { .. }))
        .count();
    let ends = a.n - moves - fires;
    println!(
        "plan: {} commands ({moves} moves, {fires} fires, {ends} ends of turn), seed {PLAN_SEED}; battle seed {SEED}; {} runs",
        a.n, a.runs
    );

    // a. live, in memory; the heap it holds.
    let mut live_rates = Vec::new();
    let mut heap = Vec::new();
    let mut session = None;
    for r in 0..a.runs {
        drop(session.take()); // the previous run's battle is freed before counting
        let before = held();
        let t = Instant::now();
        let s = play(&plan);
        let took = t.elapsed();
        let after = held();
        live_rates.push(a.n as f64 / secs(took));
        heap.push((after - before) as f64 / MIB);
        println!(
            "live (in memory) run {r}: {:.0} ms, {:.0} commands/s, heap held {:.2} MiB",
            took.as_secs_f64() * 1e3,
            live_rates[r],
            heap[r]
        );
        session = Some(s);
    }
    let session = session.expect("at least one run");
    let st = session.state();
    assert_eq!(st.log_counter as usize, moves + fires, "log counter");
    assert_eq!(st.turn as usize, 1 + ends, "turn");
    println!(
        "final: log_counter {}, turn {}, entries {}, snapshots every {}",
        st.log_counter,
        st.turn,
        session.records().len(),
        xenolog_engine::session::SNAPSHOT_EVERY
    );

    // Bytes per entry as the store writes it.
    let mut stored = 0usize;
    let mut command_bytes = 0usize;
    let mut event_bytes = 0usize;
    for (i, rec) in session.records().iter().enumerate() {
        stored += xenolog_schema::codec::encode_entry(i as EntryId, rec)
            .expect("encodes")
            .len();
        command_bytes += rec.command().len();
        event_bytes += rec.events().len();
    }
    let per_entry = stored as f64 / a.n as f64;
    println!(
        "entry record as stored (postcard): {per_entry:.1} B/entry (command {:.1} B, events {:.1} B, \
         the rest: parent, branch, actor, dice, stream position, state hash 16 B, chain 16 B, rules version)",
        command_bytes as f64 / a.n as f64,
        event_bytes as f64 / a.n as f64
    );

    // b. replay: verify re-decides every command from the log.
    let mut replay_rates = Vec::new();
    for r in 0..a.runs {
        let t = Instant::now();
        let report = session.verify();
        let took = t.elapsed();
        assert!(report.ok(), "verify: {report}");
        replay_rates.push(a.n as f64 / secs(took));
        println!(
            "replay (verify) run {r}: {:.0} ms, {:.0} entries/s",
            took.as_secs_f64() * 1e3,
            replay_rates[r]
        );
    }

    // c. seek to entry SEEK (the state after SEEK commands).
    let target = Some(a.seek as EntryId - 1);
    let expect = session.state_at(target);
    let mut s = Session::<HexWar>::from_parts(parts(&session, true)).expect("rebuilds");
    let mut seek_us = Vec::new();
    for _ in 0..1000 {
        s.seek(None);
        let t = Instant::now();
        s.seek(target);
        seek_us.push(secs(t.elapsed()) * 1e6);
    }
    assert_eq!(s.state(), &expect);
    let mut seek_replay_ms = Vec::new();
    for _ in 0..a.runs {
        let t = Instant::now();
        let prefix = play(&plan[..a.seek]);
        seek_replay_ms.push(secs(t.elapsed()) * 1e3);
        assert_eq!(prefix.state(), &expect);
    }
    println!(
        "seek to entry {}: {:.1} µs (Session::seek, median of 1000); by replaying {} commands from the setup: {:.1} ms",
        a.seek,
        median(&seek_us),
        a.seek,
        median(&seek_replay_ms)
    );
    drop(s);

    // The battle in a campaign file: size, and seeking from the closed file.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("anchor.xenolog");
    let id = {
        let mut c = Campaign::create(&path, "Anchor").expect("creates");
        c.insert_battle_bulk(&session, "Anchor", DiceMode::Rolled)
            .expect("stores")
    };
    let file_bytes = std::fs::metadata(&path).expect("exists").len();
    let mut open_seek_ms = Vec::new();
    for _ in 0..a.runs {
        let t = Instant::now();
        let c = Campaign::open_read_only(&path).expect("opens");
        let mut b = c.load_battle(id).expect("loads");
        b.seek(target);
        let state = b.state_json(b.cursor());
        open_seek_ms.push(secs(t.elapsed()) * 1e3);
        assert_eq!(state, serde_json::to_value(&expect).expect("encodes"));
    }
    println!(
        "campaign file: {file_bytes} B = {:.1} B/entry; open + load + seek to {}: {:.1} ms",
        file_bytes as f64 / a.n as f64,
        a.seek,
        median(&open_seek_ms)
    );

    // a'. live, durable: a player's path through the store.
    let durable = durable(&plan[..a.durable], &session, dir.path());
    drop(session);

    let out = json!({
        "n": a.n, "seek": a.seek, "runs": a.runs, "battle_seed": SEED, "plan_seed": PLAN_SEED,
        "mix": { "move": moves, "fire": fires, "endTurn": ends },
        "final": { "log_counter": moves + fires, "turn": 1 + ends },
        "live_in_memory_per_s": stats(live_rates.clone()),
        "heap_held_mib": stats(heap.clone()),
        "replay_verify_per_s": stats(replay_rates.clone()),
        "seek_us": stats(seek_us.clone()),
        "seek_by_replay_ms": stats(seek_replay_ms.clone()),
        "open_load_seek_ms": stats(open_seek_ms.clone()),
        "entry_bytes_stored": per_entry,
        "entry_command_bytes": command_bytes as f64 / a.n as f64,
        "file_bytes_per_entry": file_bytes as f64 / a.n as f64,
        "durable": durable,
        "summary": {
            "live_in_memory_per_s_median": median(&live_rates),
            "live_durable_per_s_median": durable["per_s_median"],
            "replay_per_s_median": median(&replay_rates),
            "seek_us_median": median(&seek_us),
            "seek_by_replay_ms_median": median(&seek_replay_ms),
            "open_load_seek_ms_median": median(&open_seek_ms),
            "entry_bytes_stored": per_entry,
            "heap_held_mib_median": median(&heap),
        }
    });
    println!("SUMMARY {}", out["summary"]);
    if let Some(p) = a.json {
        let text = serde_json::to_string_pretty(&out).expect("encodes");
        if let Err(e) = std::fs::write(&p, text) {
            eprintln!("anchor: cannot write {p}: {e}");
            std::process::exit(1);
        }
    }
}

fn parts(s: &Session<HexWar>, with_snapshots: bool) -> StoredBattle {
    let n = s.records().len() as EntryId;
    StoredBattle {
        meta: s.meta().clone(),
        records: s.records().to_vec(),
        branches: s.branches().to_vec(),
        snapshots: if with_snapshots {
            (0..n)
                .filter_map(|e| {
                    s.snapshot(e).map(|st| xenolog_engine::StoredSnapshot {
                        entry: e,
                        rules_version: HexWar::RULES_VERSION,
                        state: postcard::to_allocvec(st).expect("encodes"),
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
        cursor: s.cursor(),
        branch: s.current_branch(),
    }
}

/// The first commands of the plan as a player's go: JSON through
/// `Campaign::play`, each one durable before the next.
fn durable(
    commands: &[HexWarCommand],
    live: &Session<HexWar>,
    dir: &std::path::Path,
) -> serde_json::Value {
    if commands.is_empty() {
        return json!({ "commands": 0, "per_s_median": null });
    }
    let path = dir.join("durable.xenolog");
    let mut c = Campaign::create(&path, "Durable").expect("creates");
    let id = c
        .new_battle("hexwar", SEED, &json!({}), "Durable", DiceMode::Rolled)
        .expect("starts");
    let mut b = c.load_battle(id).expect("loads");
    let mut lat = Vec::with_capacity(commands.len());
    let t0 = Instant::now();
    for cmd in commands {
        let t = Instant::now();
        let actor = b.to_move().expect("a seat is asked");
        let value = serde_json::to_value(cmd).expect("encodes");
        c.play(id, &mut *b, actor, &value, None).expect("plays");
        lat.push(secs(t.elapsed()) * 1e3);
    }
    let total = secs(t0.elapsed());
    assert_eq!(b.records(), &live.records()[..commands.len()]);
    let rate = commands.len() as f64 / total;
    let mut sorted = lat.clone();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)];
    println!(
        "live (durable, Campaign::play, synchronous=FULL) over {} commands: {rate:.0} commands/s; \
         latency median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms",
        commands.len(),
        q(0.5),
        q(0.9),
        q(0.99)
    );
    json!({
        "commands": commands.len(),
        "per_s_median": rate,
        "latency_ms": { "median": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": sorted[sorted.len() - 1] },
    })
}
