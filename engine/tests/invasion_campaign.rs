//! Rule text 001, "Experience", as Alien Invasion uses it: campaign rosters
//! fight by name, and each skill changes the battles it is taken into (the
//! adaptations are in `engine/data/invasion/skills.txt` and RULES.md).

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::Game;
use xenolog_engine::game::Fate;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Pending};
use xenolog_engine::games::invasion::{
    Invasion, InvasionConfig, InvasionState, RosterFighter, SeatRoster, roster_pieces, start,
};

fn fighter(model: u32, name: &str, kind: &str, skills: &[(&str, u32)]) -> RosterFighter {
    RosterFighter {
        model,
        name: name.into(),
        kind: kind.into(),
        skills: skills.iter().map(|(s, n)| ((*s).into(), *n)).collect(),
        perception: 0,
    }
}

fn config(unit: Vec<RosterFighter>) -> InvasionConfig {
    InvasionConfig {
        scenario: String::new(),
        scenario_text: Some(GROUND.to_owned()),
        factions: vec!["unit".into(), "daleks".into()],
        faction_texts: Vec::new(),
        real_table: false,
        sewers: false,
        rosters: vec![SeatRoster {
            seat: 0,
            roster: 1,
            fighters: unit,
        }],
        ..InvasionConfig::default()
    }
}

/// U.N.I.T. from a roster (seat 0) against the Daleks on the proving ground.
fn given_roster(unit: Vec<RosterFighter>) -> InvasionState {
    let mut s = start(&config(unit)).unwrap_or_else(|e| panic!("setup: {e}"));
    park(&mut s);
    s
}

/// A section (two riflemen, a Light Support Weapon, a LAWS gunner: 8
/// shooting dice), the first rifleman with skills.
fn section(skills: &[(&str, u32)]) -> Vec<RosterFighter> {
    vec![
        fighter(11, "Sgt Benton", "rifleman", skills),
        fighter(12, "Cpl Bell", "rifleman", &[]),
        fighter(13, "Pte Yates", "lsw", &[]),
        fighter(14, "Pte Ross", "laws", &[]),
    ]
}

#[test]
fn a_roster_fights_by_name_in_its_factions_groups() {
    let s = given_roster(section(&[]));
    let u: Vec<GroupId> = (0..s.groups.len() as GroupId)
        .filter(|&g| s.group(g).seat == 0)
        .collect();
    assert_eq!(u.len(), 1, "only the places the roster fills: one section");
    let names: Vec<&str> = s
        .group(u[0])
        .models
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["Sgt Benton", "Cpl Bell", "Pte Yates", "Pte Ross"]);
    assert_eq!(s.group(u[0]).models[0].id, "unit-m11");
    assert_eq!(
        roster_pieces(&config(section(&[]))).unwrap(),
        vec![
            (11, "unit-m11".to_owned()),
            (12, "unit-m12".to_owned()),
            (13, "unit-m13".to_owned()),
            (14, "unit-m14".to_owned())
        ]
    );
    // The log knows them by their campaign names.
    let mut s = s;
    kill(&mut s, u[0], 4);
    assert!(s.group(u[0]).models.iter().all(|m| !m.alive));
}

#[test]
fn a_roster_model_with_no_place_in_the_factions_groups_is_refused_in_words() {
    // U.N.I.T. has one LAWS Gunner a section, four sections: a fifth has no place.
    let five: Vec<RosterFighter> = (0..5)
        .map(|i| fighter(20 + i, &format!("Gunner {i}"), "laws", &[]))
        .collect();
    let e = start(&config(five)).unwrap_err();
    assert_eq!(
        e.0,
        "Gunner 4 (LAWS Gunner) has no place in the U.N.I.T. groups: every LAWS Gunner place is taken or the faction has none"
    );
}

#[test]
fn a_roster_models_fate_is_its_piece_in_the_outcome() {
    let mut s = given_roster(section(&[]));
    let u = gid_of(&s, "Sgt Benton");
    kill(&mut s, u, 4);
    s.over = Some(xenolog_engine::games::invasion::state::Ending {
        winners: vec![1],
        summary: "Daleks win".into(),
    });
    let o = Invasion::outcome(&s).unwrap();
    let benton = o.pieces.iter().find(|p| p.id == "unit-m11").unwrap();
    assert_eq!(benton.fate, Fate::Killed);
}

/// Given: U.N.I.T.'s roster section, Sgt Benton with these skills, at
/// (20,20) and Dalek Patrol Alpha at (20, `dalek_y`); Benton's group and the
/// Daleks.
fn benton_facing(skills: &[(&str, u32)], dalek_y: f64) -> (InvasionState, GroupId, GroupId) {
    let mut s = given_roster(section(skills));
    let (u, d) = (gid_of(&s, "Sgt Benton"), gid(&s, "d1"));
    place(&mut s, u, 20.0, 20.0);
    place(&mut s, d, 20.0, dalek_y);
    (s, u, d)
}

/// The group a named figure fights in.
fn gid_of(s: &InvasionState, name: &str) -> GroupId {
    (0..s.groups.len() as GroupId)
        .find(|&g| s.group(g).models.iter().any(|m| m.name == name))
        .unwrap()
}

/// On a Double card, `u` moves to (20,22) and then shoots `d` with eight
/// ones: the shot's total.
fn moved_then_shot(s: &mut InvasionState, u: GroupId, d: GroupId) -> u32 {
    card(s, 0, CardKind::Double);
    play(s, 0, &mv(u, 20.0, 22.0), &[]);
    let p = shoot(s, u, d, &[1; 8]);
    p.events
        .iter()
        .find_map(|e| match e {
            E::Shot { total, .. } => Some(*total),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no shot: {:?}", p.words))
}

fn shoot(s: &mut InvasionState, g: GroupId, t: GroupId, dice: &[u8]) -> Played {
    play(
        s,
        0,
        &format!(r#"{{"shoot":{{"shooters":[{g}],"target":{t}}}}}"#),
        dice,
    )
}

#[test]
fn crack_shot_adds_1_to_each_of_the_models_shooting_dice() {
    // Benton with Crack Shot twice: +2 on his one rifle die.
    let (mut s, u, d) = benton_facing(&[("crack_shot", 2)], 30.0);
    card(&mut s, 0, CardKind::Single);
    // 21, +2 = 23: not the Daleks' 24.
    let p = shoot(&mut s, u, d, &[3, 3, 3, 3, 3, 3, 2, 1]);
    p.assert_says("8D6 at Daleks Dalek Patrol Alpha: 3,3,3,3,3,3,2,1 +2 (skills) = 23: 0 kills");
    // 22, +2 = 24: one Dalek.
    card(&mut s, 0, CardKind::Single);
    let p = shoot(&mut s, u, d, &[3, 3, 3, 3, 3, 3, 2, 2]);
    assert!(p.any(|e| matches!(
        e,
        E::Shot {
            total: 24,
            kills: 1,
            ..
        }
    )));
}

/// Text 001, "SUPER AGILITY": "It suffers penalty (-1) for MOVEing and
/// FIREing". Alien Invasion has no penalty for moving and firing, so by
/// default the skill adds nothing; the +1 a die is Xenolog's assumed
/// reading (the option `assumed_profiles`).
#[test]
fn super_agility_suffers_penalty_minus_1_for_moving_and_firing_adds_nothing_by_default() {
    let (mut s, u, d) = benton_facing(&[("super_agility", 1)], 32.0);
    assert!(!s.assumed_profiles);
    assert_eq!(
        moved_then_shot(&mut s, u, d),
        8,
        "moved and fired, no bonus by default"
    );
}

#[test]
fn super_agility_adds_1_to_each_die_when_its_group_moved_earlier_on_the_card_assumed_profiles_option()
 {
    let (mut s, u, d) = benton_facing(&[("super_agility", 1)], 32.0);
    s.assumed_profiles = true;
    card(&mut s, 0, CardKind::Double);
    let p = shoot(&mut s, u, d, &[1; 8]);
    assert!(
        p.any(|e| matches!(e, E::Shot { total: 8, .. })),
        "no move yet: no bonus"
    );
    assert_eq!(moved_then_shot(&mut s, u, d), 9);
}

#[test]
fn hand_to_hand_expert_adds_1_to_each_of_the_models_close_combat_dice() {
    let (mut s, _, d) = benton_facing(&[("h2h_expert", 3)], 26.0);
    card(&mut s, 1, CardKind::Double);
    charge_and_end_card(&mut s, 1, &mv(d, 20.0, 21.05));
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Strike {
            seat: 0,
            dice: 8,
            bonus: 3,
            ..
        })
    ));
    // 20, +3 = 23: not the Daleks' 24.
    let p = play(&mut s, 0, r#"{"strike":{}}"#, &[3, 3, 3, 3, 2, 2, 2, 2]);
    p.assert_says("+3 (skills) = 23: 0 kills at 24 each");
}

#[test]
fn super_fast_adds_an_inch_a_time_bought_and_a_group_moves_at_its_slowest() {
    let all_fast: Vec<RosterFighter> = (0..4)
        .map(|i| {
            fighter(
                30 + i,
                &format!("Runner {i}"),
                "rifleman",
                &[("super_fast", 3)],
            )
        })
        .collect();
    let s = given_roster(all_fast);
    assert_eq!(
        xenolog_engine::games::invasion::rules::group_move(&s, gid_of(&s, "Runner 0")),
        1100
    );
    let s = given_roster(section(&[("super_fast", 3)]));
    assert_eq!(
        xenolog_engine::games::invasion::rules::group_move(&s, gid_of(&s, "Sgt Benton")),
        800,
        "the others are not fast"
    );
}

#[test]
fn super_sneak_adds_an_inch_to_a_move_that_ends_in_cover() {
    let sneaks: Vec<RosterFighter> = (0..4)
        .map(|i| {
            fighter(
                40 + i,
                &format!("Scout {i}"),
                "rifleman",
                &[("super_sneak", 1)],
            )
        })
        .collect();
    let mut s = given_roster(sneaks);
    let u = gid_of(&s, "Scout 0");
    card(&mut s, 0, CardKind::Double);
    let mv = |x: f64, y: f64| {
        let p = pt(x, y);
        format!(
            r#"{{"move":{{"group":{u},"to":{{"x":{},"y":{}}}}}}}"#,
            p.x, p.y
        )
    };
    // Into the open, 8.5" is too far.
    place(&mut s, u, 20.0, 21.0);
    let e = refused(&mut s, 0, &mv(20.0, 29.5), &[]);
    assert!(e.message.contains('8'), "{e}");
    // Into the house (a building, from y = 30), 8.9" is within 9".
    place(&mut s, u, 33.0, 21.5);
    let p = play(&mut s, 0, &mv(33.0, 30.4), &[]);
    p.assert_says("moved to (33\", 30.2\"): entered House (a building)");
}

#[test]
fn you_make_your_own_luck_adds_1_to_the_models_kill_score() {
    // Benton dies on 7 in the open, the others on 6: a total of 6 kills
    // only one of the others, and he cannot be chosen for it.
    let (mut s, u, d) = benton_facing(&[("own_luck", 1)], 32.0);
    card(&mut s, 1, CardKind::Single);
    // 6 dice of 1 = 6.
    play(
        &mut s,
        1,
        &format!(r#"{{"shoot":{{"shooters":[{d}],"target":{u}}}}}"#),
        &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    // 18 pays for Benton (7) and one other (6), or three others (18).
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Casualties {
            count: 3,
            budget: Some(_),
            ..
        })
    ));
    let e = refused(
        &mut s,
        0,
        r#"{"casualties":{"models":["unit-m11","unit-m12","unit-m13"]}}"#,
        &[],
    );
    assert!(
        e.message
            .contains("these cost 19 and 18 of the total is left"),
        "{e}"
    );
    play(
        &mut s,
        0,
        r#"{"casualties":{"models":["unit-m11","unit-m12"]}}"#,
        &[],
    );
    assert_eq!(alive(&s, u), 2, "the 5 left pays for no one");
}

/// One Dalek left (6 dice) shooting at `u` on a Dalek Single card.
fn one_dalek_shoots(s: &mut InvasionState, u: GroupId, dice: &[u8]) -> Played {
    let d = gid(s, "d1");
    kill(s, d, 2);
    place(s, u, 20.0, 20.0);
    place(s, d, 20.0, 32.0);
    card(s, 1, CardKind::Single);
    play(
        s,
        1,
        &format!(r#"{{"shoot":{{"shooters":[{d}],"target":{u}}}}}"#),
        dice,
    )
}

#[test]
fn tough_as_nails_the_model_takes_one_more_kill_score_to_remove() {
    let tough = |n: u32| vec![fighter(11, "Sgt Benton", "rifleman", &[("tough", n)])];
    // Once: 12 to remove him in the open (twice his 6).
    let mut s = given_roster(tough(1));
    let u = gid_of(&s, "Sgt Benton");
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 1, 1, 6]);
    assert_eq!(alive(&s, u), 1, "11 is not 12");
    let mut s = given_roster(tough(1));
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 1, 2, 6]);
    assert_eq!(alive(&s, u), 0, "12 removes him");
    // Twice: 18.
    let mut s = given_roster(tough(2));
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 3, 6, 5]);
    assert_eq!(alive(&s, u), 1, "17 is not 18");
    let mut s = given_roster(tough(2));
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 4, 6, 5]);
    assert_eq!(alive(&s, u), 0);
}

#[test]
fn camouflage_the_model_counts_as_in_cover_wherever_it_stands() {
    // In the open he dies on his cover score, 9, not 6.
    let camo = vec![fighter(11, "Sgt Benton", "rifleman", &[("camouflage", 1)])];
    let mut s = given_roster(camo.clone());
    let u = gid_of(&s, "Sgt Benton");
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 1, 2, 2]);
    assert_eq!(alive(&s, u), 1, "8 kills a rifleman in the open, not him");
    let mut s = given_roster(camo);
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 1, 2, 3]);
    assert_eq!(alive(&s, u), 0, "9 does");
    // Without the skill, 8 is enough.
    let mut s = given_roster(vec![fighter(11, "Sgt Benton", "rifleman", &[])]);
    one_dalek_shoots(&mut s, u, &[1, 1, 1, 1, 2, 2]);
    assert_eq!(alive(&s, u), 0);
}

#[test]
fn lightening_action_gives_its_group_one_action_more_once_a_card() {
    let (mut s, u, d) = benton_facing(&[("lightening", 1)], 34.0);
    card(&mut s, 0, CardKind::Single);
    shoot(&mut s, u, d, &[1; 8]);
    assert!(s.may_act(u), "a second action on a Single card");
    assert!(Invasion::automatic(&s).is_none(), "the card waits for it");
    shoot(&mut s, u, d, &[1; 8]);
    // Once a card: now the card is done.
    assert!(!s.may_act(u));
    assert!(Invasion::automatic(&s).is_some(), "the card ends");
    // A group without the skill gets no second action.
    let (mut s, u, d) = benton_facing(&[], 34.0);
    card(&mut s, 0, CardKind::Single);
    shoot(&mut s, u, d, &[1; 8]);
    assert!(!s.may_act(u));
}

#[test]
fn experience_plus_free_perception_a_roster_models_bonus_fights_with_it() {
    // "All models gain a FREE reward of +1 on perception rolls for every
    // battle they survive": the campaign's count rides in the config.
    let mut unit = section(&[]);
    unit[0].perception = 3;
    let s = given_roster(unit);
    let benton = s
        .groups
        .iter()
        .flat_map(|g| &g.models)
        .find(|m| m.name == "Sgt Benton")
        .expect("Sgt Benton fights");
    assert_eq!(benton.bonus.perception, 3);
    let bell = s
        .groups
        .iter()
        .flat_map(|g| &g.models)
        .find(|m| m.name == "Cpl Bell")
        .unwrap();
    assert_eq!(bell.bonus.perception, 0);
    // The config says it in JSON only when there is one.
    let json = serde_json::to_string(&config(section(&[]))).unwrap();
    assert!(!json.contains("perception"), "{json}");
}
