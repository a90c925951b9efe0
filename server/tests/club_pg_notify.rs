//! The entry in the notification (issue 31 P5, session 20,
//! `server/POSTGRES.md` "Status of P5 (session 20, pgnotify)"): a part
//! written on one server carries itself in its `pg_notify`
//! (`e1:C:B:SEQ:BODY`, then `C:B:SEQ` for processes that do not read it),
//! and the other server extends the battle it holds from the payload,
//! reading nothing. Two servers on one PostgreSQL database, each with its
//! own store, listener and sockets (what two `serve --database` processes
//! hold), a seat on each.
//!
//! - Told of the other's parts, a server serves them to its watcher from
//!   the payloads: no read after its head, no whole read.
//! - A carried part that cannot be read, and a part announced by
//!   `C:B:SEQ` alone (a process of session 19, or a part too big for a
//!   payload), are read after the head as before, and the watchers get
//!   them once, in order.
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a
//! missing one fails); a database of its own, dropped after.

mod common;

use common::{Heard, Server, alternate, off_runtime, play, race_on_two};
use serde_json::json;
use xenolog_saves::db::{Db, DbError, DbExt};
use xenolog_saves::{Campaign, DiceMode, decide};

/// (read after the head, read whole, extended from the payload).
fn counts(s: &Server) -> (u64, u64, u64) {
    let (after, whole) = s.running.refresh_reads();
    (after, whole, s.running.carried_refreshes())
}

fn since(now: (u64, u64, u64), then: (u64, u64, u64)) -> (u64, u64, u64) {
    (now.0 - then.0, now.1 - then.1, now.2 - then.2)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_the_other_server_serves_a_part_from_its_notification_without_reading_the_battle() {
    let Some((_db, a, b, _org, battle, mut seats)) = race_on_two(json!({})).await else {
        return;
    };
    let (a0, b0) = (counts(&a), counts(&b));
    let by = alternate(battle, &mut seats, 12).await;
    assert_eq!(seats[0].ids, seats[1].ids, "both seats hold the same line");
    assert!(by[0] > 0 && by[1] > 0, "each server wrote some: {by:?}");
    let (a1, b1) = (since(counts(&a), a0), since(counts(&b), b0));
    // Nothing read on either side: every part of the other came in its
    // notification (each command waited for both seats before the next,
    // so each part found the battle at its first entry).
    assert_eq!((a1.0, a1.1), (0, 0), "A read nothing: {a1:?}");
    assert_eq!((b1.0, b1.1), (0, 0), "B read nothing: {b1:?}");
    assert!(
        a1.2 >= 1 && a1.2 <= by[1],
        "A extended from {} payloads for B's {} parts",
        a1.2,
        by[1]
    );
    assert!(
        b1.2 >= 1 && b1.2 <= by[0],
        "B extended from {} payloads for A's {} parts",
        b1.2,
        by[0]
    );
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
}

/// Write the next command of battle `battle` (the server's id) straight
/// into its campaign, as another writer would, and announce it with
/// `payloads` in one transaction (`{entry}` in each replaced by the
/// entry's `C:B:SEQ`). The entry's id.
fn written_elsewhere(url: &str, battle: i64, payloads: &[&str]) -> u64 {
    let url = url.to_owned();
    let payloads: Vec<String> = payloads.iter().map(|p| (*p).to_owned()).collect();
    off_runtime(move || {
        let admin = xenolog_saves::db::pg::Postgres::connect(&url).unwrap();
        let (schema, campaign, id): (String, i64, i64) = admin
            .row(
                "SELECT c.file, s.campaign, s.battle FROM club.server_battles s \
                 JOIN club.campaigns c ON c.id = s.campaign WHERE s.id = ?1",
                &[&battle],
                |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
            .unwrap();
        let mut c = Campaign::open_postgres(&url, &schema).unwrap();
        let mut b = c.load_battle(id).unwrap();
        let l = b.legal();
        let d = decide(
            id,
            &mut *b,
            l[0].actor,
            &l[0].command,
            None,
            DiceMode::Rolled,
        )
        .unwrap();
        let seq = *d.entries().last().unwrap();
        let written = c.append_batch(&[d]).unwrap();
        assert!(written[0].is_ok(), "{written:?}");
        let entry = format!("{campaign}:{id}:{seq}");
        let mut sql = String::from("BEGIN;");
        for p in &payloads {
            let p = p.replace("{entry}", &entry);
            sql.push_str(&format!("SELECT pg_notify('xenolog_club', '{p}');"));
        }
        sql.push_str("COMMIT;");
        admin.execute_batch(&sql).unwrap();
        seq
    })
}

/// Both seats hear every entry up to `seq`.
async fn hear(seats: &mut [Heard; 2], seq: u64) {
    for s in seats.iter_mut() {
        s.until(seq).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_a_carried_part_that_cannot_be_read_or_an_entry_announced_alone_is_read_after_the_head()
{
    let Some((db, a, b, _org, battle, mut seats)) = race_on_two(json!({})).await else {
        return;
    };
    for n in 0..2 {
        play(battle, &mut seats, json!({"roll": {"dice": 1}}), n).await;
    }
    // A part whose carried words are damaged (then its `C:B:SEQ`, which the
    // listener drops as the twin): both servers read after their heads.
    let (a0, b0) = (counts(&a), counts(&b));
    let seq = written_elsewhere(&db.url, battle, &["e1:{entry}:not-a-part", "{entry}"]);
    hear(&mut seats, seq).await;
    let (a1, b1) = (since(counts(&a), a0), since(counts(&b), b0));
    assert_eq!(a1, (1, 0, 0), "A read after its head: {a1:?}");
    assert_eq!(b1, (1, 0, 0), "B read after its head: {b1:?}");
    // Announced by `C:B:SEQ` alone (a writer of session 19, a part too big
    // to carry): read after the head as before.
    let (a0, b0) = (counts(&a), counts(&b));
    let seq = written_elsewhere(&db.url, battle, &["{entry}"]);
    hear(&mut seats, seq).await;
    let (a1, b1) = (since(counts(&a), a0), since(counts(&b), b0));
    assert_eq!(a1, (1, 0, 0), "A read after its head: {a1:?}");
    assert_eq!(b1, (1, 0, 0), "B read after its head: {b1:?}");
    // And the servers' own parts are carried again after it.
    let (a0, b0) = (counts(&a), counts(&b));
    let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
    play(battle, &mut seats, json!("hold"), 10).await;
    let (a1, b1) = (since(counts(&a), a0), since(counts(&b), b0));
    let other = if mover == 0 { b1 } else { a1 };
    assert_eq!(
        other,
        (0, 0, 1),
        "the other server extended from the payload"
    );
    assert_eq!(seats[0].ids, seats[1].ids, "both seats hold the same line");
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
}
