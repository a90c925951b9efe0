//! Store benchmarks: a durable append, opening a long battle, bytes per entry.
//!
//! Run with `cargo bench -p xenolog-saves --bench store` (add a filter such as
//! `store/append` to run one). Targets, on the test game Dice Race:
//!
//! - `store/append`: median at most 5 ms for `Campaign::play` (decide, one
//!   transaction with `synchronous=FULL`, commit in memory);
//! - `store/open`: at most 500 ms from a closed file to the final state of a
//!   1,000,000-entry battle (`open_read_only` + `load_battle` + the state);
//! - bytes per entry: at most 100 (file size / entries of that battle), printed
//!   when the fixture is built.
//!
//! The 1,000,000-entry fixture is played in memory with `Session::<Race>` and
//! stored by `Campaign::insert_battle_bulk` in one transaction, so building it
//! takes seconds. Commands come from a seeded bot, so every run is the same.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "support/bot.rs"]
mod bot;

use bot::Bot;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{Battle, Game, Session};
use xenolog_saves::{BattleId, Campaign, DiceMode};

/// The same allocator as the `xenolog` binary, so the figures are the app's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const LONG: usize = 1_000_000;

fn long_race(n: usize) -> Session<Race> {
    let mut s = Session::<Race>::new(42, RaceConfig { target: u32::MAX }).expect("sets up");
    let mut bot = Bot(7);
    for _ in 0..n {
        let mut legal = Race::legal(s.state());
        let (actor, command) = legal.swap_remove(bot.below(legal.len()));
        // A command from `legal` is accepted by the rules' own contract.
        s.play(actor, &command, None).expect("legal");
    }
    s
}

/// A fresh campaign `name.xenolog` in `dir` with one Dice Race battle whose
/// target is out of reach, loaded for play.
fn endless_race(dir: &Path, name: &str, title: &str) -> (Campaign, BattleId, Box<dyn Battle>) {
    let path = dir.join(format!("{name}.xenolog"));
    let mut campaign = Campaign::create(&path, "Bench").expect("creates");
    let id = campaign
        .new_battle(
            "race",
            42,
            &json!({ "target": u32::MAX }),
            title,
            DiceMode::Rolled,
        )
        .expect("starts");
    let battle = campaign.load_battle(id).expect("loads");
    (campaign, id, battle)
}

fn append(c: &mut Criterion, dir: &Path) {
    let (mut campaign, id, mut battle) = endless_race(dir, "append", "Append");
    let mut bot = Bot(7);
    let mut g = c.benchmark_group("store/append");
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("durable_play", |b| {
        b.iter(|| {
            let legal = battle.legal();
            let cmd = &legal[bot.below(legal.len())];
            let command = cmd.command.clone();
            black_box(
                campaign
                    .play(id, &mut *battle, cmd.actor, &command, None)
                    .expect("plays"),
            )
        })
    });
    g.finish();
}

/// Each durable append timed on its own: criterion's estimates mix samples
/// of many iterations, and a median is asked for, so the distribution is
/// printed too.
fn append_latency(dir: &Path) {
    const N: usize = 2000;
    let (mut campaign, id, mut battle) = endless_race(dir, "latency", "Latency");
    let mut bot = Bot(11);
    let mut times: Vec<Duration> = (0..N)
        .map(|_| {
            let legal = battle.legal();
            let cmd = legal[bot.below(legal.len())].clone();
            let t = Instant::now();
            campaign
                .play(id, &mut *battle, cmd.actor, &cmd.command, None)
                .expect("plays");
            t.elapsed()
        })
        .collect();
    times.sort();
    let at = |q: f64| times[((N as f64 * q) as usize).min(N - 1)];
    println!(
        "store/append latency over {N} plays: median {:.3?}, p90 {:.3?}, p99 {:.3?}, max {:.3?}",
        at(0.5),
        at(0.9),
        at(0.99),
        times[N - 1]
    );
}

fn open(c: &mut Criterion, dir: &Path) {
    let path = dir.join("long.xenolog");
    let t = Instant::now();
    let session = long_race(LONG);
    let played = t.elapsed();
    let t = Instant::now();
    let id = {
        let mut campaign = Campaign::create(&path, "Bench").expect("creates");
        campaign
            .insert_battle_bulk(&session, "Long", DiceMode::Rolled)
            .expect("inserts")
    };
    let stored = t.elapsed();
    let size = std::fs::metadata(&path).expect("exists").len();
    println!(
        "fixture: {LONG} entries played in {played:.2?}, stored in {stored:.2?}; \
         file {size} bytes = {:.1} bytes per entry",
        size as f64 / LONG as f64
    );
    let expect = serde_json::to_value(session.state()).expect("encodes");
    drop(session);

    let mut g = c.benchmark_group("store/open");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function(format!("final_state_of_{LONG}"), |b| {
        b.iter(|| {
            let campaign = Campaign::open_read_only(&path).expect("opens");
            let battle = campaign.load_battle(id).expect("loads");
            let state = battle.state_json(battle.cursor());
            assert_eq!(state, expect);
            black_box(state)
        })
    });
    g.finish();
}

fn store(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    append(c, dir.path());
    append_latency(dir.path());
    open(c, dir.path());
}

criterion_group!(benches, store);
criterion_main!(benches);
