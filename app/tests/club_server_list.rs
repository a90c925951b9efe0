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
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use xenolog_server::client::{Client, ServerAddr, new_cmd_id};
use xenolog_server::secret::Token;

#[path = "support/club.rs"]
mod support;

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

/// A seat: its client and every entry id it was shown, in order.
struct Seat {
    seat: u8,
    client: Client,
    seen: Vec<u64>,
    state: Value,
}

impl Seat {
    /// Take the events that came, waiting until entry `until` is held.
    fn catch_up(&mut self, battle: i64, until: Option<u64>) {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let there = match until {
                // Watching from the start: until the battle is live.
                None => !self.state.is_null(),
                Some(u) => self.seen.last().is_some_and(|&l| l >= u),
            };
            if there {
                // Whatever else came already.
                while let Some(e) = self.client.next_event(Duration::from_millis(1)).unwrap() {
                    self.absorb(&e);
                }
                return;
            }
            assert!(
                Instant::now() < end,
                "seat {}: entry {until:?} never came",
                self.seat
            );
            if let Some(e) = self.client.next_event(Duration::from_millis(200)).unwrap() {
                self.absorb(&e);
            }
            let _ = battle;
        }
    }

    fn absorb(&mut self, e: &Value) {
        match e["type"].as_str() {
            Some("entry") => {
                let id = e["entry"]["id"].as_u64().unwrap();
                self.seen.push(id);
                self.state = e["state"].clone();
            }
            Some("live") => self.state = e["state"].clone(),
            _ => {}
        }
    }
}

fn ok(v: Result<Value, xenolog_server::client::ClientError>, what: &str) -> Value {
    match v {
        Ok(v) => v,
        Err(e) => panic!("{what}: {e}"),
    }
}

/// A club with a two-seat Dice Race, every seat joined and watching, each
/// seat's client given `list`; the organiser's client made with `list` too.
fn club(list: &str, code: &str) -> (Client, i64, [Seat; 2]) {
    let addr = ServerAddr::parse(list).unwrap();
    let mut org = Client::connect(addr.clone(), None).unwrap();
    ok(
        org.request_no_retry("redeem", json!({"code": code})),
        "redeem",
    );
    let campaign = ok(
        org.request("create_campaign", json!({"name": "Club"})),
        "campaign",
    )["campaign"]
        .as_i64()
        .unwrap();
    let battle = ok(
        org.request(
            "create_battle",
            json!({"campaign": campaign, "game": "race", "config": {"target": 200}}),
        ),
        "battle",
    )["battle"]
        .as_i64()
        .unwrap();
    let seats: Vec<Seat> = (0..2u8)
        .map(|seat| {
            let inv = ok(
                org.request(
                    "invite",
                    json!({"role": "player", "label": format!("seat {seat}"),
                           "campaign": campaign, "battle": battle, "seat": seat}),
                ),
                "invite",
            );
            let mut c = Client::connect(addr.clone(), None).unwrap();
            let r = ok(
                c.request_no_retry("redeem", json!({"code": inv["code"]})),
                "seat redeem",
            );
            c.close();
            let token = Token::from_text(r["token"].as_str().unwrap());
            let mut client = Client::connect(addr.clone(), Some(token)).unwrap();
            ok(
                client.request(
                    "join",
                    json!({"battle": battle, "seat": seat,
                           "nonce": xenolog_engine::fair::hex(&[seat + 7; 32])}),
                ),
                "join",
            );
            Seat {
                seat,
                client,
                seen: Vec::new(),
                state: Value::Null,
            }
        })
        .collect();
    let mut seats: [Seat; 2] = seats.try_into().ok().unwrap();
    for s in seats.iter_mut() {
        ok(s.client.watch(battle, s.seat, None), "watch");
        s.catch_up(battle, None);
    }
    (org, battle, seats)
}

/// The mover rolls one die; both seats take in its entries.
fn play_one(seats: &mut [Seat; 2], battle: i64) {
    let mover = seats[0].state["to_move"].as_u64().expect("to_move") as usize;
    let at = seats[mover].client.last_entry(battle);
    let r = ok(
        seats[mover].client.request(
            "command",
            json!({"battle": battle, "seat": mover, "at": at,
                   "command": {"roll": {"dice": 1}}, "cmd_id": new_cmd_id().unwrap()}),
        ),
        "command",
    );
    let last = r["entries"]
        .as_array()
        .and_then(|e| e.last())
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no entries: {r}"));
    for s in seats.iter_mut() {
        s.catch_up(battle, Some(last));
    }
}

/// Every entry once, in order, from the first: nothing missed across a
/// reconnect, nothing twice.
fn whole(seen: &[u64]) -> bool {
    seen.iter().enumerate().all(|(i, &id)| id == i as u64)
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
        assert!(whole(&s.seen) && s.seen.len() >= 4, "{:?}", s.seen);
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
    let before: Vec<usize> = seats.iter().map(|s| s.seen.len()).collect();
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
        assert!(s.seen.len() > n, "seat {}: the game went on", s.seat);
        assert!(
            whole(&s.seen),
            "seat {}: every entry once, in order: {:?}",
            s.seat,
            s.seen
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
