//! The test PostgreSQL server, for the suites run on both backends
//! (`backends.rs`, `copies.rs`): its connection string, a schema name no
//! other test uses, and dropping it after; and the roster battle both
//! suites fight.
#![allow(dead_code)]

use serde_json::json;
use xenolog_engine::Battle;
use xenolog_engine::campaign::Status;
use xenolog_saves::db::Db;
use xenolog_saves::db::pg::Postgres;
use xenolog_saves::{BattleId, Campaign, DiceMode, SeatPick};

/// The test server's connection string, or `None` (the PostgreSQL half
/// skipped) when none is set and CI does not require one.
pub use xenolog_saves::db::pg::test_cluster as server;

/// A schema name no other test (of this run or another) uses.
pub fn random_schema(test: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let short: String = test.chars().take(28).collect();
    format!(
        "t_{short}_{}_{nanos:x}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Drop a test's schema (and everything in it).
pub fn drop_schema(url: &str, schema: &str) {
    if let Ok(db) = Postgres::connect(url) {
        let _ = db.execute_batch(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
    }
}

/// A roster battle of both rosters' fit models (seat 0 `unit`, seat 1
/// `daleks`), played to its end: shooting where it can (`shoot`: someone
/// falls), else ending the card (everyone survives and earns experience).
pub fn fought(c: &mut Campaign, seed: u64, unit: u32, daleks: u32, shoot: bool) -> BattleId {
    let id = started(c, seed, unit, daleks);
    let mut b = c.load_battle(id).unwrap();
    play_out(c, id, &mut *b, shoot);
    id
}

/// A roster battle of both rosters' fit models (seat 0 `unit`, seat 1
/// `daleks`), started and not yet played.
pub fn started(c: &mut Campaign, seed: u64, unit: u32, daleks: u32) -> BattleId {
    let s = c.campaign_state().unwrap();
    let fit = |r: u32| -> Vec<u32> {
        s.models
            .iter()
            .filter(|m| m.roster == r && m.status == Status::Fit)
            .map(|m| m.id)
            .collect()
    };
    c.new_roster_battle(
        seed,
        &json!({"scenario": "skirmish"}),
        &[
            SeatPick {
                seat: 0,
                roster: unit,
                models: fit(unit),
            },
            SeatPick {
                seat: 1,
                roster: daleks,
                models: fit(daleks),
            },
        ],
        "",
        DiceMode::Rolled,
        false,
    )
    .unwrap()
}

/// Roster battle `id`, held as `b`, played to its end as [`fought`] plays.
pub fn play_out(c: &mut Campaign, id: BattleId, b: &mut dyn Battle, shoot: bool) {
    for i in 0..3000 {
        if b.outcome().is_some() {
            break;
        }
        let legal = b.legal();
        assert!(!legal.is_empty(), "battle {id} stuck");
        let l = legal
            .iter()
            .find(|l| shoot && l.text.contains("shoot"))
            .or_else(|| legal.iter().find(|l| l.text.contains("end the card")))
            .unwrap_or(&legal[i % legal.len()])
            .clone();
        c.play(id, b, l.actor, &l.command, None).unwrap();
    }
    assert!(b.outcome().is_some(), "battle {id} did not end");
}
