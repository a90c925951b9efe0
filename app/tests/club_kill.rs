//! SIGKILL the real `xenolog serve` while commands fly (issue 30, "a SIGKILLed
//! server loses nothing it acknowledged"; server/DESIGN.md section 7).
//!
//! Two seats, each its own token and socket (tungstenite), play a Dice Race
//! through the server. Five times, at a seeded random moment, the server is
//! killed with SIGKILL and started again on the same data folder. After each
//! restart: every entry a seat was acknowledged is there with the same
//! receipt; the command whose reply was lost is resent with its `cmd_id` and
//! answered (`again` if it had landed, decided now if not, never twice); the
//! seats resume from the last entry they hold, with no gap and no duplicate.
//! `XENOLOG_CLUB_KILLS=N` kills N times instead of 5 (the soak of
//! RELIABILITY.md). Then the race is played to its end, and the campaign file verifies, every
//! receipt re-deriving from the revealed secret.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::Message;

#[path = "support/club.rs"]
mod support;

type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn connect(url: &str) -> Ws {
    let (ws, _) = tungstenite::connect(url).expect("the server answers");
    ws
}

/// A frame, or why none came (the server is gone).
fn read(ws: &mut Ws) -> Result<Value, String> {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => return Ok(serde_json::from_str(t.as_str()).unwrap()),
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
            Ok(other) => return Err(format!("{other:?}")),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Send a request; events before its reply go to `events`. `Err` when the
/// connection broke (the server was killed).
fn request(
    ws: &mut Ws,
    id: u64,
    kind: &str,
    mut fields: Value,
    events: &mut Vec<Value>,
) -> Result<Value, String> {
    fields["v"] = json!(1);
    fields["id"] = json!(id);
    fields["type"] = json!(kind);
    ws.send(Message::text(fields.to_string()))
        .map_err(|e| e.to_string())?;
    loop {
        let v = read(ws)?;
        if v.get("re").is_none() {
            events.push(v);
            continue;
        }
        assert_eq!(v["re"], json!(id), "{v}");
        return Ok(v);
    }
}

fn ok(ws: &mut Ws, id: u64, kind: &str, fields: Value) -> Value {
    let r = request(ws, id, kind, fields, &mut Vec::new()).unwrap();
    assert!(r.get("err").is_none(), "{kind} refused: {r}");
    r["ok"].clone()
}

/// One seat: its token, socket, and what it was shown.
struct Seat {
    seat: u8,
    token: String,
    ws: Ws,
    next: u64,
    /// Entry id -> its receipt, as the seat received it.
    held: BTreeMap<u64, String>,
    state: Value,
    over: Option<Value>,
}

impl Seat {
    fn head(&self) -> Option<u64> {
        self.held.keys().next_back().copied()
    }

    fn id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Take in events: entries strictly after what is held, then state.
    fn absorb(&mut self, v: &Value) {
        match v["type"].as_str() {
            Some("entry") => {
                let id = v["entry"]["id"].as_u64().unwrap();
                assert!(
                    self.head().is_none_or(|h| id > h),
                    "seat {}: entry {id} after {:?}: a duplicate or out of order",
                    self.seat,
                    self.head()
                );
                let receipt = v["entry"]["receipt"].as_str().unwrap().to_owned();
                self.held.insert(id, receipt);
                self.state = v["state"].clone();
            }
            Some("live") => self.state = v["state"].clone(),
            Some("over") => self.over = Some(v.clone()),
            _ => panic!("unexpected frame {v}"),
        }
    }

    /// Say hello on a new socket and watch from the last entry held.
    fn resume(&mut self, url: &str, battle: i64) {
        self.ws = connect(url);
        let id = self.id();
        ok(&mut self.ws, id, "hello", json!({"token": self.token}));
        let id = self.id();
        let mut events = Vec::new();
        let after = self.head();
        let r = request(
            &mut self.ws,
            id,
            "watch",
            json!({"battle": battle, "seat": self.seat, "after": after}),
            &mut events,
        )
        .unwrap();
        assert!(r.get("err").is_none(), "{r}");
        for e in &events {
            self.absorb(e);
        }
        assert_eq!(events.last().unwrap()["type"], "live", "{events:?}");
    }

    /// Read events until entry `until` is held (or the over event after it).
    fn catch_up(&mut self, until: u64) -> Result<(), String> {
        while self.head() < Some(until) {
            let v = read(&mut self.ws)?;
            self.absorb(&v);
        }
        Ok(())
    }
}

/// A command sent whose reply may not have come.
#[derive(Clone, Debug)]
struct Sent {
    seat: usize,
    at: Option<u64>,
    command: Value,
    cmd_id: String,
}

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// The next command of the seat to move. While the kills go on the seats
/// roll one die and never hold (a turn ends only when a 1 loses its total),
/// so nobody scores and the race outlasts the kills however fast the
/// machine; to finish they roll two dice until the turn total reaches 20,
/// then hold.
fn next_command(seats: &[Seat; 2], n: u64, finish: bool) -> Sent {
    let state = &seats[0].state;
    let mover = state["to_move"].as_u64().unwrap() as usize;
    let total = state["turn_total"].as_u64().unwrap();
    let roll = !finish || total < 20;
    let command = if roll {
        json!({"roll": {"dice": if finish { 2 } else { 1 }}})
    } else {
        json!("hold")
    };
    Sent {
        seat: mover,
        at: seats[0].head(),
        command,
        cmd_id: format!("k{n}"),
    }
}

/// Send a command from its seat; the entries it made, or `Err` if the
/// server went away before the reply.
fn send(seats: &mut [Seat; 2], battle: i64, s: &Sent) -> Result<Value, String> {
    let seat = &mut seats[s.seat];
    let id = seat.id();
    let mut events = Vec::new();
    let r = request(
        &mut seat.ws,
        id,
        "command",
        json!({"battle": battle, "seat": s.seat, "at": s.at, "command": s.command,
               "cmd_id": s.cmd_id}),
        &mut events,
    );
    for e in &events {
        seat.absorb(e);
    }
    r
}

#[test]
fn a_sigkilled_server_loses_nothing_it_acknowledged_and_the_race_finishes() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("club");
    let mut served = support::serve(&data);
    let mut org = connect(&served.url);
    let r = ok(&mut org, 1, "redeem", json!({"code": served.code}));
    assert_eq!(r["role"], "organiser");
    let campaign = ok(&mut org, 2, "create_campaign", json!({"name": "Club"}))["campaign"]
        .as_i64()
        .unwrap();
    let battle = ok(
        &mut org,
        3,
        "create_battle",
        json!({"campaign": campaign, "game": "race", "config": {"target": 200}}),
    )["battle"]
        .as_i64()
        .unwrap();
    let mut seats: Vec<Seat> = (0..2u8)
        .map(|seat| {
            let inv = ok(
                &mut org,
                10 + u64::from(seat),
                "invite",
                json!({"role": "player", "label": format!("seat {seat}"),
                       "campaign": campaign, "battle": battle, "seat": seat}),
            );
            let mut ws = connect(&served.url);
            let r = ok(&mut ws, 1, "redeem", json!({"code": inv["code"]}));
            let mut s = Seat {
                seat,
                token: r["token"].as_str().unwrap().to_owned(),
                ws,
                next: 1,
                held: BTreeMap::new(),
                state: Value::Null,
                over: None,
            };
            let id = s.id();
            let nonce = xenolog_engine::fair::hex(&[seat + 7; 32]);
            ok(
                &mut s.ws,
                id,
                "join",
                json!({"battle": battle, "seat": seat, "nonce": nonce}),
            );
            s
        })
        .collect();
    drop(org);
    for s in seats.iter_mut() {
        let url = served.url.clone();
        s.resume(&url, battle);
    }
    let mut seats: [Seat; 2] = seats.try_into().ok().unwrap();

    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut n = 0u64;
    let mut kills = 0;
    // `XENOLOG_CLUB_KILLS=100` makes it a soak (RELIABILITY.md).
    let wanted: u32 = std::env::var("XENOLOG_CLUB_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut resent = (0, 0); // (answered again, decided now)
    let mut acked: BTreeMap<u64, String> = BTreeMap::new();
    while kills < wanted {
        // A killer waits a seeded random moment, then SIGKILLs the server.
        let pid = served.child.id();
        let wait = Duration::from_millis(150 + xorshift(&mut rng) % 450);
        let killer = std::thread::spawn(move || {
            std::thread::sleep(wait);
            let status = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status()
                .unwrap();
            assert!(status.success());
        });
        let lost = loop {
            let s = next_command(&seats, n, false);
            n += 1;
            match send(&mut seats, battle, &s) {
                Ok(r) => {
                    assert!(r.get("err").is_none(), "{s:?} refused: {r}");
                    let entries: Vec<u64> = r["ok"]["entries"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| e.as_u64().unwrap())
                        .collect();
                    for e in &entries {
                        let receipt = seats[s.seat].held.get(e).cloned();
                        acked.insert(*e, receipt.expect("the sender holds its entries"));
                    }
                    // The other seat sees them too (until the server dies).
                    let last = *entries.last().unwrap();
                    if seats[1 - s.seat].catch_up(last).is_err() {
                        break None;
                    }
                    assert!(r["ok"]["over"] != true, "the race outlasts the kills");
                }
                Err(_) => break Some(s),
            }
        };
        killer.join().unwrap();
        let _ = served.child.wait();
        kills += 1;

        // Started again on the same folder.
        let again = support::serve_again(&data, "127.0.0.1:0");
        assert!(again.code.is_empty(), "a restart prints no new invitation");
        served = again;
        for s in seats.iter_mut() {
            s.resume(&served.url, battle);
        }
        // Every acknowledged entry is there, with the same receipt: a fresh
        // watch from the start shows them.
        let mut fresh = Seat {
            seat: 0,
            token: seats[0].token.clone(),
            ws: connect(&served.url),
            next: 1,
            held: BTreeMap::new(),
            state: Value::Null,
            over: None,
        };
        fresh.resume(&served.url, battle);
        for (id, receipt) in &acked {
            assert_eq!(
                fresh.held.get(id),
                Some(receipt),
                "kill {kills}: acknowledged entry {id} is there with its receipt"
            );
        }
        assert_eq!(
            fresh.held, seats[0].held,
            "kill {kills}: no gap, no duplicate"
        );
        assert_eq!(seats[0].held, seats[1].held);
        // The command whose reply was lost: resent with its cmd_id.
        if let Some(s) = lost {
            let r = send(&mut seats, battle, &s).unwrap();
            assert!(r.get("err").is_none(), "kill {kills}: the resend: {r}");
            let entries = r["ok"]["entries"].as_array().unwrap().clone();
            if r["ok"]["again"].is_string() {
                resent.0 += 1;
                for e in &entries {
                    assert!(
                        seats[s.seat].held.contains_key(&e.as_u64().unwrap()),
                        "kill {kills}: answered again with entries the seat resumed: {r}"
                    );
                }
            } else {
                resent.1 += 1;
            }
            let last = entries.last().unwrap().as_u64().unwrap();
            seats[1 - s.seat].catch_up(last).unwrap();
            for e in &entries {
                let e = e.as_u64().unwrap();
                acked.insert(e, seats[s.seat].held[&e].clone());
            }
        }
    }

    // Played to the end.
    let finishing = n;
    loop {
        let s = next_command(&seats, n, true);
        n += 1;
        let r = send(&mut seats, battle, &s).unwrap();
        assert!(r.get("err").is_none(), "{r}");
        let last = r["ok"]["entries"].as_array().unwrap().last().unwrap();
        seats[1 - s.seat].catch_up(last.as_u64().unwrap()).unwrap();
        if r["ok"]["over"] == true {
            break;
        }
        assert!(n - finishing < 5_000, "the race ends");
    }
    let over = loop {
        if let Some(o) = seats[1].over.clone() {
            break o;
        }
        let v = read(&mut seats[1].ws).unwrap();
        seats[1].absorb(&v);
    };
    let secret = xenolog_engine::fair::from_hex(over["secret"].as_str().unwrap()).unwrap();
    let _ = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status();
    let status = served.child.wait().unwrap();
    assert!(status.success(), "{status:?}");

    // The campaign file replays, and every receipt a seat holds re-derives.
    let file = data.join("campaigns/1.xenolog");
    let copy = xenolog_saves::Campaign::open_read_only(&file).unwrap();
    let id = copy.battles().unwrap()[0].id;
    let report = copy.verify_battle(id).unwrap();
    assert!(report.ok(), "{report}");
    let loaded = copy.load_battle(id).unwrap();
    let line = loaded.path_to(loaded.cursor());
    assert_eq!(line, seats[0].held.keys().copied().collect::<Vec<_>>());
    for (e, receipt) in &seats[0].held {
        let chain = &loaded.records()[*e as usize].chain;
        assert_eq!(
            &xenolog_engine::fair::hex(&xenolog_engine::fair::receipt(&secret, chain)),
            receipt,
            "entry {e}"
        );
    }
    eprintln!(
        "{wanted} kills, {} entries, {} acknowledged, resent: {} answered again, {} decided now; {:.1} s",
        line.len(),
        acked.len(),
        resent.0,
        resent.1,
        started.elapsed().as_secs_f64()
    );
}
