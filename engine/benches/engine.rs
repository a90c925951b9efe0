//! Engine benchmarks: how fast a battle folds, records, seeks and verifies.
//!
//! Run with `cargo bench -p xenolog-engine --bench engine` (add a filter such
//! as `race/seek` to run one). Floors, on the test game Dice Race:
//!
//! - `fold`: at least 5,000,000 events applied per second (decoding excluded:
//!   the events are decoded once, before timing);
//! - `decide_append`: at least 500,000 commands per second through
//!   `Session::play` (decide, encode, hash, append in memory);
//! - `seek`: at most 10 ms to reach any entry of a 1,000,000-entry battle;
//! - `verify`: measured, no floor.
//!
//! Commands come from a seeded bot that picks uniformly from `Game::legal`,
//! so every run plays the same battles. The machine is shared, so the heavy
//! groups take few samples and short measurement times.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{EntryId, Game, Session};

/// SplitMix64: the bot's own dice, independent of the battle's stream.
struct Bot(u64);

impl Bot {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Give one legal command; `false` when the battle is over.
    fn play<G: Game>(&mut self, s: &mut Session<G>) -> bool {
        let mut legal = G::legal(s.state());
        if legal.is_empty() {
            return false;
        }
        let (actor, command) = legal.swap_remove(self.below(legal.len()));
        // A command from `legal` is accepted by the rules' own contract.
        s.play(actor, &command, None)
            .expect("a legal command is accepted");
        true
    }
}

/// A race long enough never to end in a benchmark.
fn endless_race() -> RaceConfig {
    RaceConfig { target: u32::MAX }
}

/// A battle of `n` entries on one line, played by the bot.
fn grown<G: Game>(config: G::Config, n: usize) -> Session<G> {
    let mut s = Session::<G>::new(42, config).expect("the config sets up");
    let mut bot = Bot(7);
    for _ in 0..n {
        if !bot.play(&mut s) {
            break;
        }
    }
    s
}

/// Every event on the line to the cursor, decoded once.
fn line_events<G: Game>(s: &Session<G>) -> Vec<G::Event> {
    s.path_to(s.cursor())
        .into_iter()
        .flat_map(|id| s.events(id))
        .collect()
}

fn fold<G: Game>(c: &mut Criterion, name: &str, s: &Session<G>) {
    let events = line_events(s);
    let mut g = c.benchmark_group(format!("{name}/fold"));
    g.throughput(Throughput::Elements(events.len() as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function(format!("{}_events", events.len()), |b| {
        b.iter(|| {
            let mut state = s.initial().clone();
            for e in &events {
                G::apply(&mut state, e);
            }
            black_box(state)
        })
    });
    g.finish();
}

/// Commands per second through `Session::play`. A battle that ends is
/// followed by a fresh one (next seed) until `commands` have been played.
fn decide_append<G: Game>(c: &mut Criterion, name: &str, config: &G::Config, commands: usize) {
    let mut g = c.benchmark_group(format!("{name}/decide_append"));
    g.throughput(Throughput::Elements(commands as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(4));
    g.bench_function(format!("{commands}_commands"), |b| {
        b.iter_batched(
            || Vec::<Session<G>>::with_capacity(64),
            |mut done| {
                let mut bot = Bot(7);
                let mut played = 0;
                let mut seed = 42;
                while played < commands {
                    let mut s = Session::<G>::new(seed, config.clone()).expect("sets up");
                    while played < commands && bot.play(&mut s) {
                        played += 1;
                    }
                    assert!(!s.records().is_empty(), "a battle with no legal command");
                    done.push(s);
                    seed += 1;
                }
                // Returned so that dropping the battles is not timed.
                done
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn seek<G: Game>(c: &mut Criterion, name: &str, s: &mut Session<G>) {
    let n = s.records().len();
    let mut pick = Bot(99);
    let targets: Vec<EntryId> = (0..4096).map(|_| pick.below(n) as EntryId).collect();
    let mut g = c.benchmark_group(format!("{name}/seek"));
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(3));
    let mut i = 0;
    g.bench_function(format!("state_at_random_of_{n}"), |b| {
        b.iter(|| {
            i = (i + 1) % targets.len();
            black_box(s.state_at(Some(targets[i])))
        })
    });
    // What the timeline does: move the cursor, which also finds the branch.
    g.bench_function(format!("cursor_to_random_of_{n}"), |b| {
        b.iter(|| {
            i = (i + 1) % targets.len();
            s.seek(Some(targets[i]));
            black_box(s.state());
        })
    });
    g.finish();
}

fn verify<G: Game>(c: &mut Criterion, name: &str, s: &Session<G>) {
    let n = s.records().len() as u64;
    let mut g = c.benchmark_group(format!("{name}/verify"));
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function(format!("{n}_entries"), |b| {
        b.iter(|| {
            let report = s.verify();
            assert!(report.ok(), "{report}");
            report
        })
    });
    g.finish();
}

fn race(c: &mut Criterion) {
    let filter_wants = |group: &str| {
        // Building the million-entry battle takes seconds: skip it when a
        // filter on the command line leaves out every group that needs it.
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        args.is_empty()
            || args
                .iter()
                .any(|a| group.contains(a.as_str()) || a.contains(group))
    };
    let s = grown::<Race>(endless_race(), 100_000);
    fold(c, "race", &s);
    decide_append::<Race>(c, "race", &endless_race(), 10_000);
    verify(c, "race", &s);
    if filter_wants("race/seek") {
        let mut big = grown::<Race>(endless_race(), 1_000_000);
        seek(c, "race", &mut big);
    }
}

criterion_group!(benches, race);
criterion_main!(benches);
