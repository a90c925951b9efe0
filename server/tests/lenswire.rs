//! What a seat reads from a real club server (session 23, lenswire): each
//! entry line names its branch's kind (`entry.branch_kind`, fmt5's item 4),
//! and the `legal` answer and the battle list say whom the game waits for
//! (`Battle::waited_for`), not every seat it asks.

mod common;

use common::{Client, local_config, new_battle, organiser, seat_player_token, server, two_seats};
use serde_json::{Value, json};
use xenolog_engine::seat::{SeatEntry, SeatLog, seat_battle};
use xenolog_engine::{Actor, BranchKind};

/// The last entry a command's reply names.
fn last_entry(reply: &Value) -> u64 {
    common::last_entry(reply).unwrap_or_else(|| panic!("no entry in {reply}"))
}

/// Watch `seat` from the setup on a new socket: every `entry` frame of the
/// backfill, in order, up to `live`.
async fn backfill(url: &str, token: &str, battle: i64, seat: u8) -> Vec<Value> {
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut c = Client::over(ws);
    c.ok("hello", json!({"token": token})).await;
    c.ok(
        "watch",
        json!({"battle": battle, "seat": seat, "after": null}),
    )
    .await;
    let mut frames = Vec::new();
    loop {
        let v = c.event().await;
        match v["type"].as_str() {
            Some("entry") => frames.push(v),
            Some("live") => return frames,
            _ => panic!("unexpected frame {v}"),
        }
    }
}

/// The kind each frame names, by entry id.
fn kinds(frames: &[Value]) -> Vec<(u64, String)> {
    frames
        .iter()
        .map(|f| {
            let e = &f["entry"];
            let kind = e["branch_kind"]
                .as_str()
                .unwrap_or_else(|| panic!("every entry line names its branch's kind: {f}"));
            (e["id"].as_u64().unwrap(), kind.to_owned())
        })
        .collect()
}

/// The seat's copy of the battle built from `frames`: the kind of the
/// branch its head is on.
fn copy_kind(setup: Value, seat: u8, frames: &[Value]) -> BranchKind {
    let mut log = SeatLog::new(Actor(seat), setup);
    for f in frames {
        log.push(SeatEntry::from_event(f, log.head).unwrap())
            .unwrap();
    }
    let copy = seat_battle("race", &log).unwrap();
    copy.branches()[copy.current_branch() as usize].kind
}

/// A take-back's line reaches a seat as a take-back; the same line stored
/// as another copy's (the kind a merge into the club campaign gives a
/// grafted line: set in the stopped server's campaign file) reaches it as
/// "from-copy" after a restart, and the seat's copy keeps each kind.
#[tokio::test]
async fn entry_lines_name_their_branchs_kind_a_takeback_and_a_grafted_line() {
    let s = server().await;
    let mut org = organiser(&s).await;
    let (campaign, battle, _) =
        new_battle(&mut org, "race", json!({"target": 1000}), json!({})).await;
    let (mut zero, t0) = seat_player_token(&s, &mut org, campaign, battle, 0).await;
    let (mut one, _) = seat_player_token(&s, &mut org, campaign, battle, 1).await;
    zero.join(battle, 0, 1).await;
    one.join(battle, 1, 2).await;
    let setup = zero.ok("state", json!({"battle": battle, "seat": 0})).await["state"].clone();
    let mut at: Option<u64> = None;
    let mut held = Vec::new();
    for i in 0..3 {
        let (c, seat) = if i % 2 == 0 {
            (&mut zero, 0)
        } else {
            (&mut one, 1)
        };
        let r = c
            .ok(
                "command",
                json!({"battle": battle, "seat": seat, "at": at, "command": "hold"}),
            )
            .await;
        at = Some(last_entry(&r));
        held.push(at.unwrap());
    }
    // Back to the first hold (seat 1 accepts), and a roll there: a branch.
    let asked = zero
        .ok(
            "takeback",
            json!({"battle": battle, "seat": 0, "to": held[0]}),
        )
        .await;
    let done = one
        .ok(
            "takeback_answer",
            json!({"battle": battle, "seat": 1, "request": asked["request"], "accept": true}),
        )
        .await;
    assert_eq!(done["moved"], true, "{done}");
    let r = one
        .ok(
            "command",
            json!({"battle": battle, "seat": 1, "at": held[0], "command": {"roll": {"dice": 1}}}),
        )
        .await;
    let branched = last_entry(&r);
    let url = s.running.ws_url();
    let frames = backfill(&url, &t0, battle, 0).await;
    assert_eq!(
        kinds(&frames),
        vec![
            (held[0], "main".to_owned()),
            (branched, "take-back".to_owned())
        ]
    );
    assert_eq!(copy_kind(setup.clone(), 0, &frames), BranchKind::TakeBack);

    // The same line stored as another copy's, as a merge grafts one.
    let common::Server {
        running,
        data,
        _dir,
        ..
    } = s;
    running.stop().await.unwrap();
    let file = data.join(format!("campaigns/{campaign}.xenolog"));
    let db = rusqlite::Connection::open(&file).unwrap();
    let changed = db
        .execute("UPDATE branches SET kind = 'from-copy' WHERE id = 1", [])
        .unwrap();
    assert_eq!(changed, 1, "the battle's one branch besides the main line");
    drop(db);
    let again = xenolog_server::start(local_config(data.clone()))
        .await
        .unwrap();
    let url = again.ws_url();
    let frames = backfill(&url, &t0, battle, 0).await;
    assert_eq!(
        kinds(&frames),
        vec![
            (held[0], "main".to_owned()),
            (branched, "from-copy".to_owned())
        ]
    );
    assert_eq!(copy_kind(setup, 0, &frames), BranchKind::FromCopy);
    again.stop().await.unwrap();
}

/// Night of the Saucers, hidden hands (a swap is offered and answered):
/// Nine Lives (seat 1) in its actions holding a Baseball Bat, Fly Boyz
/// (seat 2) holding a Shotgun.
fn saucers() -> Value {
    json!({
        "players": 2,
        "gangs": ["nine_lives", "fly_boyz"],
        "hidden_hands": true,
        "scenario_text": "hand 1 bat\nhand 2 shotgun\nturn 1 actions\n",
    })
}

/// The Shotgun's card number in Fly Boyz' hand (not in seat 1's view).
fn shotgun() -> Value {
    use xenolog_engine::Session;
    use xenolog_engine::games::saucers::{Saucers, SaucersConfig};
    let config: SaucersConfig = serde_json::from_value(saucers()).unwrap();
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    xenolog_engine::Battle::play_due(&mut s).unwrap();
    json!(s.state().seats[1].hand[0])
}

/// The seats of a list's status or a `legal` answer's key.
fn seats(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("a list of seats: {v}"))
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

/// The status the battle list (`campaigns`) gives this socket's player.
async fn listed(c: &mut Client, battle: i64) -> Value {
    let r = c.ok("campaigns", json!({})).await;
    r["campaigns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|camp| camp["battles"].as_array().cloned().unwrap_or_default())
        .find(|b| b["battle"] == battle)
        .unwrap_or_else(|| panic!("battle {battle} in the list: {r}"))
}

/// polish3's left-over: while Nine Lives' swap offer waits for Fly Boyz'
/// answer, both seats are asked (the offerer may withdraw), but the game
/// waits for Fly Boyz only. The `legal` answer says so to each seat (the
/// offerer's bot waits on it, not on the command's name), and the battle
/// list names Fly Boyz alone, so it reads "(yours)" to the answering seat
/// only. Before the offer, Nine Lives is the one waited for.
#[tokio::test]
async fn legal_and_the_battle_list_name_only_the_seat_a_swap_offer_waits_for() {
    let s = server().await;
    let mut org = organiser(&s).await;
    let (_, battle, mut zero, mut one) =
        two_seats(&s, &mut org, "saucers", saucers(), json!({})).await;
    let legal = |seat: u8| json!({"battle": battle, "seat": seat});
    let before = zero.ok("legal", legal(0)).await;
    assert_eq!(seats(&before["waited_for"]), vec![0], "{before}");
    assert_eq!(
        seats(&listed(&mut one, battle).await["asked_seats"]),
        vec![0]
    );

    let at = zero.ok("state", legal(0)).await["head"].clone();
    let none = json!({"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0});
    let offer = json!({"swap": {"human": "tabby", "with": 1, "give": none, "give_cards": ["bat"],
                                "take": none, "take_cards": [shotgun()]}});
    zero.ok(
        "command",
        json!({"battle": battle, "seat": 0, "at": at, "command": offer}),
    )
    .await;
    for c in [&mut zero, &mut one] {
        let status = listed(c, battle).await;
        assert_eq!(seats(&status["asked_seats"]), vec![1], "{status}");
        assert_eq!(status["asked"], json!(["Fly Boyz"]), "{status}");
    }
    let offerer = zero.ok("legal", legal(0)).await;
    let commands: Vec<&Value> = offerer["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["command"])
        .collect();
    assert_eq!(commands, vec!["withdraw"], "{offerer}");
    assert_eq!(seats(&offerer["waited_for"]), vec![1], "{offerer}");
    let answerer = one.ok("legal", legal(1)).await;
    let answers = answerer["legal"].as_array().map_or(0, Vec::len);
    assert!(answers > 0, "{answerer}");
    assert_eq!(seats(&answerer["waited_for"]), vec![1], "{answerer}");
}
