//! A battle's position written while another connection writes the battle
//! (issue 31 P5): `save_position` checks the battle as stored under the
//! battle's row lock (PostgreSQL: `FOR UPDATE`; SQLite: the `IMMEDIATE`
//! transaction's lock of the file), so a take-back racing another's append
//! is settled by the database and refused `Stale` in words; and what the
//! store says of itself on PostgreSQL names no file. On both backends
//! (`both!`; the PostgreSQL half on `XENOLOG_TEST_PG`).

#[path = "support/pg.rs"]
mod pg;
#[path = "support/race.rs"]
mod race;
#[path = "support/store.rs"]
#[macro_use]
mod store;

use std::time::Duration;

use xenolog_engine::PendingKind;
use xenolog_engine::campaign::CampaignEvent;
use xenolog_saves::{Campaign, SaveError, decide};
use xenolog_schema::DiceMode;
use xenolog_schema::codec::encode_entry;

use race::{new_endless_race, play_n};
use store::{Kind, Store};

/// A second writer of the store's campaign (another process's).
fn second(s: &Store) -> Campaign {
    match &s.kind {
        Kind::Sqlite { path, .. } => Campaign::open(path).unwrap(),
        Kind::Postgres { url, schema } => Campaign::open_postgres(url, schema).unwrap(),
    }
}

both! {
    fn p5_a_take_back_racing_another_connections_append_is_settled_by_the_database_and_refused_stale(s) {
        let id = new_endless_race(s.c(), 9);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 6);
        // Another connection appends entry 6 and holds its transaction
        // open, the battle's row locked as an append locks it.
        let next = {
            let c = w.legal()[0].clone();
            let p = w.prepare_json(c.actor, &c.command, None).unwrap();
            let PendingKind::New { record, .. } = &p.kind else {
                panic!("a new entry")
            };
            record.clone()
        };
        let raw = s.raw();
        let pg = matches!(s.kind, Kind::Postgres { .. });
        raw.execute_batch(if pg { "BEGIN" } else { "BEGIN IMMEDIATE" }).unwrap();
        if pg {
            raw.execute("SELECT id FROM battles WHERE id = ?1 FOR UPDATE", &[&id])
                .unwrap();
        }
        raw.execute(
            "INSERT INTO entries (battle, seq, record) VALUES (?1, ?2, ?3)",
            &[&id, &6i64, &encode_entry(6, &next).unwrap()],
        )
        .unwrap();
        raw.execute("UPDATE battles SET cursor = 6 WHERE id = ?1", &[&id])
            .unwrap();
        // Meanwhile this process takes back two entries (on SQLite the
        // store's own writer is let go first: a file has one writer open).
        s.c = None;
        let mut other = second(s);
        let mut mine = other.load_battle(id).unwrap();
        assert_eq!(mine.records().len(), 6, "the append is not committed yet");
        mine.undo(2);
        let racing = std::thread::spawn(move || {
            let r = other.save_position(id, &*mine);
            (r, other)
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!racing.is_finished(), "the take-back waits for the other writer");
        raw.execute_batch("COMMIT").unwrap();
        let (r, other) = racing.join().unwrap();
        let err = r.expect_err("the take-back is settled after the append: stale");
        assert!(matches!(err, SaveError::Stale { battle, .. } if battle == id), "{err}");
        let words = err.to_string();
        assert!(words.contains("6 entries in memory, 7 stored"), "{words}");
        assert!(!words.contains("file"), "{words}");
        // Nothing of the take-back was written: the cursor is the append's.
        let stored = other.load_battle(id).unwrap();
        assert_eq!(stored.records().len(), 7);
        assert_eq!(stored.cursor(), Some(6));
    }
}

both! {
    fn p5_a_log_entry_naming_a_missing_battle_is_reported_as_not_in_the_campaign_not_the_file(s) {
        let event = CampaignEvent::BattleFought {
            battle: 99,
            fighters: Vec::new(),
        };
        s.raw()
            .execute(
                "INSERT INTO campaign_log (id, at, event, origin, origin_id) VALUES (1, 0, ?1, '', 1)",
                &[&serde_json::to_string(&event).unwrap()],
            )
            .unwrap();
        let report = s.c().verify_campaign().unwrap();
        assert!(
            report
                .problems
                .iter()
                .any(|p| p == "campaign log entry 1 names battle 99, which is not in the campaign"),
            "{:?}",
            report.problems
        );
    }
}

both! {
    fn p5_m1_an_append_decided_before_another_connections_take_back_is_refused_stale_naming_both_positions(s) {
        let id = new_endless_race(s.c(), 9);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 10);
        assert_eq!(w.cursor(), Some(9));
        // Another process takes the battle back two entries and commits:
        // no entry, no branch, only the cursor moves (on SQLite this
        // store's writer is let go first: a file has one writer open).
        s.c = None;
        let mut other = second(s);
        let mut mine = other.load_battle(id).unwrap();
        mine.undo(2);
        other.save_position(id, &*mine).unwrap();
        drop(other);
        // This process has not heard of it: it decides at entry 9.
        let c = w.legal()[0].clone();
        let d = decide(id, &mut *w, c.actor, &c.command, None, DiceMode::Rolled).unwrap();
        let r = s.reopen().append_batch(&[d]).unwrap();
        let err = r[0].as_ref().expect_err("decided at entry 9, stored at 7: stale");
        assert!(matches!(err, SaveError::Stale { battle, .. } if *battle == id), "{err}");
        let words = err.to_string();
        assert!(words.contains("decided at entry 9, the stored position is entry 7"), "{words}");
        // Nothing of the append was written: the take-back stands.
        let stored = s.c().load_battle(id).unwrap();
        assert_eq!(stored.cursor(), Some(7));
        assert_eq!(stored.records().len(), 10);
    }
}

both! {
    fn p5_m1_two_take_backs_from_the_same_cursor_by_two_connections_the_second_is_refused_stale(s) {
        let id = new_endless_race(s.c(), 9);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 10);
        s.c = None;
        // Both processes hold the battle at entry 9.
        let mut a = second(s);
        let mut to7 = a.load_battle(id).unwrap();
        let mut to8 = a.load_battle(id).unwrap();
        let head = to7.cursor();
        assert_eq!(head, Some(9));
        to7.undo(2);
        to8.undo(1);
        a.save_position_from(id, &*to7, head).unwrap();
        drop(a);
        let mut b = second(s);
        let err = b
            .save_position_from(id, &*to8, head)
            .expect_err("moved from entry 9, stored at 7: stale");
        assert!(matches!(err, SaveError::Stale { battle, .. } if battle == id), "{err}");
        let words = err.to_string();
        assert!(words.contains("moved from entry 9, the stored position is entry 7"), "{words}");
        assert!(!words.contains("file"), "{words}");
        assert_eq!(b.load_battle(id).unwrap().cursor(), Some(7));
        // From the stored cursor the move is taken.
        let mut again = b.load_battle(id).unwrap();
        again.redo(1);
        b.save_position_from(id, &*again, Some(7)).unwrap();
        assert_eq!(b.load_battle(id).unwrap().cursor(), Some(8));
    }
}

/// Review5 NIT 5: on PostgreSQL the table of command ids is made with the
/// campaign, so a walk's position written with its command id costs one
/// round trip more than the position alone (the id's `INSERT`), not a
/// `CREATE TABLE IF NOT EXISTS` besides.
#[test]
fn p5_a_walk_with_its_command_id_on_postgres_costs_only_the_ids_insert_more_than_the_position() {
    let Some(mut s) = Store::postgres("p5_walk_trips") else {
        return;
    };
    let id = new_endless_race(s.c(), 9);
    let mut w = s.c().load_battle(id).unwrap();
    play_n(s.c(), id, &mut *w, 10);
    let c = s.c();
    let seat = w.legal()[0].actor;
    let mut back = |c: &mut Campaign, cmd: Option<&str>| {
        let from = w.cursor();
        w.undo(1);
        let before = c.round_trips().unwrap();
        match cmd {
            Some(cmd) => c
                .save_position_for_command(id, &*w, from, seat, cmd, &[])
                .unwrap(),
            None => c.save_position_from(id, &*w, from).unwrap(),
        }
        c.round_trips().unwrap() - before
    };
    // Each kind once first: its statements prepared on the connection.
    back(c, None);
    back(c, Some("warm"));
    let alone = back(c, None);
    let with_id = back(c, Some("walk"));
    assert_eq!(
        with_id,
        alone + 1,
        "{alone} round trips alone, {with_id} with the id"
    );
    assert_eq!(s.c().load_battle(id).unwrap().cursor(), Some(5));
}
