//! Rule text 000, "Additional Rules", "Humans (and others) in the sewers":
//! one test per clause.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Place};

/// U.N.I.T. section A beside the manhole at (40,20), with the sewers rule;
/// a card of `kind` of seat `seat` being played.
fn sewers(seat: u8, kind: CardKind) -> (InvasionState, GroupId) {
    let mut s = given_with(&["unit", "spugs"], true, false);
    let [sec] = placed(&mut s, "s1 at 40.5,20.5");
    card(&mut s, seat, kind);
    (s, sec)
}

#[test]
fn sewers_descending_takes_one_action_at_a_manhole() {
    let (mut s, sec) = sewers(0, CardKind::Triple);
    let p = play(&mut s, 0, &group_order("descend", sec), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A went below the table");
    assert_place(&s, sec, Place::Below, 1);
}

#[test]
fn sewers_descending_needs_a_manhole_or_a_spug_hole() {
    let (mut s, sec) = sewers(0, CardKind::Single);
    place(&mut s, sec, 20.0, 20.0);
    when_seat(&mut s, 0, &group_order("descend", sec))
        .refused("[Sewers] the group must be at a manhole or a Spug hole");
}

#[test]
fn sewers_are_an_option() {
    let (mut s, [sec]) = given_at(&["unit", "spugs"], "s1 at 40.5,20.5");
    card(&mut s, 0, CardKind::Single);
    when_seat(&mut s, 0, &group_order("descend", sec))
        .refused("[Sewers] this battle is not played with the sewers rule");
}

#[test]
fn sewers_moving_takes_one_action_and_surfacing_two() {
    let (mut s, sec) = sewers(0, CardKind::Triple);
    play(&mut s, 0, &group_order("descend", sec), &[]);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"sewer":{{"group":{sec},"manhole":1}}}}"#),
        &[],
    );
    p.assert_says("moved below the table to (40\", 28\")");
    let p = play(&mut s, 0, &group_order("climb", sec), &[]);
    assert!(!p.any(|e| matches!(e, E::Surfaced { .. })));
    assert_eq!(s.group(sec).place, Place::Below, "one climb is not enough");
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &group_order("climb", sec), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A came up at (40\", 28\")");
    assert_eq!(s.group(sec).place, Place::Table);
    assert!(s.group(sec).placed());
}

#[test]
fn sewers_a_move_below_on_screen_names_the_manhole() {
    let (mut s, sec) = sewers(0, CardKind::Single);
    below(&mut s, sec, 40.0, 20.0);
    when_seat(&mut s, 0, &group_order("sewer", sec)).refused_starting("[Sewers]");
}

#[test]
fn sewers_groups_below_cannot_shoot_or_be_shot() {
    let (mut s, sec) = sewers(1, CardKind::Single);
    let [sq] = placed(&mut s, "sq2 at 30,20");
    below(&mut s, sec, 40.0, 20.0);
    let e = refused(&mut s, 1, &shoot(&[sq], sec), &[]);
    assert!(e.message.ends_with("is not on the table"), "{e}");
}

#[test]
fn sewers_every_special_event_card_sets_off_a_sudden_melee_below_resolved_there_and_then() {
    let (mut s, sec, sq) = given_a_meeting_below(false);
    let p = step(&mut s, &[]);
    p.assert_says("locked in hand-to-hand below the table");
    assert!(s.group(sec).locked.is_some() && s.group(sq).locked.is_some());
    let p = step(&mut s, &[]);
    // "underground dwelling factions like Spugs will attack first"
    p.assert_says("the melee is resolved: Spugs 9D6, U.N.I.T. 8D6");
}

/// The meeting below after the Spugs struck first with 9 dice at 6 each (one
/// man of U.N.I.T.'s section, removed by its player).
fn meeting_after_the_spugs_strike() -> (InvasionState, GroupId, GroupId) {
    let (mut s, sec, sq) = given_a_meeting_below(false);
    step(&mut s, &[]);
    step(&mut s, &[]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 9]);
    remove_first(&mut s, 0, sec, 1);
    (s, sec, sq)
}

#[test]
fn sewers_underground_factions_resolve_their_damage_before_the_others_roll() {
    let (mut s, _, _) = meeting_after_the_spugs_strike();
    // Unlike a normal melee, U.N.I.T. strikes with what is left: 7D6.
    let p = play(&mut s, 0, r#"{"strike":{}}"#, &[1; 7]);
    assert!(p.any(|e| matches!(e, E::Struck { dice, .. } if dice.len() == 7)));
}

#[test]
fn sewers_after_the_melee_the_losers_surface() {
    let (mut s, sec, sq) = meeting_after_the_spugs_strike();
    play(&mut s, 0, r#"{"strike":{}}"#, &[1; 7]);
    // Six Spugs against three men: U.N.I.T. lose and come up at a point of
    // their choosing (rules version 6: their player chooses it; here their
    // manhole).
    let p = step(&mut s, &[]);
    p.assert_says("lost the melee below: they surface at a point of their choosing");
    assert_eq!(s.group(sec).place, Place::Below);
    let p = play(&mut s, 0, &choose_point(4000, 2000), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A came up at (40\", 20\")");
    assert_eq!(s.group(sec).place, Place::Table);
    assert_eq!(s.group(sq).place, Place::Below);
    assert!(s.melees.is_empty());
    assert!(s.group(sq).locked.is_none() && s.group(sec).locked.is_none());
}
