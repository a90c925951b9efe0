//! The store's hot paths run once each, for counting instructions rather
//! than timing (timings on the shared machine are noisy; an instruction
//! count is not): `perf stat -e instructions:u` around one run, or, where
//! the machine has no hardware counters (this project's VMs: perf says
//! `<not supported>`), valgrind's count of instructions executed.
//!
//! ```text
//! cargo bench -p xenolog-saves --bench store_count --no-run
//! B=$(ls -t target/release/deps/store_count-* | grep -v '\.d$' | head -1)
//! $B build /dev/shm/long.xenolog           # the 1,000,000-entry fixture, once
//! perf stat -e instructions:u $B open /dev/shm/long.xenolog
//! valgrind --tool=cachegrind --cache-sim=no $B open /dev/shm/long.xenolog   # "I refs"
//! valgrind --tool=cachegrind --cache-sim=no $B append /dev/shm/append.xenolog 2000
//! ```
//!
//! Measured when the store moved behind `saves::db::Db` (issue 31, P1),
//! before → after: open 2,601.8M → 2,599.9M instructions; 2000 durable
//! appends 138.9M → 139.4M (+0.4%, about 260 instructions an append
//! against a fsync of milliseconds).
//!
//! - `build FILE`: the 1,000,000-entry Dice Race battle of `benches/store.rs`
//!   (same seed, same bot), stored by `insert_battle_bulk`.
//! - `open FILE`: `open_read_only` + `load_battle` + the final state, once
//!   (`store/open`).
//! - `append FILE N`: a new campaign with one endless Dice Race battle and
//!   `N` durable `Campaign::play`s (`store/append`); the file is removed first.
//!
//! The count includes starting the process (a few million instructions), the
//! same in both builds compared.

use std::path::Path;

#[path = "support/bot.rs"]
mod bot;

use bot::Bot;
use serde_json::json;
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{Game, Session};
use xenolog_saves::{Campaign, DiceMode};

/// The same allocator as the `xenolog` binary, so the figures are the app's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const LONG: usize = 1_000_000;

fn build(path: &Path) {
    let mut s = Session::<Race>::new(42, RaceConfig { target: u32::MAX }).expect("sets up");
    let mut bot = Bot(7);
    for _ in 0..LONG {
        let mut legal = Race::legal(s.state());
        let (actor, command) = legal.swap_remove(bot.below(legal.len()));
        s.play(actor, &command, None).expect("legal");
    }
    let mut campaign = Campaign::create(path, "Bench").expect("creates");
    let id = campaign
        .insert_battle_bulk(&s, "Long", DiceMode::Rolled)
        .expect("inserts");
    println!("built battle {id} of {LONG} entries in {}", path.display());
}

fn open(path: &Path) {
    let campaign = Campaign::open_read_only(path).expect("opens");
    let id = campaign.battles().expect("lists")[0].id;
    let battle = campaign.load_battle(id).expect("loads");
    let state = battle.state_json(battle.cursor());
    println!(
        "opened {} entries; final state {} bytes of JSON",
        battle.records().len(),
        state.to_string().len()
    );
}

fn append(path: &Path, n: usize) {
    let _ = std::fs::remove_file(path);
    let mut campaign = Campaign::create(path, "Bench").expect("creates");
    let id = campaign
        .new_battle(
            "race",
            42,
            &json!({ "target": u32::MAX }),
            "Append",
            DiceMode::Rolled,
        )
        .expect("starts");
    let mut battle = campaign.load_battle(id).expect("loads");
    let mut bot = Bot(7);
    for _ in 0..n {
        let legal = battle.legal();
        let cmd = &legal[bot.below(legal.len())];
        let command = cmd.command.clone();
        campaign
            .play(id, &mut *battle, cmd.actor, &command, None)
            .expect("plays");
    }
    println!("appended {n} entries durably");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` runs every bench target with `--bench`: nothing to do.
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["build", file] => build(Path::new(file)),
        ["open", file] => open(Path::new(file)),
        ["append", file, n] => append(Path::new(file), n.parse().expect("a number")),
        _ => println!("store_count: build FILE | open FILE | append FILE N (see its docs)"),
    }
}
