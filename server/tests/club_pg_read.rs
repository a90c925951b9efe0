//! How a server process brings a battle up to date after another process
//! wrote it (issue 31 P5, `server/POSTGRES.md` "Status of P5 (session 19,
//! pgread)"): two servers on one PostgreSQL database, each with its own
//! store, listener and sockets, a seat on each.
//!
//! - Told of another process's entry, a process reads only what is stored
//!   after the head it holds (`Campaign::extend_battle`), never the whole
//!   battle, and its watchers get exactly the new entries, once, in order.
//! - A process skips its own `moved` notification (its battle is current).
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a
//! missing one fails); a database of its own, dropped after.

mod common;

use std::sync::Arc;

use common::{Client, PgDb, Server, new_battle, organiser_token, seat_player_token, server_on_db};
use serde_json::{Value, json};
use xenolog_server::Tuning;

/// A seat's socket and what it heard: every entry id in order, the state
/// of the last frame.
struct Heard {
    c: Client,
    seat: u8,
    ids: Vec<u64>,
    state: Value,
}

impl Heard {
    /// Events until entry `until` is held: each entry new and after the
    /// last (none twice, none out of order); `moved` moves the head back
    /// to its `to`; a close fails (the server read the battle whole and
    /// closed its watchers to resume: not what this suite allows).
    async fn until(&mut self, until: u64) {
        while self.ids.last() != Some(&until) {
            let v = self.c.event().await;
            assert!(
                v.get("closed").is_none() && v.get("ended").is_none(),
                "seat {}: never closed to resume: {v}",
                self.seat
            );
            match v["type"].as_str() {
                Some("entry") => {
                    let id = v["entry"]["id"].as_u64().unwrap();
                    assert!(
                        self.ids.last().is_none_or(|h| id > *h),
                        "seat {}: entry {id} after {:?}: twice or out of order",
                        self.seat,
                        self.ids
                    );
                    self.ids.push(id);
                    self.state = v["state"].clone();
                }
                Some("moved") => {
                    let to = v["to"].as_u64();
                    while self.ids.last().copied() > to {
                        self.ids.pop();
                    }
                    self.state = v["state"].clone();
                }
                _ => {}
            }
        }
    }
}

/// Two servers on one new database, a race (`options`) with seat 0 on A
/// and seat 1 on B, each watching from the start.
async fn race_on_two(
    options: Value,
) -> Option<(Arc<PgDb>, Server, Server, Client, i64, [Heard; 2])> {
    let admin = common::test_pg()?;
    let db = Arc::new(PgDb::new(&admin));
    let a = server_on_db(db.clone(), Tuning::default()).await;
    let (mut org, _) = organiser_token(&a).await;
    let b = server_on_db(db.clone(), Tuning::default()).await;
    let (campaign, battle, _) =
        new_battle(&mut org, "race", json!({"target": 1000}), options).await;
    let (mut zero, _) = seat_player_token(&a, &mut org, campaign, battle, 0).await;
    let (mut one, _) = seat_player_token(&b, &mut org, campaign, battle, 1).await;
    zero.join(battle, 0, 7).await;
    one.join(battle, 1, 8).await;
    let mut seats = [(zero, 0u8), (one, 1u8)].map(|(c, seat)| Heard {
        c,
        seat,
        ids: Vec::new(),
        state: Value::Null,
    });
    for s in seats.iter_mut() {
        s.c.ok(
            "watch",
            json!({"battle": battle, "seat": s.seat, "after": null}),
        )
        .await;
        s.state = s.c.event_of("live").await["state"].clone();
    }
    Some((db, a, b, org, battle, seats))
}

/// The seat to move gives `command` at the head through its own server;
/// both seats hear the entry. The entry's id.
async fn play(battle: i64, seats: &mut [Heard; 2], command: Value, n: usize) -> u64 {
    let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
    let at = seats[mover].ids.last().copied();
    let r = seats[mover]
        .c
        .ok(
            "command",
            json!({"battle": battle, "seat": mover, "at": at, "command": command,
                   "cmd_id": format!("c{n}")}),
        )
        .await;
    let last = r["entries"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_u64()
        .unwrap();
    for s in seats.iter_mut() {
        s.until(last).await;
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_a_server_told_of_another_servers_entry_reads_only_what_is_after_its_head_and_its_watcher_gets_it_once_in_order()
 {
    let Some((_db, a, b, _org, battle, mut seats)) = race_on_two(json!({})).await else {
        return;
    };
    let mut by = [0u64; 2];
    for n in 0..16 {
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let command = if n % 3 == 2 {
            json!("hold")
        } else {
            json!({"roll": {"dice": 1}})
        };
        play(battle, &mut seats, command, n).await;
        by[mover] += 1;
    }
    assert_eq!(seats[0].ids, seats[1].ids, "both seats hold the same line");
    assert_eq!(seats[0].ids, (0..16).collect::<Vec<u64>>());
    assert!(by[0] > 0 && by[1] > 0, "each server wrote some: {by:?}");
    // Each server read each of the other's entries after its head, and
    // never a whole battle (it had the battle in memory all along).
    let (a_after, a_whole) = a.running.refresh_reads();
    let (b_after, b_whole) = b.running.refresh_reads();
    assert_eq!((a_whole, b_whole), (0, 0), "no battle read whole");
    assert!(
        a_after >= 1 && a_after <= by[1],
        "A read {a_after} after its head for B's {} entries",
        by[1]
    );
    assert!(
        b_after >= 1 && b_after <= by[0],
        "B read {b_after} after its head for A's {} entries",
        by[0]
    );
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_a_server_skips_its_own_moved_notification_and_reads_the_battle_only_for_the_others_entry()
 {
    let Some((_db, a, b, _org, battle, mut seats)) =
        race_on_two(json!({"friendly_takebacks": true})).await
    else {
        return;
    };
    // Four holds: seats 0, 1, 0, 1.
    for n in 0..4 {
        play(battle, &mut seats, json!("hold"), n).await;
    }
    let to = seats[0].ids[2];
    let before = a.running.refresh_reads();
    // Seat 0, on A, takes back to entry 2 (its own hold): A writes the
    // position and notifies `moved`, which A's listener hears too.
    let r = seats[0]
        .c
        .ok("takeback", json!({"battle": battle, "seat": 0, "to": to}))
        .await;
    assert_eq!(r["moved"], true, "{r}");
    for s in seats.iter_mut() {
        let v = s.c.event_of("moved").await;
        assert_eq!(v["to"], to, "{v}");
        s.ids.truncate(3);
        s.state = v["state"].clone();
    }
    assert_eq!(seats[0].state["to_move"], 1, "seat 1 moves after entry 2");
    // Seat 1, on B, rolls where a hold was recorded: a new branch, written
    // by B, which A hears after its own `moved` and reads after its head.
    let entry = play(battle, &mut seats, json!({"roll": {"dice": 2}}), 10).await;
    assert_eq!(entry, 4, "the new branch's entry");
    let after = a.running.refresh_reads();
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 0),
        "A read once, after its head, for B's entry; its own move was not read again"
    );
    let (_, b_whole) = b.running.refresh_reads();
    assert_eq!(b_whole, 0, "B read A's move after its head, not whole");
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p5_a_second_server_started_before_the_organiser_redeemed_finds_the_invitation_waiting_and_voids_nothing()
 {
    let Some(admin) = common::test_pg() else {
        return;
    };
    let db = Arc::new(PgDb::new(&admin));
    let a = server_on_db(db.clone(), Tuning::default()).await;
    assert!(!a.organiser_code.is_empty(), "the first start invites");
    // B starts before A's invitation is redeemed: it makes none...
    let b = server_on_db(db.clone(), Tuning::default()).await;
    assert!(
        b.organiser_code.is_empty(),
        "the second server finds the invitation waiting: no new one"
    );
    // ...and A's code still redeems, through B as well as through A.
    let mut through_b = Client::connect(&b).await;
    let r = through_b
        .ok("redeem", json!({"code": a.organiser_code, "label": "Ola"}))
        .await;
    assert_eq!(r["role"], "organiser", "{r}");
    // Once redeemed, a third start finds the organiser.
    let c = server_on_db(db.clone(), Tuning::default()).await;
    assert!(c.organiser_code.is_empty());
    for s in [a, b, c] {
        s.running.stop().await.unwrap();
    }
}
