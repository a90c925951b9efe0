//! One committer a process on PostgreSQL (issue 31 P5, `server/POSTGRES.md`
//! §2, `store/writer.rs`): every campaign writer of a server hands its
//! appends to one committer thread, which writes what every campaign queued
//! in one transaction.
//!
//! - A server with several campaigns takes commands in all of them at once:
//!   each lands, each is stored once (its entries, its command id), every
//!   battle verifies.
//! - The committer's connection killed under it: the command waiting for it
//!   is answered `unavailable` with nothing written; given again (same
//!   `cmd_id`) it lands, on a connection made again, and is stored once.
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a
//! missing one fails); a database of its own, dropped after.

#[path = "club_pg_write_stored/mod.rs"]
mod club_pg_write_stored;
mod common;

use std::sync::Arc;

use club_pg_write_stored::stored;
use common::{Client, PgDb, off_runtime, organiser, server_on_db, test_pg, two_seats};
use serde_json::{Value, json};
use xenolog_server::Tuning;

/// `n` holds in turn in a race, seat 0 first, each with its command id:
/// the entries each made, as the server answered.
async fn holds(battle: i64, seats: &mut [Client; 2], n: usize, tag: &str) -> Vec<Vec<u64>> {
    let mut head: Option<u64> = None;
    let mut made = Vec::new();
    for k in 0..n {
        let mover = k % 2;
        let r = seats[mover]
            .ok(
                "command",
                json!({"battle": battle, "seat": mover, "at": head, "command": "hold",
                       "cmd_id": format!("{tag}-{k}")}),
            )
            .await;
        let entries: Vec<u64> = r["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_u64().unwrap())
            .collect();
        head = entries.last().copied();
        made.push(entries);
    }
    made
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_a_server_on_postgres_takes_commands_in_four_campaigns_at_once_and_stores_each_once() {
    let Some(admin) = test_pg() else {
        return;
    };
    let db = Arc::new(PgDb::new(&admin));
    let s = server_on_db(db.clone(), Tuning::default()).await;
    let mut org = organiser(&s).await;
    let mut tables = Vec::new();
    for _ in 0..4 {
        let (campaign, battle, zero, one) =
            two_seats(&s, &mut org, "race", json!({"target": 1000}), json!({})).await;
        tables.push((campaign, battle, [zero, one]));
    }
    // Every campaign's seats command at once.
    let runs = tables.into_iter().map(|(campaign, battle, mut seats)| {
        tokio::spawn(async move {
            let made = holds(battle, &mut seats, 16, &format!("c{campaign}")).await;
            (campaign, made)
        })
    });
    let mut played = Vec::new();
    for r in runs.collect::<Vec<_>>() {
        played.push(r.await.unwrap());
    }
    drop(org);
    s.running.stop().await.unwrap();
    for (campaign, made) in played {
        let (line, ids, verified) = stored(&db.url, campaign);
        assert!(verified, "campaign {campaign} verifies");
        let acked: Vec<u64> = made.iter().flatten().copied().collect();
        assert_eq!(
            line, acked,
            "campaign {campaign}: every entry acknowledged, once, in order"
        );
        assert_eq!(
            ids.len(),
            16,
            "campaign {campaign}: each command id once: {ids:?}"
        );
        for (k, entries) in made.iter().enumerate() {
            let want = (
                format!("c{campaign}-{k}"),
                serde_json::to_string(entries).unwrap(),
            );
            assert!(
                ids.contains(&want),
                "campaign {campaign}: {want:?} in {ids:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_the_committers_connection_killed_answers_unavailable_and_the_command_given_again_lands_once()
 {
    let Some(admin) = test_pg() else {
        return;
    };
    let db = Arc::new(PgDb::new(&admin));
    let s = server_on_db(db.clone(), Tuning::default()).await;
    let mut org = organiser(&s).await;
    let (campaign, battle, zero, one) =
        two_seats(&s, &mut org, "race", json!({"target": 1000}), json!({})).await;
    let mut seats = [zero, one];
    let first = holds(battle, &mut seats, 2, "before").await;
    let head = first.last().unwrap().last().copied();

    // The committer's backend ended under it.
    let url = db.url.clone();
    let killed: i64 = off_runtime(move || {
        use xenolog_saves::db::DbExt;
        let pg = xenolog_saves::db::pg::Postgres::connect(&url).unwrap();
        pg.one(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE application_name = 'xenolog committer' AND datname = current_database()",
            &[],
        )
        .unwrap()
    });
    assert_eq!(killed, 1, "one committer for the process");
    let cmd =
        json!({"battle": battle, "seat": 0, "at": head, "command": "hold", "cmd_id": "again"});
    let r = seats[0].request("command", cmd.clone()).await;
    assert_eq!(r["err"]["code"], "unavailable", "{r}");
    // Given again: the committer connects again, and it lands.
    let r: Value = seats[0].ok("command", cmd).await;
    let again: Vec<u64> = r["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_u64().unwrap())
        .collect();
    drop(org);
    s.running.stop().await.unwrap();
    let (line, ids, verified) = stored(&db.url, campaign);
    assert!(verified);
    let mut acked: Vec<u64> = first.into_iter().flatten().collect();
    acked.extend(&again);
    assert_eq!(line, acked, "nothing of the refused write, the resend once");
    assert_eq!(
        ids.iter().filter(|(id, _)| id == "again").count(),
        1,
        "{ids:?}"
    );
}
