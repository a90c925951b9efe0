//! Take-backs in a live club battle (server/DESIGN.md section 9, issue 30
//! item 6), against an in-process server with real WebSocket clients.

mod common;

use common::{Backend, Client, Server, new_battle, organiser, server, server_on, two_seats};
use serde_json::{Value, json};

/// The last entry a command's reply names.
fn last_entry(reply: &Value) -> i64 {
    reply["entries"]
        .as_array()
        .and_then(|e| e.last())
        .and_then(Value::as_i64)
        .unwrap_or_else(|| panic!("no entry in {reply}"))
}

/// Play a command at `at`; the last entry it made (the new head).
async fn play(c: &mut Client, battle: i64, seat: u8, at: Option<i64>, command: Value) -> i64 {
    let r = c
        .ok(
            "command",
            json!({"battle": battle, "seat": seat, "at": at, "command": command}),
        )
        .await;
    last_entry(&r)
}

/// The battle's head as the seat's `state` reply says.
async fn head(c: &mut Client, battle: i64, seat: u8) -> Value {
    c.ok("state", json!({"battle": battle, "seat": seat})).await["head"].clone()
}

/// A started battle of `game` with two seated players watching from the
/// start: the server, the battle, seat 0's socket and seat 1's.
async fn table(game: &str, config: Value, options: Value) -> (Server, i64, Client, Client) {
    table_on(Backend::Sqlite, game, config, options)
        .await
        .unwrap()
}

/// [`table`] on `backend` (`None`: no PostgreSQL cluster to test on).
async fn table_on(
    backend: Backend,
    game: &str,
    config: Value,
    options: Value,
) -> Option<(Server, i64, Client, Client)> {
    let s = server_on(backend).await?;
    let mut org = organiser(&s).await;
    let (_, battle, zero, one) = two_seats(&s, &mut org, game, config, options).await;
    Some((s, battle, zero, one))
}

/// A race to 1,000 (as [`table`], with these options) in which the seats
/// hold in turn, seat 0 first, N times: the table and the entries made.
async fn race_held<const N: usize>(options: Value) -> (Server, i64, Client, Client, [i64; N]) {
    race_held_on(Backend::Sqlite, options).await.unwrap()
}

/// [`race_held`] on `backend`.
async fn race_held_on<const N: usize>(
    backend: Backend,
    options: Value,
) -> Option<(Server, i64, Client, Client, [i64; N])> {
    let (s, battle, mut zero, mut one) =
        table_on(backend, "race", json!({"target": 1000}), options).await?;
    let mut held = [0; N];
    let mut at = None;
    for (i, e) in held.iter_mut().enumerate() {
        let (c, seat) = if i % 2 == 0 {
            (&mut zero, 0)
        } else {
            (&mut one, 1)
        };
        *e = play(c, battle, seat, at, json!("hold")).await;
        at = Some(*e);
    }
    Some((s, battle, zero, one, held))
}

/// Seat `seat` asks to take `battle` back to `to` (an entry, or null for
/// the setup); the reply.
async fn ask(c: &mut Client, battle: i64, seat: u8, to: Value) -> Value {
    c.ok(
        "takeback",
        json!({"battle": battle, "seat": seat, "to": to}),
    )
    .await
}

/// The same, refused with `code`; its words.
async fn ask_refused(c: &mut Client, battle: i64, seat: u8, to: Value, code: &str) -> String {
    c.refused(
        "takeback",
        json!({"battle": battle, "seat": seat, "to": to}),
        code,
    )
    .await
}

/// Seat `seat` answers take-back `request`; the reply.
async fn answer(c: &mut Client, battle: i64, seat: u8, accept: bool, request: &Value) -> Value {
    c.ok(
        "takeback_answer",
        json!({"battle": battle, "seat": seat, "accept": accept, "request": request}),
    )
    .await
}

/// Seat `seat` accepts a take-back of `battle` (naming `request` if one is
/// given), refused with `code`; its words.
async fn accept_refused(
    c: &mut Client,
    battle: i64,
    seat: u8,
    request: Option<&Value>,
    code: &str,
) -> String {
    let mut fields = json!({"battle": battle, "seat": seat, "accept": true});
    if let Some(r) = request {
        fields["request"] = r.clone();
    }
    c.refused("takeback_answer", fields, code).await
}

/// Seat 0 asks to take `battle` back to `to` and seat 1, hearing the
/// request, accepts it: the request as seat 1 heard it, and the answer.
async fn take_back(zero: &mut Client, one: &mut Client, battle: i64, to: Value) -> (Value, Value) {
    let asked = ask(zero, battle, 0, to).await;
    assert_eq!(asked["moved"], false, "{asked}");
    let heard = one.event_of("takeback_asked").await;
    assert_eq!(heard["request"], asked["request"], "{heard}");
    let done = answer(one, battle, 1, true, &asked["request"]).await;
    assert_eq!(done["moved"], true, "{done}");
    (heard, done)
}

/// The battle as its campaign file holds it, after the server stopped.
fn stored(data: &std::path::Path) -> Box<dyn xenolog_engine::Battle> {
    let file = data.join("campaigns/1.xenolog");
    let copy = xenolog_saves::Campaign::open_read_only(&file).unwrap();
    let id = copy.battles().unwrap()[0].id;
    copy.load_battle(id).unwrap()
}

#[tokio::test]
async fn an_accepted_takeback_moves_the_cursor_and_the_next_command_makes_a_branch_keeping_the_old_line()
 {
    accepted_takeback(Backend::Sqlite).await;
}

/// The same on PostgreSQL (issue 31: one suite, two backends).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_on_postgres_an_accepted_takeback_moves_the_cursor_and_the_next_command_makes_a_branch()
{
    accepted_takeback(Backend::Postgres).await;
}

async fn accepted_takeback(backend: Backend) {
    let Some((s, battle, mut zero, mut one, [e0, e1, e2])) = race_held_on(backend, json!({})).await
    else {
        return;
    };

    // Seat 0 asks to go back to entry e0; seat 1 hears it and accepts.
    let asked = ask(&mut zero, battle, 0, json!(e0)).await;
    assert_eq!(asked["moved"], false, "{asked}");
    assert_eq!(asked["waiting"], json!([1]));
    let request = asked["request"].clone();
    let heard = one.event_of("takeback_asked").await;
    assert_eq!(heard["by"], 0);
    assert_eq!(heard["to"], e0);
    assert_eq!(heard["request"], request);
    assert_eq!(heard["dice_seen"], Value::Null, "holds roll nothing");
    // Nothing moved before the answer.
    assert_eq!(head(&mut one, battle, 1).await, json!(e2));
    let done = answer(&mut one, battle, 1, true, &request).await;
    assert_eq!(done["moved"], true, "{done}");
    assert_eq!(done["head"], e0);

    // Watchers of both seats hear `moved`, each with its own seat's view.
    let m0 = zero.event_of("moved").await;
    let m1 = one.event_of("moved").await;
    for (m, seat) in [(&m0, 0), (&m1, 1)] {
        assert_eq!(m["to"], e0, "{m}");
        assert_eq!(m["head"], e0, "{m}");
        assert_eq!(m["seat"], seat, "{m}");
        assert_eq!(m["by"], 0, "{m}");
    }
    assert_eq!(head(&mut zero, battle, 0).await, json!(e0));

    // The old head is no longer the head: a command at it is stale.
    one.refused(
        "command",
        json!({"battle": battle, "seat": 1, "at": e2, "command": {"roll": {"dice": 1}}}),
        "stale",
    )
    .await;
    // A new command at e0 (not the hold recorded there) starts a branch.
    let e3 = play(&mut one, battle, 1, Some(e0), json!({"roll": {"dice": 1}})).await;
    assert!(e3 > e2, "entry ids only grow: {e3} after {e2}");
    let entry = zero.event_of("entry").await;
    assert_eq!(entry["entry"]["id"], e3);
    let Server {
        running, data, pg, ..
    } = s;
    running.stop().await.unwrap();

    // Principle 3: nothing lost. The store holds the old line beside the new.
    common::with_campaign(&data, pg.as_deref(), 1, move |copy| {
        let id = copy.battles().unwrap()[0].id;
        let b = copy.load_battle(id).unwrap();
        assert_eq!(b.records().len() as i64, e3 + 1);
        assert_eq!(b.branches().len(), 2, "the new command made a branch");
        assert_eq!(b.path_to(b.cursor()), vec![e0 as u64, e3 as u64]);
        let old = b.head(0).expect("the first branch keeps its head");
        assert_eq!(old as i64, e2);
        assert_eq!(b.path_to(Some(old)), vec![e0 as u64, e1 as u64, e2 as u64]);
        assert!(b.verify().ok(), "the battle verifies");
    });
}

#[tokio::test]
async fn a_refused_takeback_changes_nothing() {
    let (s, battle, mut zero, mut one, [e0, e1]) = race_held(json!({})).await;
    let asked = ask(&mut one, battle, 1, json!(e0)).await;
    zero.event_of("takeback_asked").await;
    let no = answer(&mut zero, battle, 0, false, &asked["request"]).await;
    assert_eq!(no["moved"], false);
    assert_eq!(no["refused"], true);
    let told = one.event_of("takeback_answered").await;
    assert_eq!(told["accept"], false);
    assert!(
        told["words"].as_str().unwrap().contains("refused"),
        "{told}"
    );
    // The head is where it was, and the battle goes on from it.
    assert_eq!(head(&mut one, battle, 1).await, json!(e1));
    let e2 = play(&mut zero, battle, 0, Some(e1), json!("hold")).await;
    one.settle().await;
    assert!(one.take("moved").is_empty(), "nothing moved");
    // The request is gone: answering it again is refused in words.
    accept_refused(&mut one, battle, 1, None, "not_found").await;
    s.running.stop().await.unwrap();
    let b = stored(&s.data);
    assert_eq!(b.branches().len(), 1);
    assert_eq!(b.cursor(), Some(e2 as u64));
}

#[tokio::test]
async fn the_takeback_reply_and_moved_event_carry_each_seats_own_view_only() {
    let s = server().await;
    let mut org = organiser(&s).await;
    // Friendly play: the take-back moves at once, without asking.
    let (_, battle, mut zero, mut one) = two_seats(
        &s,
        &mut org,
        "highcard",
        json!({}),
        json!({"friendly_takebacks": true}),
    )
    .await;
    // The deal is entry 0; seat 0's hand as seat 0 sees it.
    let dealt = zero
        .ok("state", json!({"battle": battle, "seat": 0, "at": 0}))
        .await;
    let hand = dealt["state"]["hands"][0].as_array().unwrap().clone();
    assert_eq!(hand.len(), 3);
    assert!(hand.iter().all(|c| c.as_u64().unwrap() > 0), "{hand:?}");
    let card = hand[0].clone();
    let e1 = play(
        &mut zero,
        battle,
        0,
        Some(0),
        json!({"lay": {"card": card}}),
    )
    .await;
    assert_eq!(e1, 1);

    let r = ask(&mut one, battle, 1, json!(0)).await;
    assert_eq!(r["moved"], true, "friendly play moves at once: {r}");
    assert_eq!(r["friendly"], true);
    // Seat 1's reply: its own hand, seat 0's hidden.
    let theirs = r["state"]["hands"][0].as_array().unwrap();
    assert!(
        theirs.iter().all(|c| c == 0),
        "seat 0's hand reached seat 1: {r}"
    );
    assert!(
        r["state"]["hands"][1]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.as_u64().unwrap() > 0),
        "{r}"
    );
    let m1 = one.event_of("moved").await;
    let m0 = zero.event_of("moved").await;
    assert!(
        m1["state"]["hands"][0]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c == 0),
        "{m1}"
    );
    assert_eq!(
        m0["state"]["hands"][0],
        json!(hand),
        "seat 0 sees its own hand"
    );
    let seen_by_one = serde_json::to_string(&json!([r, m1])).unwrap();
    assert!(
        !seen_by_one.contains(&serde_json::to_string(&hand).unwrap()),
        "seat 0's hand {hand:?} in what seat 1 received"
    );
    // Seat 0 lays another card from the deal: the card it took back is its
    // own again, and the new line is a branch.
    let e2 = play(
        &mut zero,
        battle,
        0,
        Some(0),
        json!({"lay": {"card": hand[1]}}),
    )
    .await;
    assert_eq!(e2, 2);
}

/// Section 9, a real redo: after a take-back, the command recorded next
/// walks the recorded line (its entry and the game's own steps after it)
/// instead of being decided again: the same entries, no new branch,
/// nothing duplicated; every seat hears them as entries; a resend of it
/// (its `cmd_id`) is answered `again`; the battle goes on at the head.
#[tokio::test]
async fn the_command_recorded_next_walks_the_recorded_line_with_the_games_own_steps_and_every_seat_hears_it()
 {
    let (s, battle, mut zero, mut one) =
        table("highcard", json!({}), json!({"friendly_takebacks": true})).await;
    // The deal is entry 0; a lay (1), the other lay (2) and the game's
    // reveal of the trick (3).
    let e1 = legal_first(&mut zero, &mut one, battle).await;
    assert_eq!(e1, 1);
    let (c, seat) = if head_legal(&mut zero, battle, 0).await.is_some() {
        (&mut zero, 0u8)
    } else {
        (&mut one, 1u8)
    };
    let second = head_legal(c, battle, seat).await.unwrap();
    let r = c
        .ok(
            "command",
            json!({"battle": battle, "seat": seat, "at": e1, "command": second}),
        )
        .await;
    assert_eq!(r["entries"], json!([2, 3]), "the lay and the reveal: {r}");
    // Back to entry 1: a lay and a reveal taken back, no draw.
    let back = ask(&mut zero, battle, 0, json!(e1)).await;
    assert_eq!(back["moved"], true, "{back}");
    for c in [&mut zero, &mut one] {
        c.event_of("moved").await;
        c.settle().await;
        c.events.clear();
    }
    // The same lay again: the recorded line is walked, reveal and all.
    let c = if seat == 0 { &mut zero } else { &mut one };
    let again =
        json!({"battle": battle, "seat": seat, "at": e1, "command": second, "cmd_id": "walk-1"});
    let r = c.ok("command", again.clone()).await;
    assert_eq!(r["entries"], json!([2, 3]), "{r}");
    assert_eq!(r["walked"], true, "{r}");
    assert!(
        r["words"]
            .as_str()
            .unwrap()
            .contains("the same dice and cards"),
        "{r}"
    );
    // Every seat hears the walked entries, once each, in order.
    for c in [&mut zero, &mut one] {
        c.settle().await;
        let ids: Vec<Value> = c
            .take("entry")
            .iter()
            .map(|e| e["entry"]["id"].clone())
            .collect();
        assert_eq!(ids, [json!(2), json!(3)]);
        assert!(c.take("moved").is_empty());
    }
    assert_eq!(head(&mut zero, battle, 0).await, json!(3));
    // Sent again (a lost reply): answered from the record, not walked twice.
    let c = if seat == 0 { &mut zero } else { &mut one };
    let r = c.ok("command", again).await;
    assert_eq!(r["entries"], json!([2, 3]), "{r}");
    assert!(
        r["again"].as_str().unwrap().starts_with("already done"),
        "{r}"
    );
    // The battle goes on at the head, on the same branch.
    let e4 = legal_first(&mut zero, &mut one, battle).await;
    assert_eq!(e4, 4);
    s.running.stop().await.unwrap();
    let b = stored(&s.data);
    assert_eq!(b.records().len(), 5, "nothing duplicated");
    assert_eq!(b.branches().len(), 1, "no new branch");
    assert_eq!(b.cursor(), Some(4));
    assert!(b.verify().ok(), "the battle verifies");
}

/// The seat's first legal command at the head, if it has one.
async fn head_legal(c: &mut Client, battle: i64, seat: u8) -> Option<Value> {
    let legal = c.ok("legal", json!({"battle": battle, "seat": seat})).await;
    legal["legal"]
        .as_array()
        .unwrap()
        .first()
        .map(|l| l["command"].clone())
}

#[tokio::test]
async fn a_strict_battle_refuses_a_takeback_past_dice_that_were_seen() {
    let (_s, battle, mut zero, mut one) = table(
        "race",
        json!({"target": 1000}),
        json!({"strict": true, "friendly_takebacks": true}),
    )
    .await;
    let e0 = play(&mut zero, battle, 0, None, json!({"roll": {"dice": 1}})).await;
    let words = ask_refused(&mut one, battle, 1, json!(null), "refused").await;
    assert_eq!(
        words,
        format!(
            "this is a strict battle and the dice of entry {e0} have been seen: it cannot be taken back to the setup"
        )
    );
    assert_eq!(head(&mut one, battle, 1).await, json!(e0));
    zero.settle().await;
    assert!(zero.take("moved").is_empty());
}

#[tokio::test]
async fn after_the_end_a_takeback_is_refused_in_words() {
    let (_s, battle, mut zero, mut one) = table("highcard", json!({"rounds": 1}), json!({})).await;
    // Each seat lays its first legal card when asked, to the end.
    let mut over = false;
    for _ in 0..40 {
        over = play_first_legal(&mut zero, &mut one, battle).await["over"] == true;
        if over {
            break;
        }
    }
    assert!(over, "the battle ended");
    let words = ask_refused(&mut zero, battle, 0, json!(0), "over").await;
    assert!(
        words.starts_with(
            "the battle is over and its dice are revealed; explore what-ifs in your own copy"
        ),
        "{words}"
    );
}

#[tokio::test]
async fn a_second_request_another_seat_and_the_askers_own_answer_are_refused() {
    let (_s, battle, mut zero, mut one, [e0, _e1]) = race_held(json!({})).await;
    // A seat not the token's.
    let words = ask_refused(&mut zero, battle, 1, json!(e0), "forbidden").await;
    assert_eq!(
        words,
        format!("your invitation opens seat 1 of battle {battle}, not seat 2")
    );
    // `to` must be given (null is the setup).
    zero.refused(
        "takeback",
        json!({"battle": battle, "seat": 0}),
        "bad_request",
    )
    .await;
    ask_refused(&mut zero, battle, 0, json!(99), "not_found").await;
    ask(&mut zero, battle, 0, json!(e0)).await;
    let words = ask_refused(&mut one, battle, 1, json!(null), "refused").await;
    assert_eq!(
        words,
        format!(
            "a take-back is already asked in battle {battle} (seat 1 asks to go back to entry {e0}): it is answered first"
        )
    );
    let words = accept_refused(&mut zero, battle, 0, None, "forbidden").await;
    assert!(words.contains("the other seats answer it"), "{words}");
}

#[tokio::test]
async fn a_command_before_the_last_answer_makes_the_request_lapse() {
    let (_s, battle, mut zero, mut one, [e0]) = race_held(json!({})).await;
    let asked = ask(&mut one, battle, 1, json!(null)).await;
    // Seat 1 plays on instead (its turn): the request was asked at e0.
    let e1 = play(&mut one, battle, 1, Some(e0), json!("hold")).await;
    let words = accept_refused(&mut zero, battle, 0, Some(&asked["request"]), "stale").await;
    assert!(words.contains("ask again"), "{words}");
    assert_eq!(head(&mut zero, battle, 0).await, json!(e1));
}

/// Server/DESIGN.md section 3: an `entry` frame names the entry it follows
/// (`parent`, null for the first), so a seat's copy places the first entry
/// of a new branch after a take-back without guessing from its head.
#[tokio::test]
async fn an_entry_frame_names_its_parent_and_a_new_branchs_first_entry_follows_the_entry_taken_back_to()
 {
    let (_s, battle, mut zero, mut one, [e0, e1]) =
        race_held(json!({"friendly_takebacks": true})).await;
    for (id, parent) in [(e0, Value::Null), (e1, json!(e0))] {
        let f = one.event_of("entry").await;
        assert_eq!(f["entry"]["id"], id, "{f}");
        assert_eq!(f["entry"]["parent"], parent, "{f}");
    }
    // Seat 1 takes its hold back (friendly: at once) and rolls instead:
    // the new branch's first entry follows entry e0, not the old head e1.
    ask(&mut one, battle, 1, json!(e0)).await;
    one.event_of("moved").await;
    let e2 = play(&mut one, battle, 1, Some(e0), json!({"roll": {"dice": 1}})).await;
    for c in [&mut zero, &mut one] {
        let f = loop {
            let f = c.event_of("entry").await;
            if f["entry"]["id"] == e2 {
                break f;
            }
        };
        assert_eq!(f["entry"]["parent"], e0, "{f}");
        assert_eq!(f["entry"]["branch"], 1, "{f}");
    }
}

/// Review of session 14 (SHOULD): accepting names the request answered, so
/// an accept meant for one request never moves the battle for another;
/// without it the answer is refused in words naming the request asked, and
/// nothing changes. A refusal may leave it out.
#[tokio::test]
async fn accepting_a_takeback_without_naming_its_request_is_refused_in_words_and_changes_nothing() {
    let (_s, battle, mut zero, mut one, [e0, e1]) = race_held(json!({})).await;
    let asked = ask(&mut zero, battle, 0, json!(e0)).await;
    let request = asked["request"].as_u64().unwrap();
    let heard = one.event_of("takeback_asked").await;
    let said = heard["words"].as_str().unwrap();
    assert!(
        said.ends_with(&format!(": take-back {request}, for seat 2 to answer")),
        "the request's words name its number: {said}"
    );
    let words = accept_refused(&mut one, battle, 1, None, "bad_request").await;
    assert_eq!(
        words,
        format!(
            "accepting a take-back names it: give `request` (take-back {request} is asked: \
             seat 1 asks to go back to entry {e0})"
        )
    );
    // Nothing moved, and the request is still asked: answered with its
    // number, it moves the battle.
    one.settle().await;
    assert!(one.take("moved").is_empty(), "nothing moved");
    assert_eq!(head(&mut one, battle, 1).await, json!(e1));
    let done = answer(&mut one, battle, 1, true, &json!(request)).await;
    assert_eq!(done["moved"], true, "{done}");
    assert_eq!(head(&mut zero, battle, 0).await, json!(e0));
    // A refusal needs no number.
    ask(&mut one, battle, 1, json!(null)).await;
    zero.event_of("takeback_asked").await;
    let no = zero
        .ok(
            "takeback_answer",
            json!({"battle": battle, "seat": 0, "accept": false}),
        )
        .await;
    assert_eq!(no["refused"], true, "{no}");
}

#[tokio::test]
async fn a_client_resuming_after_an_entry_taken_back_hears_moved_first() {
    let (_s, battle, mut zero, mut one, [e0, _e1, e2]) =
        race_held(json!({"friendly_takebacks": true})).await;
    ask(&mut zero, battle, 0, json!(e0)).await;
    let e3 = play(&mut one, battle, 1, Some(e0), json!({"roll": {"dice": 2}})).await;
    // A client of seat 1 that held the old line up to e2 resumes after it:
    // it hears `moved` to e0 first (its line and the live one part there),
    // then the entries after e2 on the live line, then `live`.
    one.settle().await;
    one.events.clear();
    let r = one
        .ok("watch", json!({"battle": battle, "seat": 1, "after": e2}))
        .await;
    assert_eq!(r["head"], e3);
    let frames: Vec<Value> = one.events.drain(..).collect();
    let kinds: Vec<&str> = frames.iter().map(|f| f["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["moved", "entry", "live"], "{frames:?}");
    assert_eq!(frames[0]["to"], e0);
    assert_eq!(frames[0]["by"], Value::Null);
    assert_eq!(frames[1]["entry"]["id"], e3);
    // A client that is on the live line hears no `moved`.
    zero.settle().await;
    zero.events.clear();
    let r = zero
        .ok("watch", json!({"battle": battle, "seat": 0, "after": e0}))
        .await;
    assert_eq!(r["head"], e3);
    zero.settle().await;
    let kinds: Vec<String> = zero
        .events
        .drain(..)
        .map(|f| f["type"].as_str().unwrap().to_owned())
        .collect();
    assert!(!kinds.iter().any(|k| k == "moved"), "{kinds:?}");
}

/// The blocking client (`xenolog_server::client`, what the command line
/// uses) follows a take-back: after `moved` its head is `to`, so its next
/// command is given at `to` and starts the new line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_blocking_client_takes_moveds_to_as_its_head() {
    use xenolog_server::client::{Client as Blocking, ServerAddr};
    use xenolog_server::secret::Token;
    let s = server().await;
    let mut org = organiser(&s).await;
    let (campaign, battle, _) = new_battle(
        &mut org,
        "race",
        json!({"target": 1000}),
        json!({"friendly_takebacks": true}),
    )
    .await;
    let mut tokens = Vec::new();
    let mut sockets = Vec::new();
    for seat in 0..2u8 {
        let inv = org
            .ok(
                "invite",
                json!({"role": "player", "campaign": campaign, "battle": battle, "seat": seat}),
            )
            .await;
        let mut c = Client::connect(&s).await;
        let r = c.ok("redeem", json!({"code": inv["code"]})).await;
        c.join(battle, seat, seat + 1).await;
        tokens.push(r["token"].as_str().unwrap().to_owned());
        sockets.push(c);
    }
    let mut zero = sockets.remove(0);
    let url = s.running.ws_url();
    let token = tokens[1].clone();
    // Seat 1's blocking client watches from the start.
    let mut one = tokio::task::spawn_blocking(move || {
        let addr = ServerAddr::parse(&url).unwrap();
        let mut c = Blocking::connect(addr, Some(Token::from_text(&token))).unwrap();
        c.watch(battle, 1, None).unwrap();
        c
    })
    .await
    .unwrap();
    let e0 = play(&mut zero, battle, 0, None, json!("hold")).await;
    let (mut back, e1) = tokio::task::spawn_blocking(move || {
        while one.last_entry(battle) != Some(e0 as u64) {
            one.next_event(std::time::Duration::from_secs(30)).unwrap();
        }
        let r = one
            .request(
                "command",
                json!({"battle": battle, "seat": 1, "at": e0, "command": "hold"}),
            )
            .unwrap();
        let e1 = r["entries"][0].as_i64().unwrap();
        (one, e1)
    })
    .await
    .unwrap();
    ask(&mut zero, battle, 0, json!(e0)).await;
    let back_at = tokio::task::spawn_blocking(move || {
        loop {
            let ev = back
                .next_event(std::time::Duration::from_secs(30))
                .unwrap()
                .expect("an event");
            if ev["type"] == "moved" {
                break;
            }
        }
        let head = back.last_entry(battle);
        // Its next command goes at its head: seat 1 rolls where it held.
        let r = back.request(
            "command",
            json!({"battle": battle, "seat": 1, "at": head, "command": {"roll": {"dice": 1}}}),
        );
        (head, r.map(|r| r["entries"][0].clone()))
    })
    .await
    .unwrap();
    assert_eq!(back_at.0, Some(e0 as u64), "the head after `moved` is `to`");
    let e2 = back_at.1.expect("the command at the new head is taken");
    assert!(
        e2.as_i64().unwrap() > e1,
        "a new entry on a new branch: {e2}"
    );
}

/// The seat whose turn it is plays its first legal command; the reply.
async fn play_first_legal(zero: &mut Client, one: &mut Client, battle: i64) -> Value {
    for (c, seat) in [(zero, 0u8), (one, 1u8)] {
        if let Some(command) = head_legal(c, battle, seat).await {
            let at = head(c, battle, seat).await;
            return c
                .ok(
                    "command",
                    json!({"battle": battle, "seat": seat, "at": at, "command": command}),
                )
                .await;
        }
    }
    panic!("no seat has a command");
}

/// [`play_first_legal`]; the last entry it made.
async fn legal_first(zero: &mut Client, one: &mut Client, battle: i64) -> i64 {
    let r = play_first_legal(zero, one, battle).await;
    last_entry(&r)
}

/// First legal commands until one's entries include the next round's deal
/// (a lay, the trick's reveal, the deal: a draw from the dice stream); that
/// deal.
async fn play_to_the_next_deal(zero: &mut Client, one: &mut Client, battle: i64) -> i64 {
    for _ in 0..24 {
        let r = play_first_legal(zero, one, battle).await;
        if r["entries"].as_array().unwrap().len() == 3 {
            return r["entries"][2].as_i64().unwrap();
        }
    }
    panic!("no second deal in 24 commands");
}

/// Section 9: randomness is a position in the battle's one stream, so a
/// line taken back past a draw draws the same again. In a game whose views
/// hide something that would show a seat what it may not see: refused in
/// words, even in friendly play, and nothing moves.
#[tokio::test]
async fn a_takeback_past_a_draw_in_a_game_that_hides_hands_is_refused_even_in_friendly_play() {
    let (_s, battle, mut zero, mut one) = table(
        "highcard",
        json!({"rounds": 2}),
        json!({"friendly_takebacks": true}),
    )
    .await;
    let deal = play_to_the_next_deal(&mut zero, &mut one, battle).await;
    let words = ask_refused(&mut one, battle, 1, json!(0), "refused").await;
    assert!(
        words.starts_with(&format!(
            "entry {deal} drew from the battle's dice stream after entry 0, and this game hides information"
        )),
        "{words}"
    );
    assert!(words.contains("even in friendly play"), "{words}");
    assert_eq!(head(&mut one, battle, 1).await, json!(deal));
    zero.settle().await;
    assert!(zero.take("moved").is_empty(), "nothing moved");
}

/// The same in a battle whose take-backs are asked: the request itself is
/// refused, so no seat is asked and none could accept it.
#[tokio::test]
async fn a_takeback_past_a_draw_in_a_game_that_hides_hands_is_not_even_asked() {
    let (_s, battle, mut zero, mut one) = table("highcard", json!({"rounds": 2}), json!({})).await;
    let deal = play_to_the_next_deal(&mut zero, &mut one, battle).await;
    let words = ask_refused(&mut zero, battle, 0, json!(0), "refused").await;
    assert!(
        words.contains("a seat would learn what it may not see"),
        "{words}"
    );
    one.settle().await;
    assert!(one.take("takeback_asked").is_empty(), "no seat was asked");
    // Back to after the deal it stays possible: nothing drawn since.
    let lay = legal_first(&mut zero, &mut one, battle).await;
    assert!(lay > deal);
    let asked = ask(&mut zero, battle, 0, json!(deal)).await;
    assert_eq!(asked["moved"], false, "{asked}");
    assert_eq!(asked["dice_seen"], Value::Null, "{asked}");
}

/// In an open game the take-back is allowed, and the request says in words
/// that the dice after the entry are known already: the new line rolls the
/// same stream (no rerolling by taking back, principle 3).
#[tokio::test]
async fn in_an_open_game_the_request_says_the_dice_after_the_entry_are_known_and_they_come_again() {
    let (_s, battle, mut zero, mut one) = table("race", json!({"target": 1000}), json!({})).await;
    let e0 = play(&mut zero, battle, 0, None, json!({"roll": {"dice": 1}})).await;
    let rolled = zero.event_of("entry").await["entry"]["dice"][0]["value"].clone();
    let (heard, _) = take_back(&mut zero, &mut one, battle, json!(null)).await;
    assert_eq!(heard["dice_seen"], e0, "{heard}");
    let words = heard["words"].as_str().unwrap();
    assert!(
        words.contains(&format!(
            "the dice from entry {e0} on were seen, and the battle's one dice stream rolls them again on the new line: every seat knows them already"
        )),
        "{words}"
    );
    let moved = zero.event_of("moved").await;
    assert!(
        moved["words"]
            .as_str()
            .unwrap()
            .contains("every seat knows them already"),
        "{moved}"
    );
    // Two dice instead of one: the first is the die rolled before.
    play(&mut zero, battle, 0, None, json!({"roll": {"dice": 2}})).await;
    let again = zero.event_of("entry").await;
    assert_eq!(again["entry"]["dice"][0]["value"], rolled, "{again}");
}

/// Section 9: the server plays the game's own steps only after a seat's
/// command, so a take-back to where such a step comes next (High Card's
/// reveal after the trick's second card; an Alien Invasion round's drawing
/// of cards is the same check) would leave no seat a command: refused in
/// words, nothing moves. The entries on either side of it stay possible.
#[tokio::test]
async fn a_takeback_to_where_the_games_own_step_comes_next_is_refused_in_words() {
    let (_s, battle, mut zero, mut one) =
        table("highcard", json!({}), json!({"friendly_takebacks": true})).await;
    legal_first(&mut zero, &mut one, battle).await;
    // The trick's second card (entry 2) and the game's reveal (entry 3).
    let e3 = legal_first(&mut zero, &mut one, battle).await;
    assert_eq!(e3, 3);
    let words = ask_refused(&mut zero, battle, 0, json!(2), "refused").await;
    assert!(
        words.starts_with("the game's own step comes next after entry 2"),
        "{words}"
    );
    assert_eq!(head(&mut zero, battle, 0).await, json!(e3));
    one.settle().await;
    assert!(one.take("moved").is_empty(), "nothing moved");
    // To entry 1 (a seat lays next) it moves.
    let r = ask(&mut zero, battle, 0, json!(1)).await;
    assert_eq!(r["moved"], true, "{r}");
}

/// The same in Night of the Saucers (Gang Warfare): each seat's hand is
/// hidden, and the deal and draws come from the battle's one stream, so a
/// take-back past them would deal the same cards again where another seat
/// could see them: refused in words, even in friendly play.
#[tokio::test]
async fn night_of_the_saucers_refuses_a_takeback_past_its_draws_even_in_friendly_play() {
    let (_s, battle, mut zero, mut one) = table(
        "saucers",
        json!({"players": 2, "variant": "gang_warfare"}),
        json!({"friendly_takebacks": true}),
    )
    .await;
    let last = legal_first(&mut zero, &mut one, battle).await;
    let words = ask_refused(&mut zero, battle, 0, json!(null), "refused").await;
    assert!(
        words.contains("after the setup, and this game hides information from the seats"),
        "{words}"
    );
    assert!(words.contains("a card in another seat's hand"), "{words}");
    assert_eq!(head(&mut one, battle, 1).await, json!(last));
}
