//! Server lists in the client (issue 31, `server/POSTGRES.md` §2 "Clients
//! fail over"; session 17, step P4): `--server ws://a:P,ws://b:Q` names the
//! processes of one club; when a connection cannot be made, or is lost,
//! the client tries the next address and resumes every watched battle with
//! `after` = the last entry it holds.
//!
//! Two SQLite servers cannot share battles, so these tests use one live
//! `xenolog serve` (a real process) and a dead port: the order (a dead
//! first address is passed over; a lost connection goes to the next address
//! first, round the list back to the live one) and the resume (a server
//! SIGKILLed mid-game and started again: the seats resume after their last
//! entry, no gap, nothing twice, and the game goes on). The two-process test
//! on one database waits for campaigns on PostgreSQL.

use serde_json::{Value, json};
use xenolog_server::client::{Client, ServerAddr};

#[path = "support/club.rs"]
mod support;

use support::{Seat, answer, race_table, serve, serve_again, whole};

/// An address nothing listens on, and nothing will: port 1 (tcpmux) is a
/// privileged port no test binds and the system never hands out. (A port
/// bound and let go, as before, could be taken by another process between
/// the test's choice and its use.)
const DEAD: &str = "127.0.0.1:1";

/// A club with a two-seat Dice Race, every seat joined and watching, each
/// seat's client given `list`; the organiser's client made with `list` too.
fn club(list: &str, code: &str) -> (Client, i64, [Seat; 2]) {
    let addr = ServerAddr::parse(list).unwrap();
    let mut org = Client::connect(addr, None).unwrap();
    answer(
        org.request_no_retry("redeem", json!({"code": code})),
        "redeem",
    );
    let (_, battle, seats) = race_table(&mut org, "Club", [list, list], 200);
    (org, battle, seats)
}

/// The mover rolls one die; both seats take in its entries.
fn play_one(seats: &mut [Seat; 2], battle: i64) {
    let r = support::command(seats, battle, json!({"roll": {"dice": 1}}));
    let last = r["entries"]
        .as_array()
        .and_then(|e| e.last())
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no entries: {r}"));
    for s in seats.iter_mut() {
        s.catch_up(Some(last));
    }
}

#[test]
fn p4_a_list_whose_first_server_is_dead_goes_on_to_the_live_one() {
    let dir = tempfile::tempdir().unwrap();
    // The server takes a free port itself, and says which.
    let served = serve(&dir.path().join("club"));
    let live = served.host();
    let list = format!("ws://{DEAD},ws://{live}");
    let (org, battle, mut seats) = club(&list, &served.code);
    assert_eq!(org.addr().host, live);
    for _ in 0..4 {
        play_one(&mut seats, battle);
    }
    for s in &seats {
        assert!(whole(&s.ids) && s.ids.len() >= 4, "{:?}", s.ids);
        assert_eq!(s.client.reconnects(), 0);
    }
}

#[test]
fn p4_a_server_killed_mid_game_its_seats_go_round_the_list_and_resume_after_their_last_entry() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("club");
    let mut served = serve(&data);
    let live = served.host();
    // The list the other way round: the live one first, the dead one next.
    let list = format!("ws://{live},ws://{DEAD}");
    let (_org, battle, mut seats) = club(&list, &served.code);
    for _ in 0..3 {
        play_one(&mut seats, battle);
    }
    let before: Vec<usize> = seats.iter().map(|s| s.ids.len()).collect();
    // SIGKILL mid-game, and the same club started again at the same place
    // (the port just let go: tried again while it is still in use).
    served.child.kill().unwrap();
    served.child.wait().unwrap();
    drop(served);
    let again = serve_again(&data, &live);
    assert!(again.code.is_empty(), "the club is the same");
    // The next command finds the connection gone: the client tries the
    // next address (dead), goes round to the live one, resumes its watch
    // after the last entry it holds, and sends the command there.
    for _ in 0..3 {
        play_one(&mut seats, battle);
    }
    for (s, n) in seats.iter().zip(before) {
        assert!(s.ids.len() > n, "seat {}: the game went on", s.seat);
        assert!(
            whole(&s.ids),
            "seat {}: every entry once, in order: {:?}",
            s.seat,
            s.ids
        );
        assert_eq!(s.client.reconnects(), 1, "seat {}", s.seat);
        assert_eq!(
            s.client.addr().host,
            live,
            "round the list back to the live one"
        );
    }
}
