//! Creating, opening, playing, loading and saving positions.

use serde_json::json;
use xenolog_engine::{Actor, PendingKind};
use xenolog_saves::{Campaign, DiceMode, SaveError};

use super::common::{campaign_with_race, place, play_n, states};

#[test]
fn a_new_campaign_reopens_with_its_name_and_battles() {
    let (_dir, path) = place();
    let (c, id) = campaign_with_race(&path);
    assert_eq!(c.name().unwrap(), "Club");
    assert!(!c.is_read_only());
    assert_eq!(c.path(), path);
    drop(c);
    let c = Campaign::open(&path).unwrap();
    let list = c.battles().unwrap();
    assert_eq!(list.len(), 1);
    let s = &list[0];
    assert_eq!(s.id, id);
    assert_eq!(s.game, "race");
    assert_eq!(s.title, "Race");
    assert_eq!(s.seed, 7);
    assert_eq!(s.dice_mode, DiceMode::Rolled);
    assert_eq!((s.entries, s.branches), (0, 1));
    assert_eq!(s.status, "in progress");
    assert_eq!(s.result, None);
    assert_eq!(s.origin, None);
    assert_eq!(c.summary(id).unwrap(), *s);
}

#[test]
fn create_refuses_an_existing_path_and_leaves_it_alone() {
    let (_dir, path) = place();
    std::fs::write(&path, b"my notes").unwrap();
    let err = Campaign::create(&path, "Club").unwrap_err();
    assert!(matches!(err, SaveError::Exists { .. }), "{err}");
    assert!(err.to_string().contains("already exists"));
    assert_eq!(std::fs::read(&path).unwrap(), b"my notes");
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn a_seed_above_i64_max_round_trips() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = c
        .new_battle("race", u64::MAX - 1, &json!({}), "", DiceMode::Entered)
        .unwrap();
    let s = c.summary(id).unwrap();
    assert_eq!(s.seed, u64::MAX - 1);
    assert_eq!(s.dice_mode, DiceMode::Entered);
    assert_eq!(
        s.title, "Dice Race (test game)",
        "an empty title takes the game's name"
    );
    assert_eq!(c.load_battle(id).unwrap().meta().seed, u64::MAX - 1);
}

#[test]
fn an_unknown_game_is_refused_and_nothing_is_stored() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let err = c
        .new_battle("chess", 1, &json!({}), "x", DiceMode::Rolled)
        .unwrap_err();
    assert!(err.to_string().contains("no game called 'chess'"), "{err}");
    assert!(c.battles().unwrap().is_empty());
}

#[test]
fn played_commands_are_on_disk_and_load_back_identically() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    let ids = play_n(&mut c, id, &mut *b, 150);
    assert_eq!(ids, (0..150).collect::<Vec<_>>());
    let before = states(&*b);
    drop(c);
    let c = Campaign::open(&path).unwrap();
    let back = c.load_battle(id).unwrap();
    assert_eq!(back.records(), b.records());
    assert_eq!(back.branches(), b.branches());
    assert_eq!(back.cursor(), Some(149));
    assert_eq!(states(&*back), before);
    assert!(back.verify().ok());
    assert!(c.verify_battle(id).unwrap().ok());
    assert_eq!(c.summary(id).unwrap().entries, 150);
}

#[test]
fn snapshots_are_stored_every_snapshot_every_entries() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 200);
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let seqs: Vec<i64> = raw
        .prepare("SELECT seq FROM snapshots ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let every = i64::from(xenolog_engine::session::SNAPSHOT_EVERY);
    // Along one line, entry k has depth k + 1.
    let expect: Vec<i64> = (0..200).filter(|k| (k + 1) % every == 0).collect();
    assert_eq!(seqs, expect);
}

/// Snapshots are a cache: one that no longer decodes (or was written under
/// other rules) does not stop the battle from opening; it is rebuilt by
/// folding and written back, so the next opening reads it again.
#[test]
fn an_unreadable_snapshot_is_rebuilt_and_rewritten_on_opening() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 140);
    let before = states(&*b);
    drop(b);
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let snapshot = |raw: &rusqlite::Connection, seq: i64| -> Vec<u8> {
        raw.query_row("SELECT state FROM snapshots WHERE seq = ?1", [seq], |r| {
            r.get(0)
        })
        .unwrap()
    };
    let good = (snapshot(&raw, 63), snapshot(&raw, 127));
    // One garbled, one from "another rules version".
    raw.execute(
        "UPDATE snapshots SET state = x'02010203ff' WHERE seq = 63",
        [],
    )
    .unwrap();
    let mut other = good.1.clone();
    other[1] = 99;
    raw.execute("UPDATE snapshots SET state = ?1 WHERE seq = 127", [&other])
        .unwrap();
    drop(raw);
    let c = Campaign::open(&path).unwrap();
    let back = c.load_battle(id).unwrap();
    assert_eq!(back.rebuilt_snapshots(), &[63, 127]);
    assert_eq!(states(&*back), before);
    assert!(back.verify().ok());
    drop(back);
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    assert_eq!((snapshot(&raw, 63), snapshot(&raw, 127)), good);
    drop(raw);
    let c = Campaign::open(&path).unwrap();
    assert!(c.load_battle(id).unwrap().rebuilt_snapshots().is_empty());
}

#[test]
fn undo_then_a_new_command_starts_a_branch_and_the_position_persists() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 10);
    assert_eq!(b.undo(3), 3);
    c.save_position(id, &*b).unwrap();
    drop(c);
    let mut c = Campaign::open(&path).unwrap();
    let mut b = c.load_battle(id).unwrap();
    assert_eq!(b.cursor(), Some(6), "the undo was saved");
    // A command other than the recorded one starts branch 1.
    let recorded = b.children(Some(6))[0];
    let other = crate::race::off_the_record(&*b);
    let new = c
        .play(id, &mut *b, other.actor, &other.command, None)
        .unwrap();
    assert_ne!(new, recorded);
    assert_eq!(b.current_branch(), 1);
    b.rename_branch(1, "Careful").unwrap();
    c.save_position(id, &*b).unwrap();
    drop(c);
    let c = Campaign::open(&path).unwrap();
    let back = c.load_battle(id).unwrap();
    assert_eq!(back.branches(), b.branches());
    assert_eq!(back.branches()[1].name, "Careful");
    assert_eq!(back.branches()[1].fork, Some(6));
    assert_eq!((back.cursor(), back.current_branch()), (Some(new), 1));
    assert_eq!(back.head(0), Some(9), "the main line is kept whole");
    assert_eq!(c.summary(id).unwrap().branches, 2);
    assert!(c.verify_battle(id).unwrap().ok());
}

#[test]
fn the_same_command_after_undo_is_a_redo_and_is_saved() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 5);
    let last = b.records()[4].clone();
    b.undo(1);
    c.save_position(id, &*b).unwrap();
    let legal = b.legal();
    let same = legal
        .iter()
        .find(|l| {
            b.prepare_json(l.actor, &l.command, None)
                .is_ok_and(|p| p.kind == PendingKind::Redo { entry: 4 })
        })
        .unwrap()
        .clone();
    let entry = c
        .play(id, &mut *b, same.actor, &same.command, None)
        .unwrap();
    assert_eq!(entry, 4);
    assert_eq!(b.records().len(), 5);
    assert_eq!(b.records()[4], last, "undo is no way to reroll");
    drop(c);
    let c = Campaign::open(&path).unwrap();
    assert_eq!(c.load_battle(id).unwrap().cursor(), Some(4));
    assert_eq!(c.summary(id).unwrap().entries, 5);
}

#[test]
fn a_refused_command_changes_nothing() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 3);
    let before = c.summary(id).unwrap();
    let (cursor, records) = (b.cursor(), b.records().to_vec());
    let wrong = Actor(1 - b.to_move().unwrap().0);
    let err = c
        .play(id, &mut *b, wrong, &json!({"roll": {"dice": 1}}), None)
        .unwrap_err();
    assert!(matches!(err, SaveError::Play(_)), "{err}");
    assert!(err.to_string().contains("turn"), "{err}");
    let err = c
        .play(id, &mut *b, Actor(0), &json!({"fly": 3}), None)
        .unwrap_err();
    assert!(err.to_string().contains("not a Dice Race"), "{err}");
    assert_eq!((b.cursor(), b.records()), (cursor, &records[..]));
    assert_eq!(c.summary(id).unwrap(), before);
}

/// Make the next write of `table` fail inside the store's transaction, as a
/// full disk would, using a trigger added behind the store's back.
fn break_writes(path: &std::path::Path, table: &str, on: &str) {
    let raw = rusqlite::Connection::open(path).unwrap();
    raw.execute_batch(&format!(
        "CREATE TRIGGER fail_{table} BEFORE {on} ON {table}
         BEGIN SELECT RAISE(ABORT, 'simulated write failure'); END;"
    ))
    .unwrap();
}

fn mend_writes(path: &std::path::Path, table: &str) {
    let raw = rusqlite::Connection::open(path).unwrap();
    raw.execute_batch(&format!("DROP TRIGGER fail_{table};"))
        .unwrap();
}

#[test]
fn a_failed_write_leaves_the_battle_in_memory_unchanged() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 70);
    let (cursor, n) = (b.cursor(), b.records().len());
    break_writes(&path, "entries", "INSERT");
    let legal = b.legal();
    let err = c
        .play(id, &mut *b, legal[0].actor, &legal[0].command, None)
        .unwrap_err();
    assert!(err.to_string().contains("simulated write failure"), "{err}");
    assert_eq!((b.cursor(), b.records().len()), (cursor, n));
    assert_eq!(c.summary(id).unwrap().entries, n as u64);
    mend_writes(&path, "entries");
    // The battle carries on exactly where it was.
    play_n(&mut c, id, &mut *b, 5);
    drop(c);
    let c = Campaign::open(&path).unwrap();
    assert_eq!(c.load_battle(id).unwrap().records(), b.records());
    assert!(c.verify_battle(id).unwrap().ok());
}

#[test]
fn a_failed_redo_puts_the_cursor_and_branch_back() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 6);
    b.undo(2);
    c.save_position(id, &*b).unwrap();
    let (cursor, branch) = (b.cursor(), b.current_branch());
    let redo = b
        .legal()
        .into_iter()
        .find(|l| {
            b.prepare_json(l.actor, &l.command, None)
                .is_ok_and(|p| matches!(p.kind, PendingKind::Redo { .. }))
        })
        .unwrap();
    break_writes(&path, "battles", "UPDATE");
    let err = c
        .play(id, &mut *b, redo.actor, &redo.command, None)
        .unwrap_err();
    assert!(err.to_string().contains("simulated write failure"), "{err}");
    assert_eq!((b.cursor(), b.current_branch()), (cursor, branch));
    mend_writes(&path, "battles");
}

#[test]
fn a_battle_ending_command_marks_the_battle_over() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = c
        .new_battle("race", 3, &json!({"target": 8}), "Short", DiceMode::Rolled)
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    let mut i = 0;
    while b.outcome().is_none() {
        let legal = b.legal();
        // Roll twice then hold: ends within a few turns.
        let cmd = if i % 3 == 2 { &legal[3] } else { &legal[1] };
        c.play(id, &mut *b, cmd.actor, &cmd.command.clone(), None)
            .unwrap();
        i += 1;
        assert!(i < 500, "the short race should end");
    }
    let s = c.summary(id).unwrap();
    assert_eq!(s.status, "over");
    assert!(s.result.as_deref().unwrap().contains("wins"), "{s:?}");
    // Undoing the winning command puts the battle back in progress.
    b.undo(1);
    c.save_position(id, &*b).unwrap();
    assert_eq!(c.summary(id).unwrap().status, "in progress");
}

#[test]
fn a_read_only_campaign_refuses_every_change() {
    let (_dir, path) = place();
    let (c, id) = campaign_with_race(&path);
    drop(c);
    let mut r = Campaign::open_read_only(&path).unwrap();
    assert!(r.is_read_only());
    let mut b = r.load_battle(id).unwrap();
    let legal = b.legal();
    let err = r
        .play(id, &mut *b, legal[0].actor, &legal[0].command, None)
        .unwrap_err();
    assert!(matches!(err, SaveError::ReadOnly), "{err}");
    assert!(b.records().is_empty());
    assert!(matches!(
        r.new_battle("race", 1, &json!({}), "x", DiceMode::Rolled),
        Err(SaveError::ReadOnly)
    ));
    assert!(matches!(r.save_position(id, &*b), Err(SaveError::ReadOnly)));
}

#[test]
fn a_battle_object_is_only_saved_under_its_own_id() {
    let (_dir, path) = place();
    let (mut c, a) = campaign_with_race(&path);
    let other = c
        .new_battle("race", 8, &json!({}), "Other", DiceMode::Rolled)
        .unwrap();
    let mut b = c.load_battle(a).unwrap();
    let legal = b.legal();
    let err = c
        .play(other, &mut *b, legal[0].actor, &legal[0].command, None)
        .unwrap_err();
    assert!(matches!(err, SaveError::Stale { .. }), "{err}");
    assert!(err.to_string().contains("load it again"), "{err}");
    assert!(b.records().is_empty());
    assert!(matches!(
        c.play(99, &mut *b, legal[0].actor, &legal[0].command, None),
        Err(SaveError::NoSuchBattle(99))
    ));
    assert!(matches!(
        c.load_battle(99),
        Err(SaveError::NoSuchBattle(99))
    ));
    assert!(matches!(c.summary(99), Err(SaveError::NoSuchBattle(99))));
}

#[test]
fn entries_played_in_memory_only_are_never_silently_saved() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    let legal = b.legal();
    let p = b
        .prepare_json(legal[0].actor, &legal[0].command, None)
        .unwrap();
    b.commit(p).expect("decided just now");
    let err = c.save_position(id, &*b).unwrap_err();
    assert!(matches!(err, SaveError::Stale { .. }), "{err}");
    assert_eq!(c.summary(id).unwrap().entries, 0);
}

#[test]
fn a_campaign_is_created_in_write_ahead_log_mode() {
    let (_dir, path) = place();
    drop(Campaign::create(&path, "Club").unwrap());
    let raw = rusqlite::Connection::open(&path).unwrap();
    let mode: String = raw
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn creating_in_a_missing_folder_fails_and_makes_nothing() {
    let (dir, _) = place();
    let path = dir.path().join("no such folder").join("club.xenolog");
    let err = Campaign::create(&path, "Club").unwrap_err();
    assert!(matches!(err, SaveError::Io { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("no such folder:"), "{text}");
    assert!(
        !text.contains(".creating-"),
        "names the folder, not a temporary file: {text}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A game that deals at the start does it as its first entry, played by the
/// game itself as soon as the battle is started; the steps it takes during
/// play (High Card's reveal) follow a player's command, each its own entry on
/// disk, and the battle verifies.
#[test]
fn the_games_own_steps_are_played_and_stored_as_entries() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = c
        .new_battle("highcard", 8, &json!({}), "Cards", DiceMode::Rolled)
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    assert_eq!(b.records().len(), 1, "the deal is entry 0");
    assert_eq!(b.records()[0].actor, Actor::SYSTEM);
    assert_eq!(b.entry_texts(&[0])[0].actor, "The game");
    for _ in 0..2 {
        let lay = b.legal()[0].clone();
        assert_ne!(lay.actor, Actor::SYSTEM);
        c.play(id, &mut *b, lay.actor, &lay.command, None).unwrap();
    }
    // Two cards laid, then the game's reveal: four entries.
    assert_eq!(b.records().len(), 4);
    assert_eq!(b.records()[3].actor, Actor::SYSTEM);
    drop(b);
    drop(c);
    let c = Campaign::open(&path).unwrap();
    let b = c.load_battle(id).unwrap();
    assert_eq!(b.records().len(), 4);
    assert!(b.due_step().is_none());
    assert!(c.verify_battle(id).unwrap().ok());
}
