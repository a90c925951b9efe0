//! `Battle::extend_stored` (issue 31 P5): a loaded battle takes the records
//! its store holds after its last entry (another server process wrote them)
//! and ends as loading the whole battle would leave it; a record that does
//! not fit is refused in words and changes nothing.

use serde_json::json;
use xenolog_engine::games;
use xenolog_engine::{Battle, EntryId, LoadError, PendingKind, StoredBattle};

const GAMES: [&str; 4] = ["dimx", "saucers", "alien", "invasion"];

/// Play one command: the game's own step when one is due, else the
/// `pick`-th legal command (wrapped); whether one was played.
fn play_one(b: &mut dyn Battle, pick: usize) -> bool {
    if b.outcome().is_some() {
        return false;
    }
    let (actor, command) = match b.due_step() {
        Some(step) => (step.actor, step.command),
        None => {
            let legal = b.legal();
            if legal.is_empty() {
                return false;
            }
            let c = &legal[pick % legal.len()];
            (c.actor, c.command.clone())
        }
    };
    let pending = b
        .prepare_json(actor, &command, None)
        .unwrap_or_else(|e| panic!("{}: legal {command} refused: {e}", b.game_id()));
    b.commit(pending).expect("decided at the cursor just now");
    true
}

/// A battle of `game` with a main line past the first snapshot (depth 64)
/// and a second branch: a take-back of five entries and another line.
fn played(game: &str) -> Box<dyn Battle> {
    let mut b = games::new_battle(game, 0x5eed_0031, &json!({})).unwrap();
    for i in 0..70 {
        if !play_one(&mut *b, i * 7 + 1) {
            break;
        }
    }
    assert!(b.records().len() >= 20, "{game}: too short a battle");
    b.undo(5);
    // A command other than the recorded one starts a branch (the recorded
    // one again would be a redo).
    let recorded = b.records()[b.records().len() - 5].command().to_vec();
    for pick in 0..50 {
        let legal = b.legal();
        let step = b.due_step();
        let (actor, command) = match step {
            Some(s) => (s.actor, s.command),
            None => {
                let c = &legal[pick % legal.len()];
                (c.actor, c.command.clone())
            }
        };
        let pending = b.prepare_json(actor, &command, None).unwrap();
        if let PendingKind::New { record, .. } = &pending.kind
            && record.command() != recorded.as_slice()
        {
            b.commit(pending).unwrap();
            break;
        }
        if b.due_step().is_some() {
            // The game's own step is the only command here: take it and
            // try again after it.
            b.commit(pending).unwrap();
        }
    }
    for i in 0..20 {
        if !play_one(&mut *b, i * 3 + 2) {
            break;
        }
    }
    assert!(b.branches().len() >= 2, "{game}: no second branch");
    b
}

/// What the store holds of `b`: everything (`upto` = all) or its first
/// `upto` entries, with the branches they use and the cursor at the last.
fn stored(b: &dyn Battle, upto: usize) -> StoredBattle {
    let records = b.records()[..upto].to_vec();
    let whole = upto == b.records().len();
    let (cursor, branch) = if whole {
        (b.cursor(), b.current_branch())
    } else {
        let last = upto.checked_sub(1).map(|l| l as EntryId);
        (last, last.map_or(0, |l| b.records()[l as usize].branch))
    };
    let used = records.iter().map(|r| r.branch).max().unwrap_or(0) as usize;
    let branches = if whole {
        b.branches().to_vec()
    } else {
        b.branches()[..=used].to_vec()
    };
    StoredBattle {
        meta: b.meta().clone(),
        records,
        branches,
        snapshots: Vec::new(),
        cursor,
        branch,
    }
}

/// What the store holds after `b`'s first `upto` entries: the records
/// after them, every branch, the cursor as stored.
fn after(b: &dyn Battle, upto: usize) -> StoredBattle {
    let mut all = stored(b, b.records().len());
    all.records.drain(..upto);
    all
}

fn assert_same(game: &str, split: usize, got: &dyn Battle, want: &dyn Battle) {
    let at = format!("{game}, extended after entry {split}");
    assert_eq!(got.records(), want.records(), "{at}: records");
    assert_eq!(got.branches(), want.branches(), "{at}: branches");
    assert_eq!(got.cursor(), want.cursor(), "{at}: cursor");
    assert_eq!(got.current_branch(), want.current_branch(), "{at}: branch");
    assert_eq!(
        got.state_json(got.cursor()),
        want.state_json(want.cursor()),
        "{at}: the state at the cursor"
    );
    for id in 0..want.records().len() as EntryId {
        assert_eq!(
            got.snapshot_bytes(id),
            want.snapshot_bytes(id),
            "{at}: the snapshot at entry {id}"
        );
    }
    assert_eq!(got.legal(), want.legal(), "{at}: the legal commands");
    assert!(got.verify().ok(), "{at}: {}", got.verify());
}

#[test]
fn p5_extending_a_loaded_battle_with_the_stored_records_after_its_head_equals_loading_it_whole_for_each_game()
 {
    for game in GAMES {
        let b = played(game);
        let n = b.records().len();
        let fork = b.branches().iter().filter_map(|br| br.fork).max().unwrap() as usize;
        let mut whole = games::load_battle(stored(&*b, n)).unwrap();
        // From the setup, on the main line before the first snapshot and
        // after it, just before the branch, on the branch, at the head.
        for split in [0, 1, 30, 66, fork, fork + 2, n - 1, n] {
            let split = split.min(n);
            let mut got = games::load_battle(stored(&*b, split)).unwrap();
            got.extend_stored(after(&*b, split))
                .unwrap_or_else(|e| panic!("{game} after {split}: {e}"));
            assert_same(game, split, &*got, &*whole);
            // And it plays on as the whole load does.
            play_one(&mut *got, 3);
            play_one(&mut *whole, 3);
            assert_eq!(
                got.records(),
                whole.records(),
                "{game} after {split}: played on"
            );
            whole = games::load_battle(stored(&*b, n)).unwrap();
        }
    }
}

#[test]
fn p5_extending_with_nothing_new_but_a_cursor_moved_back_is_a_take_back_as_loaded() {
    for game in GAMES {
        let b = played(game);
        let n = b.records().len();
        let mut moved = stored(&*b, n);
        // Another process took back two entries: the cursor alone moved.
        let back = b.path_to(b.cursor());
        moved.cursor = Some(back[back.len() - 3]);
        let want = games::load_battle(moved.clone()).unwrap();
        let mut got = games::load_battle(stored(&*b, n)).unwrap();
        moved.records.clear();
        got.extend_stored(moved).unwrap();
        assert_same(game, n, &*got, &*want);
    }
}

/// Refused in words naming what does not fit, the battle as it was.
fn refused(game: &str, more: StoredBattle, held: &mut dyn Battle) -> LoadError {
    let (records, cursor, state) = (
        held.records().to_vec(),
        held.cursor(),
        held.state_json(held.cursor()),
    );
    let err = held
        .extend_stored(more)
        .expect_err("a record that does not fit is refused");
    assert_eq!(held.records(), &records[..], "{game}: records changed");
    assert_eq!(held.cursor(), cursor, "{game}: cursor changed");
    assert_eq!(held.state_json(cursor), state, "{game}: state changed");
    err
}

#[test]
fn p5_a_stored_record_that_does_not_fit_the_battle_held_is_refused_in_words_and_nothing_changes() {
    for game in GAMES {
        let b = played(game);
        let split = 30;
        let mut held = games::load_battle(stored(&*b, split)).unwrap();

        // Its chain does not link to the head's: bytes changed.
        let mut more = after(&*b, split);
        more.records[1] = more.records[1].edited(|f| f.events.push(0));
        let err = refused(game, more, &mut *held);
        assert!(
            matches!(&err, LoadError::Corrupt { entry, why } if *entry == split as u64 + 1 && why.contains("does not link")),
            "{game}: {err}"
        );

        // A record missing before it (the store read from the wrong place).
        let mut more = after(&*b, split);
        more.records.remove(0);
        more.cursor = Some(split as u64);
        let err = refused(game, more, &mut *held);
        assert!(
            matches!(&err, LoadError::Corrupt { entry, .. } if *entry == split as u64),
            "{game}: {err}"
        );

        // Its parent does not exist before it.
        let mut more = after(&*b, split);
        more.records[0].parent = Some(split as u64 + 5);
        let err = refused(game, more, &mut *held);
        assert!(
            err.to_string().contains("its parent comes after it"),
            "{game}: {err}"
        );

        // A rules version this build does not know.
        let mut more = after(&*b, split);
        more.records[0].rules_version = 9_999;
        let err = refused(game, more, &mut *held);
        assert!(
            err.to_string().contains("rules version 9999"),
            "{game}: {err}"
        );

        // Another battle: another seed.
        let mut more = after(&*b, split);
        more.meta.seed ^= 1;
        let err = refused(game, more, &mut *held);
        assert!(
            err.to_string().contains("not the one held"),
            "{game}: {err}"
        );

        // Fewer branches than held, and a cursor past the log.
        let mut more = after(&*b, split);
        more.branches.clear();
        let err = refused(game, more, &mut *held);
        assert!(err.to_string().contains("fewer than"), "{game}: {err}");
        let mut more = after(&*b, split);
        more.cursor = Some(b.records().len() as u64 + 3);
        let err = refused(game, more, &mut *held);
        assert!(err.to_string().contains("past the log"), "{game}: {err}");

        // After every refusal the right records still fit.
        held.extend_stored(after(&*b, split)).unwrap();
        let whole = games::load_battle(stored(&*b, b.records().len())).unwrap();
        assert_same(game, split, &*held, &*whole);
    }
}
