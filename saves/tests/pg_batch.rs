//! A batch on PostgreSQL in a few statements (issue 31 P5, `pgbatch.rs`):
//! whatever its size, a batch of one campaign is `BEGIN`, the lock, the
//! read, the write and `COMMIT`; stale parts and reused command ids are
//! left out before anything is written; a block the batch fills is sealed;
//! two connections locking the same battles in opposite orders never
//! deadlock; the committer writes many campaigns in one transaction and
//! answers `Unreachable` when its connection is lost, then connects again.
//! PostgreSQL only (the test cluster, `XENOLOG_TEST_PG`).

#[path = "support/pg.rs"]
mod pg;
#[path = "support/race.rs"]
#[allow(dead_code)]
mod race;
#[path = "support/store.rs"]
#[allow(unused_macros)]
mod store;

use xenolog_engine::{Actor, Battle};
use xenolog_saves::db::DbExt;
use xenolog_saves::db::pg::Postgres;
use xenolog_saves::{
    AppendNotify, BattleId, Campaign, Committer, Decided, DiceMode, Group, SaveError, decide,
};

use race::new_endless_race;
use store::{Kind, Store};

/// Battles with their ids, loaded.
type Battles = Vec<(BattleId, Box<dyn Battle>)>;

/// `n` endless races, each loaded.
fn races(c: &mut Campaign, n: usize, seed: u64) -> Battles {
    (0..n)
        .map(|i| {
            let id = new_endless_race(c, seed + i as u64);
            (id, c.load_battle(id).unwrap())
        })
        .collect()
}

/// The next command of battle `b` (the `k`th legal one, by a pattern)
/// decided in memory, with command id `cmd`.
fn next(id: BattleId, b: &mut dyn Battle, k: usize, cmd: &str) -> (Actor, Decided) {
    let legal = b.legal();
    let l = legal[(k * 5 + 1) % legal.len()].clone();
    let d = decide(id, b, l.actor, &l.command, None, DiceMode::Rolled).unwrap();
    (l.actor, d.command_id(l.actor, cmd))
}

/// `rounds` parts for every battle, round after round (each part of a
/// battle decided on the one before it), command ids `{tag}-{battle}-{k}`.
fn rounds(battles: &mut [(BattleId, Box<dyn Battle>)], rounds: usize, tag: &str) -> Vec<Decided> {
    rounds_with_seats(battles, rounds, tag).0
}

/// [`rounds`], and the seat of each part's command.
fn rounds_with_seats(
    battles: &mut [(BattleId, Box<dyn Battle>)],
    rounds: usize,
    tag: &str,
) -> (Vec<Decided>, Vec<Actor>) {
    let (mut out, mut seats) = (Vec::new(), Vec::new());
    for k in 0..rounds {
        for (id, b) in battles.iter_mut() {
            let (seat, d) = next(*id, &mut **b, k, &format!("{tag}-{id}-{k}"));
            out.push(d);
            seats.push(seat);
        }
    }
    (out, seats)
}

/// Write `batch`; every part is written.
fn all_written(c: &mut Campaign, batch: &[Decided]) {
    let results = c.append_batch(batch).unwrap();
    assert!(results.iter().all(Result::is_ok), "{results:?}");
}

/// Entries stored for each battle, read past the store's rules.
fn stored(s: &Store, ids: &[BattleId]) -> Vec<i64> {
    let raw = s.raw();
    ids.iter()
        .map(|id| {
            let rows: i64 = raw
                .one("SELECT COUNT(*) FROM entries WHERE battle = ?1", &[id])
                .unwrap();
            let blocks: i64 = raw
                .one("SELECT COUNT(*) FROM entry_blocks WHERE battle = ?1", &[id])
                .unwrap();
            rows + 1024 * blocks
        })
        .collect()
}

/// Each battle's entries are stored (counted past the store's rules), and
/// reopened it loads as `battles` hold it and verifies: the campaign.
fn stored_as_decided<'s>(s: &'s mut Store, battles: &Battles) -> &'s mut Campaign {
    let ids: Vec<BattleId> = battles.iter().map(|(id, _)| *id).collect();
    let want: Vec<i64> = battles
        .iter()
        .map(|(_, b)| b.records().len() as i64)
        .collect();
    assert_eq!(stored(s, &ids), want);
    let c = s.reopen();
    as_decided(c, battles);
    c
}

/// Each battle as stored equals `battles` in memory, and verifies.
fn as_decided(c: &Campaign, battles: &[(BattleId, Box<dyn Battle>)]) {
    for (id, b) in battles {
        let back = c.load_battle(*id).unwrap();
        assert_eq!(back.records().len(), b.records().len(), "battle {id}");
        assert_eq!(back.cursor(), b.cursor(), "battle {id}");
        assert_eq!(back.records(), b.records(), "battle {id}");
        assert!(c.verify_battle(*id).unwrap().ok(), "battle {id} verifies");
    }
}

#[test]
fn p5_a_batch_of_100_parts_over_10_battles_takes_5_round_trips_and_loads_as_decided() {
    let Some(mut s) = Store::postgres("p5_hundred") else {
        return;
    };
    let mut battles = races(s.c(), 10, 100);
    // Once for the statements to be prepared on this connection.
    let warm = rounds(&mut battles, 1, "warm");
    all_written(s.c(), &warm);

    let batch = rounds(&mut battles, 10, "run");
    assert_eq!(batch.len(), 100);
    let entries: usize = batch.iter().map(|d| d.entries().len()).sum();
    let before = s.c().round_trips().unwrap();
    let results = s.c().append_batch(&batch).unwrap();
    let trips = s.c().round_trips().unwrap() - before;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    // BEGIN, the lock, the read, the write, COMMIT: whatever the size.
    assert_eq!(
        trips, 5,
        "a batch of 100 parts ({entries} entries) over 10 battles"
    );

    let c = stored_as_decided(&mut s, &battles);
    // Every command id with its entries.
    for (id, _) in &battles {
        for k in 0..10 {
            let seat = c
                .command_entries(*id, Actor(0), &format!("run-{id}-{k}"))
                .unwrap()
                .or(c
                    .command_entries(*id, Actor(1), &format!("run-{id}-{k}"))
                    .unwrap());
            assert!(seat.is_some_and(|e| !e.is_empty()), "run-{id}-{k}");
        }
    }
}

/// On PostgreSQL by the read before any write (5 round trips); on SQLite
/// by the savepoint path, with the same outcomes.
#[test]
fn p5_a_batch_of_many_battles_leaves_out_a_stale_part_its_successor_and_a_reused_id_before_writing()
{
    stale_and_reused(&mut Store::sqlite());
    if let Some(mut s) = Store::postgres("p5_stale_reused") {
        stale_and_reused(&mut s);
    }
}

fn stale_and_reused(s: &mut Store) {
    let mut battles = races(s.c(), 8, 200);
    let (first, first_seats) = rounds_with_seats(&mut battles, 1, "one");
    all_written(s.c(), &first);
    let after_first: Vec<usize> = battles.iter().map(|(_, b)| b.records().len()).collect();

    // Battle 3 moves on through another connection (another process).
    let moved = battles[3].0;
    s.c = None;
    let mut other = match &s.kind {
        Kind::Sqlite { path, .. } => Campaign::open(path).unwrap(),
        Kind::Postgres { url, schema } => Campaign::open_postgres(url, schema).unwrap(),
    };
    let mut theirs = other.load_battle(moved).unwrap();
    let l = theirs.legal()[0].clone();
    other
        .play(moved, &mut *theirs, l.actor, &l.command, None)
        .unwrap();
    let moved_len = theirs.records().len();
    drop(other);
    s.reopen();
    // Battle 0 once more: the statements prepared on the new connection.
    let warm = rounds(&mut battles[..1], 1, "warm");
    all_written(s.c(), &warm);

    // Two rounds over every battle; battle 5's first part gives again the
    // id (and seat) its part of the first batch recorded.
    let (mut batch, _) = rounds_with_seats(&mut battles, 2, "two");
    let id5 = battles[5].0;
    let reused = format!("one-{id5}-0");
    let part = batch.remove(5).command_id(first_seats[5], &reused);
    batch.insert(5, part);

    let before = s.c().round_trips();
    let results = s.c().append_batch(&batch).unwrap();
    if let (Some(before), Some(after)) = (before, s.c().round_trips()) {
        assert_eq!(
            after - before,
            5,
            "the refusals found by the read, not by a failed statement"
        );
    }
    for (i, r) in results.iter().enumerate() {
        match (i % 8, i / 8, r) {
            // Battle 3: both parts stale: the first by its head, the second
            // because it was decided on the first (its own count of entries
            // may well match what the other connection wrote).
            (3, 0, Err(SaveError::Stale { battle, why })) => {
                assert_eq!(*battle, moved);
                assert!(
                    why.contains(&format!("decided after {} entries", after_first[3])),
                    "{why}"
                );
            }
            (3, 1, Err(SaveError::Stale { battle, why })) => {
                assert_eq!(*battle, moved);
                assert!(why.contains("same batch"), "{why}");
            }
            (5, 0, Err(SaveError::CommandIdUsed { cmd_id, .. })) => assert_eq!(cmd_id, &reused),
            // Decided on the part refused for its id: stale.
            (5, 1, Err(SaveError::Stale { battle, why })) => {
                assert_eq!(*battle, id5);
                assert!(why.contains("same batch"), "{why}");
            }
            (b, _, Ok(())) if b != 3 && b != 5 => {}
            other => panic!("part {i}: {other:?}"),
        }
    }
    // Nothing of the refused parts is stored; the others are, as decided.
    let c = s.reopen();
    for (k, (id, b)) in battles.iter().enumerate() {
        let back = c.load_battle(*id).unwrap();
        assert!(c.verify_battle(*id).unwrap().ok(), "battle {id}");
        match k {
            3 => assert_eq!(back.records().len(), moved_len),
            5 => assert_eq!(back.records().len(), after_first[5]),
            _ => assert_eq!(back.records(), b.records()),
        }
    }
}

#[test]
fn p5_a_batch_crossing_a_block_boundary_seals_the_block_in_its_transaction() {
    let Some(mut s) = Store::postgres("p5_block") else {
        return;
    };
    let mut battles = races(s.c(), 2, 300);
    // Parts until battle 0 holds 1,020 entries or more, in batches of 64.
    let mut k = 0;
    while battles[0].1.records().len() < 1020 {
        let mut batch = Vec::new();
        for _ in 0..64 {
            if battles[0].1.records().len() >= 1020 {
                break;
            }
            let (id, b) = &mut battles[0];
            batch.push(next(*id, &mut **b, k, &format!("a{k}")).1);
            k += 1;
        }
        all_written(s.c(), &batch);
    }
    let ids = [battles[0].0, battles[1].0];
    let raw = s.raw();
    let blocks = |raw: &dyn xenolog_saves::db::Db| -> i64 {
        raw.one(
            "SELECT COUNT(*) FROM entry_blocks WHERE battle = ?1",
            &[&ids[0]],
        )
        .unwrap()
    };
    assert_eq!(blocks(&*raw), 0, "not full yet");
    // One batch that takes battle 0 over entry 1,023 (and battle 1 along).
    let mut batch = Vec::new();
    for _ in 0..8 {
        for (id, b) in battles.iter_mut() {
            batch.push(next(*id, &mut **b, k, &format!("b{k}")).1);
            k += 1;
        }
    }
    assert!(battles[0].1.records().len() > 1024);
    all_written(s.c(), &batch);
    assert_eq!(blocks(&*raw), 1, "the block the batch filled is sealed");
    let tail: i64 = raw
        .one("SELECT MIN(seq) FROM entries WHERE battle = ?1", &[&ids[0]])
        .unwrap();
    assert_eq!(tail, 1024, "the tail starts after the block");
    stored_as_decided(&mut s, &battles);
}

/// Two connections write batches over the same battles in opposite
/// orders, both on the savepoint path (review5 S4: the few-statement path
/// locks a whole set in one statement, so opposite orders there could
/// hardly deadlock; the fallback used to lock part by part in the batch's
/// order, and a deadlock there is answered as a part's `Conflict`). The
/// few-statement write is made to fail by a trigger of the test's schema
/// (it refuses an `UPDATE` of `battles` made by a statement that starts
/// `WITH e0 AS`, the few-statement write), so every batch falls back. With
/// the fallback's battles locked in id order first no part is ever refused
/// but `Stale`: a deadlock PostgreSQL broke would be a part's `Conflict`,
/// counted as returned (not read from `pg_stat_database`, which each
/// backend flushes late). Which side loses a race is the machine's timing,
/// never the verdict: each side goes on, reading again, until it has
/// written its parts.
#[test]
fn s4_two_connections_falling_back_over_the_same_battles_in_opposite_orders_never_deadlock() {
    let Some((s, url, schema)) = Store::postgres_at("s4_opposite") else {
        return;
    };
    let mut s = s;
    let ids: Vec<BattleId> = races(s.c(), 10, 400).iter().map(|(id, _)| *id).collect();
    refuse_the_few_statement_write(&s, &schema);
    const PARTS: usize = 300;
    let run = |reverse: bool, tag: &'static str| {
        let (url, schema, ids) = (url.clone(), schema.clone(), ids.clone());
        std::thread::spawn(move || {
            let mut c = Campaign::open_postgres(&url, &schema).unwrap();
            let mut order = ids.clone();
            if reverse {
                order.reverse();
            }
            let (mut written, mut stale, mut round) = (0, 0, 0);
            let mut refused = Vec::new();
            while written < PARTS {
                assert!(
                    round < 3_000,
                    "{tag}: {written} parts written in {round} rounds"
                );
                round += 1;
                let mut battles: Vec<(BattleId, Box<dyn Battle>)> = order
                    .iter()
                    .map(|id| (*id, c.load_battle(*id).unwrap()))
                    .collect();
                let batch = rounds(&mut battles, 2, &format!("{tag}{round}"));
                for r in c.append_batch(&batch).unwrap() {
                    match r {
                        Ok(()) => written += 1,
                        Err(SaveError::Stale { .. }) => stale += 1,
                        Err(e) => refused.push(format!("round {round}: {e}")),
                    }
                }
            }
            (written, stale, refused)
        })
    };
    let a = run(false, "a");
    let b = run(true, "b");
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    assert!(
        a.2.is_empty() && b.2.is_empty(),
        "no part refused but stale (a deadlock is a part's Conflict): {:?} {:?}",
        a.2,
        b.2
    );
    let c = s.reopen();
    let mut total = 0;
    for id in &ids {
        assert!(c.verify_battle(*id).unwrap().ok());
        total += c.load_battle(*id).unwrap().records().len();
    }
    assert!(total >= a.0 + b.0, "every part written is stored");
}

/// A trigger of `schema` refuses an `UPDATE` of `battles` made by a
/// statement that starts `WITH e0 AS` (the few-statement write, of one
/// campaign or of many), so that
/// its batches fall back to the savepoint path.
fn refuse_the_few_statement_write(s: &Store, schema: &str) {
    s.raw()
        .execute_batch(&format!(
            "CREATE FUNCTION {schema}.no_few() RETURNS trigger LANGUAGE plpgsql AS $$ \
             BEGIN IF current_query() ~ '^WITH e[0-9]* AS' THEN \
               RAISE EXCEPTION 'the test refuses the few-statement write'; END IF; \
             RETURN NULL; END $$; \
             CREATE TRIGGER no_few BEFORE UPDATE ON {schema}.battles \
               FOR EACH STATEMENT EXECUTE FUNCTION {schema}.no_few();"
        ))
        .unwrap();
}

/// A campaign's share of a commit that notifies nothing.
fn quiet<'a>(schema: &'a str, batch: &'a [Decided]) -> Group<'a> {
    Group {
        schema,
        batch,
        notify: None,
    }
}

/// A campaign schema made for the committer tests, with its battles.
fn campaign(test: &str, n: usize, seed: u64) -> Option<(Store, String, String, Battles)> {
    let (mut s, url, schema) = Store::postgres_at(test)?;
    let battles = races(s.c(), n, seed);
    Some((s, url, schema, battles))
}

#[test]
fn p5_the_committer_writes_many_campaigns_in_one_transaction_and_notifies_each_part_at_commit() {
    let Some((mut s1, url, schema1, mut b1)) = campaign("p5_commit_a", 4, 500) else {
        return;
    };
    let Some((mut s2, _, schema2, mut b2)) = campaign("p5_commit_b", 3, 600) else {
        return;
    };
    let Some((mut s3, _, schema3, mut b3)) = campaign("p5_commit_c", 2, 700) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    let mut listen = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    listen.batch_execute("LISTEN p5_test").unwrap();

    let warm1 = rounds(&mut b1, 1, "w");
    let warm2 = rounds(&mut b2, 1, "w");
    let n1 = AppendNotify {
        channel: "p5_test",
        prefix: "1:",
    };
    let n2 = AppendNotify {
        channel: "p5_test",
        prefix: "2:",
    };
    let groups = [
        Group {
            schema: &schema2,
            batch: &warm2,
            notify: Some(n2),
        },
        Group {
            schema: &schema1,
            batch: &warm1,
            notify: Some(n1),
        },
    ];
    let out = committer.commit(&groups).unwrap();
    assert_eq!(out.len(), 2);
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    let mut heard: Vec<String> = Vec::new();
    // Each part's `C:B:SEQ` comes after the part itself carried (session
    // 20, `e1:C:B:SEQ:BODY`): counted apart.
    let mut carried = 0;
    {
        let mut n = listen.notifications();
        let mut it = n.timeout_iter(std::time::Duration::from_secs(30));
        while let Ok(Some(m)) = postgres::fallible_iterator::FallibleIterator::next(&mut it) {
            if m.payload().starts_with(xenolog_saves::Carried::TAG) {
                carried += 1;
                continue;
            }
            heard.push(m.payload().to_owned());
            if heard.len() == 7 {
                break;
            }
        }
    }
    let mut want: Vec<String> = warm1
        .iter()
        .map(|d| format!("1:{}:{}", d.battle(), d.entries().last().unwrap()))
        .chain(
            warm2
                .iter()
                .map(|d| format!("2:{}:{}", d.battle(), d.entries().last().unwrap())),
        )
        .collect();
    heard.sort();
    want.sort();
    assert_eq!(heard, want, "one notification a part, after the commit");
    assert_eq!(carried, want.len(), "each part carried before it");

    // A bigger commit: 2 campaigns, 5 rounds each, one transaction.
    let p1 = rounds(&mut b1, 5, "r");
    let p2 = rounds(&mut b2, 5, "r");
    let before = committer.round_trips();
    let out = committer
        .commit(&[quiet(&schema1, &p1), quiet(&schema2, &p2)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    assert_eq!(
        committer.round_trips() - before,
        3,
        "session 23: BEGIN, every campaign's locks and reads in one round; the writes \
         without notifications prepared together in one (session 22: only what a group has \
         is in its write's text, so that write is a statement of its own); every write and \
         COMMIT in one"
    );
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);
    // Again: every statement prepared, the locks' too (planned once).
    let p1 = rounds(&mut b1, 2, "q");
    let p2 = rounds(&mut b2, 2, "q");
    let before = committer.round_trips();
    let out = committer
        .commit(&[quiet(&schema1, &p1), quiet(&schema2, &p2)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    assert_eq!(
        committer.round_trips() - before,
        2,
        "session 23: BEGIN, every campaign's locks and reads in one round; every write and \
         COMMIT in another (main's committer: 3 + 2 a campaign, 7)"
    );
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);

    // Three campaigns: one lock script still (issue 31, session 20
    // pgspeed: a commit's locks do not grow with its campaigns).
    let p1 = rounds(&mut b1, 2, "t");
    let p2 = rounds(&mut b2, 3, "t");
    let p3 = rounds(&mut b3, 4, "t");
    let before = committer.round_trips();
    let out = committer
        .commit(&[
            quiet(&schema3, &p3),
            quiet(&schema1, &p1),
            quiet(&schema2, &p2),
        ])
        .unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(out[0].len(), p3.len(), "each part answered, group by group");
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    assert_eq!(
        committer.round_trips() - before,
        2 + 2,
        "two rounds whatever the campaigns, and the third's lock and read prepared in a \
         round before the first, its write in one before the second (its first commit here)"
    );
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);
    as_decided(s3.reopen(), &b3);

    // A schema name that cannot be one is refused whole, nothing written.
    let p1 = rounds(&mut b1, 1, "x");
    let e = committer.commit(&[quiet("no; DROP", &p1)]).unwrap_err();
    assert!(
        e.to_string().contains("cannot name a campaign's schema"),
        "{e}"
    );
}

/// Issue 31 (session 20, pgspeed): a commit of several campaigns, their
/// locks taken in one script, still makes each campaign's refusals its
/// own: a reused command id and the part decided on it are left out
/// before anything is written, the other parts of both campaigns written;
/// and when one campaign's write fails, every campaign of the commit is
/// written again part by part (the savepoint path).
#[test]
fn p5_a_commit_of_many_campaigns_leaves_out_each_ones_reused_id_and_falls_back_whole_when_its_write_fails()
 {
    let Some((mut s1, url, schema1, mut b1)) = campaign("p5_many_reused_a", 3, 800) else {
        return;
    };
    let Some((mut s2, _, schema2, mut b2)) = campaign("p5_many_reused_b", 2, 900) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    let (first, seats) = rounds_with_seats(&mut b1, 1, "one");
    let second = rounds(&mut b2, 1, "one");
    let out = committer
        .commit(&[quiet(&schema1, &first), quiet(&schema2, &second)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    let id1 = b1[1].0;
    let kept = b1[1].1.records().len();

    // Battle 1 of the first campaign: its next part gives again the id
    // (and seat) of its first part.
    let mut p1 = rounds(&mut b1, 2, "two");
    let reused = format!("one-{id1}-0");
    let part = p1.remove(1).command_id(seats[1], &reused);
    p1.insert(1, part);
    let p2 = rounds(&mut b2, 2, "two");
    let before = committer.round_trips();
    let out = committer
        .commit(&[quiet(&schema2, &p2), quiet(&schema1, &p1)])
        .unwrap();
    assert_eq!(
        committer.round_trips() - before,
        2,
        "the refusals found by the reads, not by a failed statement: the commit's two rounds"
    );
    assert!(out[0].iter().all(Result::is_ok), "{:?}", out[0]);
    for (i, r) in out[1].iter().enumerate() {
        match (i % 3, i / 3, r) {
            (1, 0, Err(SaveError::CommandIdUsed { cmd_id, .. })) => assert_eq!(cmd_id, &reused),
            (1, 1, Err(SaveError::Stale { battle, why })) => {
                assert_eq!(*battle, id1);
                assert!(why.contains("same batch"), "{why}");
            }
            (b, _, Ok(())) if b != 1 => {}
            other => panic!("part {i} of the first campaign: {other:?}"),
        }
    }
    as_decided(s2.reopen(), &b2);
    let c1 = s1.reopen();
    as_decided(c1, &b1[0..1]);
    as_decided(c1, &b1[2..3]);
    let back = c1.load_battle(id1).unwrap();
    assert_eq!(back.records().len(), kept, "nothing of the parts left out");
    b1[1].1 = back;

    // The second campaign's write refused (a trigger of its own): both
    // campaigns written again part by part, every part.
    refuse_the_few_statement_write(&s2, &schema2);
    let p1 = rounds(&mut b1, 2, "three");
    let p2 = rounds(&mut b2, 2, "three");
    let before = committer.round_trips();
    let out = committer
        .commit(&[quiet(&schema1, &p1), quiet(&schema2, &p2)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    assert_eq!((out[0].len(), out[1].len()), (p1.len(), p2.len()));
    assert!(
        committer.round_trips() - before > 7 + (p1.len() + p2.len()) as u64,
        "the refused write, then a savepoint a part"
    );
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);
}

#[test]
fn p5_a_committer_whose_connection_is_lost_refuses_the_batch_unreachable_and_the_next_connects_again()
 {
    let Some((mut s, url, schema, mut battles)) = campaign("p5_lost", 3, 700) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    // Another committer of the database (another test's, or another
    // process's): it has the same name, and keeps its connection.
    let bystander = Committer::connect(&url).unwrap();
    let bystander_pid = bystander.backend_pid().unwrap();
    let kill = Postgres::connect(&url).unwrap();
    let warm = rounds(&mut battles, 1, "w");
    let commit = |b: &[Decided]| {
        committer.commit(&[Group {
            schema: &schema,
            batch: b,
            notify: None,
        }])
    };
    let landed = |out: Result<Vec<Vec<Result<(), SaveError>>>, SaveError>| {
        let out = out.unwrap();
        assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    };
    landed(commit(&warm));
    // Twice: the connection made again is the committer's by its name too.
    // Only this test's committer is terminated, by its backend's pid (the
    // tests of this file share one database and run in parallel: review5
    // S2); that backend must carry the committer's name.
    for round in 0..2 {
        let pid = committer.backend_pid().unwrap();
        let killed: i64 = kill
            .one(
                "SELECT COUNT(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity \
                 WHERE pid = ?1 AND application_name = 'xenolog committer'",
                &[&pid],
            )
            .unwrap();
        assert_eq!(
            killed, 1,
            "round {round}: this committer's backend, by its name"
        );
        let lost = rounds(&mut battles, 1, &format!("lost{round}"));
        let e = commit(&lost).unwrap_err();
        assert!(matches!(e, SaveError::Unreachable(_)), "{e}");
        // Nothing of it written: the same parts go again, and land.
        landed(commit(&lost));
    }
    assert_eq!(
        bystander.backend_pid().unwrap(),
        bystander_pid,
        "the other committer's connection was not lost"
    );
    as_decided(s.reopen(), &battles);
}

/// review5 S1: a campaign whose battle another session holds (a psql
/// `SELECT ... FOR UPDATE` left open) is left out of the committer's
/// commit, each of its parts answered `Busy` in words with nothing of it
/// written, and the other campaign of the same commit is written. Held
/// still, the next commit leaves it out again (found busy lately: tried
/// `NOWAIT`); once the hold ends the same parts land. No timing is
/// asserted: the commit waits `lock_timeout` (2 s) for the held lock.
#[test]
fn s1_the_committer_leaves_out_a_campaign_whose_battle_is_held_and_commits_the_others() {
    let Some((mut s1, url, schema1, mut b1)) = campaign("s1_held_a", 2, 800) else {
        return;
    };
    let Some((mut s2, _, schema2, mut b2)) = campaign("s1_held_b", 2, 900) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    let mut hold = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let mut held = hold.transaction().unwrap();
    held.batch_execute(&format!(
        "SELECT id FROM {schema1}.battles WHERE id = {} FOR UPDATE",
        b1[1].0
    ))
    .unwrap();
    let before1 = stored(&s1, &[b1[0].0, b1[1].0]);
    let p1 = rounds(&mut b1, 1, "h");
    let commit = |p1: &[Decided], p2: &[Decided]| {
        committer
            .commit(&[
                Group {
                    schema: &schema1,
                    batch: p1,
                    notify: None,
                },
                Group {
                    schema: &schema2,
                    batch: p2,
                    notify: None,
                },
            ])
            .unwrap()
    };
    // The memo is taken after this (at the first round's start, or later):
    // while less than BUSY_MEMO has passed since, it must be there. On a
    // machine slow enough for it to pass, the memo checks say nothing.
    let since = std::time::Instant::now();
    let memo_is = |want: &[String], at: &str| {
        let memo = committer.busy_campaigns();
        if since.elapsed() < xenolog_saves::BUSY_MEMO {
            assert_eq!(memo, want, "{at}");
        }
    };
    for round in 0..2 {
        let p2 = rounds(&mut b2, 1, &format!("free{round}"));
        let out = commit(&p1, &p2);
        assert!(out[1].iter().all(Result::is_ok), "round {round}: {out:?}");
        assert_eq!(out[0].len(), p1.len());
        for (r, d) in out[0].iter().zip(&p1) {
            match r {
                Err(e @ SaveError::Busy(_)) => {
                    assert_eq!(
                        e.to_string(),
                        format!(
                            "battle {}'s campaign is busy: another connection to the database holds a lock \
                             it needs right now: nothing of this was written; try again in a moment",
                            d.battle()
                        )
                    );
                }
                other => panic!("round {round}: the held campaign's part: {other:?}"),
            }
        }
        assert_eq!(
            stored(&s1, &[b1[0].0, b1[1].0]),
            before1,
            "round {round}: nothing of the busy campaign written"
        );
        // Found busy after a whole wait: tried without waiting (review10
        // NIT 4: the memo pinned without timing).
        memo_is(std::slice::from_ref(&schema1), &format!("round {round}"));
    }
    // An empty group of the held campaign (nothing locked) leaves its memo
    // as it was (review10 NIT 7).
    let p2 = rounds(&mut b2, 1, "empty");
    let out = commit(&[], &p2);
    assert!(out[1].iter().all(Result::is_ok), "{out:?}");
    memo_is(std::slice::from_ref(&schema1), "after an empty group");
    held.commit().unwrap();
    // Let go: the same parts land (the campaign is no longer held).
    let out = commit(&p1, &[]);
    assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    assert!(
        committer.busy_campaigns().is_empty(),
        "its first success clears it"
    );
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);
}

/// The test server's `key=value` string `url` as a `postgres://` URL,
/// `query` after it.
fn as_url(url: &str, query: &str) -> String {
    let field = |k: &str| {
        url.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")))
            .map(str::to_owned)
    };
    let (host, port, user, db) = (
        field("host").unwrap_or_else(|| "localhost".into()),
        field("port").unwrap_or_else(|| "5432".into()),
        field("user").unwrap_or_else(|| "postgres".into()),
        field("dbname").unwrap_or_else(|| "postgres".into()),
    );
    format!("postgres://{user}@{host}:{port}/{db}{query}")
}

/// The committer's session settings (`lock_timeout`, the idle-transaction
/// and statement timeouts, its name) reach PostgreSQL from a libpq string
/// and from a `postgres://` URL alike, so a connection made again has them.
#[test]
fn s1_the_committers_session_settings_are_in_its_connection_string_of_either_form() {
    let Some(url) = pg::server() else {
        return;
    };
    for base in [url.clone(), as_url(&url, "")] {
        let named = xenolog_saves::with_session(
            &base,
            "xenolog committer",
            xenolog_saves::COMMITTER_SETTINGS,
        );
        let c = Postgres::connect(&named).unwrap();
        for (k, v) in xenolog_saves::COMMITTER_SETTINGS {
            let shown: String = c.one(&format!("SHOW {k}"), &[]).unwrap();
            assert_eq!(&shown, v, "{k} from {base}");
        }
        let name: String = c.one("SHOW application_name", &[]).unwrap();
        assert_eq!(name, "xenolog committer", "from {base}");
    }
}

/// Session 22: an `options` the `--database` string has already (a
/// setting the host wants on every session) is kept on the committer's and
/// the campaign writers' connections, beside the committer's own settings,
/// from a libpq string (quoted, spaces about its `=`) and from
/// a `postgres://` URL (percent-encoded) alike; a setting both name is the
/// committer's. Before, `with_session` added a second `options`, and the
/// last given was the only one PostgreSQL saw.
#[test]
fn s22_the_database_strings_own_options_reach_the_committers_session_beside_its_settings() {
    let Some(url) = pg::server() else {
        return;
    };
    let words = format!("{url} options = '-c work_mem=7MB -c lock_timeout=9s'");
    let as_url = as_url(
        &url,
        "?options=-c%20work_mem%3D7MB%20-c%20lock_timeout%3D9s&connect_timeout=10",
    );
    for base in [words, as_url] {
        let named = xenolog_saves::with_session(
            &base,
            "xenolog committer",
            xenolog_saves::COMMITTER_SETTINGS,
        );
        let c = Postgres::connect(&named).unwrap_or_else(|e| panic!("{named}: {e}"));
        let work_mem: String = c.one("SHOW work_mem", &[]).unwrap();
        assert_eq!(work_mem, "7MB", "the string's own option, from {base}");
        for (k, v) in xenolog_saves::COMMITTER_SETTINGS {
            let shown: String = c.one(&format!("SHOW {k}"), &[]).unwrap();
            assert_eq!(&shown, v, "{k} from {base}");
        }
        let name: String = c.one("SHOW application_name", &[]).unwrap();
        assert_eq!(name, "xenolog committer", "from {base}");
    }
}

/// review5 S1, a stopped process: a session with the committer's settings
/// that stops in the middle of its transaction, holding a battle, is
/// ended by PostgreSQL (`idle_in_transaction_session_timeout`) and its
/// lock let go; until then a commit of that battle is answered `Busy`,
/// after it the same part lands. Waited for as a condition (60 s at
/// most), never timed.
#[test]
fn s1_a_committer_session_stopped_mid_transaction_is_ended_by_postgres_and_its_lock_let_go() {
    use xenolog_saves::db::Db;
    let Some((mut s, url, schema, mut battles)) = campaign("s1_stopped", 1, 950) else {
        return;
    };
    let stopped = Postgres::connect(&xenolog_saves::with_session(
        &url,
        "xenolog stopped",
        xenolog_saves::COMMITTER_SETTINGS,
    ))
    .unwrap();
    let pid: i64 = stopped.one("SELECT pg_backend_pid()::bigint", &[]).unwrap();
    stopped
        .execute_batch(&format!(
            "BEGIN; SELECT id FROM {schema}.battles WHERE id = {} FOR UPDATE",
            battles[0].0
        ))
        .unwrap();
    // The process stops here: nothing more is sent on `stopped`.
    let committer = Committer::connect(&url).unwrap();
    let part = rounds(&mut battles, 1, "after");
    let commit = || committer.commit(&[quiet(&schema, &part)]).unwrap();
    let watch = Postgres::connect(&url).unwrap();
    let mut busy_seen = false;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let out = commit();
        match &out[0][0] {
            Ok(()) => break,
            Err(SaveError::Busy(_)) => {
                busy_seen = true;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the stopped session still holds the battle after 60 s"
        );
    }
    // Busy or not before (which depends on the machine's pace), the
    // battle was let go only by the session's end.
    let _ = busy_seen;
    loop {
        let left: i64 = watch
            .one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?1",
                &[&pid],
            )
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "PostgreSQL has not ended the stopped session in 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // The process resumes (review10 S2): the next statement on the session
    // PostgreSQL ended meets the idle-in-transaction timeout's FATAL
    // (25P03). That is a lost connection (nothing of the transaction was
    // written, a resend on a new connection succeeds), not a refusal.
    let resumed = SaveError::from(stopped.execute_batch("SELECT 1").unwrap_err());
    assert!(
        matches!(resumed, SaveError::Unreachable(_)),
        "the resumed session's statement: {resumed:?}"
    );
    drop(stopped);
    as_decided(s.reopen(), &battles);
}

/// review10 S3: a committer never waits for a lock while it holds another
/// campaign's. Two campaigns in one commit; the later one in the order the
/// committer locks in (schema order) is held by another session. While the
/// committer waits for it, it holds nothing of the earlier one (watched in
/// `pg_locks` until the commit returns: no lock of the earlier campaign's
/// tables held by a backend with a lock not granted), so another process's
/// committer is never made to wait on a campaign nobody holds. The earlier
/// campaign is written, the held one left out busy. No time is asserted.
#[test]
fn s3_a_committer_waiting_for_a_held_campaign_holds_no_lock_of_another() {
    let Some((mut sa, url, schema_a, mut ba)) = campaign("s3_a", 1, 1010) else {
        return;
    };
    let Some((mut sb, _, schema_b, mut bb)) = campaign("s3_b", 1, 1020) else {
        return;
    };
    // `free` comes first in the committer's order; `held` is held.
    let mut sides = [(&schema_a, &mut sa, &mut ba), (&schema_b, &mut sb, &mut bb)];
    sides.sort_by(|x, y| x.0.cmp(y.0));
    let [(free, s_free, b_free), (held, s_held, b_held)] = sides;
    let mut hold = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let mut holding = hold.transaction().unwrap();
    holding
        .batch_execute(&format!(
            "SELECT id FROM {held}.battles WHERE id = {} FOR UPDATE",
            b_held[0].0
        ))
        .unwrap();
    let before_held = stored(s_held, &[b_held[0].0]);
    let (p_free, p_held) = (rounds(b_free, 1, "free"), rounds(b_held, 1, "held"));
    let (pid_tx, pid_rx) = std::sync::mpsc::channel();
    let (free_s, held_s, u) = (free.clone(), held.clone(), url.clone());
    let committing = std::thread::spawn(move || {
        let c = Committer::connect(&u).unwrap();
        pid_tx.send(c.backend_pid().unwrap()).unwrap();
        let out = c
            .commit(&[quiet(&free_s, &p_free), quiet(&held_s, &p_held)])
            .unwrap();
        out.into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|r| r.map_err(|e| e.to_string()))
                    .collect()
            })
            .collect::<Vec<Vec<Result<(), String>>>>()
    });
    // Connected (its pid sent) before the watch begins.
    pid_rx.recv().unwrap();
    let watch = Postgres::connect(&url).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !committing.is_finished() {
        // Any backend (session 23: the committer waits on a connection of
        // the synchronous client, made when a commit leaves its two rounds,
        // not on the one whose pid it gives; no other session here takes a
        // lock of campaign `free`).
        let waiting_holding: i64 = watch
            .one(
                &format!(
                    "SELECT COUNT(*) FROM pg_locks w WHERE NOT w.granted \
                     AND EXISTS (SELECT 1 FROM pg_locks h JOIN pg_class c ON c.oid = h.relation \
                     WHERE h.pid = w.pid AND h.granted AND c.relnamespace = '{free}'::regnamespace)"
                ),
                &[],
            )
            .unwrap();
        assert_eq!(
            waiting_holding, 0,
            "the committer waits for a lock while it holds one of campaign {free}"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "the commit has not returned in 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let out = committing.join().unwrap();
    assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    assert!(
        out[1]
            .iter()
            .all(|r| r.as_ref().is_err_and(|e| e.contains("is busy"))),
        "{out:?}"
    );
    holding.commit().unwrap();
    assert_eq!(stored(s_held, &[b_held[0].0]), before_held);
    as_decided(s_free.reopen(), b_free);
}

/// review10 S4: a campaign whose `battles` table is held the way a merge
/// holds it (`SHARE ROW EXCLUSIVE`), in a commit that falls back to the
/// savepoint path (another campaign's few-statement write refused by a
/// trigger, the s4 test's), is left out whole at its group's lock: every
/// part of it `Busy`, none `Stale` (before, each battle's first part
/// waited its own `lock_timeout` and the next part of that battle was
/// answered `Stale`), and the other campaign is written.
#[test]
fn s4_a_campaign_whose_battles_table_is_held_is_left_out_busy_whole_on_the_fallback() {
    // Named so that the refusing campaign comes first in schema order: its
    // refusal sends the whole commit to the fallback before the held one
    // is reached.
    let Some((mut s_few, url, refusing, mut b_few)) = campaign("s4_held_a", 1, 1110) else {
        return;
    };
    let Some((s_held, _, held, mut b_held)) = campaign("s4_held_b", 3, 1120) else {
        return;
    };
    refuse_the_few_statement_write(&s_few, &refusing);
    let ids: Vec<BattleId> = b_held.iter().map(|(id, _)| *id).collect();
    let before_held = stored(&s_held, &ids);
    let mut hold = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let mut holding = hold.transaction().unwrap();
    holding
        .batch_execute(&format!(
            "LOCK TABLE {held}.battles IN SHARE ROW EXCLUSIVE MODE"
        ))
        .unwrap();
    let p_few = rounds(&mut b_few, 1, "few");
    let p_held = rounds(&mut b_held, 2, "held");
    assert_eq!(p_held.len(), 6);
    let committer = Committer::connect(&url).unwrap();
    let out = committer
        .commit(&[quiet(&refusing, &p_few), quiet(&held, &p_held)])
        .unwrap();
    assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    assert_eq!(out[1].len(), p_held.len());
    assert!(
        out[1].iter().all(|r| matches!(r, Err(SaveError::Busy(_)))),
        "every part of the held campaign busy, none stale: {:?}",
        out[1]
    );
    holding.commit().unwrap();
    assert_eq!(stored(&s_held, &ids), before_held);
    as_decided(s_few.reopen(), &b_few);
}

/// review10 NIT 2: only a socket's failure is a lost connection. A
/// statement the client cannot encode (an embedded NUL, an I/O error of
/// `InvalidInput` as its source) is refused as itself, not `Unreachable`
/// (which a client would retry forever), and the connection serves on.
#[test]
fn nit2_a_statement_the_client_cannot_send_is_refused_not_a_lost_connection() {
    use xenolog_saves::db::Db;
    let Some(url) = pg::server() else {
        return;
    };
    let db = Postgres::connect(&url).unwrap();
    let e = SaveError::from(db.execute_batch("SELECT 1 /* \u{0} */").unwrap_err());
    assert!(
        !matches!(e, SaveError::Unreachable(_)),
        "an unsendable statement: {e:?}"
    );
    let one: i64 = db.one("SELECT 1::bigint", &[]).unwrap();
    assert_eq!(one, 1);
}

/// Issue 31 (session 21): the committer's statements are planned once,
/// generic (`plan_cache_mode` in its session settings), the lock's rows
/// too (session 22: a statement prepared on the session, run by the lock
/// script's `EXECUTE`; before, planned at every commit): left to itself
/// PostgreSQL planned a campaign's read anew for every commit's values
/// (custom plans, about 150 µs each), as pg_stat_statements showed.
#[test]
fn p5_the_committers_statements_are_planned_once_generic_not_for_each_commits_values() {
    let Some((mut s, url, schema, mut battles)) = campaign("p5_generic", 3, 1700) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    for k in 0..8 {
        // Every other commit's parts carry no command id (session 22: a
        // read and a write of their own, without the command ids' table).
        let p = if k % 2 == 0 {
            rounds(&mut battles, 1, &format!("g{k}"))
        } else {
            battles
                .iter_mut()
                .map(|(id, b)| {
                    let legal = b.legal();
                    let l = legal[(k * 5 + 1) % legal.len()].clone();
                    decide(*id, &mut **b, l.actor, &l.command, None, DiceMode::Rolled).unwrap()
                })
                .collect()
        };
        let out = committer.commit(&[quiet(&schema, &p)]).unwrap();
        assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    }
    let plans = committer.plans_on_server().unwrap();
    let read = format!("FROM {schema}.battles b WHERE b.id = ANY");
    let write = format!("WITH e AS (INSERT INTO {schema}.entries");
    // Session 22: the lock's rows too (its ids were written into a
    // script's text before, and planned at every commit).
    let lock = format!("FROM {schema}.battles WHERE id = ANY($1) ORDER BY id FOR UPDATE");
    let ours: Vec<&(String, i64, i64)> = plans
        .iter()
        .filter(|(text, _, _)| {
            text.contains(&read) || text.contains(&write) || text.contains(&lock)
        })
        .collect();
    assert_eq!(
        ours.len(),
        5,
        "the lock; the read and the write with command ids, and without: {plans:?}"
    );
    // Session 22: what these parts do not have (branches, snapshots, an
    // ended battle's secret; command ids, every other commit) is not in
    // the statements: each would open its table and index at every call
    // for nothing.
    for (text, _, _) in &ours {
        for absent in ["branches (", "snapshots", "fair_seeds"] {
            assert!(!text.contains(absent), "{absent} in {text}");
        }
    }
    let with_ids = ours
        .iter()
        .filter(|(text, _, _)| text.contains("club_commands"))
        .count();
    assert_eq!(with_ids, 2, "the read and write with command ids: {ours:?}");
    for (text, generic, custom) in ours {
        assert_eq!(*custom, 0, "no plan for a commit's values: {text}");
        assert!(*generic >= 1, "planned generic: {text}");
    }
    as_decided(s.reopen(), &battles);
}

/// Issue 31 (session 23): the committer's statements are pipelined, so a
/// commit is two round trips whatever its campaigns: `BEGIN`, every lock
/// and every read sent together; then every write and `COMMIT`. Main's
/// committer took 3 + 2 a campaign (5, 7 and 11 here). Statements not yet
/// prepared take a round of their own, counted apart before.
#[test]
fn s23_a_commit_is_two_round_trips_whatever_its_campaigns() {
    let mut sides = Vec::new();
    for (k, seed) in [(0, 2300), (1, 2310), (2, 2320), (3, 2330)] {
        let Some(side) = campaign(&format!("s23_two_{k}"), 2, seed) else {
            return;
        };
        sides.push(side);
    }
    let url = sides[0].1.clone();
    let committer = Committer::connect(&url).unwrap();
    for (n, tag) in [(1, "a"), (2, "b"), (4, "c"), (4, "d"), (2, "e"), (1, "f")] {
        let parts: Vec<Vec<Decided>> = sides[..n]
            .iter_mut()
            .map(|(_, _, _, b)| rounds(b, 2, tag))
            .collect();
        let groups: Vec<Group<'_>> = sides[..n]
            .iter()
            .zip(&parts)
            .map(|((_, _, schema, _), p)| quiet(schema, p))
            .collect();
        let before = committer.round_trips();
        let out = committer.commit(&groups).unwrap();
        let trips = committer.round_trips() - before;
        assert_eq!(out.len(), n);
        for (o, p) in out.iter().zip(&parts) {
            assert_eq!(o.len(), p.len(), "{tag}: each part answered");
            assert!(o.iter().all(Result::is_ok), "{tag}: {o:?}");
        }
        match tag {
            // The first commit of its campaigns: their locks and reads
            // prepared in a round, their writes in another.
            "a" | "b" | "c" => assert_eq!(trips, 2 + 2, "{tag}: {n} campaigns, first here"),
            _ => assert_eq!(trips, 2, "{tag}: {n} campaigns, prepared already"),
        }
    }
    for (s, _, _, b) in &mut sides {
        as_decided(s.reopen(), b);
    }
}

/// Issue 31 (session 23): the committer's connection killed between a
/// commit's two rounds (its reads answered, its writes not yet sent)
/// refuses the commit `Unreachable` and writes nothing of any campaign;
/// the next commit connects again and the same parts land.
#[test]
fn s23_a_connection_killed_between_the_rounds_refuses_the_commit_and_writes_nothing() {
    let Some((mut s1, url, schema1, mut b1)) = campaign("s23_killed_a", 2, 2400) else {
        return;
    };
    let Some((mut s2, _, schema2, mut b2)) = campaign("s23_killed_b", 2, 2410) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    let warm1 = rounds(&mut b1, 1, "w");
    let warm2 = rounds(&mut b2, 1, "w");
    let out = committer
        .commit(&[quiet(&schema1, &warm1), quiet(&schema2, &warm2)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    let pid = committer.backend_pid().unwrap();
    let killed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (k, u) = (killed.clone(), url.clone());
    committer.between_rounds(move || {
        if k.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let kill = Postgres::connect(&u).unwrap();
        let ended: i64 = kill
            .one(
                "SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(pid, 30000)) \
                 FROM pg_stat_activity WHERE pid = ?1",
                &[&pid],
            )
            .unwrap();
        assert_eq!(ended, 1, "the committer's backend {pid} ended within 30 s");
    });
    let ids1: Vec<BattleId> = b1.iter().map(|(id, _)| *id).collect();
    let ids2: Vec<BattleId> = b2.iter().map(|(id, _)| *id).collect();
    let (before1, before2) = (stored(&s1, &ids1), stored(&s2, &ids2));
    let p1 = rounds(&mut b1, 2, "k");
    let p2 = rounds(&mut b2, 2, "k");
    let e = committer
        .commit(&[quiet(&schema1, &p1), quiet(&schema2, &p2)])
        .unwrap_err();
    assert!(
        killed.load(std::sync::atomic::Ordering::SeqCst),
        "killed between the rounds"
    );
    assert!(matches!(e, SaveError::Unreachable(_)), "{e:?}");
    assert_eq!(stored(&s1, &ids1), before1, "nothing of the first campaign");
    assert_eq!(
        stored(&s2, &ids2),
        before2,
        "nothing of the second campaign"
    );
    // Connected again: the same parts land.
    let out = committer
        .commit(&[quiet(&schema1, &p1), quiet(&schema2, &p2)])
        .unwrap();
    assert!(out.iter().flatten().all(Result::is_ok), "{out:?}");
    assert_ne!(committer.backend_pid().unwrap(), pid, "a new session");
    as_decided(s1.reopen(), &b1);
    as_decided(s2.reopen(), &b2);
}

/// Issue 31 (session 23): the committer keeps at most K campaigns'
/// statements prepared: a commit of a campaign past K closes the least
/// recently committed campaign's (gone from `pg_prepared_statements`),
/// never one of the commit at hand (a commit of more than K campaigns
/// keeps them all while it runs); a campaign whose statements were closed
/// commits again.
#[test]
fn s23_the_committer_keeps_k_campaigns_statements_and_closes_the_least_recently_used() {
    let mut sides = Vec::new();
    for (k, seed) in [(0, 2500), (1, 2510), (2, 2520)] {
        let Some(side) = campaign(&format!("s23_kept_{k}"), 2, seed) else {
            return;
        };
        sides.push(side);
    }
    let url = sides[0].1.clone();
    let committer = Committer::connect(&url).unwrap();
    committer.keep_statements_of(2);
    let schemas: Vec<String> = sides.iter().map(|(_, _, s, _)| s.clone()).collect();
    // Which of the campaigns have statements prepared on the session.
    let prepared = || -> Vec<bool> {
        let plans = committer.plans_on_server().unwrap();
        schemas
            .iter()
            .map(|s| {
                plans
                    .iter()
                    .any(|(t, _, _)| t.contains(&format!("{s}.battles")))
            })
            .collect()
    };
    let mut commit = |which: &[usize], tag: &str| {
        let parts: Vec<Vec<Decided>> = which
            .iter()
            .map(|&i| rounds(&mut sides[i].3, 1, tag))
            .collect();
        let groups: Vec<Group<'_>> = which
            .iter()
            .zip(&parts)
            .map(|(&i, p)| quiet(&schemas[i], p))
            .collect();
        let out = committer.commit(&groups).unwrap();
        assert!(out.iter().flatten().all(Result::is_ok), "{tag}: {out:?}");
    };
    commit(&[0], "a");
    commit(&[1], "b");
    assert_eq!(prepared(), [true, true, false], "two campaigns, kept");
    commit(&[2], "c");
    assert_eq!(prepared(), [false, true, true], "the first closed");
    commit(&[0], "d");
    assert_eq!(
        prepared(),
        [true, false, true],
        "the first again; the second closed"
    );
    committer.keep_statements_of(1);
    commit(&[1, 2], "e");
    assert_eq!(
        prepared(),
        [false, true, true],
        "both of the commit kept, past K"
    );
    commit(&[0], "f");
    assert_eq!(prepared(), [true, false, false], "one kept");
    for (s, _, _, b) in &mut sides {
        as_decided(s.reopen(), b);
    }
}

/// A branch a commit writes is stored with its kind, as the SQLite path
/// stores it (final read, session 23: the write's branches insert named no
/// kind, so a take-back made on the club server on PostgreSQL was stored
/// NULL and worked out again at every load).
#[test]
fn s23_a_branch_the_committer_writes_is_stored_with_its_kind() {
    let Some((mut s, url, schema, mut b)) = campaign("s23_kind", 1, 2340) else {
        return;
    };
    let committer = Committer::connect(&url).unwrap();
    let first = rounds(&mut b, 3, "k");
    let out = committer.commit(&[quiet(&schema, &first)]).unwrap();
    assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    // Two entries taken back, the position saved, and a command played on:
    // the new line forks from the old one, a take-back.
    let (id, battle) = &mut b[0];
    battle.undo(2);
    s.reopen().save_position(*id, &**battle).unwrap();
    let (_, d) = next(*id, &mut **battle, 4, "k-after");
    let out = committer.commit(&[quiet(&schema, &[d])]).unwrap();
    assert!(out[0].iter().all(Result::is_ok), "{out:?}");
    let mut raw = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let kinds: Vec<Option<String>> = raw
        .query(
            &format!("SELECT kind FROM \"{schema}\".branches WHERE parent IS NOT NULL"),
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(kinds, vec![Some("take-back".to_owned())]);
    as_decided(s.reopen(), &b);
}
