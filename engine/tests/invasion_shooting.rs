//! Rule text 000, "2. Shoot" and "Linked fire": the worked examples come
//! out exactly as printed, then one test per clause.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::model::Cover;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E};
use xenolog_engine::games::invasion::{InvasionConfig, InvasionState, start};

/// U.N.I.T. section A (4 men, 8D6) at (10,20); Dalek Patrol Alpha (3) at
/// (10,12); a card of `kind` of seat `seat` being played.
fn unit_v_daleks(seat: u8, kind: CardKind) -> (InvasionState, GroupId, GroupId) {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 10,20; d1 at 10,12");
    card(&mut s, seat, kind);
    (s, sec, dal)
}

/// The worked examples' 12D6 of two Daleks: 47.
const FORTY_SEVEN: [u8; 12] = [1, 2, 2, 4, 4, 4, 4, 5, 5, 5, 5, 6];

fn shot(p: &Played) -> (usize, u32, u32, u32, Cover) {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Shot {
                dice,
                total,
                kill_score,
                kills,
                cover,
                ..
            } => Some((dice.len(), *total, *kill_score, *kills, *cover)),
            _ => None,
        })
        .expect("a Shot event")
}

// ---- "2. Shoot": the worked examples ------------------------------------------

#[test]
fn shoot_worked_example_unit_8d6_rolling_29_kills_one_dalek_extra_5_do_nothing() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Single);
    let p = play(&mut s, 0, &shoot(&[sec], dal), &[2, 2, 2, 3, 3, 5, 6, 6]);
    assert_eq!(shot(&p), (8, 29, 24, 1, Cover::Open));
    p.assert_says("8D6 at Daleks Dalek Patrol Alpha: 2,2,2,3,3,5,6,6 = 29: 1 kill at 24 each in the open, the extra 5 points do nothing");
    // "When a group takes casualties the player controlling the target group
    // decides which figures to remove."
    assert_casualties_asked(&s, 1, 1);
    let victim = figures(&s, dal)[2].clone();
    let p = play(&mut s, 1, &casualties(&[&victim]), &[]);
    p.assert_says("Dalek 3 of Daleks Dalek Patrol Alpha is killed");
    assert_eq!(alive(&s, dal), 2);
    assert!(!figures(&s, dal).contains(&victim));
    assert_eq!(s.kills[0], 1);
}

#[test]
fn shoot_worked_example_two_daleks_12d6_rolling_47_exterminate_a_four_man_section_in_the_open() {
    let (mut s, sec, dal) = unit_v_daleks(1, CardKind::Single);
    kill(&mut s, dal, 1);
    place(&mut s, dal, 10.0, 12.0);
    let p = play(&mut s, 1, &shoot(&[dal], sec), &FORTY_SEVEN);
    // 47 / 6 = 7 kills, but the section is four men.
    assert_eq!(shot(&p), (12, 47, 6, 4, Cover::Open));
    let killed = p.count(|e| matches!(e, E::Killed { .. }));
    assert_eq!(killed, 4, "the entire section is exterminated");
    assert_eq!(alive(&s, sec), 0);
    assert!(s.pending.is_empty(), "no choice when every figure dies");
    p.assert_says("12D6 at U.N.I.T. 1st Squad, Section A: 1,2,2,4,4,4,4,5,5,5,5,6 = 47: 4 kills at 6 each in the open");
}

#[test]
fn shoot_worked_example_in_a_building_the_same_47_kills_three_and_the_last_11_are_not_enough() {
    let (mut s, sec, dal) = unit_v_daleks(1, CardKind::Single);
    kill(&mut s, dal, 1);
    // The section inside the house, the Daleks outside its door, in sight.
    place(&mut s, sec, 31.0, 31.0);
    put(&mut s, sec, 2, 31.0, 32.2);
    put(&mut s, sec, 3, 32.1, 32.2);
    place(&mut s, dal, 31.0, 27.0);
    let p = play(&mut s, 1, &shoot(&[dal], sec), &FORTY_SEVEN);
    assert_eq!(shot(&p), (12, 47, 12, 3, Cover::Building));
    p.assert_says("= 47: 3 kills at 12 each in a building, the extra 11 points do nothing");
    // Three of four: U.N.I.T. chooses who dies.
    assert_casualties_asked(&s, 0, 3);
    remove_first(&mut s, 0, sec, 3);
    assert_eq!(alive(&s, sec), 1, "the last man survives");
}

#[test]
fn linked_fire_worked_example_double_card_totals_16d6_before_casualties() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Double);
    // 16 dice totalling 50: two kills at 24 (a single 8D6 of these could not
    // reach 48 unless it rolled very high).
    let dice = [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4];
    let p = play(&mut s, 0, &shoot(&[sec, sec], dal), &dice);
    assert_eq!(shot(&p), (16, 50, 24, 2, Cover::Open));
    p.assert_says("linked 16D6 at Daleks Dalek Patrol Alpha");
    assert_eq!(s.actions_left(), 0, "two shoot actions of the Double card");
}

// ---- "2. Shoot": the clauses ---------------------------------------------------

#[test]
fn linked_fire_is_from_one_card_only_a_single_card_gives_one_shot() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Single);
    when_seat(&mut s, 0, &shoot(&[sec, sec], dal)).refused_starting("[Action cards]");
}

#[test]
fn linked_fire_two_groups_at_one_target_total_their_dice() {
    let (mut s, ..) = unit_v_daleks(0, CardKind::Double);
    let [a, b, dal] = placed(&mut s, "s1; s2 at 16,20; d1");
    let p = play(&mut s, 0, &shoot(&[a, b], dal), &[6; 16]);
    assert_eq!(shot(&p), (16, 96, 24, 3, Cover::Open));
    assert_eq!(alive(&s, dal), 0);
}

#[test]
fn linked_fire_mib_cannot_link_fire() {
    let (mut s, [p1, p2, dal]) =
        given_at(&["mib", "daleks"], "p1 at 10,20; p2 at 14,20; d1 at 10,12");
    card(&mut s, 0, CardKind::Double);
    when_seat(&mut s, 0, &shoot(&[p1, p2], dal))
        .refused("[Linked fire] Men in Black cannot link fire");
    let e = refused(&mut s, 0, &shoot(&[p1, p1], dal), &[]);
    assert!(refusal(&e).starts_with("[Linked fire]"));
}

#[test]
fn shoot_each_shooting_action_is_resolved_separately_and_casualties_removed_at_once() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Double);
    // Two separate shots of 23 each: neither kills, though together they
    // would have made 46 (still short of 48) -- and 8 sixes kill two at once.
    let p = play(&mut s, 0, &shoot(&[sec], dal), &[6, 6, 6, 6, 6, 6, 6, 6]);
    assert_eq!(shot(&p).3, 2);
    // The Daleks choose before the second shot is allowed.
    let e = refused(&mut s, 0, &shoot(&[sec], dal), &[]);
    assert!(e.message.contains("must first choose 2 casualties"), "{e}");
    remove_first(&mut s, 1, dal, 2);
    let p = play(&mut s, 0, &shoot(&[sec], dal), &[3, 3, 3, 3, 3, 3, 3, 2]);
    assert_eq!(shot(&p).1, 23);
    assert_eq!(shot(&p).3, 0);
    assert_eq!(alive(&s, dal), 1);
}

#[test]
fn shoot_casualties_chosen_only_by_the_targets_player_and_only_living_figures() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Single);
    play(&mut s, 0, &shoot(&[sec], dal), &[6, 6, 6, 6, 1, 1, 1, 1]);
    let d = figures(&s, dal)[0].clone();
    let e = refused(&mut s, 0, &casualties(&[&d]), &[]);
    assert!(
        e.message.contains("Daleks chooses the casualties now"),
        "{e}"
    );
    let e = refused(&mut s, 1, r#"{"casualties":{"models":["unit-s1-1"]}}"#, &[]);
    assert!(refusal(&e).starts_with("[Shoot]"), "{e}");
    let e = refused(&mut s, 1, &casualties(&[&d, &d]), &[]);
    assert!(refusal(&e).starts_with("[Shoot]"), "{e}");
    // One to choose is said as one, not "between 1 and 1".
    assert!(
        refusal(&e).contains("choose 1 casualty of") && !refusal(&e).contains("between"),
        "{e}"
    );
}

#[test]
fn shoot_kill_score_per_cover_class_open_cover_building() {
    // Humans: 6 in the open, 9 in cover, 12 in a building; three Daleks'
    // 18D6 all ones (18) kill 3, 2 and 1.
    for (x, y, cover, kills) in [
        (20.0, 14.0, Cover::Open, 3),
        (41.0, 6.0, Cover::Cover, 2),
        (31.0, 31.0, Cover::Building, 1),
    ] {
        let mut s = given(&["unit", "daleks"]);
        let (sec, dal) = (gid(&s, "s1"), gid(&s, "d1"));
        place(&mut s, sec, x, y);
        if cover == Cover::Building {
            put(&mut s, sec, 2, 31.0, 32.2);
            put(&mut s, sec, 3, 32.1, 32.2);
            place(&mut s, dal, 31.0, 27.0);
        } else {
            place(&mut s, dal, x, y + 8.0);
        }
        card(&mut s, 1, CardKind::Single);
        let p = play(&mut s, 1, &shoot(&[dal], sec), &[1; 18]);
        let want = match cover {
            Cover::Open => 6,
            Cover::Cover => 9,
            Cover::Building => 12,
        };
        assert_eq!(shot(&p), (18, 18, want, kills, cover));
    }
}

#[test]
fn shoot_target_cover_is_the_least_cover_of_its_figures() {
    // Two men in the cornfield (cover), two in the open beside it: the
    // shooter picks the exposed ones (assumed), so the open kill score.
    let (mut s, ..) = unit_v_daleks(1, CardKind::Single);
    let [sec, dal] = placed(&mut s, "s1 at 41,6; d1");
    put(&mut s, sec, 3, 38.0, 6.0);
    place(&mut s, dal, 41.0, 16.0);
    let p = play(&mut s, 1, &shoot(&[dal], sec), &[1; 18]);
    assert_eq!(shot(&p), (18, 18, 6, 3, Cover::Open));
}

#[test]
fn shoot_line_of_sight_blocked_by_blocking_terrain() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Single);
    // The wood (4..10 x 30..36) between them.
    place(&mut s, sec, 5.0, 27.0);
    place(&mut s, dal, 5.0, 39.0);
    when_seat(&mut s, 0, &shoot(&[sec], dal))
        .refused("[Shoot] U.N.I.T. 1st Squad, Section A cannot see Daleks Dalek Patrol Alpha: the line of sight is blocked by Wood");
}

/// "Line of sight will be blocked by ... blocking terrain", with "Terrain
/// other than Open terrain should be placed so that it occupies a discreet
/// area": two blocking buildings that touch are one obstacle (rules version
/// 8, review6 N2). The proving ground's House (30..36 x 30..36) with a
/// Cottage built against its east wall: U.N.I.T.'s section north of the
/// joint, the Daleks south of it, every figure on the line x = 36. Along
/// the joint no gap is seen through; with the House alone the line runs
/// along its wall, clear, and the shot is made.
#[test]
fn shoot_line_of_sight_two_touching_blocking_features_are_one_obstacle_even_along_their_joint() {
    for cottage in [true, false] {
        let house = "terrain house \"House\" building blocks at 30 30  36 30  36 36  30 36\n";
        assert!(GROUND.contains(house));
        let with = format!(
            "{house}terrain cottage \"Cottage\" building blocks at 36 30  42 30  42 36  36 36\n"
        );
        let ground = if cottage {
            GROUND.replace(house, &with)
        } else {
            GROUND.to_owned()
        };
        let config = InvasionConfig {
            scenario_text: Some(ground),
            ..ground_config(&["unit", "daleks"], &[], &[])
        };
        let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
        park(&mut s);
        card(&mut s, 0, CardKind::Single);
        let (sec, dal) = (gid(&s, "s1"), gid(&s, "d1"));
        for i in 0..4 {
            put(&mut s, sec, i, 36.0, 27.0 - 1.1 * i as f64);
        }
        for i in 0..3 {
            put(&mut s, dal, i, 36.0, 39.0 + 1.1 * i as f64);
        }
        if cottage {
            when_seat(&mut s, 0, &shoot(&[sec], dal))
                .refused("[Shoot] U.N.I.T. 1st Squad, Section A cannot see Daleks Dalek Patrol Alpha: the line of sight is blocked by House");
        } else {
            play(&mut s, 0, &shoot(&[sec], dal), &[1; 8]);
        }
    }
}

#[test]
fn shoot_cover_that_does_not_block_does_not_block_sight() {
    let (mut s, sec, dal) = unit_v_daleks(0, CardKind::Single);
    // The cornfield (40..46 x 4..10) between them: cover, not blocking.
    place(&mut s, sec, 41.0, 2.5);
    place(&mut s, dal, 41.0, 12.0);
    play(&mut s, 0, &shoot(&[sec], dal), &[1; 8]);
}

#[test]
fn shoot_line_of_sight_blocked_by_an_intervening_group_even_between_its_figures() {
    let (mut s, ..) = unit_v_daleks(0, CardKind::Single);
    let [sec, other, dal] = placed(&mut s, "s1 at 20,20; s2; d1 at 20,10");
    // Section B in between, its figures 1.6" apart: the line runs through a
    // gap, but a group blocks as a whole.
    for i in 0..4 {
        put(&mut s, other, i, 18.4 + 1.6 * i as f64, 15.0);
    }
    let e = refused(&mut s, 0, &shoot(&[sec], dal), &[]);
    assert!(
        refusal(&e).ends_with("blocked by U.N.I.T. 1st Squad, Section B"),
        "{}",
        refusal(&e)
    );
    // Moved aside, it no longer blocks.
    place(&mut s, other, 30.0, 15.0);
    play(&mut s, 0, &shoot(&[sec], dal), &[1; 8]);
}

#[test]
fn shoot_there_are_no_ranges_if_you_can_see_it_you_can_shoot_it() {
    let (mut s, ..) = unit_v_daleks(0, CardKind::Single);
    let [sec, dal] = placed(&mut s, "s1 at 15,5; d1 at 15,43");
    play(&mut s, 0, &shoot(&[sec], dal), &[1; 8]);
}

#[test]
fn shoot_a_single_group_at_an_opposing_group_not_its_own() {
    let (mut s, ..) = unit_v_daleks(0, CardKind::Single);
    let [sec, other] = placed(&mut s, "s1; s2 at 20,12");
    when_seat(&mut s, 0, &shoot(&[sec], other))
        .refused("[Shoot] a group shoots at an opposing group");
    // Nor with the enemy's groups.
    let dal = gid(&s, "d1");
    let e = refused(&mut s, 0, &shoot(&[dal], sec), &[]);
    assert!(e.message.contains("is not one of your groups"), "{e}");
}

#[test]
fn shoot_at_a_real_table_line_of_sight_and_cover_are_declared_and_marked_in_the_log() {
    let (mut s, sec, dal) = daleks_at_a_real_table(CardKind::Single);
    kill(&mut s, dal, 1);
    let e = refused(&mut s, 1, &shoot(&[dal], sec), &[]);
    assert!(e.message.contains("declare the line of sight"), "{e}");
    let e = refused(
        &mut s,
        1,
        &format!(
            r#"{{"shoot":{{"shooters":[{dal}],"target":{sec},"declare":{{"sight":false}}}}}}"#
        ),
        &[],
    );
    assert!(refusal(&e).starts_with("[Shoot] no line of sight"), "{e}");
    let p = play(
        &mut s,
        1,
        &format!(
            r#"{{"shoot":{{"shooters":[{dal}],"target":{sec},"declare":{{"sight":true,"cover":"building"}}}}}}"#
        ),
        &[1, 2, 2, 4, 4, 4, 4, 5, 5, 5, 5, 6],
    );
    assert_eq!(shot(&p), (12, 47, 12, 3, Cover::Building));
    p.assert_says("(declared: line of sight, target in a building)");
}
