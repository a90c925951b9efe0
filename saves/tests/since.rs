//! Reading a battle after the head held in memory (issue 31 P5,
//! `saves/src/since.rs`): what a second process holding a battle reads when
//! another writes it, on both backends (`both!`: `<name>::on_sqlite` and
//! `<name>::on_postgres`, the PostgreSQL half on `XENOLOG_TEST_PG`).
//! Each test's reader is a read-only open, as a club server's is.

#[path = "support/pg.rs"]
mod pg;
#[path = "support/race.rs"]
mod race;
#[path = "support/store.rs"]
#[macro_use]
mod store;

use xenolog_engine::Battle;
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError};

use race::{long_race, new_endless_race, play_n};
use store::{Kind, Store};

/// A second, read-only open of the store's campaign (a club server's reader).
fn reader(s: &Store) -> Campaign {
    match &s.kind {
        Kind::Sqlite { path, .. } => Campaign::open_read_only(path).unwrap(),
        Kind::Postgres { url, schema } => Campaign::open_postgres_read_only(url, schema).unwrap(),
    }
}

/// `got`, extended, is the battle as a whole load reads it now.
fn assert_as_loaded(r: &Campaign, id: BattleId, got: &dyn Battle) {
    let whole = r.load_battle(id).unwrap();
    assert_eq!(got.records(), whole.records(), "records");
    assert_eq!(got.branches(), whole.branches(), "branches");
    assert_eq!(got.cursor(), whole.cursor(), "cursor");
    assert_eq!(got.current_branch(), whole.current_branch(), "branch");
    assert_eq!(
        got.state_json(got.cursor()),
        whole.state_json(whole.cursor()),
        "the state at the cursor"
    );
    assert_eq!(got.legal(), whole.legal(), "the legal commands");
}

both! {
    fn p5_a_battle_held_reads_only_the_entries_after_its_head_from_the_tail(s) {
        let id = new_endless_race(s.c(), 3);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 10);
        let r = reader(s);
        let mut held = r.load_battle(id).unwrap();
        // Nothing new: nothing read, nothing changed.
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 0);
        assert_eq!(held.records().len(), 10);
        play_n(s.c(), id, &mut *w, 5);
        let more = r.read_battle_after(id, &*held).unwrap();
        assert_eq!(more.records, w.records()[10..].to_vec(), "the five after the head");
        assert_eq!(more.cursor, Some(14));
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 5);
        assert_as_loaded(&r, id, &*held);
        assert!(held.verify().ok(), "{}", held.verify());
    }
}

both! {
    fn p5_a_battle_held_inside_a_sealed_block_reads_the_rest_of_the_block_and_the_tail(s) {
        // 1,020 entries, all in the tail; then 10 more: the 1,024th seals
        // entries 0..1023 in a block and the last six stay in the tail.
        let id = s
            .c()
            .insert_battle_bulk(&long_race(1_020), "Long", DiceMode::Rolled)
            .unwrap();
        let r = reader(s);
        let mut held = r.load_battle(id).unwrap();
        assert_eq!(held.records().len(), 1_020);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 10);
        let raw = s.raw();
        let blocks: i64 = xenolog_saves::db::DbExt::one(
            &*raw,
            "SELECT COUNT(*) FROM entry_blocks WHERE battle = ?1",
            &[&id],
        )
        .unwrap();
        assert_eq!(blocks, 1, "the first 1,024 entries are sealed");
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 10);
        assert_eq!(held.records(), w.records());
        assert_as_loaded(&r, id, &*held);
        // Held at the block's last entry exactly, and behind by a block.
        let more = r.read_battle_after(id, &*held).unwrap();
        assert!(more.records.is_empty());
        play_n(s.c(), id, &mut *w, 1_030);
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 1_030);
        assert_as_loaded(&r, id, &*held);
    }
}

both! {
    fn p5_a_battle_held_reads_a_new_branch_a_renamed_one_and_the_position(s) {
        let id = new_endless_race(s.c(), 4);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 8);
        let r = reader(s);
        let mut held = r.load_battle(id).unwrap();
        // The writer takes back three and plays another line, then renames
        // the main line.
        w.undo(3);
        s.c().save_position(id, &*w).unwrap();
        let legal = w.legal();
        let other = legal
            .iter()
            .find(|c| {
                let p = w.prepare_json(c.actor, &c.command, None).unwrap();
                matches!(p.kind, xenolog_engine::PendingKind::New { .. })
            })
            .unwrap()
            .clone();
        s.c().play(id, &mut *w, other.actor, &other.command, None).unwrap();
        play_n(s.c(), id, &mut *w, 2);
        w.rename_branch(0, "First try").unwrap();
        s.c().save_position(id, &*w).unwrap();
        assert_eq!(w.branches().len(), 2);
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 3);
        assert_eq!(held.branches(), w.branches());
        assert_eq!(held.branches()[0].name, "First try");
        assert_eq!(held.current_branch(), 1);
        assert_as_loaded(&r, id, &*held);
        // A take-back alone (no entry): the cursor is read.
        w.undo(2);
        s.c().save_position(id, &*w).unwrap();
        assert_eq!(r.extend_battle(id, &mut *held).unwrap(), 0);
        assert_eq!(held.cursor(), w.cursor());
        assert_as_loaded(&r, id, &*held);
    }
}

both! {
    fn p5_a_battle_held_further_than_the_store_is_refused_stale_naming_battle_and_entry(s) {
        let id = new_endless_race(s.c(), 5);
        let mut w = s.c().load_battle(id).unwrap();
        play_n(s.c(), id, &mut *w, 4);
        let r = reader(s);
        // Held with an entry the store never had (played in memory only).
        let mut held = r.load_battle(id).unwrap();
        let c = held.legal()[0].clone();
        let p = held.prepare_json(c.actor, &c.command, None).unwrap();
        held.commit(p).unwrap();
        let err = r.extend_battle(id, &mut *held).unwrap_err();
        assert!(matches!(err, SaveError::Stale { battle, .. } if battle == id), "{err}");
        let words = err.to_string();
        assert!(words.contains(&format!("battle {id}")), "{words}");
        assert!(words.contains("entry 4"), "{words}");
        assert_eq!(held.records().len(), 5, "nothing changed");
        // Held with another entry where the store has one: refused too.
        play_n(s.c(), id, &mut *w, 3);
        let mut mine = r.load_battle(id).unwrap();
        // Moved in memory only: the stored cursor is read back.
        mine.undo(1);
        assert_eq!(r.extend_battle(id, &mut *mine).unwrap(), 0);
        assert_eq!(mine.cursor(), w.cursor());
        let err = r.extend_battle(id, &mut *held).unwrap_err();
        assert!(err.to_string().contains("entry 4 as stored is not the one in memory"), "{err}");
        assert!(matches!(r.extend_battle(99, &mut *mine), Err(SaveError::NoSuchBattle(99))));
    }
}

/// Issue 31 P5, review5 S3: `read_battle_after` reads the battle's row, its
/// branches and its entries in **one** snapshot. Were the row read before
/// another connection's commit and the entries after it, the battle held
/// would be extended with an entry past its cursor: the stale cursor of
/// session 18. A reader extends its held copy over and over while another
/// connection appends 300 entries one by one; after every extend the held
/// endless race (always at its head) is at its last entry.
#[test]
fn p5_a_battle_held_and_extended_while_another_connection_appends_is_always_at_its_last_entry() {
    let Some((mut s, url, schema)) = Store::postgres_at("p5_snapshot") else {
        return;
    };
    let id = new_endless_race(s.c(), 11);
    let r = reader(&s);
    let mut held = r.load_battle(id).unwrap();
    let appender = std::thread::spawn(move || {
        let mut c = Campaign::open_postgres(&url, &schema).unwrap();
        let mut w = c.load_battle(id).unwrap();
        play_n(&mut c, id, &mut *w, 300);
    });
    let mut rounds = 0;
    loop {
        let done = appender.is_finished();
        r.extend_battle(id, &mut *held).unwrap();
        rounds += 1;
        let n = held.records().len();
        assert_eq!(
            held.cursor(),
            n.checked_sub(1).map(|c| c as u64),
            "round {rounds}: {n} entries held, the cursor read with them"
        );
        if done {
            break;
        }
    }
    appender.join().unwrap();
    assert_eq!(held.records().len(), 300);
    assert_as_loaded(&r, id, &*held);
}
