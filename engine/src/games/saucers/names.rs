//! Commands as players write them: students and cards by name (issue 27,
//! "commands and files take the names players use").
//!
//! In a command's JSON a student (`"human"`) may be given by its I.D. card's
//! id or name (`"jo"`, `"Jo"`) and a card (`"card"`, `"give_cards"`) by its
//! id or name, taken from the hand of the seat giving the command (the first
//! copy there); `"take_cards"` come from the hand of the seat named by
//! `"with"`. Tiles already read as `"C4"` (`data::pos_de`). Numbers pass
//! through unchanged, so every command `legal --json` prints is read as it is.

use serde_json::Value;

use super::SaucersState;
use super::rules::{self, SaucersCommand};
use super::state::HIDDEN;
use crate::Actor;

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The student on the board named `name` (its index in `state.humans`).
fn student(state: &SaucersState, name: &str) -> Result<Value, String> {
    state
        .humans
        .iter()
        .position(|h| {
            let def = &state.content.humans[h.def as usize];
            same(&def.id, name) || same(&def.name, name)
        })
        .map(Value::from)
        .ok_or_else(|| {
            let names: Vec<&str> = (0..state.humans.len())
                .map(|h| state.human_name(h))
                .collect();
            format!(
                "there is no student '{name}' in this game (the students: {})",
                names.join(", ")
            )
        })
}

/// The first card named `name` in `seat`'s hand (its card number), skipping
/// the `taken` copies already named earlier in the same list. The words are
/// read against the whole state but go back to `actor`: another seat's hand
/// is read by name only when hands are open (principle 14), and a refusal
/// lists only a hand the actor may see.
fn card(
    state: &SaucersState,
    actor: Option<u8>,
    seat: Option<u8>,
    name: &str,
    taken: &[u16],
) -> Result<Value, String> {
    let Some(hand) = seat
        .and_then(|s| state.seats.get(s as usize))
        .map(|s| &s.hand)
    else {
        return Err(format!(
            "a card named '{name}' is read from the hand of the seat giving the command; give its number instead"
        ));
    };
    let seat = seat.unwrap_or_default();
    if actor != Some(seat) && !rules::open(state) {
        return Err(format!(
            "the hand of {} is hidden: a card in it is given by its number, not by its name",
            state.gang_of(seat).name
        ));
    }
    if hand.contains(&HIDDEN) {
        // Read on a view that hides this hand (review7 N10): no name can be
        // matched there, and "holds no card" would be untrue.
        return Err(format!(
            "the hand of {} is hidden in this view: a card in it is given by its number, not by its name",
            state.gang_of(seat).name
        ));
    }
    hand.iter()
        .copied()
        .find(|&c| {
            let Some(def) = state.content.cards.get(c as usize) else {
                return false;
            };
            (same(&def.id, name) || same(&def.name, name)) && !taken.contains(&c)
        })
        .map(Value::from)
        .ok_or_else(|| {
            let held: Vec<&str> = hand
                .iter()
                .filter_map(|&c| state.content.cards.get(c as usize))
                .map(|def| def.name.as_str())
                .collect();
            format!(
                "{} holds no card '{name}'{} (in hand: {})",
                state.gang_of(seat).name,
                if taken.is_empty() {
                    ""
                } else {
                    " not named already"
                },
                if held.is_empty() {
                    "nothing".to_owned()
                } else {
                    held.join(", ")
                }
            )
        })
}

fn cards(
    state: &SaucersState,
    actor: Option<u8>,
    seat: Option<u8>,
    list: &mut Value,
) -> Result<(), String> {
    let Value::Array(items) = list else {
        return Ok(());
    };
    let mut taken = Vec::new();
    for item in items.iter_mut() {
        if let Some(name) = item.as_str() {
            *item = card(state, actor, seat, name, &taken)?;
        }
        if let Some(n) = item.as_u64() {
            taken.push(n as u16);
        }
    }
    Ok(())
}

/// Names in `value` replaced by numbers, at any depth (an Instant's escape
/// names its student inside `on`).
fn resolve(state: &SaucersState, actor: Option<u8>, value: &mut Value) -> Result<(), String> {
    let Value::Object(map) = value else {
        return Ok(());
    };
    let with = map.get("with").and_then(Value::as_u64).map(|w| w as u8);
    for (key, field) in map.iter_mut() {
        match (key.as_str(), &*field) {
            ("human", Value::String(name)) => *field = student(state, name)?,
            ("card", Value::String(name)) => *field = card(state, actor, actor, name, &[])?,
            ("give_cards", _) => cards(state, actor, actor, field)?,
            ("take_cards", _) => cards(state, actor, with, field)?,
            (_, Value::Object(_)) => resolve(state, actor, field)?,
            _ => {}
        }
    }
    Ok(())
}

/// Read a command, names and all (see the module documentation).
pub fn command_from_json(
    state: &SaucersState,
    actor: Actor,
    json: &Value,
) -> Result<SaucersCommand, String> {
    let mut value = json.clone();
    let seat = (usize::from(actor.0) < state.seats.len()).then_some(actor.0);
    resolve(state, seat, &mut value)?;
    serde_json::from_value(value).map_err(|e| e.to_string())
}
