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
                e.insert("receipt".into(), json!(hex(&receipt(secret, &r.chain))));
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
