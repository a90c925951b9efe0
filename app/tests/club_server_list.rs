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

use std::io::BufRead;
use std::net::TcpListener;
use std::process::{Child, Stdio};

use serde_json::{Value, json};
use xenolog_server::client::{Client, ServerAddr};

#[path = "support/club.rs"]
mod support;

use support::{Seat, answer, race_table, whole};

/// A port nothing listens on (bound, then let go).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Start `xenolog serve` on `data` at `port`; the organiser invitation when
/// it prints one (the first start).
fn serve(data: &std::path::Path, port: u16) -> (Child, Option<String>) {
    let first = !data.join("club.xenolog-club").exists();
    let s = support::spawn_serve(
        data,
        &format!("127.0.0.1:{port}"),
        &[],
        Stdio::null(),
        |s| s.url.is_some() && (!first || s.code.is_some()),
    );
    let stdout = s.stdout;
    std::thread::spawn(move || for _ in stdout.lines().map_while(Result::ok) {});
    (s.child, s.code)
}

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
    let (dead, live) = (free_port(), free_port());
    let (mut child, code) = serve(&dir.path().join("club"), live);
    let list = format!("ws://127.0.0.1:{dead},ws://127.0.0.1:{live}");
    let (org, battle, mut seats) = club(&list, &code.unwrap());
    assert_eq!(org.addr().host, format!("127.0.0.1:{live}"));
    for _ in 0..4 {
        play_one(&mut seats, battle);
    }
    for s in &seats {
        assert!(whole(&s.ids) && s.ids.len() >= 4, "{:?}", s.ids);
        assert_eq!(s.client.reconnects(), 0);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn p4_a_server_killed_mid_game_its_seats_go_round_the_list_and_resume_after_their_last_entry() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("club");
    let (dead, live) = (free_port(), free_port());
    let (mut child, code) = serve(&data, live);
    // The list the other way round: the live one first, the dead one next.
    let list = format!("ws://127.0.0.1:{live},ws://127.0.0.1:{dead}");
    let (_org, battle, mut seats) = club(&list, &code.unwrap());
    for _ in 0..3 {
        play_one(&mut seats, battle);
    }
    let before: Vec<usize> = seats.iter().map(|s| s.ids.len()).collect();
    // SIGKILL mid-game, and the same club started again at the same place.
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, again) = serve(&data, live);
    assert!(again.is_none(), "the club is the same");
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
            format!("127.0.0.1:{live}"),
            "round the list back to the live one"
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}
