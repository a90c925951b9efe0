//! The "when" half of the Alien Invasion clause tests (included with
//! `#[path]` beside `support/invasion.rs`, whose `pt` it uses): each command
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
    use crate::support::{given_at, play, seat_cards, steps};
    use xenolog_engine::games::invasion::state::CardKind;
    let (mut s, [sec, brood, mites]) =
        given_at(&["unit", "spugs"], "s1 at 20,20; sq1 at 20,26; m1 at 24,26");
    seat_cards(&mut s, &[(1, CardKind::Double), (0, CardKind::Single)]);
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
        .map(|m| String::from(&m.id))
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

/// Given: U.N.I.T. section A holds the house (a building), three men inside
/// it by its west wall, and Dalek Patrol Alpha charges in from the west on a
/// Double card: the state, the section, the patrol, and what the charge said.
pub fn given_the_house_charged() -> (
    xenolog_engine::games::invasion::InvasionState,
    GroupId,
    GroupId,
    crate::support::Played,
) {
    use crate::support::{card, given_at, play, put};
    use xenolog_engine::games::invasion::state::CardKind;
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 30.5,31; d1 at 22,32.1");
    put(&mut s, sec, 1, 30.5, 32.1);
    put(&mut s, sec, 2, 30.5, 33.2);
    put(&mut s, sec, 3, 31.6, 32.1);
    card(&mut s, 1, CardKind::Double);
    let charge = play(&mut s, 1, &mv(dal, 29.5, 32.1), &[]);
    (s, sec, dal, charge)
}

/// When: seat `actor` gives this command (its JSON, with no dice unless
/// `dice` enters some); then `refused` and its words, or `played`. A
/// refusal changes nothing (as `refused` checks).
pub struct When<'a> {
    s: &'a mut xenolog_engine::games::invasion::InvasionState,
    actor: u8,
    json: String,
    dice: Vec<u8>,
}

/// When: seat `actor` gives this command:
/// `when_seat(&mut s, 0, &mv(g, 26.0, 26.0)).refused("[Move] ...")`.
pub fn when_seat<'a>(
    s: &'a mut xenolog_engine::games::invasion::InvasionState,
    actor: u8,
    json: &str,
) -> When<'a> {
    When {
        s,
        actor,
        json: json.to_owned(),
        dice: Vec::new(),
    }
}

impl When<'_> {
    /// With these dice entered.
    pub fn dice(mut self, dice: &[u8]) -> Self {
        self.dice = dice.to_vec();
        self
    }

    /// Then: refused, changing nothing; its refusal.
    pub fn refusal(self) -> xenolog_engine::RuleError {
        crate::support::refused(self.s, self.actor, &self.json, &self.dice)
    }

    /// Then: refused with exactly these words, its clause first (`"[Move] ..."`).
    pub fn refused(self, words: &str) {
        assert_eq!(crate::support::refusal(&self.refusal()), words);
    }

    /// Then: refused with words that start so (`"[Spugs]"`).
    pub fn refused_starting(self, start: &str) {
        let e = crate::support::refusal(&self.refusal());
        assert!(e.starts_with(start), "{}", e);
    }

    /// Then: accepted; what it did.
    pub fn played(self) -> crate::support::Played {
        crate::support::play(self.s, self.actor, &self.json, &self.dice)
    }
}

/// When: seat `seat`'s player removes the first `n` living figures of group
/// `g` as the casualties it is asked for; what that did.
pub fn remove_first(
    s: &mut xenolog_engine::games::invasion::InvasionState,
    seat: u8,
    g: GroupId,
    n: usize,
) -> crate::support::Played {
    let chosen: Vec<String> = crate::support::figures(s, g).into_iter().take(n).collect();
    crate::support::play(s, seat, &casualties(&chosen), &[])
}

/// Then: the first thing asked is seat `seat`'s choice of `count` casualties.
pub fn assert_casualties_asked(
    s: &xenolog_engine::games::invasion::InvasionState,
    seat: u8,
    count: u32,
) {
    use xenolog_engine::games::invasion::state::Pending;
    let asked = match s.pending.first() {
        Some(Pending::Casualties {
            seat: x, count: n, ..
        }) => Some((*x, *n)),
        _ => None,
    };
    assert!(
        asked == Some((seat, count)),
        "not {count} casualties of seat {seat}: {:?}",
        s.pending.first()
    );
}

/// Spugs: the controller `ctl` detonates the first living Mite of group `mites`.
pub fn detonate_first(
    s: &xenolog_engine::games::invasion::InvasionState,
    ctl: GroupId,
    mites: GroupId,
) -> String {
    let mite = &crate::support::figures(s, mites)[0];
    format!(r#"{{"detonate":{{"group":{ctl},"mite":"{mite}"}}}}"#)
}

/// When: seat `seat` charges into contact with this move and ends its card;
/// the game's next step brings the melee up to strike.
pub fn charge_and_end_card(
    s: &mut xenolog_engine::games::invasion::InvasionState,
    seat: u8,
    charge: &str,
) {
    crate::support::play(s, seat, charge, &[]);
    end_card_then_step(s, seat);
}
