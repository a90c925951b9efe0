//! Files that are not campaigns, damaged campaigns, newer and older formats:
//! a clear error, and the file exactly as it was.

use std::path::Path;

use serde_json::json;
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{DivergenceKind, Game, Session};
use xenolog_saves::{Campaign, DiceMode, SaveError};
use xenolog_schema::SCHEMA_VERSION;

use super::common::{bytes, campaign_with_race, place, play_n};

/// Opening `path` for writing and for reading both fail with `expect` in the
/// message, and leave the file's bytes exactly as they were.
fn refused_untouched(path: &Path, expect: &str) -> SaveError {
    let before = bytes(path);
    let err = Campaign::open(path).unwrap_err();
    assert!(err.to_string().contains(expect), "{err}");
    assert_eq!(bytes(path), before, "open changed the file");
    let err2 = Campaign::open_read_only(path).unwrap_err();
    assert!(err2.to_string().contains(expect), "{err2}");
    assert_eq!(bytes(path), before, "open_read_only changed the file");
    err
}

#[test]
fn a_text_file_is_not_a_campaign() {
    let (_dir, path) = place();
    std::fs::write(&path, "Shopping: milk, dice, more dice\n".repeat(20)).unwrap();
    let err = refused_untouched(&path, "not a SQLite database");
    assert!(matches!(err, SaveError::NotACampaign { .. }));
    assert!(err.to_string().contains("is not a Xenolog campaign"));
    assert!(
        !path.with_extension("xenolog.lock").exists(),
        "no lock file is made for a file that is not a campaign"
    );
}

#[test]
fn random_bytes_are_not_a_campaign() {
    let (_dir, path) = place();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let noise: Vec<u8> = (0..8192)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&path, &noise).unwrap();
    refused_untouched(&path, "not a SQLite database");
}

#[test]
fn an_empty_file_is_not_a_campaign() {
    let (_dir, path) = place();
    std::fs::write(&path, b"").unwrap();
    refused_untouched(&path, "the file is empty");
}

#[test]
fn a_missing_file_is_an_error_that_creates_nothing() {
    let (dir, path) = place();
    let err = Campaign::open(&path).unwrap_err();
    assert!(matches!(err, SaveError::Io { .. }), "{err}");
    assert!(Campaign::open_read_only(&path).is_err());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

fn a_campaign_with_entries(path: &Path, n: usize) {
    let (mut c, id) = campaign_with_race(path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, n);
}

#[test]
fn a_truncated_campaign_is_refused() {
    let (_dir, path) = place();
    a_campaign_with_entries(&path, 600);
    let whole = std::fs::read(&path).unwrap();
    assert!(whole.len() > 16_384, "the campaign spans several pages");
    std::fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    refused_untouched(&path, "cut short");
    std::fs::write(&path, &whole[..50]).unwrap();
    refused_untouched(&path, "cut short");
}

#[test]
fn another_programs_database_is_not_a_campaign() {
    let (_dir, path) = place();
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('stew');")
        .unwrap();
    drop(raw);
    refused_untouched(&path, "a SQLite database, but not a Xenolog campaign");
}

#[test]
fn a_newer_schema_is_refused_naming_both_versions() {
    let (_dir, path) = place();
    a_campaign_with_entries(&path, 10);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.pragma_update(None, "user_version", 99).unwrap();
    drop(raw);
    let err = refused_untouched(&path, "newer Xenolog");
    match err {
        SaveError::NewerSchema { file, ours, .. } => {
            assert_eq!((file, ours), (99, SCHEMA_VERSION));
        }
        other => panic!("unexpected {other}"),
    }
    let text = Campaign::open(&path).unwrap_err().to_string();
    assert!(text.contains("format 99"), "{text}");
    assert!(text.contains(&format!("up to {SCHEMA_VERSION}")), "{text}");
}

/// Rewrite one stored entry's bytes behind the store's back.
fn edit_entry(path: &Path, seq: i64, edit: impl Fn(&mut Vec<u8>)) {
    let raw = rusqlite::Connection::open(path).unwrap();
    let mut rec: Vec<u8> = raw
        .query_row("SELECT record FROM entries WHERE seq = ?1", [seq], |r| {
            r.get(0)
        })
        .unwrap();
    edit(&mut rec);
    raw.execute(
        "UPDATE entries SET record = ?1 WHERE seq = ?2",
        rusqlite::params![rec, seq],
    )
    .unwrap();
}

#[test]
fn an_entry_edited_by_hand_is_caught_by_verify() {
    let (_dir, path) = place();
    a_campaign_with_entries(&path, 50);
    // Change one byte of the stored state hash: the record still decodes.
    edit_entry(&path, 20, |r| {
        let n = r.len();
        r[n - 20] ^= 1;
    });
    let before = bytes(&path);
    let c = Campaign::open(&path).unwrap();
    let id = c.battles().unwrap()[0].id;
    let report = c.verify_battle(id).unwrap();
    assert!(
        report.to_string().contains("FAILED at entry 20"),
        "{report}"
    );
    let problem = report.problem.expect("the edit is caught");
    assert_eq!(
        (problem.entry, problem.kind),
        (20, DivergenceKind::Tampered)
    );
    let b = c.load_battle(id).unwrap();
    assert!(!b.verify().ok());
    drop((b, c));
    assert_eq!(bytes(&path), before, "checking changed the file");
}

#[test]
fn an_entry_that_no_longer_decodes_is_a_clear_error() {
    let (_dir, path) = place();
    a_campaign_with_entries(&path, 50);
    edit_entry(&path, 31, |r| r.truncate(r.len() - 5));
    let before = bytes(&path);
    let c = Campaign::open(&path).unwrap();
    let id = c.battles().unwrap()[0].id;
    let Err(err) = c.load_battle(id) else {
        panic!("the damaged battle loaded")
    };
    assert!(matches!(err, SaveError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("entry 31"), "{err}");
    let report = c.verify_battle(id).unwrap();
    let problem = report.problem.unwrap();
    assert_eq!((problem.entry, problem.kind), (31, DivergenceKind::Corrupt));
    drop(c);
    assert_eq!(bytes(&path), before);
}

#[test]
fn a_missing_entry_is_a_clear_error() {
    let (_dir, path) = place();
    a_campaign_with_entries(&path, 20);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("DELETE FROM entries WHERE seq = 7", [])
        .unwrap();
    drop(raw);
    let c = Campaign::open(&path).unwrap();
    let id = c.battles().unwrap()[0].id;
    let Err(err) = c.load_battle(id) else {
        panic!("the damaged battle loaded")
    };
    assert!(err.to_string().contains("entry 7 is missing"), "{err}");
}

/// A campaign as the first release wrote it: only migration 1, in the old
/// journal mode, with a battle of 100 entries.
fn version_1_fixture(path: &Path) -> Session<Race> {
    let mut s = Session::<Race>::new(11, RaceConfig { target: 10_000 }).unwrap();
    for i in 0..100 {
        let a = Race::to_move(s.state()).unwrap();
        let legal = Race::legal(s.state());
        s.play(a, &legal[i % legal.len()].1, None).unwrap();
    }
    let mut raw = rusqlite::Connection::open(path).unwrap();
    xenolog_schema::migrations()
        .to_version(&mut raw, 1)
        .unwrap();
    let m = s.meta();
    raw.execute_batch(
        "INSERT INTO campaign (id, name, created) VALUES (1, 'Old club', 1000);
         INSERT INTO branches (battle, id, name) VALUES (1, 0, 'Main');",
    )
    .unwrap();
    raw.execute(
        "INSERT INTO battles (id, game, title, seed, rules_version, config, dice_mode, cursor,
                              branch, created, updated)
         VALUES (1, ?1, 'Old race', ?2, ?3, ?4, 'rolled', ?5, 0, 1000, 2000)",
        rusqlite::params![m.game, m.seed as i64, m.rules_version, m.config, 99],
    )
    .unwrap();
    for (seq, rec) in s.records().iter().enumerate() {
        let blob = xenolog_schema::codec::encode_entry(seq as u64, rec).unwrap();
        raw.execute(
            "INSERT INTO entries (battle, seq, record) VALUES (1, ?1, ?2)",
            rusqlite::params![seq as i64, blob],
        )
        .unwrap();
    }
    s
}

#[test]
fn an_older_schema_is_backed_up_then_migrated() {
    let (dir, path) = place();
    let session = version_1_fixture(&path);
    let original = bytes(&path).unwrap();

    // Read-only cannot upgrade: a clear error, the file untouched.
    let err = Campaign::open_read_only(&path).unwrap_err();
    assert!(
        matches!(err, SaveError::OlderSchema { file: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("older Xenolog"));
    assert_eq!(bytes(&path).unwrap(), original);

    let c = Campaign::open(&path).unwrap();
    assert_eq!(c.name().unwrap(), "Old club");
    let s = c.summary(1).unwrap();
    assert_eq!(
        (s.title.as_str(), s.entries, s.origin),
        ("Old race", 100, None)
    );
    let b = c.load_battle(1).unwrap();
    assert_eq!(b.records(), session.records());
    assert_eq!(b.cursor(), Some(99));
    assert!(c.verify_battle(1).unwrap().ok());
    drop((b, c));

    // The backup sits next to it, still at version 1, with the same battle.
    let backup = dir.path().join("club.backup-v1.xenolog");
    let raw = rusqlite::Connection::open(&backup).unwrap();
    let v: u32 = raw
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, 1);
    let n: i64 = raw
        .query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 100);
    drop(raw);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let v: u32 = raw
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    drop(raw);

    // Opening again does not upgrade or back up a second time.
    drop(Campaign::open(&path).unwrap());
    assert!(!dir.path().join("club.backup-v1-2.xenolog").exists());
    // And the upgraded campaign plays on.
    let mut c = Campaign::open(&path).unwrap();
    let mut b = c.load_battle(1).unwrap();
    play_n(&mut c, 1, &mut *b, 3);
    let id = c
        .new_battle("race", 1, &json!({}), "New", DiceMode::Rolled)
        .unwrap();
    assert_eq!(id, 2);
}
