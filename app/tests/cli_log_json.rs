//! `xenolog log --json` on a campaign file carries the keys a club
//! server's entry lines carry (issue 30 left-over, session 19): `parent`,
//! the entry it follows (null: the setup), `receipt`, the entry's chain
//! keyed by the club's secret (DESIGN 5.4) for a downloaded club battle
//! whose secret is revealed, null where a file has none, and (session 23)
//! `branch_kind`, the kind of the entry's branch, so a script reads a
//! file's log and a server's (`app/tests/club_play.rs`) alike.

#[path = "support/club_race.rs"]
mod club_race;
#[path = "support/cli.rs"]
mod support;
use support::{ok, xenolog};

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};
use xenolog_engine::fair::{Bytes32, hex, receipt};
use xenolog_engine::{Battle, Viewer};
use xenolog_saves::{Campaign, DiceMode};

const SECRET: Bytes32 = [7; 32];

fn log_json(path: &Path, battle: i64) -> Vec<Value> {
    ok(&xenolog(&[
        "log",
        path.to_str().unwrap(),
        "--battle",
        &battle.to_string(),
        "--json",
    ]))
    .lines()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect()
}

/// Play `n` commands (the `k`-th legal one, turning) or to the end.
fn play(c: &mut Campaign, id: i64, n: usize, k: usize) {
    let mut b = c.load_battle(id).unwrap();
    for i in 0..n {
        if b.outcome().is_some() {
            return;
        }
        let legal = b.legal();
        let l = legal[(i * k + 1) % legal.len()].clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
}

/// The keys of a server's entry line: the engine's entry text's, `parent`,
/// `receipt` and `branch_kind` (`server/src/lens.rs`).
fn server_keys(b: &dyn Battle, id: u64) -> BTreeSet<String> {
    let t = serde_json::to_value(&b.entry_texts_as(&[id], Viewer::All)[0]).unwrap();
    let mut keys: BTreeSet<String> = t.as_object().unwrap().keys().cloned().collect();
    keys.extend(["parent", "receipt", "branch_kind"].map(str::to_owned));
    keys
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn log_json_of_a_file_names_each_entrys_parent_and_a_null_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.xenolog");
    let mut c = Campaign::create(&path, "Farm").unwrap();
    let id = c
        .new_battle(
            "race",
            3,
            &json!({"target": 1_000}),
            "Race",
            DiceMode::Rolled,
        )
        .unwrap();
    play(&mut c, id, 6, 1);
    // A take-back and another line: the current line's entries do not
    // follow each other by number any more.
    let mut b = c.load_battle(id).unwrap();
    assert_eq!(b.undo(3), 3);
    let l = b.legal().last().unwrap().clone();
    c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    play(&mut c, id, 2, 2);
    let b = c.load_battle(id).unwrap();
    let lines = log_json(&path, id);
    let line = b.path_to(b.head(b.current_branch()));
    assert_eq!(lines.len(), line.len());
    let mut jumped = false;
    for (v, want) in lines.iter().zip(&line) {
        let id = v["id"].as_u64().unwrap();
        assert_eq!(id, *want);
        let parent = b.records()[id as usize].parent;
        assert_eq!(v["parent"], json!(parent), "{v}");
        jumped |= parent.is_some_and(|p| p + 1 != id);
        assert_eq!(v["receipt"], Value::Null, "{v}");
        assert_eq!(keys(v), server_keys(&*b, id), "{v}");
        let kind = if v["branch"] == 0 {
            "main"
        } else {
            "take-back"
        };
        assert_eq!(v["branch_kind"], kind, "{v}");
    }
    assert!(jumped, "the line left the take-back's entries behind");
}

#[test]
fn log_json_of_a_downloaded_club_battle_carries_the_receipts_its_seats_were_shown() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.xenolog");
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = club_race::club_race(&mut c, &SECRET, 40, &[]);
    play(&mut c, id, 3, 1);
    assert!(c.load_battle(id).unwrap().outcome().is_none());
    // Not over: the secret is held, not revealed; no receipt can be shown.
    for v in log_json(&path, id) {
        assert_eq!(v["receipt"], Value::Null, "{v}");
    }
    play(&mut c, id, 500, 1);
    c.reveal_held_secret(id).unwrap();
    let b = c.load_battle(id).unwrap();
    assert!(b.outcome().is_some());
    let lines = log_json(&path, id);
    assert!(lines.len() > 3);
    for v in &lines {
        let id = v["id"].as_u64().unwrap();
        let r = &b.records()[id as usize];
        assert_eq!(v["receipt"], json!(hex(&receipt(&SECRET, &r.chain))), "{v}");
        assert_eq!(v["parent"], json!(r.parent), "{v}");
        assert_eq!(keys(v), server_keys(&*b, id), "{v}");
    }
}
