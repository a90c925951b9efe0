//! `xenolog campaign merge` of two files, what issue 30 item 9 left
//! (session 22): a line grafted from another copy shown by its kind in
//! `branches` and `log`, a battle played to two endings set aside
//! and listed again by `campaign log`, and the notes and bookmarks of both
//! copies merged, each on its entry.
//!
//! The files are set up in-process through the store; everything the test
//! asserts about goes through the real `xenolog` binary.

#[path = "support/copies.rs"]
mod copies;
// The saves suites' roster battle (its PostgreSQL helpers unused here).
#[allow(dead_code)]
#[path = "../../saves/tests/support/race.rs"]
mod race;
#[allow(unused_imports)]
#[path = "../../saves/tests/support/pg.rs"]
mod roster;
#[path = "support/cli.rs"]
mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{ok, xenolog};
use xenolog_engine::Battle;
use xenolog_saves::Campaign;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The organiser's file (four U.N.I.T. riflemen, two Daleks) with `battle`
/// made in it, and a laptop's copy of it then; the battle's id.
fn copies(dir: &Path, battle: impl FnOnce(&mut Campaign) -> i64) -> (PathBuf, PathBuf, i64) {
    let (club, laptop) = (dir.join("club.xenolog"), dir.join("laptop.xenolog"));
    copies::organiser(
        &club,
        &["Sgt Benton", "Pte Yates", "Pte Harris", "Pte Osgood"],
        &["Dalek Kaan", "Dalek Sec"],
    );
    let id = battle(&mut Campaign::open(&club).unwrap());
    std::fs::copy(&club, &laptop).unwrap();
    (club, laptop, id)
}

/// Battle `id` of the file at `path` played on by `n` legal commands, the
/// `(i * k + 2)`th each time (copies given different `k` part ways): the
/// battle as it then is.
fn played_on(path: &Path, id: i64, n: usize, k: usize) -> Box<dyn Battle> {
    let mut c = Campaign::open(path).unwrap();
    let mut b = c.load_battle(id).unwrap();
    for i in 0..n {
        let legal = b.legal();
        let cmd = legal[(i * k + 2) % legal.len()].clone();
        c.play(id, &mut *b, cmd.actor, &cmd.command, None).unwrap();
    }
    b
}

/// A Dice Race that never ends by itself, 20 entries played.
fn race(c: &mut Campaign) -> i64 {
    let id = race::new_endless_race(c, 21);
    let mut b = c.load_battle(id).unwrap();
    race::play_n(c, id, &mut *b, 20);
    id
}

#[test]
fn item_9_merge_shows_the_grafted_line_by_kind_and_brings_the_other_copys_notes() {
    let dir = tempfile::tempdir().unwrap();
    let (club, laptop, id) = copies(dir.path(), race);
    played_on(&club, id, 6, 5);
    let theirs = played_on(&laptop, id, 6, 3);
    let pushed = theirs.records()[24].state_hash;
    drop(theirs);
    Campaign::open(&laptop)
        .unwrap()
        .set_note(id, 24, "the laptop's last push")
        .unwrap();
    let said = ok(&xenolog(&["campaign", "merge", s(&club), s(&laptop)]));
    assert!(
        said.contains("notes: the notes and bookmarks of 1 entry of ")
            && said.contains("laptop.xenolog landed on their entries here"),
        "{said}"
    );
    let battle = id.to_string();
    let f = s(&club);
    let branches = lines(&ok(&xenolog(&[
        "branches", f, "--battle", &battle, "--json",
    ])));
    let kinds: Vec<&str> = branches
        .iter()
        .map(|b| b["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["main", "from-copy"], "{branches:?}");
    let tree = ok(&xenolog(&["branches", f, "--battle", &battle]));
    assert!(
        tree.contains("another copy's line, parts after entry 20"),
        "{tree}"
    );
    // The other copy's line, current: the log says what it is.
    ok(&xenolog(&[
        "switch", f, "--battle", &battle, "--branch", "1",
    ]));
    let log = ok(&xenolog(&["log", f, "--battle", &battle]));
    assert!(
        log.contains(
            "The line shown is the branch 'Main (from the copy laptop.xenolog)', another copy's line"
        ),
        "{log}"
    );
    // The note came over onto the laptop's entry 24, numbered here.
    let c = Campaign::open_read_only(&club).unwrap();
    let b = c.load_battle(id).unwrap();
    let here = c
        .notes(id)
        .unwrap()
        .into_iter()
        .find(|n| b.records()[n.entry as usize].state_hash == pushed)
        .expect("the laptop's note on its entry 24");
    assert_ne!(here.entry, 24, "numbered after this copy's entries");
    assert_eq!(here.text, "the laptop's last push");
}

/// Battle `id` of the file at `path` played to its end as the saves
/// suites play it: shooting where it can (`shoot`), else ending the card.
fn play_out(path: &Path, id: i64, shoot: bool) {
    let mut c = Campaign::open(path).unwrap();
    let mut b = c.load_battle(id).unwrap();
    roster::play_out(&mut c, id, &mut *b, shoot);
}

#[test]
fn item_9_a_battle_played_to_two_endings_is_listed_again_by_campaign_log() {
    let dir = tempfile::tempdir().unwrap();
    // Rosters 1 (U.N.I.T.) and 2 (Daleks), started, not yet played.
    let (club, laptop, id) = copies(dir.path(), |c| roster::started(c, 40, 1, 2));
    play_out(&club, id, true);
    play_out(&laptop, id, false);
    let said = ok(&xenolog(&["campaign", "merge", s(&club), s(&laptop)]));
    assert!(said.contains("was played to two endings"), "{said}");
    let f = s(&club);
    let log = ok(&xenolog(&["campaign", "log", f]));
    assert!(
        log.lines()
            .any(|l| l.contains("was played to two endings in two copies")
                && l.contains("(set aside:")),
        "{log}"
    );
    let set_aside: Vec<Value> = lines(&ok(&xenolog(&["campaign", "log", f, "--json"])))
        .into_iter()
        .filter(|l| l.get("endings").is_some())
        .collect();
    assert_eq!(set_aside.len(), 1, "{set_aside:?}");
    assert_eq!(set_aside[0]["endings"]["battle"], id);
    assert_ne!(
        set_aside[0]["endings"]["counted"]["state_hash"],
        set_aside[0]["endings"]["other"]["state_hash"]
    );
    assert_eq!(set_aside[0]["endings"]["now"], "counted");
    // Merged again: listed once.
    ok(&xenolog(&["campaign", "merge", f, s(&laptop)]));
    let again = lines(&ok(&xenolog(&["campaign", "log", f, "--json"])));
    assert_eq!(
        again.iter().filter(|l| l.get("endings").is_some()).count(),
        1
    );
    // Session 23: the other ending's line made current, the set-aside
    // conflict says the campaign counts that one now (it was stale).
    let battle = id.to_string();
    let other = lines(&ok(&xenolog(&[
        "branches", f, "--battle", &battle, "--json",
    ])))
    .into_iter()
    .find(|b| b["current"] == false)
    .expect("the other ending's line");
    let other = other["id"].to_string();
    ok(&xenolog(&[
        "switch", f, "--battle", &battle, "--branch", &other,
    ]));
    let log = ok(&xenolog(&["campaign", "log", f]));
    let (counted, other_end) = (
        set_aside[0]["endings"]["counted"]["result"]
            .as_str()
            .unwrap(),
        set_aside[0]["endings"]["other"]["result"].as_str().unwrap(),
    );
    assert!(
        log.lines().any(
            |l| l.contains(&format!("the campaign counts \"{other_end}\""))
                && l.contains("now, its line made current since the merge")
                && l.contains(&format!("\"{counted}\""))
                && l.contains("which the merge counted")
        ),
        "{log}"
    );
    let now: Vec<Value> = lines(&ok(&xenolog(&["campaign", "log", f, "--json"])))
        .into_iter()
        .filter(|l| l.get("endings").is_some())
        .collect();
    assert_eq!(now[0]["endings"]["now"], "other", "{now:?}");
}
