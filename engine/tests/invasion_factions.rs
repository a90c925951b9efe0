//! Rule text 000, "Sample Forces": the MiB (with their Clean Up teams) and
//! the Spugs (with Mites and Burrower Worms); one test per clause.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::model::{Cover, Point, VictoryKind};
use xenolog_engine::games::invasion::rules::{kill_score, melee_dice};
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Place};
use xenolog_engine::games::invasion::victory;

fn shot(p: &Played) -> (Vec<u8>, usize, u32) {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Shot {
                how_many,
                dice,
                kills,
                ..
            } => Some((how_many.clone(), dice.len(), *kills)),
            _ => None,
        })
        .expect("a Shot")
}

/// MiB agents J and K at (10,20), Dalek Patrol Alpha at (10,12).
fn mib() -> (InvasionState, GroupId, GroupId) {
    let (s, [p1, dal]) = given_at(&["mib", "daleks"], "p1 at 10,20; d1 at 10,12");
    (s, p1, dal)
}

// ---- MiB ---------------------------------------------------------------------------

#[test]
fn mib_each_shot_rolls_a_d6_for_the_dice_of_each_operative() {
    let (mut s, p1, dal) = mib();
    card(&mut s, 0, CardKind::Single);
    // A 3: each of the two operatives rolls 3D6.
    let p = play(&mut s, 0, &shoot(&[p1], dal), &[3, 1, 1, 1, 1, 1, 1]);
    assert_eq!(shot(&p), (vec![3], 6, 0));
    p.assert_says("6D6 at Daleks Dalek Patrol Alpha (rolled 3 for dice per operative)");
}

/// "Resolving hand-to-hand combat": "Each faction totals its close combat
/// dice (which are the same as for shooting unless there is a note in the
/// faction background that says otherwise)". The MiB background says
/// nothing of close combat, so a pair fights with D6 x (1 + successes) dice
/// an operative, rolled for the melee as for a shot.
#[test]
fn resolving_mib_close_combat_dice_are_the_same_as_for_shooting_a_d6_for_each_operative() {
    let (mut s, p1, dal) = mib();
    seat_cards(&mut s, &[(0, CardKind::Double), (1, CardKind::Single)]);
    play(&mut s, 0, &mv(p1, 10.0, 13.05), &[]);
    assert!(s.group(p1).locked.is_some(), "the pair reached the Daleks");
    play(&mut s, 0, r#""end_card""#, &[]);
    // The melee's resolution rolls the pair's "how many": a 4, 4D6 each.
    let p = step(&mut s, &[4]);
    assert!(
        p.any(|e| matches!(
            e,
            E::MeleeHowMany { group, dice, .. } if *group == p1 && *dice == vec![4]
        )),
        "{:#?}",
        p.words
    );
    assert!(
        p.any(|e| matches!(
            e,
            E::Resolving { strikes, .. } if strikes.contains(&(0, 8))
        )),
        "{:#?}",
        p.words
    );
    p.assert_says("rolled 4 for their close-combat dice: 4D6 an operative");
    assert_eq!(melee_dice(&s, p1), 8);
    // The MiB strike with those 8 dice: 48 kills two Daleks in the open.
    let p = play(&mut s, 0, r#"{"strike":{}}"#, &[6; 8]);
    assert!(p.any(|e| matches!(e, E::Struck { dice, .. } if dice.len() == 8)));
    let _ = dal;
}

/// The "how many" roll of a melee goes through the entered dice like every
/// other: with entered dice and none for it, the step is refused.
#[test]
fn resolving_mib_close_combat_how_many_needs_an_entered_die() {
    let (mut s, p1, _) = mib();
    seat_cards(&mut s, &[(0, CardKind::Double), (1, CardKind::Single)]);
    play(&mut s, 0, &mv(p1, 10.0, 13.05), &[]);
    play(&mut s, 0, r#""end_card""#, &[]);
    let c = xenolog_engine::games::invasion::rules::automatic(&s).expect("the melee is due");
    let mut rng = xenolog_engine::rng::Randomness::new(7, 0, Some(Vec::new()));
    let before = s.clone();
    let e = xenolog_engine::games::invasion::rules::decide(
        &s,
        xenolog_engine::Actor::SYSTEM,
        &c,
        &mut rng,
    )
    .expect_err("no die entered for the how-many roll");
    assert_eq!(e.kind, xenolog_engine::RuleErrorKind::MoreDice, "{e}");
    assert_eq!(s, before);
}

/// Clean Up men fight as they shoot: the successes at their arrival + 1
/// each, the heavy weapon one more (no roll).
#[test]
fn resolving_mib_clean_up_close_combat_dice_are_their_shooting_dice() {
    let (s, c1, _, _) = clean_up(1);
    assert_eq!(melee_dice(&s, c1), 11);
    let (s, c1, _, _) = clean_up(0);
    assert_eq!(melee_dice(&s, c1), 6);
}

#[test]
fn mib_move_8_inches() {
    let (mut s, p1, _) = mib();
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &mv(p1, 18.5, 20.0), &[]);
    assert!(e.message.ends_with("this group moves 8\""), "{e}");
}

#[test]
fn mib_the_first_alien_killed_can_be_studied_a_6_adds_1d6_to_each_initial_roll() {
    let (mut s, p1, dal) = mib();
    card(&mut s, 0, CardKind::Double);
    when_seat(&mut s, 0, &group_order("study", p1)).refused(
        "[MiB] there is nothing to study: no alien species not yet studied has been killed",
    );
    // A 2: two sixes each, 24 kills a Dalek; the MiB get the miniature.
    let p = play(&mut s, 0, &shoot(&[p1], dal), &[2, 6, 6, 6, 6]);
    assert_eq!(shot(&p), (vec![2], 4, 1));
    let p = remove_first(&mut s, 1, dal, 1);
    p.assert_says("the first dalek is killed: the MiB may study it");
    // A D6 for each MiB group on the table (five pairs): one 6 is enough.
    let p = play(&mut s, 0, &group_order("study", p1), &[1, 2, 3, 4, 6]);
    p.assert_says("study: 1,2,3,4,6: the dalek studied (+1D6 to each MiB shooting roll)");
    assert_eq!(s.studied, vec!["dalek".to_owned()]);
    // Now each shot rolls 2D6 for the dice per operative.
    card(&mut s, 0, CardKind::Single);
    let mut dice = vec![2, 3];
    dice.extend([1; 10]);
    let p = play(&mut s, 0, &shoot(&[p1], dal), &dice);
    assert_eq!(shot(&p), (vec![2, 3], 10, 0));
}

#[test]
fn mib_study_without_a_6_fails_and_each_species_is_studied_once() {
    let (mut s, p1, _) = mib();
    s.killed_species.push("dalek".into());
    card(&mut s, 0, CardKind::Double);
    let p = play(&mut s, 0, &group_order("study", p1), &[1, 2, 3, 4, 5]);
    p.assert_says("study: 1,2,3,4,5 (no 6)");
    assert!(s.studied.is_empty());
    play(&mut s, 0, &group_order("study", p1), &[6, 6, 1, 1, 1]);
    assert_eq!(
        s.studied,
        vec!["dalek".to_owned()],
        "once per different alien"
    );
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &group_order("study", p1), &[]);
    assert!(e.message.starts_with("there is nothing to study"), "{e}");
}

#[test]
fn mib_against_spugs_three_species_can_be_studied_for_4d6_times_d6() {
    let (mut s, [p1, sq]) = given_at(&["mib", "spugs"], "p1 at 10,20; sq2 at 10,12");
    s.killed_species = vec!["spug".into(), "mite".into(), "burrower".into()];
    s.studied = s.killed_species.clone();
    card(&mut s, 0, CardKind::Single);
    let mut dice = vec![6, 6, 6, 6];
    dice.extend([1; 48]);
    let p = play(&mut s, 0, &shoot(&[p1], sq), &dice);
    // 4D6 for the dice per operative, here 24: 48D6 for the pair.
    assert_eq!(shot(&p).0, vec![6, 6, 6, 6]);
    assert_eq!(shot(&p).1, 48);
}

#[test]
fn mib_are_protected_by_alien_devices_9_12_15() {
    let (s, p1, _) = mib();
    assert_eq!(
        [Cover::Open, Cover::Cover, Cover::Building].map(|c| kill_score(&s, p1, c)),
        [9, 12, 15]
    );
}

#[test]
fn mib_victory_once_they_have_studied_every_alien_species_present() {
    let (mut s, ..) = mib();
    assert!(!victory::met(&s, 0, &VictoryKind::StudyAll));
    s.studied.push("dalek".into());
    assert!(victory::met(&s, 0, &VictoryKind::StudyAll));
    let mut s = given(&["mib", "spugs"]);
    s.studied = vec!["spug".into(), "mite".into()];
    assert!(
        !victory::met(&s, 0, &VictoryKind::StudyAll),
        "the burrower too"
    );
    s.studied.push("burrower".into());
    assert!(victory::met(&s, 0, &VictoryKind::StudyAll));
}

#[test]
fn mib_victory_by_study_holds_in_any_scenario_not_only_where_it_is_listed() {
    // "In addition to any scenario specific victory conditions": the proving
    // ground lists only "last standing".
    let (mut s, ..) = mib();
    s.studied.push("dalek".into());
    match victory::ending(&s) {
        E::Ended { winners, summary } => {
            assert_eq!(winners, vec![0], "{summary}");
            assert!(summary.contains("every alien species"), "{summary}");
        }
        e => panic!("{e:?}"),
    }
}

// ---- MiB Clean Up teams ------------------------------------------------------------

/// The Clean Up teams arrive on a Special Event card after `successes` studies.
fn clean_up(successes: usize) -> (InvasionState, GroupId, GroupId, GroupId) {
    let (mut s, _, dal) = mib();
    s.killed_species = vec!["dalek".into(), "x".into(), "y".into()];
    s.studied = s.killed_species[..successes].to_vec();
    cards(
        &mut s,
        &[
            (None, CardKind::Special),
            (Some(0), CardKind::Single),
            (Some(0), CardKind::Double),
        ],
    );
    step(&mut s, &[]);
    let [c1, c2] = placed(&mut s, "c1 at 20,20; c2 at 20,22");
    (s, c1, c2, dal)
}

#[test]
fn mib_clean_up_teams_arrive_when_a_special_event_card_is_drawn() {
    let (s, c1, c2, _) = clean_up(1);
    for g in [c1, c2] {
        assert_eq!(s.group(g).place, Place::Table);
        assert_eq!(
            alive(&s, g),
            5,
            "a leader, four troopers and a light support weapon"
        );
    }
}

#[test]
fn mib_clean_up_each_man_rolls_successes_plus_one_heavy_weapon_one_more() {
    let (mut s, c1, _, dal) = clean_up(1);
    // One success: 2D6 a man, 3D6 the light support weapon: 11D6, no MiB roll.
    let p = play(&mut s, 0, &shoot(&[c1], dal), &[1; 11]);
    assert_eq!(shot(&p), (vec![], 11, 0));
    let (mut s, c1, _, dal) = clean_up(0);
    let p = play(&mut s, 0, &shoot(&[c1], dal), &[1; 6]);
    assert_eq!(shot(&p).1, 6);
}

#[test]
fn mib_clean_up_sections_can_link_fire() {
    let (mut s, c1, c2, dal) = clean_up(1);
    let p = play(&mut s, 0, &shoot(&[c1, c2], dal), &[1; 22]);
    assert_eq!(shot(&p).1, 22);
    p.assert_says("linked 22D6");
}

#[test]
fn mib_clean_up_both_sections_get_an_action_per_action_drawn() {
    let (mut s, c1, c2, dal) = clean_up(1);
    // A Single card: one section moves and the other shoots.
    play(&mut s, 0, &mv(c1, 20.0, 25.0), &[]);
    play(&mut s, 0, &shoot(&[c2], dal), &[1; 11]);
    // The Single card is used up.
    assert!(xenolog_engine::games::invasion::rules::automatic(&s).is_some());
    let e = refused(&mut s, 0, &mv(c1, 20.0, 27.0), &[]);
    assert_eq!(e.message, "the game takes a step of its own first");
}

#[test]
fn mib_clean_up_teams_neither_add_to_study_rolls_nor_benefit_from_them() {
    let (mut s, c1, _, dal) = clean_up(1);
    let p1 = gid(&s, "p1");
    let e = refused(&mut s, 0, &group_order("study", c1), &[]);
    assert_eq!(
        refusal(&e),
        "[MiB] deployed Clean Up teams do not add to study rolls"
    );
    // A study rolls for the five pairs only (not the two sections).
    let p = play(&mut s, 0, &group_order("study", p1), &[6, 1, 1, 1, 1]);
    assert!(p.any(|e| matches!(e, E::Studied { dice, .. } if dice.len() == 5)));
    assert_eq!(s.studied.len(), 2);
    // The sections still roll what they arrived with.
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &shoot(&[c1], dal), &[1; 11]);
    assert_eq!(shot(&p).1, 11);
}

#[test]
fn mib_clean_up_not_arrived_cannot_act() {
    let (mut s, ..) = mib();
    let c1 = gid(&s, "c1");
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &mv(c1, 20.0, 20.0), &[]);
    assert!(e.message.ends_with("has not arrived yet"), "{e}");
}

// ---- Spugs ---------------------------------------------------------------------------

fn spugs() -> InvasionState {
    given(&["spugs", "unit"])
}

#[test]
fn spugs_roll_1d6_per_weapon_the_heavy_weapon_4d6_and_can_link_fire() {
    let mut s = spugs();
    let [a, b, sec] = placed(&mut s, "sq2 at 10,20; sq3 at 18,20; s1 at 10,12");
    card(&mut s, 0, CardKind::Double);
    let p = play(&mut s, 0, &shoot(&[a, b], sec), &[1; 18]);
    assert_eq!(
        shot(&p).1,
        18,
        "two squads of five Spugs and a heavy weapon"
    );
}

#[test]
fn spugs_are_tough_9_12_15_mites_6_9_12_burrowers_30_regardless_of_terrain() {
    let s = spugs();
    let all = [Cover::Open, Cover::Cover, Cover::Building];
    assert_eq!(all.map(|c| kill_score(&s, gid(&s, "sq2"), c)), [9, 12, 15]);
    assert_eq!(all.map(|c| kill_score(&s, gid(&s, "m1"), c)), [6, 9, 12]);
    assert_eq!(all.map(|c| kill_score(&s, gid(&s, "w1"), c)), [30, 30, 30]);
}

#[test]
fn spugs_mites_roll_2d6_in_close_combat_only() {
    let mut s = spugs();
    let [m, sec] = placed(&mut s, "m1 at 10,20; s1 at 10,12");
    assert_eq!(melee_dice(&s, m), 6);
    card(&mut s, 0, CardKind::Single);
    when_seat(&mut s, 0, &shoot(&[m], sec))
        .refused("[Shoot] Spugs Mite Swarm One has no shooting dice");
}

#[test]
fn spugs_mites_detonated_by_their_controller_blast_6_inches_4d6_chain_explosions_linked() {
    let mut s = spugs();
    let [ctl, m, sec] = placed(&mut s, "sq1 at 20,5; m1; s1");
    // Two Mites 5" apart (the second is caught by the first), the third far off.
    put(&mut s, m, 0, 20.0, 20.0);
    put(&mut s, m, 1, 25.0, 20.0);
    put(&mut s, m, 2, 40.0, 40.0);
    // The section 4-5" from the first Mite.
    place(&mut s, sec, 18.0, 24.0);
    card(&mut s, 0, CardKind::Single);
    let detonate = detonate_first(&s, ctl, m);
    let p = play(&mut s, 0, &detonate, &[3, 3, 3, 3, 3, 3, 3, 3]);
    assert_eq!(
        p.count(|e| matches!(e, E::Detonated { .. })),
        2,
        "the second Mite blows up too"
    );
    // 8D6 linked: 24 at 6 each kills all four men.
    p.assert_says("U.N.I.T. 1st Squad, Section A take 3,3,3,3,3,3,3,3 = 24: 4 kills at 6 each");
    assert_eq!(alive(&s, sec), 0);
    assert_eq!(alive(&s, m), 1);
}

#[test]
fn spugs_mites_do_not_explode_when_shot_or_killed() {
    let (mut s, [sec, m, sq]) =
        given_at(&["unit", "spugs"], "s1 at 20,10; m1 at 20,20; sq2 at 20,22");
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &shoot(&[sec], m), &[6; 8]);
    assert!(!p.any(|e| matches!(e, E::Detonated { .. })));
    assert_eq!(alive(&s, sq), 6);
}

/// Spugs with their Controller dead: the Mites are uncontrolled.
fn uncontrolled() -> (InvasionState, GroupId, GroupId) {
    let mut s = spugs();
    let (ctl, m, sec) = (gid(&s, "sq1"), gid(&s, "m1"), gid(&s, "s1"));
    s.groups[ctl as usize].models[0].alive = false;
    place(&mut s, m, 20.0, 20.0);
    place(&mut s, sec, 20.0, 10.0);
    (s, m, sec)
}

#[test]
fn spugs_uncontrolled_mites_can_only_charge_towards_the_nearest_enemy() {
    let (mut s, m, _) = uncontrolled();
    assert!(s.mites_uncontrolled(0));
    card(&mut s, 0, CardKind::Double);
    when_seat(&mut s, 0, &mv(m, 20.0, 30.0))
        .refused("[Spugs] uncontrolled Mites can only charge towards the nearest enemy");
    play(&mut s, 0, &mv(m, 20.0, 12.0), &[]);
}

/// The Spugs with Sighting a Target on (or off): the Mite Swarm One below
/// the house (31-33.2, 27), U.N.I.T.'s Section A above it (31-34.3, 38),
/// the house between them; the Brood One (its Controller first) is placed
/// by each test.
fn mites_behind_the_house(sighting: bool) -> (InvasionState, GroupId, GroupId) {
    let on: &[&str] = if sighting { &["sighting"] } else { &[] };
    let mut s = given_on_ground(&["spugs", "unit"], &[], on);
    let [m, sec] = placed(&mut s, "m1 at 31,27; s1 at 31,38");
    (s, m, sec)
}

/// "If the controller is killed the mites can do nothing except charge
/// towards the nearest enemy (regardless of LOS) and attempt to melee
/// them": with Sighting a Target on, the uncontrolled Mites reach the
/// section they cannot see round the house and lock with it; no sighting
/// is asked of them.
#[test]
fn spugs_uncontrolled_mites_charge_regardless_of_los_even_with_sighting_a_target() {
    let (mut s, m, sec) = mites_behind_the_house(true);
    let ctl = gid(&s, "sq1");
    s.groups[ctl as usize].models[0].alive = false;
    assert!(s.mites_uncontrolled(0));
    card(&mut s, 0, CardKind::Double);
    let p = play(&mut s, 0, &mv(m, 31.0, 37.0), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert_eq!(s.group(m).locked, s.group(sec).locked);
}

/// "A Controller can direct the mites to a target he can see without having
/// to see their path to it so the mites can be sent on flanking moves":
/// the Controller, 20" and more from his Mites (beyond a leader's 10"), sees
/// the section; the Mites round the house onto it. Without Sighting a
/// Target no line of sight is asked of any assault; with it the
/// Controller's sight sights the target for his Mites. A Controller behind
/// the house, who does not see the section either, sights nothing for them.
#[test]
fn spugs_a_controller_directs_mites_to_a_target_he_sees_without_their_path_in_sight() {
    for sighting in [false, true] {
        let (mut s, m, sec) = mites_behind_the_house(sighting);
        let [_] = placed(&mut s, "sq1 at 4,38");
        card(&mut s, 0, CardKind::Double);
        let p = play(&mut s, 0, &mv(m, 31.0, 37.0), &[]);
        assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        assert_eq!(s.group(m).locked, s.group(sec).locked);
    }
    let (mut s, m, _) = mites_behind_the_house(true);
    let [_] = placed(&mut s, "sq1 at 31,20");
    card(&mut s, 0, CardKind::Double);
    let e = refused(&mut s, 0, &mv(m, 31.0, 37.0), &[]);
    assert_refusal_says(&e, "has not sighted");
    assert_refusal_says(&e, "its Controller seeing it");
}

/// The Controller `ctl` detonates the Mite named `mite`.
fn detonate(ctl: GroupId, mite: &str) -> String {
    format!(r#"{{"detonate":{{"group":{ctl},"mite":"{mite}"}}}}"#)
}

#[test]
fn spugs_uncontrolled_mites_cannot_be_detonated() {
    let (mut s, m, _) = uncontrolled();
    let ctl = gid(&s, "sq1");
    card(&mut s, 0, CardKind::Single);
    let mite = figures(&s, m)[0].clone();
    when_seat(&mut s, 0, &detonate(ctl, &mite))
        .refused("[Spugs] Spugs Brood One has no Controller");
}

#[test]
fn spugs_a_triple_card_must_use_one_action_to_move_uncontrolled_mites() {
    let (mut s, m, _) = uncontrolled();
    let [sq] = placed(&mut s, "sq2 at 30,20");
    card(&mut s, 0, CardKind::Triple);
    when_seat(&mut s, 0, r#""end_card""#)
        .refused("[Spugs] one action of a Spug Triple card must move the uncontrolled Mites");
    play(&mut s, 0, &mv(sq, 30.0, 22.0), &[]);
    play(&mut s, 0, &mv(sq, 30.0, 24.0), &[]);
    let e = refused(&mut s, 0, &mv(sq, 30.0, 26.0), &[]);
    assert!(refusal(&e).starts_with("[Spugs] one action"), "{e}");
    play(&mut s, 0, &mv(m, 20.0, 12.0), &[]);
}

#[test]
fn spugs_burrowers_tunnel_down_anywhere_and_surface_one_action_each_carrying_a_squad() {
    let mut s = spugs();
    let [w, sq] = placed(&mut s, "w1 at 20,20; sq2 at 21.05,20");
    let holes = s.holes.len();
    card(&mut s, 0, CardKind::Triple);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"burrow":{{"group":{w},"carry":[{sq}]}}}}"#),
        &[],
    );
    p.assert_says("Spugs Burrower Worm went below the table");
    p.assert_says("Spugs Brood Two are carried by Spugs Burrower Worm");
    p.assert_says("a Spug hole at (20\", 20\")");
    assert_eq!(s.holes.len(), holes + 1, "a hole at the burrow point");
    assert_eq!(s.group(sq).place, Place::Carried(w));
    assert_eq!(s.spent_by(w), 1);
    assert_eq!(s.spent_by(sq), 0, "the squad is carried down for free");
    play(&mut s, 0, &tunnel(w, 3500, 1500), &[]);
    let p = play(&mut s, 0, &surface_to(w, 3500, 1500), &[]);
    p.assert_says("Spugs Burrower Worm came up at (35\", 15\")");
    assert_eq!(s.holes.len(), holes + 2);
    assert_eq!(s.actions_left(), 0);
    // The squad needs an action of its own to deploy.
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &group_order("deploy", sq), &[]);
    assert!(p.events.contains(&E::Spent { group: sq }));
    assert_eq!(s.group(sq).place, Place::Table);
    assert!(
        xenolog_engine::games::invasion::table::in_contact(
            &s.group(sq).points(),
            &s.group(w).points()
        ) || s
            .group(sq)
            .points()
            .iter()
            .all(|p| p.distance(pt(35.0, 15.0)) < 400)
    );
}

/// The Spugs, placed as `position` says (the Burrower first), on a card of
/// `kind`; the Burrower has tunnelled down (one action).
fn burrowed<const N: usize>(position: &str, kind: CardKind) -> (InvasionState, [GroupId; N]) {
    let mut s = spugs();
    let groups = placed(&mut s, position);
    card(&mut s, 0, kind);
    play(&mut s, 0, &group_order("burrow", groups[0]), &[]);
    (s, groups)
}

#[test]
fn spugs_surfacing_at_an_existing_hole_is_free_for_the_worm() {
    let (mut s, [w]) = burrowed("w1 at 20,20", CardKind::Double);
    let p = play(&mut s, 0, &surface_hole(w, 0), &[]);
    assert!(!p.any(|e| matches!(e, E::Spent { .. })));
    assert_eq!(s.actions_left(), 1);
    // Burrowing down always requires an action.
    play(&mut s, 0, &group_order("burrow", w), &[]);
    assert_eq!(s.actions_left(), 0);
}

#[test]
fn spugs_start_with_three_holes_per_squad_two_deployed_the_rest_to_build() {
    let s = spugs();
    // Three squads: six holes on the table, three to build.
    assert_eq!(s.holes.len(), 6);
    assert_eq!(s.holes_left, vec![(0, 3)]);
}

#[test]
fn spugs_no_holes_left_to_build_surface_only_at_existing_holes() {
    let mut s = spugs();
    let [w] = placed(&mut s, "w1 at 20,20");
    s.holes.push(pt(20.0, 20.0));
    s.holes_left = vec![(0, 0)];
    card(&mut s, 0, CardKind::Triple);
    let p = play(&mut s, 0, &group_order("burrow", w), &[]);
    assert!(!p.any(|e| matches!(e, E::HoleDug { .. })));
    when_seat(&mut s, 0, &surface_to(w, 3000, 2000))
        .refused("[Spugs] the Spugs have no holes left to build: surface at an existing hole");
}

/// Given: a group placed 1" to the east of a hole.
fn beside_hole(s: &mut InvasionState, g: GroupId, hole: Point) {
    place(s, g, hole.x as f64 / 100.0 + 1.0, hole.y as f64 / 100.0);
}

#[test]
fn spugs_an_opponent_may_close_a_hole_with_a_whole_groups_action() {
    let mut s = given(&["unit", "spugs"]);
    let sec = gid(&s, "s1");
    let hole = s.holes[0];
    beside_hole(&mut s, sec, hole);
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &close_hole(sec, 0), &[]);
    assert!(p.events.contains(&E::Spent { group: sec }));
    assert!(!s.holes.contains(&hole));
    // Not from afar.
    let (mut s, [sec]) = given_at(&["unit", "spugs"], "s1 at 20,20");
    card(&mut s, 0, CardKind::Single);
    when_seat(&mut s, 0, &close_hole(sec, 0))
        .refused("[Spugs] the group must be at the hole to close it");
    // Nor by the Spugs.
    let mut s = spugs();
    let sq = gid(&s, "sq2");
    let hole = s.holes[0];
    beside_hole(&mut s, sq, hole);
    card(&mut s, 0, CardKind::Single);
    when_seat(&mut s, 0, &close_hole(sq, 0))
        .refused("[Spugs] only an opponent of the Spugs closes their holes");
}

#[test]
fn spugs_burrowers_attack_in_melee_with_6d6_when_they_surface_next_to_enemies() {
    let (mut s, [w, _]) = burrowed("w1 at 10,20; s1 at 30,20", CardKind::Triple);
    let p = play(&mut s, 0, &surface_to(w, 2895, 2000), &[]);
    p.assert_says("Spugs Burrower Worm and U.N.I.T. 1st Squad, Section A locked in hand-to-hand");
    assert_eq!(melee_dice(&s, w), 6);
    play(&mut s, 0, r#""end_card""#, &[]);
    let p = step(&mut s, &[]);
    p.assert_says("the melee is resolved: Spugs 6D6, U.N.I.T. 8D6");
}

/// Regression (issue 16, illegal commands): a Burrower surfacing with a
/// declared base contact of a group that does not exist panicked (index out
/// of bounds in `lock`) instead of being refused.
#[test]
fn spugs_surface_declaring_contact_with_no_such_group_is_refused_not_a_panic() {
    let (mut s, [w, _]) = burrowed("w1 at 10,20; s1 at 30,20", CardKind::Triple);
    let surface = format!(
        r#"{{"surface":{{"group":{w},"to":{{"x":2895,"y":2000}},"declare":{{"contact":999}}}}}}"#
    );
    when_seat(&mut s, 0, &surface).refused("[Hand-to-hand combat] there is no group 999");
}

#[test]
fn spugs_burrowers_cannot_surface_before_tunnelling_down() {
    let mut s = spugs();
    let [w] = placed(&mut s, "w1 at 10,20");
    card(&mut s, 0, CardKind::Single);
    when_seat(&mut s, 0, &surface_hole(w, 0))
        .refused("[Spugs] the Burrower is not below the table");
    when_seat(&mut s, 0, &tunnel(w, 100, 100))
        .refused("[Spugs] the Burrower must tunnel down first");
}

#[test]
fn spugs_on_screen_a_burrower_tunnels_to_a_point() {
    let (mut s, [w]) = burrowed("w1 at 10,20", CardKind::Double);
    when_seat(&mut s, 0, &group_order("tunnel", w)).refused_starting("[Spugs] give the point");
}

#[test]
fn spugs_a_triple_card_need_not_move_uncontrolled_mites_that_cannot_move() {
    // The Mites are locked in hand-to-hand: they cannot move, so the Triple
    // card's "one action MUST be used to move uncontrolled Mites" asks
    // nothing impossible.
    let (mut s, m, _) = uncontrolled();
    // The other swarm is gone.
    let m2 = gid(&s, "m2");
    kill(&mut s, m2, 3);
    s.groups[m2 as usize].place = Place::Gone;
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &mv(m, 20.0, 11.05), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })));
    card(&mut s, 0, CardKind::Triple);
    assert!(is_legal(&s, r#""end_card""#));
    play(&mut s, 0, r#""end_card""#, &[]);
}

#[test]
fn spugs_a_blast_over_two_groups_of_one_faction_lets_its_player_choose_in_either() {
    let mut s = spugs();
    let [ctl, m, a, b] = placed(&mut s, "sq1 at 20,5; m1; s1; s2");
    put(&mut s, m, 0, 20.0, 20.0);
    put(&mut s, m, 1, 40.0, 40.0);
    put(&mut s, m, 2, 42.0, 42.0);
    // Two sections within 6" of the Mite.
    place(&mut s, a, 16.0, 23.0);
    place(&mut s, b, 16.0, 17.0);
    card(&mut s, 0, CardKind::Single);
    let mite = figures(&s, m)[0].clone();
    // 4D6 = 12: two men of each section (the U.N.I.T. player chooses).
    play(&mut s, 0, &detonate(ctl, &mite), &[3, 3, 3, 3]);
    assert_eq!(s.pending.len(), 2);
    // Either group's figures may be chosen first.
    for g in [a, b] {
        let mut s = s.clone();
        remove_first(&mut s, 1, g, 1);
        assert_eq!(alive(&s, g), 3);
    }
    let second = figures(&s, b)[0].clone();
    let first = figures(&s, a)[0].clone();
    when_seat(&mut s, 1, &casualties(&[&first, &second])).refused_starting("[Shoot]");
}

#[test]
fn spugs_a_burrower_worm_moves_only_by_burrowing_so_no_move_is_offered_to_it() {
    // The worm's move is 0 ("Burrowers ... burrow"): on the table it is
    // offered its burrow, never a "move" that ends where it stands.
    let mut s = spugs();
    let [w] = placed(&mut s, "w1 at 20,20");
    card(&mut s, 0, CardKind::Double);
    assert_eq!(offered_moves(&s, w), Vec::<String>::new());
}
