//! A held lock on PostgreSQL stops only its own campaign (issue 31 P5,
//! review5 S1, `server/POSTGRES.md` §3): the process's one committer writes
//! every campaign's appends in one transaction, and it waits for a lock only
//! so long (`lock_timeout`). A campaign whose battles another session holds
//! is left out of the commit, its commands answered `unavailable` ("the
//! battle is busy"), nothing of them written; every other campaign's are
//! committed as usual.
//!
//! - A battle row held `FOR UPDATE` (a psql session left open).
//! - The battles table held `SHARE ROW EXCLUSIVE` (what `xenolog campaign
//!   merge` takes while it copies into a live campaign): the row lock is
//!   granted, the write's `UPDATE` is what waits.
//!
//! Each: a command in campaign 2 is written, acknowledged and seen by its
//! other seat while campaign 1 is held; campaign 1's command is refused in
//! words, not hung; once the hold ends, the same command (same `cmd_id`)
//! lands in campaign 1, and each campaign stores each command once.
//!
//! No timing is asserted: the answers are waited for (the client's own
//! deadline, 10 s an answer, is the "hung" this guards against; a commit
//! that meets the held lock waits `lock_timeout`, 2 s).
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a
//! missing one fails); a database of its own, dropped after.

#[path = "club_pg_write_stored/mod.rs"]
mod club_pg_write_stored;
mod common;

use std::sync::{Arc, mpsc};

use club_pg_write_stored::stored;
use common::{PgDb, organiser, server_on_db, test_pg, two_seats};
use serde_json::{Value, json};
use xenolog_server::Tuning;

/// Another session holding campaign `n`'s battles, as `how` says, until
/// dropped (then it commits, and the hold ends).
struct Hold {
    end: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Hold {
    fn new(url: &str, n: i64, how: &str) -> Hold {
        let (held_tx, held) = mpsc::channel();
        let (end, ended) = mpsc::channel::<()>();
        let url = url.to_owned();
        let lock = match how {
            "rows" => format!("SELECT id FROM campaign_{n}.battles FOR UPDATE"),
            "table" => format!("LOCK TABLE campaign_{n}.battles IN SHARE ROW EXCLUSIVE MODE"),
            other => panic!("{other}"),
        };
        let thread = std::thread::spawn(move || {
            use xenolog_saves::db::Db;
            let pg = xenolog_saves::db::pg::Postgres::connect(&url).unwrap();
            pg.execute_batch(&format!("BEGIN; {lock}")).unwrap();
            held_tx.send(()).unwrap();
            let _ = ended.recv();
            pg.execute_batch("COMMIT").unwrap();
        });
        held.recv().expect("the lock taken");
        Hold {
            end: Some(end),
            thread: Some(thread),
        }
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        self.end.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A hold in a race from `at`, with its command id.
fn hold(battle: i64, seat: u8, at: Option<u64>, cmd_id: &str) -> Value {
    json!({"battle": battle, "seat": seat, "at": at, "command": "hold", "cmd_id": cmd_id})
}

fn entries(ok: &Value) -> Vec<u64> {
    ok["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_u64().unwrap())
        .collect()
}

/// The whole scenario, with campaign 1 held as `how` says.
async fn a_held_campaign_stops_only_itself(how: &str) {
    let Some(admin) = test_pg() else {
        return;
    };
    let db = Arc::new(PgDb::new(&admin));
    let s = server_on_db(db.clone(), Tuning::default()).await;
    let mut org = organiser(&s).await;
    let (c1, b1, mut one_0, one_1) =
        two_seats(&s, &mut org, "race", json!({"target": 1000}), json!({})).await;
    let (c2, b2, mut two_0, mut two_1) =
        two_seats(&s, &mut org, "race", json!({"target": 1000}), json!({})).await;
    // Both campaigns written once before the hold: the committer is
    // connected and has written each.
    let first1 = entries(&one_0.ok("command", hold(b1, 0, None, "warm-1")).await);
    let first2 = entries(&two_0.ok("command", hold(b2, 0, None, "warm-2")).await);
    let (at1, at2) = (first1.last().copied(), first2.last().copied());
    for c in [&mut one_0, &mut two_0] {
        c.settle().await;
        c.events.clear();
    }

    let held = Hold::new(&db.url, c1, how);
    // Campaign 1's command and campaign 2's, at once.
    let mut one_1 = one_1;
    one_1.settle().await;
    one_1.events.clear();
    let busy = tokio::spawn(async move {
        let r = one_1.request("command", hold(b1, 1, at1, "held-1")).await;
        (one_1, r)
    });
    two_1.settle().await;
    two_1.events.clear();
    let r2 = two_1.ok("command", hold(b2, 1, at2, "free-2")).await;
    let made2 = entries(&r2);
    let seen = two_0.event_of("entry").await;
    assert_eq!(
        seen["entry"]["id"].as_u64(),
        made2.first().copied(),
        "campaign 2's other seat sees the command written: {seen}"
    );
    let (mut one_1, r1) = busy.await.unwrap();
    assert_eq!(r1["err"]["code"], "unavailable", "{r1}");
    let words = r1["err"]["words"].as_str().unwrap();
    assert!(
        words.contains("campaign is busy") && words.contains("nothing"),
        "told in words that the battle's campaign is busy and nothing was written: {r1}"
    );
    one_0.settle().await;
    assert!(
        one_0.take("entry").is_empty(),
        "nothing of the busy command is sent to the other seat"
    );

    // The hold ends: campaign 1 plays again, the same command id lands once.
    drop(held);
    let again = entries(&one_1.ok("command", hold(b1, 1, at1, "held-1")).await);
    let seen = one_0.event_of("entry").await;
    assert_eq!(
        seen["entry"]["id"].as_u64(),
        again.first().copied(),
        "{seen}"
    );

    drop(org);
    s.running.stop().await.unwrap();
    let ids = |ids: Vec<(String, String)>| ids.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    let (line1, ids1, verified1) = stored(&db.url, c1);
    let mut want1 = first1.clone();
    want1.extend(&again);
    assert!(verified1);
    assert_eq!(line1, want1, "campaign 1: nothing of the busy answer");
    assert_eq!(ids(ids1), vec!["held-1".to_owned(), "warm-1".to_owned()]);
    let (line2, ids2, verified2) = stored(&db.url, c2);
    let mut want2 = first2.clone();
    want2.extend(&made2);
    assert!(verified2);
    assert_eq!(line2, want2);
    assert_eq!(ids(ids2), vec!["free-2".to_owned(), "warm-2".to_owned()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_battle_row_held_for_update_stops_only_its_campaign_and_its_command_is_told_busy() {
    a_held_campaign_stops_only_itself("rows").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_the_battles_table_held_as_a_merge_holds_it_stops_only_its_campaign() {
    a_held_campaign_stops_only_itself("table").await;
}
