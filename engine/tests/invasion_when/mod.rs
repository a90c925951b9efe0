//! The "when" half of the Alien Invasion clause tests (included with
//! `#[path]` beside `invasion_support.rs`, whose `pt` it uses): each command
//! in its JSON form from the few values a test varies, so a test reads
//! given (a position: `given`, `place`, `cards`), when (`play(&mut s, seat,
//! &shoot(&[a], b), dice)`), then (the events, the state, or `refused` and its
//! words) and states only what differs.
#![allow(dead_code)]

use crate::support::pt;
use xenolog_engine::games::invasion::state::GroupId;

/// A group's move to `(x, y)` inches.
pub fn mv(g: GroupId, x: f64, y: f64) -> String {
    let p = pt(x, y);
    format!(
        r#"{{"move":{{"group":{g},"to":{{"x":{},"y":{}}}}}}}"#,
        p.x, p.y
    )
}

/// A group's move to `(x, y)` in the table's hundredths of an inch.
pub fn move_to(g: GroupId, x: i32, y: i32) -> String {
    format!(r#"{{"move":{{"group":{g},"to":{{"x":{x},"y":{y}}}}}}}"#)
}

/// A shooting action of these groups at a target group.
pub fn shoot(shooters: &[GroupId], target: GroupId) -> String {
    format!(r#"{{"shoot":{{"shooters":{shooters:?},"target":{target}}}}}"#)
}

/// An order with no field but the group, e.g. `group_order("study", g)` for
/// `{"study":{"group":g}}`.
pub fn group_order(verb: &str, g: GroupId) -> String {
    format!(r#"{{"{verb}":{{"group":{g}}}}}"#)
}

/// Observers: the observer relays where the target is to a group.
pub fn relay(observer: GroupId, to: GroupId, target: GroupId) -> String {
    format!(r#"{{"relay":{{"observer":{observer},"to":{to},"target":{target}}}}}"#)
}

/// Sighting a Target: a group's Perception roll for a target.
pub fn perceive(g: GroupId, target: GroupId) -> String {
    format!(r#"{{"perceive":{{"group":{g},"target":{target}}}}}"#)
}

/// A group's player chooses the point `(x, y)` (hundredths of an inch) it
/// is asked for.
pub fn choose_point(x: i32, y: i32) -> String {
    format!(r#"{{"choose_point":{{"to":{{"x":{x},"y":{y}}}}}}}"#)
}

/// The target's player removes these figures (by id) as casualties.
pub fn casualties<S: AsRef<str>>(models: &[S]) -> String {
    let models: Vec<&str> = models.iter().map(AsRef::as_ref).collect();
    serde_json::json!({ "casualties": { "models": models } }).to_string()
}

/// Then: the refusal's words (with its clause) contain this text.
pub fn assert_refusal_says(e: &xenolog_engine::RuleError, text: &str) {
    let words = crate::support::refusal(e);
    assert!(words.contains(text), "{}", words);
}

/// Given: U.N.I.T. section s1 at (20,20) in melee with the Spugs' brood sq1,
/// which the Mites m1 joined (one merged group of kill scores 9 and 6), and
/// U.N.I.T.'s 8 dice struck for a total of 20; the state, the section, the
/// brood, and what the Mites' joining move said.
pub fn given_spugs_and_mites_struck_for_20() -> (
    xenolog_engine::games::invasion::InvasionState,
    GroupId,
    GroupId,
    crate::support::Played,
) {
    use crate::support::{cards, gid, given, place, play, steps};
    use xenolog_engine::games::invasion::state::CardKind;
    let mut s = given(&["unit", "spugs"]);
    let (sec, brood, mites) = (gid(&s, "s1"), gid(&s, "sq1"), gid(&s, "m1"));
    place(&mut s, sec, 20.0, 20.0);
    place(&mut s, brood, 20.0, 26.0);
    place(&mut s, mites, 24.0, 26.0);
    cards(
        &mut s,
        &[(Some(1), CardKind::Double), (Some(0), CardKind::Single)],
    );
    play(&mut s, 1, &mv(brood, 20.0, 21.05), &[]);
    let joined = play(&mut s, 1, &mv(mites, 22.2, 21.1), &[]);
    steps(&mut s);
    play(&mut s, 0, r#"{"strike":{}}"#, &[2, 2, 2, 2, 3, 3, 3, 3]);
    (s, sec, brood, joined)
}

/// The id of the first living figure of this kind in a group.
pub fn first_of_kind(
    s: &xenolog_engine::games::invasion::InvasionState,
    g: GroupId,
    kind: &str,
) -> String {
    s.group(g)
        .alive()
        .find(|m| m.kind == kind)
        .map(|m| m.id.clone())
        .unwrap()
}

/// An opponent's group closes a Spugs' hole (by its number).
pub fn close_hole(g: GroupId, hole: usize) -> String {
    format!(r#"{{"close_hole":{{"group":{g},"hole":{hole}}}}}"#)
}

/// Spugs: a Burrower below the table tunnels to a point (hundredths).
pub fn tunnel(g: GroupId, x: i32, y: i32) -> String {
    format!(r#"{{"tunnel":{{"group":{g},"to":{{"x":{x},"y":{y}}}}}}}"#)
}

/// Spugs: a Burrower below the table surfaces at a point (hundredths).
pub fn surface_to(g: GroupId, x: i32, y: i32) -> String {
    format!(r#"{{"surface":{{"group":{g},"to":{{"x":{x},"y":{y}}}}}}}"#)
}

/// Spugs: a group below the table comes up out of a hole (by its number).
pub fn surface_hole(g: GroupId, hole: usize) -> String {
    format!(r#"{{"surface":{{"group":{g},"hole":{hole}}}}}"#)
}

/// Flyers: a group lifts off, or soars, to a height in inches.
pub fn lift_off(g: GroupId, height: u32) -> String {
    format!(r#"{{"lift_off":{{"group":{g},"height":{height}}}}}"#)
}

/// Flyers: a flying group changes its height in inches.
pub fn soar(g: GroupId, height: u32) -> String {
    format!(r#"{{"soar":{{"group":{g},"height":{height}}}}}"#)
}

/// Suppression Fire: these groups suppress a target group.
pub fn suppress_at(shooters: &[GroupId], target: GroupId) -> String {
    format!(r#"{{"suppress":{{"shooters":{shooters:?},"target":{target}}}}}"#)
}

/// Suppressing Fire and Cover: a group suppresses the cover a target is in.
pub fn suppress_at_cover(g: GroupId, target: GroupId) -> String {
    format!(r#"{{"suppress":{{"shooters":[{g}],"target":{target},"at_cover":true}}}}"#)
}

/// When: a seat ends its card and the game's next step runs (the melees
/// fought at the card's end come up to strike).
pub fn end_card_then_step(s: &mut xenolog_engine::games::invasion::InvasionState, seat: u8) {
    crate::support::play(s, seat, r#""end_card""#, &[]);
    crate::support::step(s, &[]);
}
