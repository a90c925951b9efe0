//! Rule text 000, "Hand-to-hand combat" and "Resolving hand-to-hand
//! combat": one test per clause.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::model::{Cover, Point};
use xenolog_engine::games::invasion::rules::{share_odd, split_dice};
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Pending};
use xenolog_engine::games::invasion::table;

/// U.N.I.T. section A in a row at (20,20); Dalek Patrol Alpha charges it on
/// a Dalek card of `kind` (one action used); the other cards follow.
fn engaged(kind: CardKind) -> (InvasionState, GroupId, GroupId) {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks", "spugs"], "s1 at 20,20; d1 at 20,26");
    cards(
        &mut s,
        &[
            (Some(1), kind),
            (Some(0), CardKind::Single),
            (Some(2), CardKind::Single),
            (Some(0), CardKind::Single),
        ],
    );
    let p = play(&mut s, 1, &mv(dal, 20.0, 21.05), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    (s, sec, dal)
}

/// When U.N.I.T. (seat 0) strikes with `unit` and the Daleks (seat 1) with
/// `daleks`: what the Daleks' strike told.
fn strikes(s: &mut InvasionState, unit: &[u8], daleks: &[u8]) -> Played {
    play(s, 0, r#"{"strike":{}}"#, unit);
    play(s, 1, r#"{"strike":{}}"#, daleks)
}

/// Engaged on a Single card; the U.N.I.T. card passes and the Spug card
/// comes, its Brood placed as `position` says (its group last).
fn spug_card(position: &str) -> (InvasionState, GroupId, GroupId, GroupId) {
    let (mut s, sec, dal) = engaged(CardKind::Single);
    step(&mut s, &[]);
    play(&mut s, 0, r#""end_card""#, &[]);
    let [sq] = placed(&mut s, position);
    (s, sec, dal, sq)
}

/// When the charge's card ends and the fight is resolved, U.N.I.T. striking
/// with eight ones and the Daleks with `daleks`: what the Daleks' strike
/// told.
fn resolved(s: &mut InvasionState, charger: u8, daleks: &[u8]) -> Played {
    end_card_then_step(s, charger);
    strikes(s, &[1; 8], daleks)
}

/// Then the fights are resolved next.
fn melees_resolve_next(s: &InvasionState) -> bool {
    matches!(s.pending.first(), Some(Pending::ResolveMelees { .. }))
}

fn centre(s: &InvasionState, g: GroupId) -> Point {
    table::centre(&s.group(g).points())
}

// ---- "Hand-to-hand combat" ------------------------------------------------------

#[test]
fn hand_to_hand_base_contact_of_one_figure_locks_both_groups() {
    let (s, sec, dal) = engaged(CardKind::Double);
    assert!(s.group(sec).locked.is_some());
    assert_eq!(s.group(sec).locked, s.group(dal).locked);
    assert_eq!(s.melees.len(), 1);
    assert_eq!(
        s.melees[0].defender, None,
        "nobody holds a position in the open"
    );
}

#[test]
fn hand_to_hand_close_combat_is_not_an_action() {
    let (s, _, dal) = engaged(CardKind::Double);
    // The charge cost the move only.
    assert_eq!(s.spent_by(dal), 1);
    assert_eq!(s.actions_left(), 1);
}

#[test]
fn hand_to_hand_locked_groups_cannot_move_until_it_is_resolved() {
    let (mut s, _, dal) = engaged(CardKind::Double);
    when_seat(&mut s, 1, &mv(dal, 20.0, 28.0))
        .refused("[Hand-to-hand combat] Daleks Dalek Patrol Alpha is locked in hand-to-hand combat and cannot move until it is resolved");
}

#[test]
fn hand_to_hand_is_resolved_after_the_actions_of_a_double_card() {
    let (mut s, sec, dal) = engaged(CardKind::Double);
    // The second action first (a shot of the other patrol elsewhere is fine).
    play(&mut s, 1, r#""end_card""#, &[]);
    assert!(melees_resolve_next(&s));
    let p = step(&mut s, &[]);
    p.assert_says("the melee is resolved: U.N.I.T. 8D6, Daleks 18D6");
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Strike {
            seat: 0,
            dice: 8,
            ..
        })
    ));
    // U.N.I.T. strikes first in seat order; the next card waits.
    let s2 = gid(&s, "s2");
    let e = refused(&mut s, 0, &mv(s2, 5.0, 5.0), &[]);
    assert!(e.message.contains("must first strike"), "{e}");
    strikes(&mut s, &[1; 8], &[1; 18]);
    let _ = (sec, dal);
}

#[test]
fn hand_to_hand_is_resolved_after_the_actions_of_a_triple_card() {
    let (mut s, ..) = engaged(CardKind::Triple);
    play(&mut s, 1, r#""end_card""#, &[]);
    assert!(melees_resolve_next(&s));
}

#[test]
fn hand_to_hand_is_not_resolved_after_a_single_card() {
    let (mut s, sec, _) = engaged(CardKind::Single);
    let p = step(&mut s, &[]);
    assert_eq!(p.events, vec![E::CardDone]);
    assert!(s.pending.is_empty());
    assert!(
        s.group(sec).locked.is_some(),
        "still locked on the next card"
    );
    // The next Double or Triple card of any faction resolves it.
    let mut s2 = s.clone();
    s2.drawn[1].kind = CardKind::Double;
    play(&mut s2, 0, r#""end_card""#, &[]);
    assert!(melees_resolve_next(&s2));
}

#[test]
fn hand_to_hand_reinforcements_join_their_factions_group_in_the_fight() {
    let (mut s, sec, dal) = engaged(CardKind::Single);
    step(&mut s, &[]);
    let [other] = placed(&mut s, "s2 at 20,29");
    // Next to the third Dalek (placed at (18.9, 22.96) beside its leader).
    let p = play(&mut s, 0, &mv(other, 17.85, 23.0), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section B join U.N.I.T. 1st Squad, Section A");
    assert!(p.events.contains(&E::Merged {
        from: other,
        into: sec
    }));
    assert_eq!(alive(&s, sec), 8, "one single, bigger group");
    assert_eq!(alive(&s, other), 0);
    assert_eq!(s.melees[0].groups.len(), 2);
    let _ = dal;
}

#[test]
fn hand_to_hand_participants_may_shoot_into_the_combat() {
    let (mut s, sec, dal) = engaged(CardKind::Single);
    step(&mut s, &[]);
    // U.N.I.T.'s Single card: the locked section shoots its attackers.
    let p = play(&mut s, 0, &shoot(&[sec], dal), &[6, 6, 6, 6, 1, 1, 1, 1]);
    assert!(p.any(|e| matches!(e, E::Shot { kills: 1, .. })));
}

#[test]
fn hand_to_hand_groups_not_involved_may_not_shoot_in_if_their_faction_has_members_inside() {
    let (mut s, _, dal) = engaged(CardKind::Single);
    step(&mut s, &[]);
    let [other] = placed(&mut s, "s2 at 30,20");
    when_seat(&mut s, 0, &shoot(&[other], dal))
        .refused("[Hand-to-hand combat] groups not involved in the close combat may not shoot into it if they have members of their faction involved");
}

#[test]
fn hand_to_hand_outsiders_shooting_in_even_dice_to_the_target_odd_dice_to_the_others() {
    // The Spug card: Brood Two (9D6) shoots the Daleks in the fight.
    let (mut s, sec, dal, sq) = spug_card("sq2 at 14,23");
    let p = play(&mut s, 2, &shoot(&[sq], dal), &[6, 6, 6, 6, 2, 2, 5, 3, 1]);
    let shared: Vec<(GroupId, Vec<u8>, u32, u32)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            E::Shared {
                group,
                dice,
                total,
                kills,
                ..
            } => Some((*group, dice.clone(), *total, *kills)),
            _ => None,
        })
        .collect();
    assert_eq!(
        shared,
        vec![
            (dal, vec![6, 6, 6, 6, 2, 2], 28, 1),
            (sec, vec![5, 3, 1], 9, 1)
        ]
    );
    p.assert_says("Daleks Dalek Patrol Alpha take 6,6,6,6,2,2 = 28: 1 kill at 24 each");
    p.assert_says("U.N.I.T. 1st Squad, Section A take 5,3,1 = 9: 1 kill at 6 each");
}

#[test]
fn hand_to_hand_odd_dice_are_shared_as_evenly_as_possible_high_to_low_in_seat_order() {
    assert_eq!(
        share_odd(&[1, 5, 3, 3, 1], 2),
        vec![vec![5, 3, 1], vec![3, 1]]
    );
    assert_eq!(share_odd(&[3], 2), vec![vec![3], vec![]]);
    assert_eq!(
        split_dice(&[2, 1, 4, 3, 6, 5], 7, &[8, 9]),
        vec![(7, vec![2, 4, 6]), (8, vec![5, 1]), (9, vec![3])]
    );
}

// ---- "Resolving hand-to-hand combat" ------------------------------------------------

/// The engaged fight made due for resolution (the Daleks' Double ended).
fn resolving() -> (InvasionState, GroupId, GroupId) {
    let (mut s, sec, dal) = engaged(CardKind::Double);
    end_card_then_step(&mut s, 1);
    (s, sec, dal)
}

#[test]
fn resolving_damage_is_simultaneous_casualties_strike_before_they_are_removed() {
    let (mut s, sec, dal) = resolving();
    // U.N.I.T. kills two Daleks (48 at 24 each)...
    play(&mut s, 0, r#"{"strike":{}}"#, &[6; 8]);
    assert_casualties_asked(&s, 1, 2);
    remove_first(&mut s, 1, dal, 2);
    assert_eq!(alive(&s, dal), 1);
    // ...but all three Daleks' 18D6 still strike back.
    let p = play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
    assert!(p.any(|e| matches!(e, E::Struck { dice, .. } if dice.len() == 18)));
    // 18 at 6 each in the open: three of the four men.
    assert_casualties_asked(&s, 0, 3);
    let _ = sec;
}

#[test]
fn resolving_uses_the_open_kill_score_even_for_groups_in_cover() {
    // Both groups in the non-blocking cornfield (cover): nobody defends a
    // position against the other, so the open score.
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 41,5; d1 at 41,9");
    card(&mut s, 0, CardKind::Double);
    // U.N.I.T. in cover charges the Daleks in cover: the Daleks defend it.
    play(&mut s, 0, &mv(sec, 41.0, 7.95), &[]);
    assert_eq!(s.melees[0].defender, Some((dal, Cover::Cover)));
    // The attackers (U.N.I.T.) are hit at the open score: 18 ones kill 3.
    let p = resolved(&mut s, 0, &[1; 18]);
    p.assert_says("U.N.I.T. 1st Squad, Section A take 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 = 18: 3 kills at 6 each");
}

#[test]
fn resolving_a_faction_defending_a_terrain_feature_gets_its_cover() {
    // U.N.I.T. inside the house, the Daleks charge up to its wall.
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 30.5,31; d1");
    put(&mut s, sec, 1, 30.5, 32.1);
    put(&mut s, sec, 2, 30.5, 33.2);
    put(&mut s, sec, 3, 31.6, 32.1);
    place(&mut s, dal, 22.0, 32.1);
    card(&mut s, 1, CardKind::Double);
    let p = play(&mut s, 1, &mv(dal, 29.5, 32.1), &[]);
    p.assert_says("U.N.I.T. 1st Squad, Section A defend a building");
    assert_eq!(s.melees[0].defender, Some((sec, Cover::Building)));
    // 36 at 12 each: three, not all four.
    let p = resolved(&mut s, 1, &[2; 18]);
    p.assert_says("= 36: 3 kills at 12 each");
}

#[test]
fn resolving_with_more_than_two_factions_the_striker_chooses_a_target_faction() {
    // The Spugs join the fight.
    let (mut s, sec, dal, sq) = spug_card("sq2 at 26,24");
    play(&mut s, 2, &mv(sq, 23.3, 21.1), &[]);
    assert_eq!(s.melees[0].groups.len(), 3);
    // The next card is a U.N.I.T. Single: make it a Double to resolve.
    s.drawn[3].kind = CardKind::Double;
    step(&mut s, &[]);
    end_card_then_step(&mut s, 0);
    when_seat(&mut s, 0, r#"{"strike":{}}"#).refused(
        "[Resolving hand-to-hand combat] more than two factions fight: choose a target faction",
    );
    // Even dice to the Daleks, odd ones to the Spugs.
    let p = play(
        &mut s,
        0,
        r#"{"strike":{"target":1}}"#,
        &[6, 6, 6, 6, 5, 5, 3, 1],
    );
    p.assert_says("Daleks Dalek Patrol Alpha take 6,6,6,6 = 24: 1 kill at 24 each");
    p.assert_says("Spugs Brood Two take 5,5,3,1 = 14: 1 kill at 9 each");
    let _ = (sec, dal);
}

#[test]
fn resolving_a_single_faction_left_stays_and_the_fight_is_over() {
    let (mut s, sec, dal) = resolving();
    strikes(&mut s, &[1; 8], &[6; 18]);
    assert_eq!(alive(&s, sec), 0);
    let before = s.group(dal).points();
    let p = step(&mut s, &[]);
    assert!(!p.any(|e| matches!(e, E::Moved { .. })));
    p.assert_says("the hand-to-hand combat is over");
    assert_eq!(s.group(dal).points(), before);
    assert!(s.group(dal).locked.is_none());
    assert!(s.melees.is_empty());
}

#[test]
fn resolving_defenders_stay_put_and_attackers_move_back_a_full_move() {
    let mut s = given(&["unit", "daleks"]);
    // The way Xenolog chose until rules version 5, now a battle option (the
    // player's choice: `invasion_retreats.rs`).
    s.game_chooses_retreats = true;
    let [sec, dal] = placed(&mut s, "s1 at 30.5,31; d1");
    put(&mut s, sec, 1, 30.5, 32.1);
    put(&mut s, sec, 2, 30.5, 33.2);
    put(&mut s, sec, 3, 31.6, 32.1);
    place(&mut s, dal, 22.0, 32.1);
    card(&mut s, 1, CardKind::Double);
    charge_and_end_card(&mut s, 1, &mv(dal, 29.5, 32.1));
    strikes(&mut s, &[1; 8], &[1; 18]);
    // 18 at 12: one man falls.
    let one = figures(&s, sec)[3].clone();
    play(&mut s, 0, &casualties(&[&one]), &[]);
    let held = s.group(sec).points();
    let was = centre(&s, dal);
    let p = step(&mut s, &[]);
    p.assert_says("Daleks Dalek Patrol Alpha moved to");
    p.assert_says("falls back a full move");
    assert_eq!(s.group(sec).points(), held, "the defenders stay put");
    let d = was.distance(centre(&s, dal));
    assert!((795..=805).contains(&d), "a full move back: {d}");
    assert!(!table::in_contact(&s.group(dal).points(), &held));
    assert!(s.group(dal).locked.is_none() && s.group(sec).locked.is_none());
}

#[test]
fn resolving_with_no_position_held_all_factions_move_a_full_move_apart() {
    let (mut s, sec, dal) = resolving();
    // The battle option (rules version 6): the game chooses the way.
    s.game_chooses_retreats = true;
    strikes(&mut s, &[1; 8], &[1; 18]);
    // Daleks chose nothing: 8 ones kill none; U.N.I.T. loses 3 at 6 each.
    remove_first(&mut s, 0, sec, 3);
    let (a, b) = (centre(&s, sec), centre(&s, dal));
    let p = step(&mut s, &[]);
    assert_eq!(p.count(|e| matches!(e, E::Moved { .. })), 2);
    assert!(centre(&s, sec).distance(a) >= 795);
    assert!(centre(&s, dal).distance(b) >= 795);
    assert!(!table::in_contact(
        &s.group(sec).points(),
        &s.group(dal).points()
    ));
}

#[test]
fn resolving_spugs_fight_to_the_death_and_the_combat_continues_on_the_next_card() {
    let (mut s, [sec, sq]) = given_at(&["unit", "spugs"], "s1 at 20,20; sq2 at 20,30");
    seat_cards(&mut s, &[(1, CardKind::Double), (0, CardKind::Double)]);
    charge_and_end_card(&mut s, 1, &mv(sq, 20.0, 21.05));
    strikes(&mut s, &[1; 8], &[1; 9]);
    remove_first(&mut s, 0, sec, 1);
    let p = step(&mut s, &[]);
    assert_eq!(p.events, vec![E::FightsOn { melee: 0 }]);
    assert!(s.group(sq).locked.is_some() && s.group(sec).locked.is_some());
    // The U.N.I.T. Double resolves it again.
    play(&mut s, 0, r#""end_card""#, &[]);
    assert!(melees_resolve_next(&s));
}

// ---- Rules version 2: the aftermath and reinforcements --------------------------

/// U.N.I.T. section A holds the house (a building); Dalek Patrol Alpha
/// storms it on a Double card and the melee is resolved.
fn stormed() -> (InvasionState, GroupId, GroupId) {
    let (mut s, sec, dal, charge) = given_the_house_charged();
    charge.assert_says("defend a building");
    end_card_then_step(&mut s, 1);
    (s, sec, dal)
}

#[test]
fn resolving_a_single_faction_left_may_move_to_occupy_any_ground_that_their_opponent_was_holding() {
    let (mut s, sec, dal) = stormed();
    let held: Vec<Point> = s.group(sec).points();
    // 18 sixes at the building's 12: all four defenders fall.
    strikes(&mut s, &[1; 8], &[6; 18]);
    assert_eq!(alive(&s, sec), 0);
    let p = step(&mut s, &[]);
    p.assert_says("may take the ground they held (a building)");
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Occupy { seat: 1, .. })
    ));
    // The winners' player is asked, with both answers.
    let asked = xenolog_engine::games::invasion::legal::asked(&s);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].seat.0, 1);
    assert!(is_legal(&s, r#"{"occupy":{"take":true}}"#));
    assert!(is_legal(&s, r#"{"occupy":{"take":false}}"#));
    let e = refused(&mut s, 0, r#"{"occupy":{"take":true}}"#, &[]);
    assert!(e.message.contains("Daleks decide"), "{e}");
    assert_legal_accepted(&s);
    let p = play(&mut s, 1, r#"{"occupy":{"take":true}}"#, &[]);
    p.assert_says("takes the ground its enemy held");
    p.assert_says("the hand-to-hand combat is over");
    // "if a building was stormed the attackers will get inside".
    for q in s.group(dal).points() {
        assert!(held.contains(&q), "{q:?} is where a defender stood");
        assert_eq!(table::cover_at(&s.scenario, q), Cover::Building);
    }
    assert!(s.melees.is_empty() && s.group(dal).locked.is_none());
    assert!(s.pending.is_empty());
}

#[test]
fn resolving_the_winners_may_also_stay_where_they_fought() {
    let (mut s, sec, dal) = stormed();
    strikes(&mut s, &[1; 8], &[6; 18]);
    assert_eq!(alive(&s, sec), 0);
    step(&mut s, &[]);
    let before = s.group(dal).points();
    let p = play(&mut s, 1, r#"{"occupy":{"take":false}}"#, &[]);
    assert!(!p.any(|e| matches!(e, E::Moved { .. })));
    assert_eq!(s.group(dal).points(), before);
    assert!(s.melees.is_empty() && s.pending.is_empty());
}

#[test]
fn resolving_defenders_who_win_alone_are_not_offered_their_own_ground() {
    let (mut s, sec, dal) = stormed();
    kill(&mut s, dal, 1);
    let held = s.group(sec).points();
    // 8 sixes: 48 at the open 24 kills both Daleks left.
    strikes(&mut s, &[6; 8], &[1; 18]);
    assert_eq!(alive(&s, dal), 0);
    remove_first(&mut s, 0, sec, 1);
    let p = step(&mut s, &[]);
    assert!(!p.any(|e| matches!(e, E::GroundOffered { .. } | E::Moved { .. })));
    p.assert_says("the hand-to-hand combat is over");
    assert_eq!(s.group(sec).points(), held[1..].to_vec());
    assert!(s.pending.is_empty());
}

#[test]
fn resolving_a_single_faction_left_forms_suitable_groups_based_on_their_organisation() {
    let (mut s, sec, dal) = engaged(CardKind::Double);
    let [beta] = placed(&mut s, "d2 at 24,26");
    // Dalek Patrol Beta joins the fight: it merges into Alpha.
    let p = play(&mut s, 1, &mv(beta, 21.2, 21.1), &[]);
    p.assert_says("Daleks Dalek Patrol Beta join Daleks Dalek Patrol Alpha");
    assert_eq!(alive(&s, dal), 6);
    assert_eq!(alive(&s, beta), 0);
    // The card's two actions are used: the melee is resolved at its end.
    steps(&mut s);
    strikes(&mut s, &[1; 8], &[6; 36]);
    assert_eq!(alive(&s, sec), 0);
    let p = step(&mut s, &[]);
    // "they will form suitable groups based on their organisation, Daleks
    // would form up into threes for instance".
    p.assert_says(
        "Daleks re-form by their organisation: Dalek Patrol Beta back in their own group",
    );
    assert_eq!(alive(&s, dal), 3);
    assert_eq!(alive(&s, beta), 3);
    assert!(s.group(beta).on_table() && s.group(beta).locked.is_none());
    assert!(s.group(dal).alive().all(|m| m.origin.is_none()));
    assert!(
        s.group(beta)
            .alive()
            .all(|m| m.id.starts_with("daleks-d2-")),
        "each figure back in the group it was deployed in"
    );
    assert!(s.melees.is_empty());
}

#[test]
fn hand_to_hand_reinforcements_of_other_kill_scores_are_each_paid_for_at_their_own() {
    // Spugs (9 in the open) and their Mites (6) in one merged group.
    // U.N.I.T.'s 8 dice total 20: two Spugs (9 + 9) or three Mites (6 + 6 + 6).
    let (mut s, _, brood, p) = given_spugs_and_mites_struck_for_20();
    p.assert_says("join");
    let p_words = s.pending.first().cloned();
    assert!(
        matches!(
            p_words,
            Some(Pending::Casualties {
                seat: 1,
                count: 3,
                budget: Some(_),
                ..
            })
        ),
        "{p_words:?}"
    );
    let spugs: Vec<String> = s
        .group(brood)
        .alive()
        .filter(|m| m.kind == "spug")
        .map(|m| String::from(&m.id))
        .take(3)
        .collect();
    let mite: String = first_of_kind(&s, brood, "mite");
    // Three Spugs cost 27: more than 20.
    let e = refused(&mut s, 1, &casualties(&spugs), &[]);
    assert_refusal_says(
        &e,
        "each casualty is paid for at its own kill score: these cost 27 and 20 of the total is left",
    );
    // Two Spugs (18): the 2 left pay for nothing more, the choice is over.
    let before = alive(&s, brood);
    play(&mut s, 1, &casualties(&spugs[..2]), &[]);
    assert_eq!(alive(&s, brood), before - 2);
    assert!(
        !matches!(s.pending.first(), Some(Pending::Casualties { .. })),
        "{:?}",
        s.pending.first()
    );
    assert!(s.group(brood).alive().any(|m| m.id == mite));
    assert_eq!(
        s.kills[0], 2,
        "U.N.I.T. is credited as the casualties are chosen"
    );
}

#[test]
fn hand_to_hand_mixed_kill_scores_one_at_a_time_until_the_total_is_spent() {
    let (mut s, _, brood, _) = given_spugs_and_mites_struck_for_20();
    // One Mite (6): 14 left pays for more, so the choice goes on; legal
    // offers only figures the rest can pay for.
    let mite: String = first_of_kind(&s, brood, "mite");
    play(&mut s, 1, &casualties(&[&mite]), &[]);
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Casualties {
            count: 2,
            budget: Some(b),
            ..
        }) if b.total == 14
    ));
    let spug: String = first_of_kind(&s, brood, "spug");
    play(&mut s, 1, &casualties(&[&spug]), &[]);
    // 5 left: less than any figure's 6.
    assert!(!matches!(
        s.pending.first(),
        Some(Pending::Casualties { .. })
    ));
    assert_eq!(s.kills[0], 2);
}
