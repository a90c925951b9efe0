//! Session 23 (issue 31, the server's side): on PostgreSQL a command's
//! append goes from the task that decided it straight to the process's
//! committer, with no campaign writer's thread in between
//! (`store/writer.rs`, `Committer::append`). What must hold still, through
//! real sockets on a real cluster:
//!
//! - many clients commanding many battles of ONE campaign at once (so the
//!   committer gathers several parts of the same campaign into one commit):
//!   every command acknowledged is stored once, in the order acknowledged,
//!   each battle verifies, and every watching seat was sent exactly the
//!   entries acknowledged, in order, none twice;
//! - a campaign's other work (here a battle made and started in it while
//!   its battles are played) still runs between the commands and sees them.
//!
//! Nothing here asserts a pace, who comes first, or how many commands a
//! commit took. Runs when `XENOLOG_TEST_PG` names a cluster
//! (`XENOLOG_REQUIRE_PG`: a missing one fails); a database of its own.

mod common;

use common::{Backend, Client, SeatCopy, off_runtime, organiser, seat_player, server_on};
use serde_json::{Value, json};

/// Battles of the one campaign, commands each.
const BATTLES: usize = 6;
const HOLDS: usize = 12;

/// Each battle's stored line, its command ids, and whether it verifies.
fn stored_battles(url: &str, campaign: i64) -> Vec<(Vec<u64>, usize, bool)> {
    let url = url.to_owned();
    off_runtime(move || {
        let c =
            xenolog_saves::Campaign::open_postgres_read_only(&url, &format!("campaign_{campaign}"))
                .unwrap();
        let mut out = Vec::new();
        for info in c.battles().unwrap() {
            let b = c.load_battle(info.id).unwrap();
            let line = b.path_to(b.cursor());
            let ok = c.verify_battle(info.id).unwrap().problem.is_none();
            out.push((line, info.id as usize, ok));
        }
        out
    })
}

/// The entries a command's reply names.
fn entries_of(ok: &Value) -> Vec<u64> {
    serde_json::from_value(ok["entries"].clone()).unwrap()
}

/// A started race of the campaign, both seats joined and watching from the
/// start.
async fn seated_race(s: &common::Server, org: &mut Client, campaign: i64) -> (i64, [SeatCopy; 2]) {
    let made = org
        .ok(
            "create_battle",
            json!({"campaign": campaign, "game": "race", "config": {"target": 1000}}),
        )
        .await;
    let battle = made["battle"].as_i64().unwrap();
    let mut zero = seat_player(s, org, campaign, battle, 0).await;
    let mut one = seat_player(s, org, campaign, battle, 1).await;
    for (c, seat) in [(&mut zero, 0u8), (&mut one, 1u8)] {
        c.join(battle, seat, seat + 1).await;
    }
    let mut copies = [
        SeatCopy::new(zero, String::new(), 0),
        SeatCopy::new(one, String::new(), 1),
    ];
    for copy in &mut copies {
        copy.c
            .ok(
                "watch",
                json!({"battle": battle, "seat": copy.seat, "after": null}),
            )
            .await;
        copy.absorb(None).await;
    }
    (battle, copies)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s23_many_clients_in_one_campaign_each_command_stored_once_in_order_and_sent_in_order() {
    let Some(s) = server_on(Backend::Postgres).await else {
        return;
    };
    let db = s.pg.clone().unwrap();
    let mut org = organiser(&s).await;
    let campaign = org.ok("create_campaign", json!({"name": "Club"})).await["campaign"]
        .as_i64()
        .unwrap();
    let mut tables = Vec::new();
    for _ in 0..BATTLES {
        tables.push(seated_race(&s, &mut org, campaign).await);
    }
    // Every battle's seats command at once, each command with its id; both
    // seats of a battle read their watch as they go.
    let runs: Vec<_> = tables
        .into_iter()
        .map(|(battle, mut seats)| {
            tokio::spawn(async move {
                let mut acked: Vec<u64> = Vec::new();
                for k in 0..HOLDS {
                    let mover = k % 2;
                    let r = seats[mover]
                        .c
                        .ok(
                            "command",
                            json!({"battle": battle, "seat": mover, "at": acked.last(),
                                   "command": "hold", "cmd_id": format!("b{battle}-{k}")}),
                        )
                        .await;
                    let entries = entries_of(&r);
                    assert!(!entries.is_empty(), "battle {battle}: command {k}: {r}");
                    assert!(
                        acked.last().is_none_or(|h| entries[0] > *h),
                        "battle {battle}: command {k}'s entries {entries:?} after {acked:?}"
                    );
                    acked.extend(entries);
                }
                // Each seat's watch sent exactly the acknowledged entries,
                // in order, none twice (`absorb` checks each as it comes).
                for copy in &mut seats {
                    copy.absorb(acked.last().copied()).await;
                    assert_eq!(copy.ids, acked, "battle {battle} seat {}", copy.seat);
                }
                (battle, acked)
            })
        })
        .collect();
    // Meanwhile the campaign's writer takes other work: a battle made and
    // started in the same campaign, its first command played.
    let (late, mut late_seats) = seated_race(&s, &mut org, campaign).await;
    let r = late_seats[0]
        .c
        .ok(
            "command",
            json!({"battle": late, "seat": 0, "at": null, "command": "hold"}),
        )
        .await;
    let late_acked = entries_of(&r);
    let mut played = Vec::new();
    for r in runs {
        played.push(r.await.unwrap());
    }
    played.push((late, late_acked));
    drop(org);
    drop(late_seats);
    s.running.stop().await.unwrap();
    let stored = stored_battles(&db.url, campaign);
    assert_eq!(stored.len(), BATTLES + 1, "every battle made is stored");
    let mut lines: Vec<Vec<u64>> = stored
        .iter()
        .map(|(line, id, ok)| {
            assert!(*ok, "battle {id} verifies");
            line.clone()
        })
        .collect();
    let mut acked: Vec<Vec<u64>> = played.into_iter().map(|(_, a)| a).collect();
    lines.sort();
    acked.sort();
    assert_eq!(
        lines, acked,
        "each battle stores exactly its acknowledged entries, once, in order"
    );
    // Each command id once.
    let url = db.url.clone();
    let ids: Vec<String> = off_runtime(move || {
        use xenolog_saves::db::DbExt;
        use xenolog_saves::db::pg::{Postgres, use_schema};
        let db = Postgres::connect(&url).unwrap();
        use_schema(&db, &format!("campaign_{campaign}")).unwrap();
        db.query("SELECT cmd_id FROM club_commands", &[])
            .unwrap()
            .into_iter()
            .map(|r| match &r[0] {
                xenolog_saves::db::Value::Text(a) => a.clone(),
                other => panic!("{other:?}"),
            })
            .collect()
    });
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        ids.len(),
        BATTLES * HOLDS,
        "every command id stored: {ids:?}"
    );
    assert_eq!(distinct.len(), ids.len(), "each command id once: {ids:?}");
}
