//! Rule text 003, section E (special actions): one test per clause.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::games::dimx::state::{DimxEvent, GoalWhy, ModWhy, Phase};
use xenolog_engine::games::dimx::units::{Condition, Place};

fn rolled(ev: &[DimxEvent]) -> Option<(u8, i8, bool, Vec<ModWhy>)> {
    ev.iter().find_map(|e| match e {
        DimxEvent::ReconRolled {
            die,
            net,
            success,
            mods,
            ..
        }
        | DimxEvent::StrongpointRolled {
            die,
            net,
            success,
            mods,
            ..
        }
        | DimxEvent::RallyRolled {
            die,
            net,
            success,
            mods,
            ..
        }
        | DimxEvent::ReinforcementsRolled {
            die,
            net,
            success,
            mods,
            ..
        } => Some((*die, *net, *success, mods.iter().map(|m| m.why).collect())),
        _ => None,
    })
}

/// Given the Alpha position `lines`, when this special action is played
/// with these dice: the battle after it and its roll.
fn rolls(
    lines: &str,
    json: &str,
    dice: &[u8],
) -> (
    xenolog_engine::Session<xenolog_engine::games::dimx::DimX>,
    (u8, i8, bool, Vec<ModWhy>),
) {
    let mut b = battle(&alpha(lines));
    let r = rolled(&play(&mut b, json, dice)).unwrap_or_else(|| panic!("no roll for {json}"));
    (b, r)
}

/// The modifiers of K1's fire among these events.
fn k1_fire_mods(ev: &[DimxEvent]) -> Vec<ModWhy> {
    ev.iter()
        .find_map(|e| match e {
            DimxEvent::Fired { shooter, mods, .. } if shooter == "K1" => {
                Some(mods.iter().map(|m| m.why).collect())
            }
            _ => None,
        })
        .expect("K1 fires")
}

/// Logistics unit `unit` re-supplies `target`.
fn re_supply(unit: &str, target: &str) -> String {
    format!(r#"{{"re_supply":{{"unit":"{unit}","target":"{target}"}}}}"#)
}

#[test]
fn e_no_special_action_unless_the_unit_is_active_but_rally() {
    let mut b = battle(&alpha(
        "marine SC1 at 225 paralyzed\nmarine MS1 at 226 paralyzed\nmarine HQ1 at 244 paralyzed\nmarine MS6 pool",
    ));
    assert!(refused(&mut b, &order("recon", "SC1"), &[6]).contains("not Active"));
    assert!(refused(&mut b, &order("build_strongpoint", "MS1"), &[6]).contains("not Active"));
    assert!(refused(&mut b, &order("request_reinforcements", "HQ1"), &[6]).contains("not Active"));
    play(&mut b, &order("rally", "MS1"), &[6]);
}

// ---- E.2 Recon ------------------------------------------------------------------

#[test]
fn e2_only_a_scout_may_conduct_recon() {
    let mut b = battle(&alpha("marine MS1 at 225"));
    assert!(refused(&mut b, &order("recon", "MS1"), &[6]).contains("only a Scout"));
}

#[test]
fn e2_four_or_more_is_a_successful_recon_and_places_the_marker() {
    let mut b = battle(&alpha("marine SC1 at 225"));
    assert_eq!(
        rolled(&play(&mut b, &order("recon", "SC1"), &[4])).map(|r| r.2),
        Some(true)
    );
    assert!(state(&b).recon);
    let mut b = battle(&alpha("marine SC1 at 225"));
    play(&mut b, &order("recon", "SC1"), &[3]);
    assert!(!state(&b).recon);
}

#[test]
fn e2_an_active_hq_anywhere_assists_for_plus_one_as_its_special_action() {
    let mut b = battle(&alpha("marine SC1 at 225\nmarine HQ1 at 666"));
    let r = rolled(&play(
        &mut b,
        r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#,
        &[3],
    ))
    .unwrap();
    assert_eq!(r, (3, 4, true, vec![ModWhy::HqAssist]));
    assert!(
        state(&b).marine("HQ1").unwrap().acted,
        "it counts as the HQ's Special Action"
    );
    let mut b = battle(&alpha(
        "marine SC1 at 225\nmarine SC2 at 224\nmarine HQ1 at 666",
    ));
    play(&mut b, r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#, &[1]);
    assert!(
        refused(&mut b, r#"{"recon":{"unit":"SC2","hq":"HQ1"}}"#, &[6]).contains("already acted"),
        "one HQ per Scout"
    );
    let mut b = battle(&alpha("marine SC1 at 225\nmarine HQ1 at 666 paralyzed"));
    assert!(refused(&mut b, r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#, &[6]).contains("not Active"));
}

/// E.2 "Note that each Scout/HQ combo conducts its own separate Recon
/// Action": two Scouts, each assisted by its own HQ, roll a die each with +1
/// each, and both HQs have spent their Special Action.
#[test]
fn e2_each_scout_hq_combo_conducts_its_own_separate_recon() {
    let mut b = battle(&alpha(
        "marine SC1 at 225\nmarine SC2 at 224\nmarine HQ1 at 666\nmarine HQ2 at 665",
    ));
    let first = rolled(&play(
        &mut b,
        r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#,
        &[2],
    ));
    assert_eq!(first, Some((2, 3, false, vec![ModWhy::HqAssist])));
    assert!(!state(&b).recon, "a net 3 fails");
    let second = rolled(&play(
        &mut b,
        r#"{"recon":{"unit":"SC2","hq":"HQ2"}}"#,
        &[3],
    ));
    assert_eq!(second, Some((3, 4, true, vec![ModWhy::HqAssist])));
    let s = state(&b);
    assert!(s.recon, "the second combo's own roll succeeds");
    for u in ["SC1", "SC2", "HQ1", "HQ2"] {
        assert!(s.marine(u).unwrap().acted, "{u} has acted");
    }
}

#[test]
fn e2_a_stunned_scout_deducts_one() {
    let (_, r) = rolls("marine SC1 at 225 stunned", &order("recon", "SC1"), &[4]);
    assert_eq!((r.1, r.2), (3, false));
}

#[test]
fn e2_a_net_7_also_removes_a_mission_goal_chit_but_never_the_last() {
    let mut b = battle(&alpha("marine SC1 at 225\nmarine HQ1 at 666"));
    let ev = play(&mut b, r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#, &[6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::GoalRemoved {
            why: GoalWhy::Recon,
            ..
        }
    )));
    assert_eq!(state(&b).goals.len(), 5);
    let mut b = battle(&alpha(
        "marine SC1 at 225\nmarine HQ1 at 666\ngoals pillage",
    ));
    let ev = play(&mut b, r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#, &[6]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::GoalKept { .. })));
    assert_eq!(state(&b).goals.len(), 1);
    // only a net 7: a lone Scout's 6 is a success and removes nothing
    let mut b = battle(&alpha("marine SC1 at 225"));
    let ev = play(&mut b, &order("recon", "SC1"), &[6]);
    assert_eq!(rolled(&ev).map(|r| (r.1, r.2)), Some((6, true)));
    assert!(!ev.iter().any(|e| matches!(
        e,
        DimxEvent::GoalRemoved { .. } | DimxEvent::GoalKept { .. }
    )));
    assert_eq!(state(&b).goals.len(), 6);
}

// ---- E.3 Build Strongpoint ---------------------------------------------------------

#[test]
fn e3_squad_special_ops_and_heavy_weapons_units_build_strongpoints() {
    let mut b = battle(&alpha(
        "marine SC1 at 225\nmarine HQ1 at 226\nmarine LG1 at 244",
    ));
    for u in ["SC1", "HQ1", "LG1"] {
        let why = refused(
            &mut b,
            &format!(r#"{{"build_strongpoint":{{"unit":"{u}"}}}}"#),
            &[6],
        );
        assert!(
            why.contains("only Squad, Special Ops and Heavy Weapons"),
            "{u}: {why}"
        );
    }
    let mut b = battle(&alpha(
        "marine MS1 at 225\nmarine SO1 at 226\nmarine HW1 at 244",
    ));
    for u in ["MS1", "SO1", "HW1"] {
        play(
            &mut b,
            &format!(r#"{{"build_strongpoint":{{"unit":"{u}"}}}}"#),
            &[4],
        );
    }
    assert_eq!(state(&b).strongpoints, vec![225, 226, 244]);
}

#[test]
fn e3_four_or_more_builds_plus_one_next_to_an_active_hq_minus_one_if_stunned() {
    let build = order("build_strongpoint", "MS1");
    let (_, r) = rolls("marine MS1 at 225\nmarine HQ1 at 226", &build, &[3]);
    assert_eq!(r, (3, 4, true, vec![ModWhy::HqAdjacent]));
    let (b, r) = rolls("marine MS1 at 225 stunned", &build, &[4]);
    assert_eq!((r.1, r.2), (3, false));
    assert!(state(&b).strongpoints.is_empty());
}

#[test]
fn e3_at_most_three_strongpoints_in_the_game() {
    let mut b = battle(&alpha("marine MS1 at 225\nstrongpoint 111 112 113"));
    assert!(
        refused(&mut b, &order("build_strongpoint", "MS1"), &[6]).contains("three Strongpoints")
    );
}

#[test]
fn e3_a_strongpoint_does_not_block_los_and_gives_aliens_no_benefit() {
    use xenolog_engine::games::dimx::combat::marine_fire;
    use xenolog_engine::games::dimx::map::builtin;
    let b = battle(&alpha(
        "marine MS1 at 224\nkayotz K1 at 251\nstrongpoint 244 251",
    ));
    let s = state(&b);
    let p = marine_fire(
        s,
        builtin("alpha").unwrap(),
        s.marine("MS1").unwrap(),
        s.alien("K1").unwrap(),
        false,
    )
    .unwrap();
    assert!(p.mods.is_empty(), "{:?}", p.mods);
    // not vacuous: the line of fire does cross the Strongpoint hex 244
    let m = builtin("alpha").unwrap();
    let c = |h: u16| m.cell(h).unwrap();
    assert!(m.between(c(224), c(251)).contains(c(244)));
}

/// E.3: "Once deployed, the Strongpoint marker never moves from that hex and
/// can never be destroyed": an alien's fire that Paralyzes the Marine in it
/// leaves it, and it stays when its unit moves away.
#[test]
fn e3_a_strongpoint_never_moves_and_is_never_destroyed() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 226\ncup barrage_odd",
    ));
    play(&mut b, &order("build_strongpoint", "MS1"), &[4]);
    assert_eq!(state(&b).strongpoints, vec![225]);
    // K1: CF 3, -1 Strongpoint, +1 adjacent: three dice, three Hits
    let ev = play(&mut b, END_PHASE, &[6, 6, 6]);
    let mods = k1_fire_mods(&ev);
    assert_eq!(mods, vec![ModWhy::Strongpoint, ModWhy::Adjacent]);
    assert_eq!(
        state(&b).marine("MS1").unwrap().condition,
        Condition::Paralyzed
    );
    assert_eq!(state(&b).strongpoints, vec![225], "not destroyed");

    let mut b = battle(&alpha("marine MS1 at 225\nstrongpoint 225"));
    play(&mut b, &full_move("MS1", 224), &[]);
    assert_eq!(state(&b).marine("MS1").unwrap().on_map(), Some(224));
    assert_eq!(state(&b).strongpoints, vec![225], "it never moves");
}

/// E.3 "Alien units can enter a hex with a Strongpoint marker but get no
/// benefit from it": an alien firing from a Strongpoint hex takes no -1, and
/// its own hex is not on its line of fire.
#[test]
fn e3_an_alien_firing_from_a_strongpoint_hex_gets_no_benefit() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 226\nstrongpoint 226\ncup barrage_odd",
    ));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1]);
    let mods = k1_fire_mods(&ev);
    assert_eq!(mods, vec![ModWhy::Adjacent], "no Strongpoint modifier");
}

// ---- E.4 Rally ----------------------------------------------------------------

#[test]
fn e4_five_or_more_removes_a_stunned_marker() {
    let mut b = battle(&alpha("marine MS1 at 225 stunned"));
    play(&mut b, &order("rally", "MS1"), &[5]);
    assert_eq!(state(&b).marine("MS1").unwrap().condition, Condition::Fine);
    let mut b = battle(&alpha("marine MS1 at 225 stunned"));
    play(&mut b, &order("rally", "MS1"), &[4]);
    assert_eq!(
        state(&b).marine("MS1").unwrap().condition,
        Condition::Stunned
    );
}

#[test]
fn e4_a_paralyzed_marker_flips_to_stunned() {
    let mut b = battle(&alpha("marine MS1 at 225 paralyzed"));
    play(&mut b, &order("rally", "MS1"), &[6]);
    assert_eq!(
        state(&b).marine("MS1").unwrap().condition,
        Condition::Stunned
    );
}

#[test]
fn e4_logistics_plus_two_hq_plus_one_active_alien_minus_one_each_counted_once() {
    let text = alpha(
        "marine MS1 at 225 paralyzed\nmarine LG1 at 226\nmarine HQ1 at 244\nmarine HQ2 at 243\nkayotz K1 at 224\nkayotz K2 at 166",
    );
    let mut b = battle(&text);
    let r = rolled(&play(&mut b, &order("rally", "MS1"), &[3])).unwrap();
    assert_eq!(
        r,
        (
            3,
            5,
            true,
            vec![
                ModWhy::LogisticsAdjacent,
                ModWhy::HqAdjacent,
                ModWhy::AlienAdjacent
            ]
        )
    );
    // Dormant aliens are not Active and do not count
    let rally = order("rally", "MS1");
    let (_, r) = rolls(
        "marine MS1 at 225 stunned\nkayotz K1 at 224 dormant",
        &rally,
        &[3],
    );
    assert_eq!(r.3, vec![]);
}

/// E.4 "adjacent to any Active alien unit(s)": an Active Monolith is an
/// alien unit on its Active side and counts (-1); once shut down by an
/// Active HQ next to it, it is Inactive and does not (the HQ's +1 remains).
#[test]
fn e4_an_active_monolith_adjacent_counts_as_an_active_alien() {
    let rally = order("rally", "MS1");
    let monolith = "marine MS1 at 225 stunned\nmonolith MON at 226";
    let (_, r) = rolls(monolith, &rally, &[3]);
    assert_eq!(r.3, vec![ModWhy::AlienAdjacent]);
    let (_, r) = rolls(&format!("{monolith}\nmarine HQ1 at 244"), &rally, &[3]);
    assert_eq!(
        r.3,
        vec![ModWhy::HqAdjacent],
        "the HQ next to the Monolith shuts it down"
    );
}

#[test]
fn e4_only_stunned_or_paralyzed_units_rally() {
    let mut b = battle(&alpha("marine MS1 at 225"));
    assert!(
        refused(&mut b, &order("rally", "MS1"), &[6]).contains("no Stunned or Paralyzed marker")
    );
}

// ---- E.5 Re-Supply -------------------------------------------------------------------

#[test]
fn e5_logistics_re_supply_one_adjacent_out_of_ammo_unit_which_keeps_its_markers() {
    let mut b = battle(&alpha(
        "marine LG1 at 225\nmarine MS1 at 226 out_of_ammo stunned\nmarine MS2 at 111 out_of_ammo\nmarine MS3 at 244",
    ));
    assert!(refused(&mut b, &re_supply("LG1", "MS2"), &[]).contains("not adjacent"));
    assert!(refused(&mut b, &re_supply("LG1", "MS3"), &[]).contains("not on its Out of Ammo side"));
    play(&mut b, &re_supply("LG1", "MS1"), &[]);
    let m = state(&b).marine("MS1").unwrap();
    assert!(!m.out_of_ammo);
    assert_eq!(m.condition, Condition::Stunned, "it retains any marker");
    let mut b = battle(&alpha("marine MS1 at 225\nmarine MS2 at 226 out_of_ammo"));
    assert!(refused(&mut b, &re_supply("MS1", "MS2"), &[]).contains("only a Logistics"));
}

/// E.5 "may re-supply one (only) adjacent Marine unit (in any condition)":
/// a Paralyzed unit may be re-supplied (it keeps its marker), and that is the
/// Logistics unit's action: a second Out of Ammo unit next to it waits.
#[test]
fn e5_one_unit_only_in_any_condition_a_paralyzed_one_included() {
    let mut b = battle(&alpha(
        "marine LG1 at 225\nmarine MS1 at 226 out_of_ammo paralyzed\nmarine MS2 at 224 out_of_ammo",
    ));
    play(&mut b, &re_supply("LG1", "MS1"), &[]);
    let m = state(&b).marine("MS1").unwrap();
    assert!(!m.out_of_ammo, "a Paralyzed unit is re-supplied");
    assert_eq!(m.condition, Condition::Paralyzed, "and keeps its marker");
    assert!(
        refused(&mut b, &re_supply("LG1", "MS2"), &[]).contains("already acted"),
        "one unit only"
    );
    assert!(state(&b).marine("MS2").unwrap().out_of_ammo);
}

// ---- E.6 Request Reinforcements ---------------------------------------------------------

#[test]
fn e6_three_or_more_brings_a_pool_unit_that_may_act_at_once() {
    let mut b = battle(&alpha(
        "marine HQ1 at 225\nmarine MS6 pool\nmarine MS7 pool",
    ));
    let r = rolled(&play(&mut b, &order("request_reinforcements", "HQ1"), &[3])).unwrap();
    assert!(r.2);
    assert!(
        is_legal(&b, &order("take_reinforcement", "MS6"))
            && is_legal(&b, &order("take_reinforcement", "MS7"))
    );
    play(&mut b, &order("take_reinforcement", "MS7"), &[]);
    assert_eq!(state(&b).marine("MS7").unwrap().place, Place::Waiting);
    play(&mut b, &full_move("MS7", 112), &[]);
    assert_eq!(
        state(&b).marine("MS7").unwrap().on_map(),
        Some(112),
        "per the scenario: through an entry hex"
    );
    assert_eq!(state(&b).marine("MS6").unwrap().place, Place::Pool);
}

#[test]
fn e6_a_stunned_hq_deducts_one() {
    let mut b = battle(&alpha("marine HQ1 at 225 stunned\nmarine MS6 pool"));
    let r = rolled(&play(&mut b, &order("request_reinforcements", "HQ1"), &[3])).unwrap();
    assert_eq!((r.1, r.2), (2, false));
    assert!(matches!(
        state(&b).phase,
        Phase::MarineAction { partial: None }
    ));
}

#[test]
fn e6_only_from_the_pool_never_an_eliminated_unit() {
    let mut b = battle(&alpha(
        "marine HQ1 at 225\nmarine MS6 pool\nmarine MS7 eliminated",
    ));
    play(&mut b, &order("request_reinforcements", "HQ1"), &[6]);
    assert!(refused(&mut b, &order("take_reinforcement", "MS7"), &[]).contains("not in the pool"));
    let mut b = battle(&alpha("marine HQ1 at 225\nmarine MS7 eliminated"));
    assert!(
        refused(&mut b, &order("request_reinforcements", "HQ1"), &[6])
            .contains("pool of available units is empty")
    );
}
