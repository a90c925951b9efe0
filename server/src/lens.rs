//! The one door through which a battle becomes bytes for a seat (DESIGN.md
//! section 6): every frame about a battle in play is built here from the
//! seat's view only (`state_json_as`, `entry_texts_as` with
//! `Viewer::Seat`), never from the whole state, and never from the meta
//! (it holds the seed).

use serde_json::{Map, Value, json};
use xenolog_engine::fair::{Bytes32, hex, receipt};
use xenolog_engine::{Actor, Battle, EntryId, Viewer};

use crate::proto;
use crate::store::ServerBattleId;

/// The entries of the live line after `after` (all of them for `None`), in order.
pub fn line_after(b: &dyn Battle, after: Option<EntryId>) -> Vec<EntryId> {
    b.path_to(b.cursor())
        .into_iter()
        .filter(|id| after.is_none_or(|a| *id > a))
        .collect()
}

/// One `entry` event per entry, as `seat` sees it, each with its receipt
/// (DESIGN.md section 5.4): the entry's chain value keyed by the server's
/// secret, so a seat can check after the reveal that the battle it
/// downloads is the one it was shown, entry by entry. The chain itself is
/// never sent (it hashes the whole entry, hidden parts included).
pub fn entry_frames(
    b: &dyn Battle,
    battle: ServerBattleId,
    seat: Actor,
    ids: &[EntryId],
    secret: &Bytes32,
) -> Vec<String> {
    let viewer = Viewer::Seat(seat);
    let head = b.cursor();
    b.entry_texts_as(ids, viewer)
        .into_iter()
        .map(|t| {
            let id = t.id;
            let mut m = Map::new();
            m.insert("battle".into(), json!(battle));
            m.insert("seat".into(), json!(seat.0));
            let mut entry = serde_json::to_value(&t).unwrap_or(Value::Null);
            if let (Value::Object(e), Some(r)) = (&mut entry, b.records().get(id as usize)) {
                // The entry it follows (null: the setup), so a seat's copy
                // keeps the battle's tree across take-backs (section 9).
                e.insert("parent".into(), json!(r.parent));
                e.insert("receipt".into(), json!(hex(&receipt(secret, &r.chain))));
                // The kind of its branch, on every entry (a seat resumed
                // mid-branch learns it too): a take-back, or a line a merge
                // grafted into a club campaign (another copy's).
                if let Some(br) = b.branches().get(r.branch as usize) {
                    e.insert("branch_kind".into(), json!(br.kind.as_str()));
                }
            }
            m.insert("entry".into(), entry);
            m.insert("state".into(), b.state_json_as(Some(id), viewer));
            m.insert(
                "over".into(),
                json!(head == Some(id) && b.outcome().is_some()),
            );
            proto::event("entry", m)
        })
        .collect()
}

/// The `live` event: the backfill is complete; the head, and the seat's
/// view of the state there (the setup's, before any entry).
pub fn live_frame(b: &dyn Battle, battle: ServerBattleId, seat: Actor) -> String {
    let head = b.cursor();
    let mut m = Map::new();
    m.insert("battle".into(), json!(battle));
    m.insert("seat".into(), json!(seat.0));
    m.insert("game".into(), json!(b.game_id()));
    m.insert("head".into(), json!(head));
    m.insert("state".into(), b.state_json_as(head, Viewer::Seat(seat)));
    proto::event("live", m)
}

/// The `over` event: the outcome and the revealed secret, after which every
/// seat may see everything.
pub fn over_frame(b: &dyn Battle, battle: ServerBattleId, secret: &[u8; 32]) -> String {
    let mut m = Map::new();
    m.insert("battle".into(), json!(battle));
    m.insert(
        "outcome".into(),
        serde_json::to_value(b.outcome()).unwrap_or(Value::Null),
    );
    m.insert("secret".into(), json!(xenolog_engine::fair::hex(secret)));
    proto::event("over", m)
}

/// The commands `seat` may give now, described on its own view
/// (`Battle::legal_as`), each as a line of `xenolog legal --json`.
pub fn legal(b: &dyn Battle, seat: Actor) -> Value {
    serde_json::to_value(b.legal_as(seat)).unwrap_or(Value::Null)
}

/// The seat's view of the state after `at` (`None`: the setup), if `at` is
/// on the live line; `None` when it is not.
pub fn state_at(b: &dyn Battle, seat: Actor, at: Option<EntryId>) -> Option<Value> {
    if let Some(id) = at
        && !b.path_to(b.cursor()).contains(&id)
    {
        return None;
    }
    Some(b.state_json_as(at, Viewer::Seat(seat)))
}

/// Whose turn it is, or how the battle ended: what a battle list shows to
/// anyone it opens (the names of the seats waited for, never what they are
/// asked: that may name a hidden card). The seats are those asked on the
/// public view: whether a seat is asked may itself tell what it hides (an
/// Instant card in a hidden hand, Night of the Saucers).
pub fn status(b: &dyn Battle) -> Value {
    status_for(b, &[])
}

/// The seats whose turn it is, as a player holding the seats `own` may be
/// told: those asked on the public view, and a seat of its own that the
/// whole state asks (review12 NIT 3: its optional Instant is its to know);
/// of these, only the ones the game waits for ([`Battle::waited_for`]): a
/// seat asked only to take back what it set waiting on another (a Saucers
/// swap offer it may withdraw) holds nothing up, so it is not named, and
/// its list does not read "(yours)" (session 23). [`Actor::SYSTEM`] for
/// the game's own step.
pub fn turn_of(b: &dyn Battle, own: &[u8]) -> Vec<Actor> {
    let mut public: Vec<Actor> = b.asked_publicly().into_iter().map(|a| a.seat).collect();
    if !own.is_empty() {
        for a in b.asked() {
            if a.seat != Actor::SYSTEM && own.contains(&a.seat.0) && !public.contains(&a.seat) {
                public.push(a.seat);
            }
        }
    }
    let waited = b.waited_for();
    let mut out: Vec<Actor> = Vec::new();
    for s in public {
        if waited.contains(&s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The seats `seat` is told the game waits for with its `legal` answer
/// (`waited_for`, numbered from 0 as every seat in JSON): [`turn_of`] for
/// a player holding `seat`, without the game's own step. A bot plays only
/// when its seat is among them (`autoplay --server`).
pub fn waited_for(b: &dyn Battle, seat: Actor) -> Value {
    let seats: Vec<u8> = turn_of(b, &[seat.0])
        .into_iter()
        .filter(|a| *a != Actor::SYSTEM)
        .map(|a| a.0)
        .collect();
    json!(seats)
}

/// [`status`] for a player holding the seats `own`: the seats of
/// [`turn_of`] by name (`asked`) and number (`asked_seats`).
pub fn status_for(b: &dyn Battle, own: &[u8]) -> Value {
    match b.outcome() {
        Some(o) => {
            json!({"status": "over", "result": o.summary, "head": b.cursor(), "game": b.game_id(),
                   "strict": b.meta().strict})
        }
        None => {
            let turn = turn_of(b, own);
            let mut asked: Vec<String> = Vec::new();
            for a in &turn {
                let name = if *a == Actor::SYSTEM {
                    "the game".to_owned()
                } else {
                    b.actor_name(*a)
                };
                if !asked.contains(&name) {
                    asked.push(name);
                }
            }
            let seats: Vec<u8> = turn
                .iter()
                .filter(|a| **a != Actor::SYSTEM)
                .map(|a| a.0)
                .collect();
            json!({
                "status": "playing", "asked": asked, "asked_seats": seats, "head": b.cursor(),
                "game": b.game_id(), "strict": b.meta().strict,
            })
        }
    }
}

/// The whole battle as a battle file (the current battle file format, 5
/// today, with the revealed secret), for the download route. Only for a
/// battle that is over: before the end the whole battle is no seat's to see
/// (principle 14), and the caller refuses in words instead.
pub fn battle_file(b: &dyn Battle, title: &str, secret: &[u8; 32]) -> Result<Vec<u8>, String> {
    if b.outcome().is_none() {
        return Err("the battle is still being played".to_owned());
    }
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let file = xenolog_schema::battle_file::BattleFile {
        meta: b.meta().clone(),
        title: title.to_owned(),
        // A battle whose dice were entered by hand says so (no fairness claim).
        dice_mode: if b.records().iter().any(|r| r.entered) {
            xenolog_schema::DiceMode::Entered
        } else {
            xenolog_schema::DiceMode::Rolled
        },
        created,
        branches: b.branches().to_vec(),
        records: b.records().to_vec(),
        cursor: b.cursor(),
        branch: b.current_branch(),
        secret: Some(*secret),
    };
    xenolog_schema::battle_file::write_battle_file(&file).map_err(|e| e.to_string())
}

/// Whether the game hides something from some seat at `to` or at any entry
/// after it on the live line up to `head`: a seat's view of the state there
/// is not the whole state (a hand, a face-down card, a deck's order). The
/// whole state is only compared here, never sent (section 9: a take-back
/// past drawn randomness is refused where this holds).
pub fn hides_on(b: &dyn Battle, to: Option<EntryId>, head: Option<EntryId>) -> bool {
    let seats: Vec<Actor> = b.seats().into_iter().map(|(a, _)| a).collect();
    let hides_at = |at: Option<EntryId>| {
        let all = b.state_json(at);
        seats
            .iter()
            .any(|&s| b.state_json_as(at, Viewer::Seat(s)) != all)
    };
    // The ends first: a game that hides anything usually hides it there.
    if hides_at(to) || hides_at(head) {
        return true;
    }
    b.path_to(head)
        .into_iter()
        .filter(|id| to.is_none_or(|t| *id > t) && Some(*id) != head)
        .any(|id| hides_at(Some(id)))
}
