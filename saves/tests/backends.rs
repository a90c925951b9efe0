//! One suite, two backends (issue 31, `server/POSTGRES.md` §5, step P2): the
//! campaign store's own rules run the same on a campaign file (SQLite) and on
//! a campaign schema of a PostgreSQL database, through the same `saves` code.
//!
//! Each test is written once (`both!`) and runs as `<name>::on_sqlite` and
//! `<name>::on_postgres`. The PostgreSQL half runs when `XENOLOG_TEST_PG`
//! holds a connection string (`tests/pg/cluster.sh start` prints one); each
//! works in a schema of its own with a random name, dropped at the end.
//! Without it the half says so and passes, unless `XENOLOG_REQUIRE_PG` is
//! set (CI: `.ci/run`), where a missing server fails the test.

#[path = "support/pg.rs"]
mod pg;
#[path = "support/race.rs"]
mod race;
#[path = "support/store.rs"]
#[macro_use]
mod store;

use serde_json::json;
use xenolog_engine::campaign::{CampaignEvent, Status};
use xenolog_engine::fair::{self, Bytes32, SeatNonce};
use xenolog_engine::{Actor, Battle, PendingKind};
use xenolog_saves::db::pg::{Postgres, create_campaign_schema_at};
use xenolog_saves::db::{Db, DbExt};
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError, decide};
use xenolog_schema::battle_file::{read_battle_file, write_battle_file};

use pg::{drop_schema, random_schema, server};
use race::{long_race, new_endless_race, play_n, race_on};
use store::{Kind, Store};

/// The state at every entry and at the setup, as JSON.
fn states(b: &dyn Battle) -> Vec<serde_json::Value> {
    let mut out = vec![b.state_json(None)];
    for id in 0..b.records().len() as u64 {
        out.push(b.state_json(Some(id)));
    }
    out
}

both! {
    /// Played commands, an undo, a new branch and its name are stored and
    /// load back exactly after reopening; the battle verifies.
    fn play_undo_branch_and_reload(s) {
        let c = s.c();
        let id = new_endless_race(c, 7);
        let mut b = c.load_battle(id).unwrap();
        assert_eq!(play_n(c, id, &mut *b, 40), (0..40).collect::<Vec<_>>());
        let before = states(&*b);
        let c = s.reopen();
        let mut b = c.load_battle(id).unwrap();
        assert_eq!(states(&*b), before);
        assert_eq!(b.undo(3), 3);
        c.save_position(id, &*b).unwrap();
        let c = s.reopen();
        let mut b = c.load_battle(id).unwrap();
        assert_eq!(b.cursor(), Some(36), "the undo was saved");
        let recorded = b.children(Some(36))[0];
        let other = b
            .legal()
            .into_iter()
            .find(|l| {
                b.prepare_json(l.actor, &l.command, None)
                    .is_ok_and(|p| !matches!(p.kind, PendingKind::Redo { .. }))
            })
            .unwrap();
        let new = c.play(id, &mut *b, other.actor, &other.command, None).unwrap();
        assert_ne!(new, recorded);
        assert_eq!(b.current_branch(), 1);
        b.rename_branch(1, "Careful").unwrap();
        c.save_position(id, &*b).unwrap();
        let c = s.reopen();
        let back = c.load_battle(id).unwrap();
        assert_eq!(back.records(), b.records());
        assert_eq!(back.branches(), b.branches());
        assert_eq!(back.branches()[1].name, "Careful");
        assert_eq!((back.cursor(), back.current_branch()), (Some(new), 1));
        assert_eq!(back.head(0), Some(39), "the main line is kept whole");
        let sum = c.summary(id).unwrap();
        assert_eq!((sum.entries, sum.branches), (41, 2));
        assert!(c.verify_battle(id).unwrap().ok());
    }
}

fn races(c: &mut Campaign, n: usize) -> Vec<(BattleId, Box<dyn Battle>)> {
    (0..n)
        .map(|i| {
            let id = c
                .new_battle(
                    "race",
                    40 + i as u64,
                    &json!({ "target": 1_000_000 }),
                    &format!("Race {i}"),
                    DiceMode::Rolled,
                )
                .unwrap();
            (id, c.load_battle(id).unwrap())
        })
        .collect()
}

fn first_legal(b: &dyn Battle) -> (Actor, serde_json::Value) {
    let l = b.legal();
    (l[0].actor, l[0].command.clone())
}

// ---------------------------------------------------------------------------
// Group commit (`decide` + `Campaign::append_batch`, the club server's
// writer; until session 18 `tests/store/batch.rs`, SQLite only): many
// battles' entries in one transaction, each checked against the head it
// was decided on, the command id in the entries' transaction.

/// One entry for each battle, decided on its head, with command id `cmd_id`.
fn one_each(
    battles: &mut [(BattleId, Box<dyn Battle>)],
    cmd_id: &str,
) -> Vec<xenolog_saves::Decided> {
    battles
        .iter_mut()
        .map(|(id, b)| {
            let (actor, cmd) = first_legal(&**b);
            decide(*id, &mut **b, actor, &cmd, None, DiceMode::Rolled)
                .unwrap()
                .command_id(actor, cmd_id)
        })
        .collect()
}

both! {
    /// A batch writes many battles in one transaction; they load (after
    /// reopening) as decided, with their command ids.
    fn a_batch_writes_many_battles_in_one_transaction_and_they_load_as_decided(s) {
        let c = s.c();
        let mut battles = races(c, 3);
        for round in 0..4 {
            let batch = one_each(&mut battles, &format!("r{round}"));
            let results = c.append_batch(&batch).unwrap();
            assert!(results.iter().all(Result::is_ok), "{results:?}");
        }
        let c = s.reopen();
        for (id, b) in &battles {
            let stored = c.load_battle(*id).unwrap();
            assert_eq!(stored.records().len(), b.records().len());
            assert_eq!(stored.records(), b.records(), "battle {id}");
            assert_eq!(stored.cursor(), b.cursor());
            assert!(c.verify_battle(*id).unwrap().ok());
            let actor = b.records()[0].actor;
            assert_eq!(
                c.command_entries(*id, actor, "r0").unwrap(),
                Some(vec![0]),
                "the command id is recorded with its entries"
            );
            assert_eq!(c.command_entries(*id, actor, "never").unwrap(), None);
        }
    }
}

both! {
    /// A part decided on a head that moved on is refused `Stale` and the
    /// others are written; nothing of the refused part, not its command id.
    fn a_part_decided_on_a_moved_head_is_refused_stale_and_the_rest_is_written(s) {
        let c = s.c();
        let mut battles = races(c, 2);
        let (id0, id1) = (battles[0].0, battles[1].0);
        // Battle 0 moves on behind this copy's back.
        let mut other = c.load_battle(id0).unwrap();
        let (actor, cmd) = first_legal(&*other);
        c.play(id0, &mut *other, actor, &cmd, None).unwrap();
        let results = c.append_batch(&one_each(&mut battles, "x")).unwrap();
        assert!(
            matches!(&results[0], Err(SaveError::Stale { why, .. }) if why.contains("1 stored")),
            "{results:?}"
        );
        assert!(results[1].is_ok(), "{results:?}");
        let c = s.reopen();
        assert_eq!(c.load_battle(id0).unwrap().records().len(), 1);
        assert_eq!(c.load_battle(id1).unwrap().records().len(), 1);
        assert_eq!(c.command_entries(id0, actor, "x").unwrap(), None);
        let seat1 = battles[1].1.records()[0].actor;
        assert_eq!(c.command_entries(id1, seat1, "x").unwrap(), Some(vec![0]));
        for id in [id0, id1] {
            assert!(c.verify_battle(id).unwrap().ok());
        }
    }
}

both! {
    /// A command id the seat gave before, given again for another command:
    /// the typed `CommandIdUsed` (by the key's constraint on both
    /// backends), in words; nothing of that part is written, the other part
    /// of the batch is.
    fn a_command_id_given_again_is_refused_typed_and_the_rest_is_written(s) {
        let c = s.c();
        let mut battles = races(c, 2);
        let (id0, id1) = (battles[0].0, battles[1].0);
        assert!(c.append_batch(&one_each(&mut battles[1..], "x")).unwrap()[0].is_ok());
        let seat1 = battles[1].1.records()[0].actor;
        // Battle 1's next command, under the id seat 1's first one had.
        let (id, b) = &mut battles[1];
        let (a, cmd) = first_legal(&**b);
        let mut again = vec![
            decide(*id, &mut **b, a, &cmd, None, DiceMode::Rolled)
                .unwrap()
                .command_id(seat1, "x"),
        ];
        let fine = one_each(&mut battles[..1], "y");
        let a0 = battles[0].1.records()[0].actor;
        again.extend(fine);
        let results = c.append_batch(&again).unwrap();
        assert!(
            matches!(&results[0], Err(SaveError::CommandIdUsed { battle, seat, cmd_id })
                if *battle == id1 && *seat == seat1.0 && cmd_id == "x"),
            "{results:?}"
        );
        let words = results[0].as_ref().unwrap_err().to_string();
        assert!(words.contains("already gave the command id 'x'"), "{words}");
        assert!(!words.contains("UNIQUE") && !words.contains("duplicate key"), "{words}");
        assert!(results[1].is_ok(), "the other part is written: {results:?}");
        let c = s.reopen();
        assert_eq!(c.load_battle(id1).unwrap().records().len(), 1, "nothing of the refused part");
        assert_eq!(c.load_battle(id0).unwrap().records().len(), 1);
        assert_eq!(c.command_entries(id0, a0, "y").unwrap(), Some(vec![0]));
        for id in [id0, id1] {
            assert!(c.verify_battle(id).unwrap().ok());
        }
    }
}

both! {
    /// A command the rules refuse decides nothing: no entry in memory.
    fn a_refused_command_decides_nothing(s) {
        let mut battles = races(s.c(), 1);
        let (id, b) = &mut battles[0];
        let err = decide(*id, &mut **b, Actor(1), &json!("hold"), None, DiceMode::Rolled)
            .err()
            .expect("not seat 2's turn");
        assert!(matches!(err, SaveError::Play(_)), "{err}");
        assert!(b.records().is_empty());
        assert_eq!(s.c().load_battle(*id).unwrap().records().len(), 0);
    }
}

both! {
    /// A club battle's ending entry, written by a batch, reveals the held
    /// secret in its own transaction (not before).
    fn the_ending_entry_reveals_the_held_secret_in_its_transaction(s) {
        let c = s.c();
        let secret = [9u8; 32];
        let nonces = (0..2)
            .map(|s| SeatNonce { seat: Actor(s), nonce: [s + 1; 32], absent: false })
            .collect();
        let id = c
            .new_club_battle(
                "race",
                &json!({ "target": 4 }),
                "Short race",
                DiceMode::Rolled,
                false,
                &secret,
                nonces,
            )
            .unwrap();
        let mut b = c.load_battle(id).unwrap();
        let mut n = 0;
        while b.outcome().is_none() {
            assert!(n < 500, "the race ends");
            n += 1;
            let l = b.legal();
            let pick = l
                .iter()
                .find(|c| c.command == json!("hold") && n % 3 == 0)
                .unwrap_or(&l[0])
                .clone();
            let d = decide(id, &mut *b, pick.actor, &pick.command, None, DiceMode::Rolled)
                .unwrap();
            let ends = d.ends();
            assert_eq!(c.fair_secret(id).unwrap(), None, "not before the end");
            assert!(c.append_batch(&[d]).unwrap()[0].is_ok());
            assert_eq!(ends, b.outcome().is_some());
        }
        let c = s.reopen();
        assert_eq!(c.fair_secret(id).unwrap(), Some(secret));
        assert!(c.verify_battle(id).unwrap().ok());
    }
}

/// A roster battle of both rosters' fit models, played to its end by ending
/// cards only (everyone survives and earns experience).
fn roster_battle(c: &mut Campaign, seed: u64, unit: u32, daleks: u32) -> BattleId {
    pg::fought(c, seed, unit, daleks, false)
}

/// A model's name, experience earned and spent, status and skills.
type Sheet = (String, u32, u32, Status, Vec<(String, u32)>);

/// Every model's sheet.
fn sheets(c: &Campaign) -> Vec<Sheet> {
    c.campaign_state()
        .unwrap()
        .models
        .iter()
        .map(|m| {
            (
                m.name.clone(),
                m.earned,
                m.spent,
                m.status,
                m.skills.clone(),
            )
        })
        .collect()
}

both! {
    /// Rosters, their models, a roster battle fought and the campaign log
    /// it writes; the log and the standings read back the same after
    /// reopening, and the log's numbers go on from there.
    fn rosters_and_the_campaign_log(s) {
        let c = s.c();
        let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
        let daleks = c.add_roster("Skaro Vanguard", "daleks").unwrap();
        for name in ["Sgt Benton", "Pte Yates"] {
            c.add_model(unit, name, "rifleman").unwrap();
        }
        c.add_model(daleks, "Dalek Kaan", "dalek").unwrap();
        let battle = roster_battle(c, 21, unit, daleks);
        let log = c.campaign_log().unwrap();
        assert!(
            log.iter().any(|e| matches!(&e.event, CampaignEvent::BattleFought { battle: b, .. } if *b == battle)),
            "{log:?}"
        );
        let ids: Vec<u32> = log.iter().map(|e| e.id).collect();
        assert_eq!(ids, (1..=log.len() as u32).collect::<Vec<_>>());
        let before = sheets(c);
        assert!(before.iter().all(|m| m.1 >= 1), "everyone earned: {before:?}");
        let c = s.reopen();
        assert_eq!(c.campaign_log().unwrap(), log);
        assert_eq!(sheets(c), before);
        let n = c.add_model(unit, "Pte Harris", "rifleman").unwrap();
        let log2 = c.campaign_log().unwrap();
        assert_eq!(log2.len(), log.len() + 1);
        assert_eq!(log2.last().unwrap().id, log.len() as u32 + 1);
        assert!(sheets(c).iter().any(|m| m.0 == "Pte Harris"), "model {n}");
        assert!(c.verify_battle(battle).unwrap().ok());
    }
}

const SECRET: Bytes32 = [9; 32];

fn nonces() -> Vec<SeatNonce> {
    (0..2)
        .map(|s| SeatNonce {
            seat: Actor(s),
            nonce: [0x40 + s; 32],
            absent: false,
        })
        .collect()
}

fn club_race(c: &mut Campaign, target: u32) -> BattleId {
    c.new_club_battle(
        "race",
        &json!({ "target": target }),
        "Club race",
        DiceMode::Rolled,
        false,
        &SECRET,
        nonces(),
    )
    .unwrap()
}

// ---------------------------------------------------------------------------
// Club battles' fair seeds (migration 6; until session 18
// `tests/store/fair.rs`, SQLite only): stored with the battle, the secret
// held unrevealed until the end, exported and imported with the battle file
// (format 3), checked before an import is trusted.

both! {
    /// A club battle takes its seed from the secret and every nonce and
    /// keeps them; the fair seed's record is part of what the chain
    /// protects; the secret is neither shown nor exported while held.
    fn a_club_battle_takes_its_seed_from_the_secret_and_every_nonce_and_keeps_them(s) {
        let files = s.files();
        let c = s.c();
        let id = club_race(c, 30);
        let b = c.load_battle(id).unwrap();
        let seed = b.meta().fair.clone().expect("the fair seed is stored");
        assert_eq!(seed.commitment, fair::commitment(&SECRET));
        assert_eq!(seed.nonces, nonces());
        assert_eq!(b.meta().seed, fair::seed(&SECRET, &nonces()).unwrap());
        // The same battle without the fair seed has another chain.
        let p_id = c
            .new_battle("race", b.meta().seed, &json!({ "target": 30 }), "", DiceMode::Rolled)
            .unwrap();
        let mut plain = c.load_battle(p_id).unwrap();
        let mut b = b;
        let l = b.legal()[0].clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
        c.play(p_id, &mut *plain, l.actor, &l.command, None).unwrap();
        assert_eq!(b.records()[0].events(), plain.records()[0].events(), "same seed, same dice");
        assert_ne!(b.records()[0].chain, plain.records()[0].chain);
        let c = s.reopen();
        assert!(c.verify_battle(id).unwrap().ok());
        assert_eq!(c.load_battle(id).unwrap().meta().fair, Some(seed));
        assert_eq!(c.fair_secret(id).unwrap(), None);
        let file = files.path().join("club.xenolog-battle");
        c.export_battle(id, &file).unwrap();
        let f = read_battle_file(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!((f.secret, f.meta.fair.is_some()), (None, true));
    }
}

both! {
    /// The secret is refused while the battle runs (nothing changed),
    /// revealed once it is over, kept across reopening, and travels with
    /// the exported battle, where it checks out.
    fn the_secret_is_revealed_only_once_the_battle_is_over_and_then_travels_with_it(s) {
        let files = s.files();
        let c = s.c();
        let id = club_race(c, 12);
        let err = c.reveal_held_secret(id).unwrap_err();
        assert!(err.to_string().contains("is not over"), "{err}");
        assert_eq!(c.fair_secret(id).unwrap(), None, "refused, nothing changed");
        let b = race_on(c, id, None);
        assert_eq!(c.reveal_held_secret(id).unwrap(), SECRET);
        let c = s.reopen();
        assert_eq!(c.fair_secret(id).unwrap(), Some(SECRET));
        let file = files.path().join("club.xenolog-battle");
        c.export_battle(id, &file).unwrap();
        let f = read_battle_file(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(f.secret, Some(SECRET));
        let mut home = Campaign::create_in_memory("Home").unwrap();
        let new = home.import_battle(&file).unwrap();
        assert_eq!(home.fair_secret(new).unwrap(), Some(SECRET));
        assert!(home.verify_battle(new).unwrap().ok());
        let back = home.load_battle(new).unwrap();
        assert_eq!(back.records(), b.records());
        let seats: Vec<Actor> = back.seats().into_iter().map(|(a, _)| a).collect();
        let r = fair::check(
            back.meta().fair.as_ref().unwrap(),
            back.meta().seed,
            &seats,
            Some(&SECRET),
            &[(Actor(1), [0x41; 32])],
            back.records(),
        );
        assert!(r.ok() && r.seed_ok == Some(true), "{r:?}");
    }
}

both! {
    /// A battle file whose revealed secret does not match its commitment is
    /// not imported, and nothing is written.
    fn a_file_whose_secret_does_not_match_its_commitment_is_not_imported(s) {
        let files = s.files();
        let mut home = Campaign::create(&files.path().join("home.xenolog"), "Home").unwrap();
        let id = club_race(&mut home, 12);
        race_on(&mut home, id, None);
        home.reveal_held_secret(id).unwrap();
        let file = files.path().join("club.xenolog-battle");
        home.export_battle(id, &file).unwrap();
        let mut f = read_battle_file(&std::fs::read(&file).unwrap()).unwrap();
        f.secret.as_mut().unwrap()[0] ^= 1;
        std::fs::write(&file, write_battle_file(&f).unwrap()).unwrap();
        let c = s.c();
        let err = c.import_battle(&file).unwrap_err();
        assert!(matches!(err, SaveError::BadBattleFile { .. }), "{err}");
        assert!(
            err.to_string().contains("the revealed secret does not match the commitment"),
            "{err}"
        );
        assert!(s.reopen().battles().unwrap().is_empty(), "nothing was imported");
    }
}

both! {
    /// A club battle needs every seat's nonce (nothing written without);
    /// a secret that is not the committed one is refused; a battle without
    /// a fair seed has no secret to reveal.
    fn a_club_battle_needs_every_seats_nonce_and_a_wrong_secret_is_refused(s) {
        let c = s.c();
        let err = c
            .new_club_battle(
                "race",
                &json!({}),
                "",
                DiceMode::Rolled,
                false,
                &SECRET,
                nonces()[..1].to_vec(),
            )
            .unwrap_err();
        assert!(
            err.to_string().starts_with("every seat gives a nonce before a club battle starts"),
            "{err}"
        );
        assert!(c.battles().unwrap().is_empty(), "nothing was written");
        let id = club_race(c, 12);
        let err = c.reveal_secret(id, &[1; 32]).unwrap_err();
        assert!(err.to_string().contains("not the one the server committed to"), "{err}");
        let plain = c.new_battle("race", 1, &json!({}), "", DiceMode::Rolled).unwrap();
        let err = c.reveal_secret(plain, &SECRET).unwrap_err();
        assert!(err.to_string().contains("has no fair seed"), "{err}");
        assert_eq!(s.reopen().fair_secret(id).unwrap(), None);
    }
}

both! {
    /// Notes and bookmarks: written, edited, deleted, kept across reopening,
    /// never part of the game facts.
    fn notes_and_bookmarks(s) {
        let c = s.c();
        let id = new_endless_race(c, 7);
        let mut b = c.load_battle(id).unwrap();
        play_n(c, id, &mut *b, 6);
        let chain: Vec<_> = b.records().iter().map(|r| r.chain).collect();
        c.set_note(id, 2, "the turning point").unwrap();
        c.set_bookmark(id, 2, true).unwrap();
        c.set_bookmark(id, 4, true).unwrap();
        c.set_note(id, 5, "line of sight").unwrap();
        c.set_note(id, 2, "  the real turning point ").unwrap();
        let n = c.annotation(id, 2).unwrap().unwrap();
        assert_eq!((n.bookmark, n.text.as_str()), (true, "the real turning point"));
        assert!(c.remove_note(id, 5).unwrap());
        assert!(!c.remove_note(id, 5).unwrap());
        let e = c.set_note(id, 99, "x").unwrap_err();
        assert!(matches!(e, SaveError::NoSuchEntry { entry: 99, .. }), "{e}");
        let c = s.reopen();
        let got: Vec<(u64, bool, String)> = c
            .notes(id)
            .unwrap()
            .into_iter()
            .map(|n| (n.entry, n.bookmark, n.text))
            .collect();
        assert_eq!(
            got,
            vec![(2, true, "the real turning point".into()), (4, true, String::new())]
        );
        let b = c.load_battle(id).unwrap();
        assert_eq!(b.records().iter().map(|r| r.chain).collect::<Vec<_>>(), chain);
        assert!(b.verify().ok());
    }
}

both! {
    /// A battle of a few thousand entries (with its snapshots) stored whole,
    /// reloaded through the entries scan (streamed on PostgreSQL), equal to
    /// the one played in memory, verified, and played on after.
    fn a_long_battle_reloads_and_verifies_equal(s) {
        let n = 4_000;
        let session = long_race(n);
        let c = s.c();
        let id = c.insert_battle_bulk(&session, "Long", DiceMode::Rolled).unwrap();
        let c = s.reopen();
        let mut b = c.load_battle(id).unwrap();
        assert_eq!(b.records().len(), n);
        assert_eq!(b.records(), session.records());
        assert_eq!(b.state_json(None), session.state_json(None));
        assert_eq!(b.state_json(Some(n as u64 - 1)), session.state_json(Some(n as u64 - 1)));
        assert!(c.verify_battle(id).unwrap().ok());
        assert_eq!(c.summary(id).unwrap().entries, n as u64);
        play_n(c, id, &mut *b, 3);
        let c = s.reopen();
        assert_eq!(c.load_battle(id).unwrap().records().len(), n + 3);
    }
}

both! {
    /// A 1,000-entry battle exported from a campaign file imports exactly:
    /// the same records, verified, with its snapshots rebuilt and stored.
    fn a_1000_entry_battle_imports_exactly(s) {
        let files = s.files();
        let session = long_race(1_000);
        let mut source = Campaign::create(&files.path().join("home.xenolog"), "Home").unwrap();
        let from = source.insert_battle_bulk(&session, "Thousand", DiceMode::Rolled).unwrap();
        let file = files.path().join("thousand.xenolog-battle");
        source.export_battle(from, &file).unwrap();
        let c = s.c();
        let id = c.import_battle(&file).unwrap();
        let c = s.reopen();
        let b = c.load_battle(id).unwrap();
        assert_eq!(b.records(), session.records());
        assert!(c.verify_battle(id).unwrap().ok());
        let sum = c.summary(id).unwrap();
        assert_eq!((sum.entries, sum.title.as_str()), (1_000, "Thousand"));
        assert_eq!(sum.origin.as_deref(), Some("imported from thousand.xenolog-battle"));
        // A second import is a second battle with the next id.
        let again = c.import_battle(&file).unwrap();
        assert_eq!(again, id + 1);
    }
}

// ---------------------------------------------------------------------------
// What only PostgreSQL has: identifying, refusing and upgrading a schema.

#[test]
fn postgres_open_refuses_a_schema_that_is_not_a_campaign_or_not_there_and_changes_nothing() {
    let Some(url) = server() else { return };
    let schema = random_schema("foreign");
    let db = Postgres::connect(&url).unwrap();
    db.execute_batch(&format!(
        "CREATE SCHEMA {schema}; CREATE TABLE {schema}.invoices (n BIGINT)"
    ))
    .unwrap();
    let e = Campaign::open_postgres(&url, &schema).unwrap_err();
    assert!(matches!(e, SaveError::NotACampaign { .. }), "{e}");
    assert!(e.to_string().contains("not a Xenolog campaign"), "{e}");
    assert!(
        !e.to_string().contains("host="),
        "no connection string in words: {e}"
    );
    let tables: i64 = db
        .one(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?1",
            &[&schema],
        )
        .unwrap();
    assert_eq!(tables, 1, "nothing was made in it");
    let e = Campaign::create_postgres(&url, &schema, "Club").unwrap_err();
    assert!(matches!(e, SaveError::Exists { .. }), "{e}");
    drop_schema(&url, &schema);
    let e = Campaign::open_postgres(&url, &schema).unwrap_err();
    assert!(e.to_string().contains("has no schema of that name"), "{e}");
    let e = Campaign::open_postgres(&url, "Bad; DROP").unwrap_err();
    assert!(
        e.to_string().contains("cannot name a campaign's schema"),
        "{e}"
    );
}

#[test]
fn postgres_open_refuses_a_newer_campaign_schema_and_leaves_it_as_it_is() {
    let Some((mut s, url, schema)) = Store::postgres_at("newer") else {
        return;
    };
    s.c = None;
    let db = Postgres::connect(&url).unwrap();
    db.execute_batch(&format!("UPDATE {schema}.schema_version SET version = 99"))
        .unwrap();
    let e = Campaign::open_postgres(&url, &schema).unwrap_err();
    assert!(matches!(e, SaveError::NewerSchema { file: 99, .. }), "{e}");
    assert!(e.to_string().contains("newer Xenolog"), "{e}");
    let v: i64 = db
        .one(&format!("SELECT version FROM {schema}.schema_version"), &[])
        .unwrap();
    assert_eq!(v, 99);
}

#[test]
fn postgres_open_upgrades_an_older_campaign_schema_in_one_transaction() {
    let Some(url) = server() else { return };
    let schema = random_schema("older");
    let db = Postgres::connect(&url).unwrap();
    // A campaign made by a Xenolog of migration 6: no uid, no origins.
    create_campaign_schema_at(&db, &schema, 6, &|tx| {
        tx.execute(
            "INSERT INTO campaign (id, name, created) VALUES (1, 'Old club', 1)",
            &[],
        )
        .map(|_| ())
    })
    .unwrap();
    drop(db);
    let mut c = Campaign::open_postgres(&url, &schema).unwrap();
    assert_eq!(c.name().unwrap(), "Old club");
    assert_eq!(c.uid().unwrap().len(), 32, "migration 7 gave it a uid");
    assert_eq!(c.upgrade_backup(), None);
    let id = new_endless_race(&mut c, 3);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 5);
    c.add_roster("Wyvern Platoon", "unit").unwrap();
    drop(c);
    let db = Postgres::connect(&url).unwrap();
    let v: i64 = db
        .one(&format!("SELECT version FROM {schema}.schema_version"), &[])
        .unwrap();
    assert_eq!(v, i64::from(xenolog_schema::SCHEMA_VERSION));
    let c = Campaign::open_postgres(&url, &schema).unwrap();
    assert!(c.verify_battle(id).unwrap().ok());
    assert_eq!(c.campaign_log().unwrap().len(), 1);
    drop(c);
    drop_schema(&url, &schema);
}

/// The schema's sequence of `battles.id`: its last value (`None`: not used).
fn battle_ids_taken(db: &Postgres) -> Option<i64> {
    db.one(
        "SELECT pg_sequence_last_value(pg_get_serial_sequence('battles', 'id')::regclass)",
        &[],
    )
    .unwrap()
}

#[test]
fn postgres_identities_never_move_back_when_caught_up() {
    use xenolog_saves::db::pg::{catch_up_identities, use_schema};
    let Some((mut s, url, schema)) = Store::postgres_at("identities") else {
        return;
    };
    let c = s.c();
    let first = new_endless_race(c, 1);
    new_endless_race(c, 2);
    let other = Postgres::connect(&url).unwrap();
    use_schema(&other, &schema).unwrap();
    // Another connection takes three ids (inserts in flight, or rows
    // deleted since): the sequence runs past the table's largest id.
    for _ in 0..3 {
        other
            .one::<i64>(
                "SELECT nextval(pg_get_serial_sequence('battles', 'id')::regclass)",
                &[],
            )
            .unwrap();
    }
    assert_eq!(battle_ids_taken(&other), Some(first + 4));
    let catch_up = Postgres::connect(&url).unwrap();
    use_schema(&catch_up, &schema).unwrap();
    assert!(catch_up_identities(&catch_up).unwrap() >= 3);
    assert_eq!(
        battle_ids_taken(&other),
        Some(first + 4),
        "the sequence stays where it was, not back at the largest id"
    );
    assert_eq!(
        new_endless_race(s.c(), 3),
        first + 5,
        "no id handed out twice"
    );

    // An insert of another connection that has taken its id and not yet
    // committed: the catch-up waits for it (the table's lock), then the
    // sequence is past it.
    other.execute_batch("BEGIN").unwrap();
    let taken: i64 = other
        .one(
            "INSERT INTO campaign_log (at, event, origin, origin_id) \
             VALUES (1, '{}', 'elsewhere', 1) RETURNING id",
            &[],
        )
        .unwrap();
    let waiting = std::thread::spawn(move || catch_up_identities(&catch_up).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Still waiting for the insert's lock: not finished (it was timed, and
    // had to have taken 250 ms; a thread that starts late on a loaded
    // machine waits less, but has not finished either).
    assert!(!waiting.is_finished(), "the catch-up waits for the insert");
    other.execute_batch("COMMIT").unwrap();
    waiting.join().unwrap();
    let next: i64 = other
        .one(
            "INSERT INTO campaign_log (at, event, origin, origin_id) \
             VALUES (2, '{}', 'elsewhere', 2) RETURNING id",
            &[],
        )
        .unwrap();
    assert_eq!(next, taken + 1);
}

/// Cells of the wrong type read from PostgreSQL are refused in its words
/// (the column, its PostgreSQL type, what it holds, what was wanted), not in
/// `rusqlite`'s (`Invalid column type ...`); a failure that SQLite words as
/// "the file" or "the disk" is "the database" on PostgreSQL.
#[test]
fn postgres_errors_speak_of_the_database_not_a_file() {
    use xenolog_saves::db::pg::use_schema;
    let Some((mut s, url, schema)) = Store::postgres_at("words") else {
        return;
    };
    let db = Postgres::connect(&url).unwrap();
    let e = db.one::<i64>("SELECT CAST('x' AS TEXT)", &[]).unwrap_err();
    let words = e.to_string();
    assert!(
        words.contains("column 0") && words.contains("of PostgreSQL type text"),
        "{words}"
    );
    assert!(
        words.contains("holds text where an integer was wanted"),
        "{words}"
    );
    assert!(!words.contains("Invalid column type"), "{words}");
    let e = db.one::<u8>("SELECT 300", &[]).unwrap_err().to_string();
    assert!(
        e.contains("holds the integer 300 where an integer from 0 to 255 was wanted"),
        "{e}"
    );
    assert_eq!(
        db.one::<Option<u8>>("SELECT NULL::BIGINT", &[]).unwrap(),
        None
    );
    // A damaged cell of a campaign, read by the campaign code.
    let id = new_endless_race(s.c(), 4);
    use_schema(&db, &schema).unwrap();
    db.execute(
        "UPDATE battles SET rules_version = -5 WHERE id = ?1",
        &[&id],
    )
    .unwrap();
    let e = s.c().summary(id).unwrap_err().to_string();
    assert!(
        e.contains("column 4 (rules_version, of PostgreSQL type int8) holds the integer -5"),
        "{e}"
    );
    assert!(
        !e.contains("Invalid column type") && !e.contains("file"),
        "{e}"
    );
    // A write refused by the database: its words, not a file's.
    let ro = Postgres::connect(&url).unwrap();
    ro.read_only().unwrap();
    use_schema(&ro, &schema).unwrap();
    let e = ro.execute("DELETE FROM battles", &[]).unwrap_err();
    assert_eq!(e.code, Some(xenolog_saves::db::Code::ReadOnly));
    let words = SaveError::from(e).to_string();
    assert!(words.contains("the database takes no writes"), "{words}");
    assert!(
        !words.contains("file") && !words.contains("folder"),
        "{words}"
    );
    assert!(!words.contains("host=") && !words.contains(&url), "{words}");
}

/// The store's failure inside a campaign rule's.
fn saved(e: xenolog_saves::CampaignFail) -> SaveError {
    match e {
        xenolog_saves::CampaignFail::Save(e) => e,
        other => panic!("not a store failure: {other}"),
    }
}

/// `Campaign::open_postgres_read_only`: reads everything a writer's open
/// reads; every write is refused (`ReadOnly`) and nothing changes; the
/// session itself takes no writes; an older schema is not upgraded.
#[test]
fn postgres_read_only_open_refuses_every_write_and_changes_nothing() {
    let Some((mut s, url, schema)) = Store::postgres_at("readonly") else {
        return;
    };
    let files = s.files();
    let c = s.c();
    let id = new_endless_race(c, 7);
    let mut b = c.load_battle(id).unwrap();
    play_n(c, id, &mut *b, 12);
    c.set_note(id, 3, "the turning point").unwrap();
    let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
    let club = club_race(c, 1_000);
    // What the other writers bring: a battle file to import, another
    // copy's file to merge.
    let exported = files.path().join("race.xenolog-battle");
    c.export_battle(id, &exported).unwrap();
    let other = files.path().join("other.xenolog");
    drop(full_campaign(&other));
    let before = picture(c);
    let ro = Campaign::open_postgres_read_only(&url, &schema).unwrap();
    assert!(ro.is_read_only());
    assert_eq!(ro.postgres_schema(), Some(schema.as_str()));
    assert_eq!(picture(&ro), before, "a reader sees what the writer wrote");
    let mut ro = ro;
    let mut rb = ro.load_battle(id).unwrap();
    let l = rb.legal()[0].clone();
    let refused: Vec<SaveError> = vec![
        ro.play(id, &mut *rb, l.actor, &l.command, None)
            .unwrap_err(),
        ro.set_note(id, 4, "x").unwrap_err(),
        saved(ro.add_roster("Skaro Vanguard", "daleks").unwrap_err()),
        saved(ro.add_model(unit, "Pte Harris", "rifleman").unwrap_err()),
        ro.new_battle("race", 1, &json!({ "target": 5 }), "R", DiceMode::Rolled)
            .unwrap_err(),
    ];
    // review4 N7: every other writer too (group commit, import, merge,
    // take-back, branch rename, note removal, bookmark, campaign undo,
    // club battles and their secrets).
    let mut decided_on = ro.load_battle(id).unwrap();
    let batch = vec![
        decide(
            id,
            &mut *decided_on,
            l.actor,
            &l.command,
            None,
            DiceMode::Rolled,
        )
        .unwrap()
        .command_id(l.actor, "ro-1"),
    ];
    let mut taken_back = ro.load_battle(id).unwrap();
    assert_eq!(taken_back.undo(2), 2);
    let mut renamed = ro.load_battle(id).unwrap();
    renamed.rename_branch(0, "Renamed").unwrap();
    let refused_too: Vec<(&str, SaveError)> = vec![
        ("append_batch", ro.append_batch(&batch).unwrap_err()),
        ("import_battle", ro.import_battle(&exported).unwrap_err()),
        ("merge", ro.merge(&other).unwrap_err()),
        ("take-back", ro.save_position(id, &*taken_back).unwrap_err()),
        (
            "take-back for a command",
            ro.save_position_for_command(id, &*taken_back, None, l.actor, "ro-2", &[])
                .unwrap_err(),
        ),
        ("rename", ro.save_position(id, &*renamed).unwrap_err()),
        ("remove_note", ro.remove_note(id, 3).unwrap_err()),
        ("set_bookmark", ro.set_bookmark(id, 3, true).unwrap_err()),
        ("campaign_undo", saved(ro.campaign_undo().unwrap_err())),
        (
            "record_all",
            saved(
                ro.record_all(&[CampaignEvent::Undone { entry: 1 }])
                    .unwrap_err(),
            ),
        ),
        ("new_club_battle", {
            let e = ro.new_club_battle(
                "race",
                &json!({ "target": 5 }),
                "Club",
                DiceMode::Rolled,
                false,
                &[3; 32],
                nonces(),
            );
            e.unwrap_err()
        }),
        (
            "reveal_secret",
            ro.reveal_secret(club, &SECRET).unwrap_err(),
        ),
        (
            "reveal_held_secret",
            ro.reveal_held_secret(club).unwrap_err(),
        ),
    ];
    for (what, e) in &refused_too {
        assert!(matches!(e, SaveError::ReadOnly), "{what}: {e}");
    }
    for e in &refused {
        assert!(matches!(e, SaveError::ReadOnly), "{e}");
        assert!(e.to_string().contains("open read-only"), "{e}");
    }
    assert_eq!(rb.records().len(), 12, "the battle in memory is as it was");
    let mut into = Campaign::open_postgres_read_only(&url, &schema).unwrap();
    let e = xenolog_saves::copy_campaign(&ro, &mut into).unwrap_err();
    assert!(matches!(e, SaveError::ReadOnly), "{e}");
    drop((ro, into));
    let c = s.reopen();
    assert_eq!(picture(c), before, "nothing changed");

    // A schema of an older Xenolog is not upgraded by a reader.
    let old = random_schema("readonly_old");
    let db = Postgres::connect(&url).unwrap();
    create_campaign_schema_at(&db, &old, 6, &|tx| {
        tx.execute(
            "INSERT INTO campaign (id, name, created) VALUES (1, 'Old club', 1)",
            &[],
        )
        .map(|_| ())
    })
    .unwrap();
    let e = Campaign::open_postgres_read_only(&url, &old).unwrap_err();
    assert!(matches!(e, SaveError::OlderSchema { file: 6, .. }), "{e}");
    let v: i64 = db
        .one(&format!("SELECT version FROM {old}.schema_version"), &[])
        .unwrap();
    assert_eq!(v, 6, "left as it was");
    drop_schema(&url, &old);
    let e = Campaign::open_postgres_read_only(&url, &old).unwrap_err();
    assert!(matches!(e, SaveError::NotACampaign { .. }), "{e}");
}

/// The connection string `url` with an application name (to find the
/// campaign's backend in `pg_stat_activity`).
fn named(url: &str, name: &str) -> String {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let join = if url.contains('?') { '&' } else { '?' };
        format!("{url}{join}application_name={name}")
    } else {
        format!("{url} application_name={name}")
    }
}

/// End every backend of application `name`, and wait until each is gone
/// from `pg_stat_activity` (60 s at most: a condition, not a time); how
/// many there were.
fn terminate(url: &str, name: &str) -> i64 {
    let admin = Postgres::connect(url).unwrap();
    let pids: Vec<i64> = admin
        .query(
            "SELECT pid::bigint FROM pg_stat_activity WHERE application_name = ?1",
            &[&name],
        )
        .unwrap()
        .into_iter()
        .map(|r| match r[0] {
            xenolog_saves::db::Value::Integer(p) => p,
            ref other => panic!("{other:?}"),
        })
        .collect();
    for pid in &pids {
        let _: bool = admin
            .one("SELECT pg_terminate_backend(?1::int)", &[pid])
            .unwrap();
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for pid in &pids {
        loop {
            let left: i64 = admin
                .one(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?1",
                    &[pid],
                )
                .unwrap();
            if left == 0 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "backend {pid} of {name} still there 60 s after it was ended"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    pids.len() as i64
}

/// A campaign whose connection is lost (its backend terminated, as when the
/// server restarts) answers the next call `Unreachable` in words and is
/// connected again by the call after, which succeeds: the campaign object
/// stays usable. A transaction whose connection is lost is refused to its
/// end, and nothing of it is written.
#[test]
fn postgres_a_lost_connection_is_made_again_in_place() {
    use xenolog_saves::db::pg::use_schema;
    use xenolog_saves::db::{Begin, Code, begin};
    let Some(url) = server() else { return };
    let schema = random_schema("lost");
    let app = named(&url, &schema);
    let mut c = Campaign::create_postgres(&app, &schema, "Club").unwrap();
    let id = new_endless_race(&mut c, 9);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 3);
    assert_eq!(terminate(&url, &schema), 1);
    let l = b.legal()[0].clone();
    let e = c.play(id, &mut *b, l.actor, &l.command, None).unwrap_err();
    assert!(matches!(e, SaveError::Unreachable(_)), "{e}");
    assert!(e.to_string().contains("not reachable"), "{e}");
    assert!(!e.to_string().contains("host="), "{e}");
    assert_eq!(b.records().len(), 3, "the battle in memory is as it was");
    // The next call connects again, in the campaign's schema.
    c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    play_n(&mut c, id, &mut *b, 2);
    assert_eq!(c.name().unwrap(), "Club");
    drop(c);
    let c = Campaign::open_postgres(&url, &schema).unwrap();
    assert_eq!(c.load_battle(id).unwrap().records().len(), 6);
    assert!(c.verify_battle(id).unwrap().ok());
    drop(c);

    // Lost inside a transaction: refused to its end, nothing written.
    let db = Postgres::connect(&app).unwrap();
    use_schema(&db, &schema).unwrap();
    let put =
        "INSERT INTO campaign_log (at, event, origin, origin_id) VALUES (?1, '{}', 'lost', ?1)";
    let tx = begin(&db, Begin::Immediate).unwrap();
    tx.execute(put, &[&1i64]).unwrap();
    assert_eq!(terminate(&url, &schema), 1);
    let e = tx.execute(put, &[&2i64]).unwrap_err();
    assert_eq!(e.code, Some(Code::Lost), "{e}");
    let e = tx.execute(put, &[&3i64]).unwrap_err();
    assert_eq!(e.code, Some(Code::Lost), "{e}");
    assert!(
        e.to_string().contains("in the middle of a transaction"),
        "{e}"
    );
    assert!(tx.commit().is_err());
    let n: i64 = db
        .one(
            "SELECT COUNT(*) FROM campaign_log WHERE origin = 'lost'",
            &[],
        )
        .unwrap();
    assert_eq!(n, 0, "nothing of the lost transaction");
    assert!(!db.in_transaction());
    drop(db);

    // A read-only session is read-only again when made again.
    let ro = Postgres::connect(&app).unwrap();
    ro.read_only().unwrap();
    use_schema(&ro, &schema).unwrap();
    assert_eq!(terminate(&url, &schema), 1);
    let e = ro.execute(put, &[&4i64]).unwrap_err();
    assert_eq!(e.code, Some(Code::Lost), "{e}");
    let e = ro.execute(put, &[&5i64]).unwrap_err();
    assert_eq!(e.code, Some(Code::ReadOnly), "{e}");
    assert_eq!(
        ro.one::<i64>("SELECT COUNT(*) FROM battles", &[]).unwrap(),
        1
    );
    drop(ro);
    drop_schema(&url, &schema);
}

// ---------------------------------------------------------------------------
// Moving a campaign whole (POSTGRES.md §4): `copy_campaign`.

/// Everything a campaign shows, in words: its name and uid, each battle's
/// summary, records, verify report, notes and revealed secret, the
/// campaign log, the standings and the entries set aside.
fn picture(c: &Campaign) -> Vec<String> {
    let mut out = vec![
        c.name().unwrap(),
        c.uid().unwrap(),
        format!("{:?}", c.campaign_log().unwrap()),
        format!("{:?}", c.campaign_state().unwrap()),
        format!("{:?}", c.campaign_conflicts().unwrap()),
    ];
    for s in c.battles().unwrap() {
        let b = c.load_battle(s.id).unwrap();
        let report = c.verify_battle(s.id).unwrap();
        assert!(report.ok(), "battle {} verifies: {report:?}", s.id);
        out.push(format!("{s:?}"));
        out.push(format!("{:?}", b.records()));
        out.push(format!("{:?} {:?}", b.branches(), b.cursor()));
        out.push(format!("{report:?}"));
        out.push(format!("{:?}", c.notes(s.id).unwrap()));
        out.push(format!("{:?}", c.fair_secret(s.id).unwrap()));
    }
    out
}

/// A campaign file with finished and running battles, rosters and their
/// campaign log, notes, a finished fair battle (its secret revealed), a
/// running one (its secret held), and a command id of a group commit.
fn full_campaign(path: &std::path::Path) -> Campaign {
    let mut c = Campaign::create(path, "Hollow Farm").unwrap();
    let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
    let daleks = c.add_roster("Skaro Vanguard", "daleks").unwrap();
    for name in ["Sgt Benton", "Pte Yates"] {
        c.add_model(unit, name, "rifleman").unwrap();
    }
    c.add_model(daleks, "Dalek Kaan", "dalek").unwrap();
    roster_battle(&mut c, 21, unit, daleks);
    let race = new_endless_race(&mut c, 7);
    let mut b = c.load_battle(race).unwrap();
    play_n(&mut c, race, &mut *b, 150);
    b.undo(2);
    c.save_position(race, &*b).unwrap();
    c.set_note(race, 3, "the turning point").unwrap();
    c.set_bookmark(race, 5, true).unwrap();
    for (target, finish) in [(12, true), (1_000, false)] {
        let id = club_race(&mut c, target);
        let mut b = race_on(&mut c, id, if finish { None } else { Some(4) });
        if finish {
            c.reveal_held_secret(id).unwrap();
        }
        if b.outcome().is_none() {
            let (a, cmd) = first_legal(&*b);
            let d = decide(id, &mut *b, a, &cmd, None, DiceMode::Rolled)
                .unwrap()
                .command_id(a, "cmd-1");
            assert!(c.append_batch(&[d]).unwrap()[0].is_ok());
        }
    }
    c
}

both! {
    /// A campaign goes SQLite -> this backend -> SQLite with every row as it
    /// was: every battle verifies with the same report, the standings, the
    /// log, the notes and the secrets are the first ones; the copy plays on
    /// (the next battle's id follows the copied ones).
    fn copy_a_campaign_there_and_back(s) {
        let files = s.files();
        let first = full_campaign(&files.path().join("first.xenolog"));
        let want = picture(&first);
        let copied = xenolog_saves::copy_campaign(&first, s.c()).unwrap();
        assert!(copied.rows() > 200, "{copied:?}");
        assert!(copied.tables.iter().any(|(t, n)| t == "snapshots" && *n > 0), "{copied:?}");
        assert!(copied.tables.iter().any(|(t, n)| t == "club_commands" && *n == 1), "{copied:?}");
        let there = s.reopen();
        assert_eq!(picture(there), want, "there");
        let running = there
            .battles()
            .unwrap()
            .into_iter()
            .find(|b| b.title == "Club race" && b.status == "in progress")
            .unwrap()
            .id;
        let seats = [Actor(0), Actor(1)];
        assert!(
            seats.iter().any(|a| there.command_entries(running, *a, "cmd-1").unwrap().is_some()),
            "the command id came along"
        );
        let mut back = Campaign::create(&files.path().join("back.xenolog"), "").unwrap();
        xenolog_saves::copy_campaign(there, &mut back).unwrap();
        drop(back);
        let back = Campaign::open(&files.path().join("back.xenolog")).unwrap();
        assert_eq!(picture(&back), want, "back");
        // The copy goes on: ids and log numbers follow the copied ones.
        let there = s.c();
        let last = there.battles().unwrap().last().unwrap().id;
        assert_eq!(new_endless_race(there, 11), last + 1);
        let log = there.campaign_log().unwrap().len() as u32;
        let unit = there.campaign_state().unwrap().rosters[0].id;
        there.add_model(unit, "Pte Harris", "rifleman").unwrap();
        assert_eq!(there.campaign_log().unwrap().last().unwrap().id, log + 1);
    }
}

both! {
    /// A copy into a campaign that holds anything is refused in words, and
    /// nothing is written there.
    fn copy_into_a_campaign_that_is_not_empty_is_refused(s) {
        let files = s.files();
        let first = full_campaign(&files.path().join("first.xenolog"));
        let c = s.c();
        let mine = new_endless_race(c, 3);
        let before = picture(c);
        let e = xenolog_saves::copy_campaign(&first, c).unwrap_err();
        let words = e.to_string();
        assert!(words.contains("is not empty (its table battles holds 1 rows)"), "{words}");
        assert!(words.contains("nothing was written"), "{words}");
        let c = s.reopen();
        assert_eq!(picture(c), before);
        assert_eq!(c.battles().unwrap().len(), 1);
        assert_eq!(c.battles().unwrap()[0].id, mine);
    }
}

impl Store {
    /// Make the target refuse any note written into it (a failure in the
    /// middle of a copy: notes come after battles and entries).
    fn refuse_notes(&mut self) {
        self.c = None;
        match &self.kind {
            Kind::Sqlite { path, .. } => {
                let raw = rusqlite::Connection::open(path).unwrap();
                raw.execute_batch(
                    "CREATE TRIGGER no_notes BEFORE INSERT ON notes \
                     BEGIN SELECT RAISE(ABORT, 'no notes here'); END",
                )
                .unwrap();
            }
            Kind::Postgres { url, schema } => {
                let db = Postgres::connect(url).unwrap();
                db.execute_batch(&format!(
                    "ALTER TABLE {schema}.notes ADD CONSTRAINT no_notes CHECK (entry < 0)"
                ))
                .unwrap();
            }
        }
        self.reopen();
    }
}

both! {
    /// A copy that fails midway leaves the target as it was (one
    /// transaction): no battle, no entry, its own campaign row.
    fn a_copy_that_fails_midway_leaves_the_target_empty(s) {
        let files = s.files();
        let first = full_campaign(&files.path().join("first.xenolog"));
        s.refuse_notes();
        let c = s.c();
        let uid = c.uid().unwrap();
        let e = xenolog_saves::copy_campaign(&first, c).unwrap_err();
        let words = e.to_string();
        assert!(words.contains("copying table notes"), "{words}");
        assert!(words.contains("nothing was written"), "{words}");
        let c = s.reopen();
        assert_eq!((c.name().unwrap(), c.uid().unwrap()), ("Club".into(), uid));
        assert!(c.battles().unwrap().is_empty());
        assert!(c.campaign_log().unwrap().is_empty());
        // And it can be copied into once the failure is gone... not here:
        // the target still refuses notes, so it stays as it is.
        assert!(xenolog_saves::copy_campaign(&first, c).is_err());
        assert!(c.battles().unwrap().is_empty());
    }
}

impl Store {
    /// The same campaign opened a second time, read-only.
    fn open_read_only(&self) -> Campaign {
        match &self.kind {
            Kind::Sqlite { path, .. } => Campaign::open_read_only(path).unwrap(),
            Kind::Postgres { url, schema } => {
                Campaign::open_postgres_read_only(url, schema).unwrap()
            }
        }
    }
}

/// Every model's name, sorted (numbers may differ between merged copies).
fn model_names(c: &Campaign) -> Vec<String> {
    let mut names: Vec<String> = sheets(c).into_iter().map(|m| m.0).collect();
    names.sort();
    names
}

both! {
    /// A merge takes the other copy open on either backend (session 18): a
    /// campaign file merged into this backend's copy of it by its path, and
    /// this backend's copy merged into the file as an open campaign; each
    /// lands what the other has, both end with the same models, every
    /// battle verifies; the campaign's own store is refused as another copy.
    fn merge_with_a_copy_on_the_other_backend(s) {
        let files = s.files();
        let path = files.path().join("home.xenolog");
        let home = full_campaign(&path);
        xenolog_saves::copy_campaign(&home, s.c()).unwrap();
        drop(home);
        // Played apart: a recruit at home; a recruit and a new battle there.
        let mut home = Campaign::open(&path).unwrap();
        let unit = home.campaign_state().unwrap().rosters[0].id;
        home.add_model(unit, "Pte Harris", "rifleman").unwrap();
        let there = s.c();
        there.add_model(unit, "Cpl Bell", "rifleman").unwrap();
        let race = new_endless_race(there, 31);
        let mut b = there.load_battle(race).unwrap();
        play_n(there, race, &mut *b, 5);
        let battles = there.battles().unwrap().len();

        // The file into this backend's copy, by its path.
        let m = s.c().merge(&path).unwrap();
        assert_eq!((m.added, m.copied.len()), (1, 0), "{m:?}");
        assert!(m.conflicts.is_empty(), "{m:?}");
        // This backend's copy into the file, open.
        let m = home.merge(&*s.c()).unwrap();
        assert_eq!((m.added, m.copied.len()), (1, 1), "{m:?}");
        assert!(m.conflicts.is_empty(), "{m:?}");
        let there = s.reopen();
        assert_eq!(model_names(&home), model_names(there));
        assert!(model_names(there).contains(&"Pte Harris".to_owned()));
        assert!(model_names(there).contains(&"Cpl Bell".to_owned()));
        assert_eq!(there.battles().unwrap().len(), battles);
        assert_eq!(home.battles().unwrap().len(), battles);
        for c in [&home, &*there] {
            for b in c.battles().unwrap() {
                assert!(c.verify_battle(b.id).unwrap().ok(), "battle {}", b.id);
            }
        }
        let copied = home.battles().unwrap().last().unwrap().id;
        assert_eq!(home.load_battle(copied).unwrap().records().len(), 5);

        // Merged again, nothing more lands.
        let m = s.c().merge(&home).unwrap();
        assert_eq!((m.added, m.copied.len(), m.grafted), (0, 0, 0), "{m:?}");
        // Its own store is no other copy.
        let me = s.open_read_only();
        let e = s.c().merge(&me).unwrap_err().to_string();
        assert!(e.contains("this campaign's own"), "{e}");
        assert!(e.contains("nothing was merged"), "{e}");
    }
}

both! {
    /// `copy_campaign` while another connection plays the source (session
    /// 18): the copy is read from one snapshot. A writer appends group
    /// commits (one entry in each of three battles, command ids `b0`,
    /// `b1`...) before, during and after the copy of a reader's open; the
    /// copy holds the same whole number of batches in each battle, in
    /// order (a batch all or none), and every battle in it verifies.
    fn a_copy_made_while_the_source_is_written_is_one_snapshot(s) {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Arc, mpsc};
        use std::time::Instant;
        let c = s.c();
        // A battle long enough that the copy takes a while.
        c.insert_battle_bulk(&long_race(4_000), "Long", DiceMode::Rolled).unwrap();
        let ids: Vec<BattleId> = (0..3).map(|i| new_endless_race(c, 50 + i)).collect();
        let reader = s.open_read_only();
        let mut writer = s.c.take().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (first, started) = mpsc::channel();
        let stopping = stop.clone();
        let battles = ids.clone();
        let played = std::thread::spawn(move || {
            let mut bs: Vec<_> = battles
                .iter()
                .map(|id| (*id, writer.load_battle(*id).unwrap()))
                .collect();
            let mut at = Vec::new();
            while !stopping.load(Ordering::SeqCst) || at.len() < 2 {
                let n = at.len();
                let batch: Vec<_> = bs
                    .iter_mut()
                    .map(|(id, b)| {
                        let (a, cmd) = first_legal(&**b);
                        decide(*id, &mut **b, a, &cmd, None, DiceMode::Rolled)
                            .unwrap()
                            .command_id(a, &format!("b{n}"))
                    })
                    .collect();
                for r in writer.append_batch(&batch).unwrap() {
                    r.unwrap();
                }
                at.push(Instant::now());
                if n == 0 {
                    first.send(()).unwrap();
                }
            }
            (writer, at)
        });
        started.recv().unwrap();
        let files = s.files();
        let mut to = Campaign::create(&files.path().join("copy.xenolog"), "").unwrap();
        let t = Instant::now();
        xenolog_saves::copy_campaign(&reader, &mut to).unwrap();
        let (began, ended) = (t, Instant::now());
        stop.store(true, Ordering::SeqCst);
        let (writer, at) = played.join().unwrap();
        s.c = Some(writer);
        let during = at.iter().filter(|t| **t > began && **t < ended).count();
        eprintln!(
            "{} batches written, {during} of them while the copy ran ({:?})",
            at.len(),
            ended - began
        );
        let counts: Vec<usize> = ids
            .iter()
            .map(|id| to.load_battle(*id).unwrap().records().len())
            .collect();
        assert!(counts.iter().all(|n| *n == counts[0]), "a batch split: {counts:?}");
        assert!((1..=at.len()).contains(&counts[0]), "{counts:?} of {}", at.len());
        for id in &ids {
            let b = to.load_battle(*id).unwrap();
            for (n, r) in b.records().iter().enumerate() {
                assert_eq!(
                    to.command_entries(*id, r.actor, &format!("b{n}")).unwrap(),
                    Some(vec![n as u64]),
                    "battle {id} batch {n}"
                );
            }
            // Nothing of a later batch: not its command ids (another
            // table than the entries), not the battle's position.
            for n in counts[0]..at.len() {
                for seat in [Actor(0), Actor(1)] {
                    assert_eq!(
                        to.command_entries(*id, seat, &format!("b{n}")).unwrap(),
                        None,
                        "battle {id}: batch {n}'s command id without its entry"
                    );
                }
            }
            assert_eq!(b.cursor(), Some(counts[0] as u64 - 1), "battle {id}'s position");
            assert!(to.verify_battle(*id).unwrap().ok());
        }
        for b in to.battles().unwrap() {
            assert!(to.verify_battle(b.id).unwrap().ok(), "battle {}", b.id);
        }
        // The source holds every batch.
        let c = s.reopen();
        for id in &ids {
            assert_eq!(c.load_battle(*id).unwrap().records().len(), at.len());
        }
    }
}

#[test]
fn postgres_a_scan_streams_and_a_reader_using_the_connection_is_refused_in_words() {
    use xenolog_saves::db::{Conn, DbError};
    let Some(url) = server() else { return };
    let schema = random_schema("scan");
    let db = Postgres::connect(&url).unwrap();
    create_campaign_schema_at(
        &db,
        &schema,
        xenolog_schema::SCHEMA_VERSION as usize,
        &|_| Ok(()),
    )
    .unwrap();
    let conn = Conn::Postgres {
        db: Box::new(db),
        schema: schema.clone(),
    };
    conn.execute_batch("CREATE TABLE nums (n INTEGER NOT NULL)")
        .unwrap();
    conn.execute("INSERT INTO nums SELECT generate_series(1, 50000)", &[])
        .unwrap();
    let mut sum = 0i64;
    let mut inner = None;
    conn.scan("SELECT n FROM nums ORDER BY n", &[], |r| {
        sum += r.get::<i64>(0)?;
        if inner.is_none() {
            inner = Some(conn.one::<i64>("SELECT 1 + 1", &[]));
        }
        Ok::<(), DbError>(())
    })
    .unwrap();
    assert_eq!(sum, 50_000 * 50_001 / 2);
    let e = inner.unwrap().unwrap_err();
    assert!(e.to_string().contains("in the middle of reading"), "{e}");
    // The connection goes on once the scan is over.
    assert_eq!(conn.one::<i64>("SELECT 1 + 1", &[]).unwrap(), 2);
    drop(conn);
    drop_schema(&url, &schema);
}
