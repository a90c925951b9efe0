//! Engine benchmarks: how fast a battle folds, records, seeks and verifies.
//!
//! Run with `cargo bench -p xenolog-engine --bench engine` (add a filter such
//! as `race/seek` or `dimx` to run some). Floors, on the test game Dice Race:
//!
//! - `fold`: at least 5,000,000 events applied per second (decoding excluded:
//!   the events are decoded once, before timing);
//! - `decide_append`: at least 500,000 commands per second through
//!   `Session::play` (decide, encode, hash, append in memory);
//! - `seek`: at most 10 ms to reach any entry of a 1,000,000-entry battle;
//! - `verify`: measured, no floor.
//!
//! The same groups run on Invaders From Dimension X! (`dimx/...`), where a
//! battle ends after some hundreds of commands: `fold` folds several whole
//! battles, `decide_append` plays battle after battle, `seek` and `verify`
//! use one whole battle. And on Alien Invasion (`invasion/...`): four
//! factions on the Crash Site table, the game's own steps (draws, card ends,
//! melees) recorded in the scripts beside the players' commands. And on
//! Alien (`alien/...`): two players from the landing field, the hatching
//! rolls, metamorphosis and turn ends recorded as the game's own steps; a
//! random battle lasts some thousands of commands.
//! Night of the Saucers (`saucers/...`): two players, three missions to
//! win, the deal, draws and Alien turns recorded as the game's own steps.
//! Every game's `legal` group asks for the legal commands at every state of
//! those battles (`invasion/legal`: a move or a shot measured on the table;
//! `alien/legal`: every grenade area checked against walls and landing tiles).
//!
//! Commands come from a seeded bot that picks uniformly from `Game::legal`,
//! so every run plays the same battles. The bot chooses before timing starts
//! (its script is replayed, which the fixed seeds make legal again), so
//! `legal` is in no figure but its own. The machine is shared, so the heavy
//! groups take few samples and short measurement times.

use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/splitmix/mod.rs"]
mod splitmix;

use criterion::{BatchSize, Criterion, Throughput, criterion_group};
use splitmix::SplitMix as Bot;
use xenolog_engine::games::alien::{Alien, AlienConfig};
use xenolog_engine::games::dimx::{DimX, DimxConfig};
use xenolog_engine::games::invasion::{Invasion, InvasionConfig};
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::games::saucers::{Saucers, SaucersConfig};
use xenolog_engine::hash::{self, hash_state};
use xenolog_engine::{Actor, EntryId, Game, Randomness, Session};

/// Give one legal command, or play the game's own step when one is due
/// (recorded in the script like any other); `None` when the battle is over.
fn bot_play<G: Game>(bot: &mut Bot, s: &mut Session<G>) -> Option<(Actor, G::Command)> {
    if let Some(step) = s.due() {
        s.play(Actor::SYSTEM, &step, None)
            .expect("the game's own step is accepted");
        return Some((Actor::SYSTEM, step));
    }
    let mut legal = G::legal(s.state());
    if legal.is_empty() {
        return None;
    }
    let (actor, command) = legal.swap_remove(bot.below(legal.len()));
    // A command from `legal` is accepted by the rules' own contract.
    s.play(actor, &command, None)
        .expect("a legal command is accepted");
    Some((actor, command))
}

/// One battle as the bot played it: its seed and its commands, in order.
struct Script<G: Game> {
    seed: u64,
    commands: Vec<(Actor, G::Command)>,
}

/// A battle of up to `n` entries on one line, played by the bot to its end.
fn grown<G: Game>(seed: u64, config: &G::Config, n: usize) -> (Session<G>, Script<G>) {
    let mut s = Session::<G>::new(seed, config.clone()).expect("the config sets up");
    let mut bot = Bot(seed ^ 0xB07);
    let mut commands = Vec::new();
    while commands.len() < n {
        match bot_play(&mut bot, &mut s) {
            Some(c) => commands.push(c),
            None => break,
        }
    }
    assert!(!commands.is_empty(), "a battle with no legal command");
    (s, Script { seed, commands })
}

/// Battles with seeds 42, 43, ... until `commands` commands in all.
fn battles<G: Game>(config: &G::Config, commands: usize) -> Vec<(Session<G>, Script<G>)> {
    let mut out: Vec<(Session<G>, Script<G>)> = Vec::new();
    let mut total = 0;
    let mut seed = 42;
    while total < commands {
        let b = grown(seed, config, commands - total);
        total += b.1.commands.len();
        out.push(b);
        seed += 1;
    }
    out
}

/// Every event on the line to the cursor, decoded once.
fn line_events<G: Game>(s: &Session<G>) -> Vec<G::Event> {
    s.path_to(s.cursor())
        .into_iter()
        .flat_map(|id| s.events(id))
        .collect()
}

fn fold<G: Game>(c: &mut Criterion, name: &str, sessions: &[&Session<G>]) {
    let lines: Vec<(G::State, Vec<G::Event>)> = sessions
        .iter()
        .map(|s| (s.initial().clone(), line_events(s)))
        .collect();
    let n: usize = lines.iter().map(|(_, e)| e.len()).sum();
    let mut g = c.benchmark_group(format!("{name}/fold"));
    g.throughput(Throughput::Elements(n as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function(format!("{n}_events_in_{}_battles", lines.len()), |b| {
        b.iter(|| {
            for (initial, events) in &lines {
                let mut state = initial.clone();
                for e in events {
                    G::apply(&mut state, e);
                }
                black_box(state);
            }
        })
    });
    g.finish();
}

/// Commands per second through `Session::play`, replaying the bot's battles.
fn decide_append<G: Game>(
    c: &mut Criterion,
    name: &str,
    config: &G::Config,
    scripts: &[Script<G>],
) {
    let n: usize = scripts.iter().map(|s| s.commands.len()).sum();
    let mut g = c.benchmark_group(format!("{name}/decide_append"));
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(4));
    g.bench_function(format!("{n}_commands_in_{}_battles", scripts.len()), |b| {
        b.iter_batched(
            || Vec::<Session<G>>::with_capacity(scripts.len()),
            |mut done| {
                for script in scripts {
                    let mut s = Session::<G>::new(script.seed, config.clone()).expect("sets up");
                    for (actor, command) in &script.commands {
                        // The same seed and commands replay the bot's battle.
                        s.play(*actor, command, None).expect("legal on replay");
                    }
                    done.push(s);
                }
                // Returned so that dropping the battles is not timed.
                done
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

/// Where a command's time goes, part by part, over the same battles as
/// `decide_append` (each part alone, every state on the line once): setting
/// the battles up, the game's `decide` at each state, cloning the state and
/// applying the events, and hashing the state after each entry as
/// `Session::play` does. The parts add up to about `decide_append`; the
/// encoded size of the states is printed once.
fn parts<G: Game>(
    c: &mut Criterion,
    name: &str,
    config: &G::Config,
    played: &[(Session<G>, Script<G>)],
) {
    // (state before, actor, command, (seed, stream position before), events)
    type Step<G> = (
        <G as Game>::State,
        Actor,
        <G as Game>::Command,
        (u64, u64),
        Vec<<G as Game>::Event>,
    );
    let mut steps: Vec<Step<G>> = Vec::new();
    let mut after: Vec<(G::State, u64)> = Vec::new();
    for (s, script) in played {
        let path = s.path_to(s.cursor());
        assert_eq!(path.len(), script.commands.len(), "one entry per command");
        let mut state = s.initial().clone();
        let mut draws = 0;
        for (id, (actor, command)) in path.into_iter().zip(&script.commands) {
            let events = s.events(id);
            let rec = &s.records()[id as usize];
            let mut next = state.clone();
            for e in &events {
                G::apply(&mut next, e);
            }
            steps.push((state, *actor, command.clone(), (script.seed, draws), events));
            draws = rec.rng_after;
            after.push((next.clone(), draws));
            state = next;
        }
    }
    let n = steps.len() as u64;
    let bytes: usize = after
        .iter()
        .map(|(st, _)| postcard::to_allocvec(st).expect("encodes").len())
        .sum();
    eprintln!(
        "{name}/parts: {n} states after a command, {} bytes encoded on average",
        bytes / after.len().max(1)
    );
    let mut g = c.benchmark_group(format!("{name}/parts"));
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_function(format!("setup_{}_battles", played.len()), |b| {
        b.iter(|| {
            for (_, script) in played {
                black_box(Session::<G>::new(script.seed, config.clone()).expect("sets up"));
            }
        })
    });
    g.bench_function(format!("decide_{n}"), |b| {
        b.iter(|| {
            for (state, actor, command, (seed, draws), _) in &steps {
                let mut rng = Randomness::new(*seed, *draws, None);
                black_box(G::decide(state, *actor, command, &mut rng).ok());
            }
        })
    });
    g.bench_function(format!("clone_apply_{n}"), |b| {
        b.iter(|| {
            for (state, _, _, _, events) in &steps {
                let mut next = state.clone();
                for e in events {
                    G::apply(&mut next, e);
                }
                black_box(next);
            }
        })
    });
    g.bench_function(format!("hash_state_{n}"), |b| {
        b.iter(|| {
            for (state, draws) in &after {
                black_box(hash_state(state, *draws));
            }
        })
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

/// `legal` at every state on the line of each battle, once per state: what
/// the app asks each time the state changes, and the bot before every move.
fn legal<G: Game>(c: &mut Criterion, name: &str, sessions: &[&Session<G>]) {
    let states: Vec<G::State> = sessions
        .iter()
        .flat_map(|s| {
            s.path_to(s.cursor())
                .into_iter()
                .map(|id| s.state_at(Some(id)))
                .collect::<Vec<_>>()
        })
        .collect();
    let n = states.len() as u64;
    let mut g = c.benchmark_group(format!("{name}/legal"));
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function(format!("{n}_states"), |b| {
        b.iter(|| {
            for st in &states {
                black_box(G::legal(st));
            }
        })
    });
    g.finish();
}

/// Whether a filter on the command line may select a bench whose id starts
/// with one of `ids`: setting up the big battles takes seconds, so groups that
/// will not run skip it. Understands plain substrings and `a|b` alternatives
/// (what one types); for anything cleverer it may skip too much or too little.
fn wanted(ids: &[&str]) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty()
        || filters.iter().flat_map(|f| f.split('|')).any(|f| {
            let f = f.trim_start_matches('^').trim_end_matches('$');
            ids.iter().any(|id| id.contains(f) || f.contains(id))
        })
}

fn race(c: &mut Criterion) {
    // Never ends within a benchmark.
    let config = RaceConfig { target: u32::MAX };
    if wanted(&["race/fold/", "race/verify/"]) {
        let (s, _) = grown::<Race>(42, &config, 100_000);
        fold(c, "race", &[&s]);
        verify(c, "race", &s);
    }
    if wanted(&["race/decide_append/"]) {
        let (_, script) = grown::<Race>(42, &config, 10_000);
        decide_append(c, "race", &config, &[script]);
    }
    if wanted(&["race/seek/state_at_", "race/seek/cursor_to_"]) {
        let (mut big, _) = grown::<Race>(42, &config, 1_000_000);
        seek(c, "race", &mut big);
    }
}

/// Every group of a game whose battles end (all but Dice Race): battles of
/// `commands` commands in all, played by the bot from `config`; folded,
/// their `legal` asked at every state, replayed through
/// `decide_append` and by parts, and the longest verified and sought in.
/// Nothing is set up when the filter selects none of the game's groups.
fn game_groups<G: Game>(c: &mut Criterion, name: &str, config: &G::Config, commands: usize) {
    let ids = [
        format!("{name}/fold/"),
        format!("{name}/decide_append/"),
        format!("{name}/verify/"),
        format!("{name}/seek/state_at_"),
        format!("{name}/seek/cursor_to_"),
        format!("{name}/parts/"),
        format!("{name}/legal/"),
    ];
    if !wanted(&ids.iter().map(String::as_str).collect::<Vec<_>>()) {
        return;
    }
    let played = battles::<G>(config, commands);
    let sessions: Vec<&Session<G>> = played.iter().map(|(s, _)| s).collect();
    fold(c, name, &sessions);
    legal(c, name, &sessions);
    let scripts: Vec<Script<G>> = played
        .iter()
        .map(|(_, p)| Script {
            seed: p.seed,
            commands: p.commands.clone(),
        })
        .collect();
    decide_append(c, name, config, &scripts);
    parts(c, name, config, &played);
    // The longest of these battles, for verifying and seeking.
    let (mut longest, _) = played
        .into_iter()
        .max_by_key(|(s, _)| s.records().len())
        .expect("at least one battle");
    verify(c, name, &longest);
    seek(c, name, &mut longest);
}

fn dimx(c: &mut Criterion) {
    game_groups::<DimX>(c, "dimx", &DimxConfig::default(), 5_000);
}

/// Four factions on the 6' x 4' Crash Site table.
fn invasion_config() -> InvasionConfig {
    InvasionConfig {
        scenario: "crash_site".into(),
        ..InvasionConfig::default()
    }
}

fn invasion(c: &mut Criterion) {
    game_groups::<Invasion>(c, "invasion", &invasion_config(), 3_000);
}

fn alien(c: &mut Criterion) {
    // Two players, the Queen killed by option 1, from the landing field.
    game_groups::<Alien>(c, "alien", &AlienConfig::default(), 20_000);
}

/// Two players, Normal: three missions to win.
fn saucers_config() -> SaucersConfig {
    SaucersConfig {
        players: 2,
        missions: 3,
        ..SaucersConfig::default()
    }
}

fn saucers(c: &mut Criterion) {
    game_groups::<Saucers>(c, "saucers", &saucers_config(), 3_000);
}

criterion_group!(benches, race, dimx, invasion, alien, saucers);

/// Load-independent figures (issue 29): with `XENOLOG_COUNT=<game>` (`race`,
/// `dimx`, `invasion`, `alien`, `saucers`) the binary replays that game's
/// `decide_append` battles once in [`count_replay`] instead of benchmarking,
/// and `XENOLOG_COUNT=<game>:hash` hashes the states after each command once
/// in [`count_hash`]. Run under callgrind, the instructions of that function
/// alone, divided by the commands it prints, are the instructions a command
/// costs, whatever the machine's load:
///
/// ```text
/// XENOLOG_COUNT=alien valgrind --tool=callgrind --toggle-collect='*count_replay*' \
///     target/release/deps/engine-HASH
/// ```
fn main() {
    if let Ok(spec) = std::env::var("XENOLOG_COUNT") {
        count(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

fn count(spec: &str) {
    let (game, part) = spec.split_once(':').unwrap_or((spec, "replay"));
    match game {
        "race" => count_game::<Race>(game, part, &RaceConfig { target: u32::MAX }, 10_000),
        "dimx" => count_game::<DimX>(game, part, &DimxConfig::default(), 5_000),
        "invasion" => count_game::<Invasion>(game, part, &invasion_config(), 3_000),
        "alien" => count_game::<Alien>(game, part, &AlienConfig::default(), 20_000),
        "saucers" => count_game::<Saucers>(game, part, &saucers_config(), 3_000),
        _ => panic!("XENOLOG_COUNT: no game '{game}' (race, dimx, invasion, alien, saucers)"),
    }
}

/// The battles of `<game>/decide_append`, replayed once (`replay`) or the
/// states after each of their commands hashed once (`hash`).
fn count_game<G: Game>(game: &str, part: &str, config: &G::Config, commands: usize) {
    let played = battles::<G>(config, commands);
    let n: usize = played.iter().map(|(_, p)| p.commands.len()).sum();
    match part {
        "replay" => {
            let scripts: Vec<Script<G>> = played.into_iter().map(|(_, p)| p).collect();
            let done = count_replay(config, &scripts);
            eprintln!("{game}: {n} commands replayed in {} battles", done.len());
        }
        "hash" => {
            let after: Vec<(G::State, u64)> = played
                .iter()
                .flat_map(|(s, _)| {
                    s.path_to(s.cursor())
                        .into_iter()
                        .map(|id| (s.state_at(Some(id)), s.records()[id as usize].rng_after))
                })
                .collect();
            let bytes: usize = after
                .iter()
                .map(|(st, _)| postcard::to_allocvec(st).expect("encodes").len())
                .sum();
            // Each way alone, from a cold cache, then the one `hash_state` picks.
            count_hash_prefix(&after);
            count_hash_tree(&after);
            count_hash(&after);
            eprintln!(
                "{game}: {n} states hashed, {} bytes encoded on average",
                bytes / after.len().max(1)
            );
        }
        _ => panic!("XENOLOG_COUNT: no part '{part}' (replay, hash)"),
    }
}

/// `decide_append` once over every script, as the bench times it.
#[inline(never)]
fn count_replay<G: Game>(config: &G::Config, scripts: &[Script<G>]) -> Vec<Session<G>> {
    let mut done = Vec::with_capacity(scripts.len());
    for script in scripts {
        let mut s = Session::<G>::new(script.seed, config.clone()).expect("sets up");
        for (actor, command) in &script.commands {
            s.play(*actor, command, None).expect("legal on replay");
        }
        done.push(s);
    }
    done
}

/// `hash_state` of every state after a command, in order, once.
#[inline(never)]
fn count_hash<S: serde::Serialize>(after: &[(S, u64)]) {
    for (state, draws) in after {
        black_box(hash_state(state, *draws));
    }
}

/// The same states hashed from their leading shared content's hasher.
#[inline(never)]
fn count_hash_prefix<S: serde::Serialize>(after: &[(S, u64)]) {
    for (state, draws) in after {
        black_box(hash::hash_state_prefix(state, *draws));
    }
}

/// The same states hashed whole through the tree cache.
#[inline(never)]
fn count_hash_tree<S: serde::Serialize>(after: &[(S, u64)]) {
    for (state, draws) in after {
        black_box(hash::hash_state_tree(state, *draws));
    }
}
