//! Rule text 000, "Additional Rules", "Humans (and others) in the sewers":
//! one test per clause.

#[path = "invasion_support.rs"]
mod support;

use support::*;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Place};

/// U.N.I.T. section A beside the manhole at (40,20), with the sewers rule.
fn sewers() -> (InvasionState, GroupId) {
    let mut s = given_with(&["unit", "spugs"], true, false);
    let sec = gid(&s, "s1");
    place(&mut s, sec, 40.5, 20.5);
    (s, sec)
}

fn below(s: &mut InvasionState, g: GroupId, x: f64, y: f64) {
    let group = &mut s.groups[g as usize];
    group.place = Place::Below;
    group.below_at = Some(pt(x, y));
    for m in &mut group.models {
        m.at = None;
    }
}

#[test]
fn sewers_descending_takes_one_action_at_a_manhole() {
    let (mut s, sec) = sewers();
    card(&mut s, 0, CardKind::Triple);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"descend":{{"group":{sec}}}}}"#),
        &[],
    );
    p.assert_says("U.N.I.T. 1st Squad, Section A went below the table");
    assert_eq!(s.group(sec).place, Place::Below);
    assert_eq!(s.spent_by(sec), 1);
}

#[test]
fn sewers_descending_needs_a_manhole_or_a_spug_hole() {
    let (mut s, sec) = sewers();
    place(&mut s, sec, 20.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"descend":{{"group":{sec}}}}}"#),
        &[],
    );
    assert_eq!(
        refusal(&e),
        "[Sewers] the group must be at a manhole or a Spug hole"
    );
}

#[test]
fn sewers_are_an_option() {
    let mut s = given(&["unit", "spugs"]);
    let sec = gid(&s, "s1");
    place(&mut s, sec, 40.5, 20.5);
    card(&mut s, 0, CardKind::Single);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"descend":{{"group":{sec}}}}}"#),
        &[],
    );
    assert_eq!(
        refusal(&e),
        "[Sewers] this battle is not played with the sewers rule"
    );
}

#[test]
fn sewers_moving_takes_one_action_and_surfacing_two() {
    let (mut s, sec) = sewers();
    card(&mut s, 0, CardKind::Triple);
    play(
        &mut s,
        0,
        &format!(r#"{{"descend":{{"group":{sec}}}}}"#),
        &[],
    );
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"sewer":{{"group":{sec},"manhole":1}}}}"#),
        &[],
    );
    p.assert_says("moved below the table to (40\", 28\")");
    let p = play(&mut s, 0, &format!(r#"{{"climb":{{"group":{sec}}}}}"#), &[]);
    assert!(!p.events.iter().any(|e| matches!(e, E::Surfaced { .. })));
    assert_eq!(s.group(sec).place, Place::Below, "one climb is not enough");
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &format!(r#"{{"climb":{{"group":{sec}}}}}"#), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A came up at (40\", 28\")");
    assert_eq!(s.group(sec).place, Place::Table);
    assert!(s.group(sec).placed());
}

#[test]
fn sewers_a_move_below_on_screen_names_the_manhole() {
    let (mut s, sec) = sewers();
    below(&mut s, sec, 40.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &format!(r#"{{"sewer":{{"group":{sec}}}}}"#), &[]);
    assert!(refusal(&e).starts_with("[Sewers]"), "{}", refusal(&e));
}

#[test]
fn sewers_groups_below_cannot_shoot_or_be_shot() {
    let (mut s, sec) = sewers();
    let sq = gid(&s, "sq2");
    place(&mut s, sq, 30.0, 20.0);
    below(&mut s, sec, 40.0, 20.0);
    card(&mut s, 1, CardKind::Single);
    let e = refused(
        &mut s,
        1,
        &format!(r#"{{"shoot":{{"shooters":[{sq}],"target":{sec}}}}}"#),
        &[],
    );
    assert!(e.message.ends_with("is not on the table"), "{e}");
}

/// U.N.I.T. section A and Spug Brood Two both in the sewers; a Special
/// Event card comes up.
fn meeting() -> (InvasionState, GroupId, GroupId) {
    let (mut s, sec) = sewers();
    let sq = gid(&s, "sq2");
    below(&mut s, sec, 40.0, 20.0);
    below(&mut s, sq, 40.0, 28.0);
    cards(
        &mut s,
        &[(None, CardKind::Special), (Some(0), CardKind::Single)],
    );
    (s, sec, sq)
}

#[test]
fn sewers_every_special_event_card_sets_off_a_sudden_melee_below_resolved_there_and_then() {
    let (mut s, sec, sq) = meeting();
    let p = step(&mut s, &[]);
    p.assert_says("locked in hand-to-hand below the table");
    assert!(s.group(sec).locked.is_some() && s.group(sq).locked.is_some());
    let p = step(&mut s, &[]);
    // "underground dwelling factions like Spugs will attack first"
    p.assert_says("the melee is resolved: Spugs 9D6, U.N.I.T. 8D6");
}

#[test]
fn sewers_underground_factions_resolve_their_damage_before_the_others_roll() {
    let (mut s, sec, _) = meeting();
    step(&mut s, &[]);
    step(&mut s, &[]);
    // 9 at 6 each: one man.
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 9]);
    let rifleman = figures(&s, sec)[0].clone();
    play(
        &mut s,
        0,
        &format!(r#"{{"casualties":{{"models":["{rifleman}"]}}}}"#),
        &[],
    );
    // Unlike a normal melee, U.N.I.T. strikes with what is left: 7D6.
    let p = play(&mut s, 0, r#"{"strike":{}}"#, &[1; 7]);
    assert!(
        p.events
            .iter()
            .any(|e| matches!(e, E::Struck { dice, .. } if dice.len() == 7))
    );
}

#[test]
fn sewers_after_the_melee_the_losers_surface() {
    let (mut s, sec, sq) = meeting();
    step(&mut s, &[]);
    step(&mut s, &[]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 9]);
    let rifleman = figures(&s, sec)[0].clone();
    play(
        &mut s,
        0,
        &format!(r#"{{"casualties":{{"models":["{rifleman}"]}}}}"#),
        &[],
    );
    play(&mut s, 0, r#"{"strike":{}}"#, &[1; 7]);
    // Six Spugs against three men: U.N.I.T. lose and come up at a point of
    // their choosing (rules version 6: their player chooses it; here their
    // manhole).
    let p = step(&mut s, &[]);
    p.assert_says("lost the melee below: they surface at a point of their choosing");
    assert_eq!(s.group(sec).place, Place::Below);
    let p = play(
        &mut s,
        0,
        r#"{"choose_point":{"to":{"x":4000,"y":2000}}}"#,
        &[],
    );
    p.assert_says("U.N.I.T. 1st Squad, Section A came up at (40\", 20\")");
    assert_eq!(s.group(sec).place, Place::Table);
    assert_eq!(s.group(sq).place, Place::Below);
    assert!(s.melees.is_empty());
    assert!(s.group(sq).locked.is_none() && s.group(sec).locked.is_none());
}
