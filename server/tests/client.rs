//! The blocking client (`xenolog_server::client`) against an in-process
//! server: hello with grants, `campaigns` with whose turn it is, a watch
//! resumed after a dropped connection with no gap and no duplicate, a
//! command sent again after a reconnect decided only once (its `cmd_id`),
//! and the battle-file route: refused in words before the end and to a
//! token without a seat, the whole battle after it.

use serde_json::{Value, json};
use xenolog_server::client::{Client, ClientError, ServerAddr, new_cmd_id};
use xenolog_server::proto::ErrCode;
use xenolog_server::secret::Token;
use xenolog_server::{Config, start};

struct Club {
    _rt: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
    addr: ServerAddr,
    org: Client,
}

fn club() -> Club {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut running = rt
        .block_on(start(Config {
            data: dir.path().join("club"),
            listen: "127.0.0.1:0".parse().unwrap(),
            invite_organiser: false,
            public: None,
        }))
        .unwrap();
    let code = running.take_invitation().unwrap().code.expose();
    let addr = ServerAddr::parse(&running.ws_url()).unwrap();
    // The server runs on the runtime's workers until the runtime is dropped.
    std::mem::forget(running);
    let mut org = Client::connect(addr.clone(), None).unwrap();
    org.request_no_retry("redeem", json!({"code": code}))
        .unwrap();
    Club {
        _rt: rt,
        _dir: dir,
        addr,
        org,
    }
}

/// A race battle with both seats joined; a client per seat.
fn race(club: &mut Club) -> (i64, i64, Vec<Client>) {
    let c = club
        .org
        .request("create_campaign", json!({"name": "Club"}))
        .unwrap()["campaign"]
        .as_i64()
        .unwrap();
    let b = club
        .org
        .request(
            "create_battle",
            json!({"campaign": c, "game": "race", "config": {"target": 12}}),
        )
        .unwrap()["battle"]
        .as_i64()
        .unwrap();
    let mut seats = Vec::new();
    for seat in 0..2u8 {
        let inv = club
            .org
            .request(
                "invite",
                json!({"role": "player", "campaign": c, "battle": b, "seat": seat}),
            )
            .unwrap();
        let mut anon = Client::connect(club.addr.clone(), None).unwrap();
        let r = anon
            .request_no_retry("redeem", json!({"code": inv["code"]}))
            .unwrap();
        let token = Token::from_text(r["token"].as_str().unwrap());
        let mut p = Client::connect(club.addr.clone(), Some(token)).unwrap();
        let grants = p.hello()["grants"].clone();
        assert_eq!(
            grants,
            json!([{"campaign": c, "battle": b, "seat": seat}]),
            "hello names the seat the token opens"
        );
        let nonce = xenolog_engine::fair::hex(&[seat + 1; 32]);
        p.request("join", json!({"battle": b, "seat": seat, "nonce": nonce}))
            .unwrap();
        seats.push(p);
    }
    (c, b, seats)
}

/// One race move by seat `s` if it is asked (roll two dice until six
/// points are on the turn, then hold): `Some(over)` when it moved.
fn race_move(p: &mut Client, b: i64, s: usize) -> Option<bool> {
    let legal = p.request("legal", json!({"battle": b, "seat": s})).unwrap();
    if legal["legal"].as_array().is_none_or(|l| l.is_empty()) {
        return None;
    }
    let st = p.request("state", json!({"battle": b, "seat": s})).unwrap();
    let command = if st["state"]["turn_total"].as_u64().unwrap_or(0) >= 6 {
        json!("hold")
    } else {
        json!({"roll": {"dice": 2}})
    };
    let r = p
        .request(
            "command",
            json!({"battle": b, "seat": s, "at": st["head"], "command": command}),
        )
        .unwrap();
    Some(r["over"] == json!(true))
}

/// Play the race to the end.
fn play_out(b: i64, seats: &mut [Client]) {
    for _ in 0..400 {
        for (s, p) in seats.iter_mut().enumerate() {
            if race_move(p, b, s) == Some(true) {
                return;
            }
        }
    }
    panic!("the race did not end");
}

#[test]
fn campaigns_say_whose_turn_it_is_and_which_seats_are_mine() {
    let mut club = club();
    let (c, b, mut seats) = race(&mut club);
    let list = seats[1].request("campaigns", json!({})).unwrap();
    let battles = &list["campaigns"][0]["battles"];
    assert_eq!(list["campaigns"][0]["campaign"], json!(c));
    assert_eq!(battles[0]["battle"], json!(b));
    assert_eq!(battles[0]["my_seats"], json!([1]));
    assert_eq!(battles[0]["status"], "playing");
    assert!(
        !battles[0]["asked"].as_array().unwrap().is_empty(),
        "whose turn: {list}"
    );
    // The organiser sees every campaign.
    let all = club.org.request("campaigns", json!({})).unwrap();
    assert_eq!(all["campaigns"].as_array().unwrap().len(), 1);
}

#[test]
fn a_watch_resumes_after_a_dropped_connection_without_gap_or_duplicate() {
    let mut club = club();
    let (_, b, mut seats) = race(&mut club);
    let mut watcher = seats.remove(0);
    watcher.watch(b, 0, None).unwrap();
    let mut ids = Vec::new();
    // Both seats play on (seat 0 through the watcher itself)
    // while the watcher's connection is dropped twice.
    let mut other = seats.remove(0);
    let mut over = false;
    for round in 0..400 {
        if round < 2 {
            watcher.drop_connection();
        }
        while let Some(ev) = watcher
            .next_event(std::time::Duration::from_millis(50))
            .unwrap()
        {
            if ev["type"] == "entry" {
                ids.push(ev["entry"]["id"].as_u64().unwrap());
            }
            if ev["type"] == "over" {
                over = true;
            }
        }
        if over {
            break;
        }
        // Seat 0 moves through the watcher itself, seat 1 through its client.
        for (s, p) in [(0usize, &mut watcher), (1, &mut other)] {
            race_move(p, b, s);
        }
    }
    assert!(over, "the race ended");
    assert_eq!(watcher.reconnects(), 2);
    let expected: Vec<u64> = (0..ids.len() as u64).collect();
    assert_eq!(ids, expected, "every entry once, in order");
}

#[test]
fn a_command_sent_again_after_a_reconnect_is_decided_once() {
    let mut club = club();
    let (_, b, mut seats) = race(&mut club);
    let mut asked = None;
    for (s, p) in seats.iter_mut().enumerate() {
        let l = p.request("legal", json!({"battle": b, "seat": s})).unwrap();
        if l["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            asked = Some(s);
        }
    }
    let s = asked.expect("someone is asked");
    let p = &mut seats[s];
    let legal = p.request("legal", json!({"battle": b, "seat": s})).unwrap();
    let at = p.request("state", json!({"battle": b, "seat": s})).unwrap()["head"].clone();
    let fields = json!({"battle": b, "seat": s, "at": at,
        "command": legal["legal"][0]["command"], "cmd_id": new_cmd_id().unwrap()});
    let first = p.request_no_retry("command", fields.clone()).unwrap();
    // The reply is "lost": the connection drops; the client makes it again
    // and sends the same command with the same cmd_id.
    p.drop_connection();
    let again = p.request("command", fields).unwrap();
    assert_eq!(again["entries"], first["entries"]);
    assert!(
        again["again"].as_str().unwrap().starts_with("already done"),
        "{again}"
    );
    let head = p.request("state", json!({"battle": b, "seat": s})).unwrap()["head"].clone();
    assert_eq!(
        Some(&head),
        first["entries"].as_array().unwrap().last(),
        "nothing was decided twice"
    );
}

#[test]
fn the_battle_file_is_refused_in_words_before_the_end_and_whole_after_it() {
    let mut club = club();
    let (c, b, mut seats) = race(&mut club);
    let before = seats[0].download(c, b).unwrap_err();
    assert_eq!(before.code(), Some(ErrCode::Refused), "{before}");
    assert!(
        before.to_string().contains("still being played"),
        "{before}"
    );
    // A token with no seat in the battle.
    let inv = club
        .org
        .request("invite", json!({"role": "player", "label": "Eve"}))
        .unwrap();
    let mut anon = Client::connect(club.addr.clone(), None).unwrap();
    let eve = anon
        .request_no_retry("redeem", json!({"code": inv["code"]}))
        .unwrap();
    let eve = Client::connect(
        club.addr.clone(),
        Some(Token::from_text(eve["token"].as_str().unwrap())),
    )
    .unwrap();
    let e = eve.download(c, b).unwrap_err();
    assert_eq!(e.code(), Some(ErrCode::Forbidden), "{e}");
    // A campaign that is not there.
    let e = seats[0].download(c + 5, b).unwrap_err();
    assert_eq!(e.code(), Some(ErrCode::NotFound), "{e}");
    assert!(matches!(e, ClientError::Refused(_)));

    play_out(b, &mut seats);
    let bytes = seats[1].download(c, b).unwrap();
    let f = xenolog_schema::battle_file::read_battle_file(&bytes).unwrap();
    assert!(f.secret.is_some(), "the secret is revealed in the file");
    let fair = f.meta.fair.clone().expect("a fair seed");
    assert_eq!(fair.nonces.len(), 2);
    let b2 = xenolog_engine::games::load_battle(f.into_stored()).unwrap();
    assert!(b2.outcome().is_some());
    let report: Value = serde_json::to_value(b2.verify()).unwrap();
    assert!(b2.verify().ok(), "{report}");
}
