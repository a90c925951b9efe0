//! Campaign benchmark (issue 11): recompute a campaign of 50 Alien Invasion
//! battles of 500 entries each (all branches) and 60 models after a change
//! in its first battle (floor 200 ms).
//!
//! Run with `cargo bench -p xenolog-saves --bench campaign`.
//!
//! - `campaign/recompute_after_change`: the first battle's current branch is
//!   switched (not timed), then `Campaign::campaign_recompute` (timed): it
//!   reads the log, finds battle 1's cached result stale, loads battle 1
//!   and reads its result at the head of its current branch, folds the
//!   campaign twice (as last read, and now) and says what changed.
//! - `campaign/recompute_from_scratch`: `Campaign::verify_campaign`, which
//!   loads all 50 battles afresh (no cache) and folds.
//!
//! The fixture is built once in a temporary folder (in /dev/shm when there
//! is one): two rosters of 30 models (U.N.I.T. and Daleks; casualties come
//! back, so every model stays fit), and a skirmish of 8 U.N.I.T. and 6
//! Dalek roster models played by a seeded bot to 500 entries (when it ends
//! early the bot takes back a few entries and plays another line, so it has
//! branches), stored 50 times (played once, imported 49 times) and taken
//! into the campaign 50 times.

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "support/bot.rs"]
mod bot;

use bot::Bot;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use xenolog_engine::campaign::{CampaignEvent, Casualties};
use xenolog_saves::{Campaign, DiceMode, SeatPick};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const BATTLES: usize = 50;
const ENTRIES: usize = 500;

fn build(path: &std::path::Path) {
    let mut c = Campaign::create(path, "bench").unwrap();
    c.record(CampaignEvent::SettingChanged {
        casualties: Casualties::Return,
    })
    .unwrap();
    let unit = c.add_roster("Hawks", "unit").unwrap();
    let daleks = c.add_roster("Exterminators", "daleks").unwrap();
    let mut u = Vec::new();
    let mut d = Vec::new();
    for i in 0..30 {
        u.push(
            c.add_model(unit, &format!("Trooper {i}"), "rifleman")
                .unwrap(),
        );
        d.push(c.add_model(daleks, &format!("Dalek {i}"), "dalek").unwrap());
    }
    let mut bot = Bot(11);
    // One battle of 500 entries is played by the bot (deciding Alien
    // Invasion commands is what takes the time); the other 49 are copies of
    // it imported into the campaign (an imported battle is a whole battle:
    // its own rows, entries, branches and snapshots), each taken into the
    // campaign by its own "battle fought" entry with the same 14 models.
    let id = c
        .new_roster_battle(
            1,
            &json!({"scenario": "skirmish"}),
            &[
                SeatPick {
                    seat: 0,
                    roster: unit,
                    models: u[..8].to_vec(),
                },
                SeatPick {
                    seat: 1,
                    roster: daleks,
                    models: d[..6].to_vec(),
                },
            ],
            "",
            DiceMode::Rolled,
            false,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    while b.records().len() < ENTRIES {
        if b.outcome().is_some() {
            b.undo(1 + bot.below(8));
        }
        let legal = b.legal();
        if legal.is_empty() {
            b.undo(1 + bot.below(8));
            continue;
        }
        // Mostly ending cards, so battles last and lines branch often.
        let l = legal
            .iter()
            .find(|l| bot.below(3) > 0 && l.text.contains("end the card"))
            .unwrap_or(&legal[bot.below(legal.len())])
            .clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
    c.save_position(id, &*b).unwrap();
    let fighters = match &c.campaign_log().unwrap().last().unwrap().event {
        CampaignEvent::BattleFought { fighters, .. } => fighters.clone(),
        _ => unreachable!(),
    };
    let file = path.with_extension("xenolog-battle");
    c.export_battle(id, &file).unwrap();
    for _ in 1..BATTLES {
        let copy = c.import_battle(&file).unwrap();
        c.record(CampaignEvent::BattleFought {
            battle: copy,
            fighters: fighters.clone(),
        })
        .unwrap();
    }
    let r = c.campaign_recompute().unwrap();
    eprintln!(
        "campaign fixture: {} battles, {} models, {} log entries",
        r.state.battles.len(),
        r.state.models.len(),
        c.campaign_log().unwrap().len()
    );
}

fn campaign(cr: &mut Criterion) {
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let path = dir.path().join("bench.xenolog");
    build(&path);
    let mut c = Campaign::open(&path).unwrap();
    let first = c.battles().unwrap()[0].id;
    let branches: Vec<u32> = c
        .load_battle(first)
        .unwrap()
        .branches()
        .iter()
        .map(|b| b.id)
        .collect();
    assert!(branches.len() > 1, "battle 1 has one branch");
    let mut turn = 0usize;
    let mut g = cr.benchmark_group("campaign");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("recompute_after_change", |bn| {
        bn.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                // The change (not timed): battle 1's current branch switched.
                turn += 1;
                let mut b = c.load_battle(first).unwrap();
                b.switch_branch(branches[turn % branches.len()]).unwrap();
                c.save_position(first, &*b).unwrap();
                let t = Instant::now();
                let r = c.campaign_recompute().unwrap();
                total += t.elapsed();
                black_box(r);
            }
            total
        });
    });
    g.bench_function("recompute_from_scratch", |bn| {
        bn.iter(|| black_box(c.verify_campaign().unwrap()));
    });
    g.finish();
}

criterion_group!(benches, campaign);
criterion_main!(benches);
