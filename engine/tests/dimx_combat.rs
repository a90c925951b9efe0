//! Rule text 003, section D (combat): one test per clause, named after it.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::Game;
use xenolog_engine::games::dimx::DimX;
use xenolog_engine::games::dimx::combat::marine_fire;
use xenolog_engine::games::dimx::map::{Terrain, builtin};
use xenolog_engine::games::dimx::state::{BumpResult, DimxEvent, GoalWhy, ModWhy};
use xenolog_engine::games::dimx::units::{AlienPlace, Condition};

/// The net CF and the modifier reasons of a Marine shot, or the refusal.
fn plan(text: &str, unit: &str, target: &str, scoot: bool) -> Result<(i8, Vec<ModWhy>), String> {
    let b = battle(text);
    let s = state(&b);
    marine_fire(
        s,
        builtin(s.map.key()).unwrap(),
        s.marine(unit).unwrap(),
        s.alien(target).unwrap(),
        scoot,
    )
    .map(|p| (p.net, p.mods.iter().map(|m| m.why).collect()))
    .map_err(|e| e.to_string())
}

fn fired(ev: &[DimxEvent]) -> Vec<(String, Vec<u8>, u8, Vec<ModWhy>)> {
    ev.iter()
        .filter_map(|e| match e {
            DimxEvent::Fired {
                shooter,
                dice,
                hits,
                mods,
                ..
            } => Some((
                shooter.clone(),
                dice.clone(),
                *hits,
                mods.iter().map(|m| m.why).collect(),
            )),
            _ => None,
        })
        .collect()
}

fn condition(
    b: &xenolog_engine::Session<xenolog_engine::games::dimx::DimX>,
    id: &str,
) -> Condition {
    state(b).marine(id).unwrap().condition
}

// ---- D.2 Lines of fire -------------------------------------------------------

/// The refusal names the first blocking hex on the line and its terrain;
/// check that the hex is really between the two and really of that terrain.
fn assert_names_blocking_hex(e: &str, shooter: u16, target: u16) -> Terrain {
    let m = builtin("alpha").unwrap();
    let rest = e
        .rsplit(" the ")
        .next()
        .unwrap_or_else(|| panic!("no hex named: {e}"));
    let (terrain, rest) = rest.split_once(" hex ").expect("a hex");
    let label = rest.split(',').next().unwrap();
    let c = m.parse_ref(label).unwrap();
    assert_eq!(m.terrain(c).name(), terrain, "{e}");
    assert!(
        m.between(m.cell(shooter).unwrap(), m.cell(target).unwrap())
            .contains(c),
        "{label} lies between {shooter} and {target}: {e}"
    );
    assert!(e.ends_with("which blocks it (rule D.2)"), "{e}");
    m.terrain(c)
}

#[test]
fn d2_forest_buildings_and_lava_block_a_marine_line_of_fire() {
    let mut seen = Vec::new();
    for (shooter, target) in [(226, 152), (235, 162), (246, 254)] {
        let text = alpha(&format!("marine MS1 at {shooter}\nkayotz K1 at {target}"));
        let e = plan(&text, "MS1", "K1", false).unwrap_err();
        seen.push(assert_names_blocking_hex(&e, shooter, target));
    }
    assert_eq!(
        seen,
        vec![Terrain::Forest, Terrain::Buildings, Terrain::Lava],
        "one line blocked by each"
    );
}

#[test]
fn d2_a_unit_on_the_line_blocks_marine_fire() {
    for blocker in ["marine MS2 at 165", "kayotz K2 at 165"] {
        let e = plan(
            &alpha(&format!("marine MS1 at 225\nkayotz K1 at 146\n{blocker}")),
            "MS1",
            "K1",
            false,
        )
        .unwrap_err();
        let who = if blocker.starts_with("marine") {
            "Marine Squad MS2"
        } else {
            "Kay'otz #2"
        };
        assert!(
            e.contains(&format!("hex 165, where {who} blocks it")),
            "{e}"
        );
    }
    assert!(
        plan(
            &alpha("marine MS1 at 225\nkayotz K1 at 146"),
            "MS1",
            "K1",
            false
        )
        .is_ok()
    );
}

#[test]
fn d2_a_target_inside_blocking_terrain_may_be_fired_upon() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 225\nkayotz K1 at 152"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!((net, mods), (3, vec![ModWhy::TargetTerrain]));
}

#[test]
fn d2_marine_fire_has_no_range_limit() {
    let (net, _) = plan(
        &alpha("marine MS1 at 224\nkayotz K1 at 251"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!(net, 4, "three hexes away, full CF");
}

#[test]
fn d2_a_paralyzed_unit_may_not_fire() {
    let e = plan(
        &alpha("marine MS1 at 225 paralyzed\nkayotz K1 at 226"),
        "MS1",
        "K1",
        false,
    )
    .unwrap_err();
    assert!(e.contains("Paralyzed and may not fire"), "{e}");
}

#[test]
fn d2_the_monolith_can_never_be_targeted() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nmarine SO1 at 224\nmonolith MON at 226",
    ));
    assert!(refused(&mut b, &fire("MS1", "MON"), &[6, 6, 6, 6, 6]).contains("never be targeted"));
    assert!(refused(&mut b, &fire("SO1", "MON"), &[4]).contains("never be targeted"));
    // and no command the game offers aims at it
    let offered: Vec<String> = DimX::legal(state(&b))
        .iter()
        .map(|(_, c)| serde_json::to_string(c).unwrap())
        .collect();
    assert!(offered.iter().any(|c| c.contains("full_move")));
    assert!(
        !offered.iter().any(|c| c.contains("\"MON\"")),
        "{offered:?}"
    );
}

// ---- D.3 Marine combat modifiers -----------------------------------------------

#[test]
fn d3a_shoot_and_scoot_minus_one() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 224\nkayotz K1 at 251"),
        "MS1",
        "K1",
        true,
    )
    .unwrap();
    assert_eq!((net, mods), (3, vec![ModWhy::ShootAndScoot]));
}

#[test]
fn d3b_a_stunned_firing_unit_minus_one() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 224 stunned\nkayotz K1 at 251"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!((net, mods), (3, vec![ModWhy::Stunned]));
}

#[test]
fn d3c_target_in_forest_rough_or_buildings_minus_one() {
    for (shooter, target) in [(225, 152), (225, 231), (235, 216)] {
        let (_, mods) = plan(
            &alpha(&format!("marine MS1 at {shooter}\nkayotz K1 at {target}")),
            "MS1",
            "K1",
            false,
        )
        .unwrap();
        assert!(mods.contains(&ModWhy::TargetTerrain), "{target}: {mods:?}");
    }
    // the -1 counts: a Squad (CF 4) at 225 against 231 fires 3 dice, and
    // against the clear 226 next to it (+1 adjacent) 5
    let net = |target: u16| {
        plan(
            &alpha(&format!("marine MS1 at 225\nkayotz K1 at {target}")),
            "MS1",
            "K1",
            false,
        )
        .unwrap()
    };
    assert_eq!(net(231).1, vec![ModWhy::TargetTerrain]);
    assert_eq!(net(231).0, 3, "CF 4 -1 for the target's terrain");
}

/// D.2: "Each unit conducts combat individually - units firing at the same
/// target unit do not add their CF's together": two shots of two Hits each
/// never add up to the three that eliminate.
#[test]
fn d2_each_unit_fires_individually_and_hits_do_not_add_up() {
    let mut b = battle(&alpha(
        "marine MS1 at 224\nmarine MS2 at 252\nkayotz K1 at 251\nadm 3 3",
    ));
    // MS1 fires 4 dice, MS2 next to K1 fires 5 (+1 adjacent)
    for (unit, dice) in [("MS1", &[4, 4, 2, 2][..]), ("MS2", &[4, 4, 2, 2, 2][..])] {
        let ev = play(
            &mut b,
            &format!(r#"{{"full_fire":{{"unit":"{unit}","target":"K1"}}}}"#),
            dice,
        );
        let f = fired(&ev);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].0.as_str(), f[0].2), (unit, 2), "two Hits each");
    }
    let k1 = state(&b).alien("K1").unwrap();
    assert_eq!(k1.on_map(), Some(251), "four Hits in two combats: alive");
    assert_eq!(k1.defense(), 3, "an ADM 3 marker");
}

#[test]
fn d3_adjacent_to_an_active_hq_plus_one() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 224\nmarine HQ1 at 243\nmarine HQ2 at 165\nkayotz K1 at 251"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!(
        (net, mods),
        (5, vec![ModWhy::HqAdjacent]),
        "once, however many HQs"
    );
    let (net, _) = plan(
        &alpha("marine MS1 at 224\nmarine HQ1 at 243 paralyzed\nkayotz K1 at 251"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!(net, 4, "a Paralyzed HQ is not Active");
}

#[test]
fn d3_dormant_target_plus_one() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 224\nkayotz K1 at 251 dormant"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!((net, mods), (5, vec![ModWhy::TargetDormant]));
}

#[test]
fn d3_adjacent_target_plus_one() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 225\nkayotz K1 at 226"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!((net, mods), (5, vec![ModWhy::Adjacent]));
}

#[test]
fn d3_modifiers_are_cumulative_and_below_one_no_combat_can_be_conducted() {
    let (net, mods) = plan(
        &alpha("marine MS1 at 225 stunned\nkayotz K1 at 152"),
        "MS1",
        "K1",
        true,
    )
    .unwrap();
    assert_eq!(net, 1);
    assert_eq!(
        mods,
        vec![
            ModWhy::ShootAndScoot,
            ModWhy::Stunned,
            ModWhy::TargetTerrain
        ]
    );
    let e = plan(
        &alpha("marine MS1 at 225 stunned cf 2\nkayotz K1 at 152"),
        "MS1",
        "K1",
        true,
    )
    .unwrap_err();
    assert!(e.contains("comes to -1: no combat"), "{e}");
}

// ---- D.4 Hits, D.5 ADM markers -------------------------------------------------------

#[test]
fn d4_each_die_greater_than_the_dn_is_a_hit() {
    let mut b = battle(&alpha(
        "marine MS1 at 224\nkayotz K1 at 251\nkayotz K3 at 166\nadm 5 5",
    ));
    let ev = play(&mut b, &fire("MS1", "K1"), &[3, 4, 3, 4]);
    assert_eq!(fired(&ev)[0].2, 2, "4s beat DN 3, 3s do not");
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K3 at 244"));
    let ev = play(&mut b, &fire("MS1", "K3"), &[4, 4, 5, 6, 2]);
    assert_eq!(fired(&ev)[0].2, 2, "against DN 4 only 5s and 6s hit");
}

#[test]
fn d4_three_hits_eliminate_and_the_unit_never_returns_to_the_cup() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[4, 5, 6, 2]);
    assert_event!(ev, DimxEvent::AlienEliminated { unit, .. } if unit == "K1");
    assert_eq!(state(&b).alien("K1").unwrap().place, AlienPlace::Eliminated);
}

#[test]
fn d4_the_player_may_roll_fewer_dice() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251"));
    assert!(
        refused(
            &mut b,
            r#"{"full_fire":{"unit":"MS1","target":"K1","dice":5}}"#,
            &[1, 1, 1, 1, 1]
        )
        .contains("only reduce")
    );
    let ev = play(
        &mut b,
        r#"{"full_fire":{"unit":"MS1","target":"K1","dice":2}}"#,
        &[2, 2],
    );
    assert_eq!(fired(&ev)[0].1, vec![2, 2]);
}

#[test]
fn d5_one_or_two_hits_draw_a_random_adm_marker_as_the_new_dn() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251\nadm 2"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[4, 1, 2, 2]);
    assert_event!(ev, DimxEvent::AdmPlaced { value: 2, .. });
    assert_eq!(state(&b).alien("K1").unwrap().defense(), 2);
    assert!(state(&b).adm_pile.is_empty());
}

#[test]
fn d5_no_hits_no_adm_marker() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251\nadm 2"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[3, 1, 2, 2]);
    assert!(!ev.iter().any(|e| matches!(e, DimxEvent::AdmPlaced { .. })));
    assert_eq!(state(&b).adm_pile, vec![2]);
}

#[test]
fn d5_a_unit_keeps_its_first_adm_marker() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251 adm 2\nadm 5"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[3, 1, 1, 2]);
    assert_eq!(fired(&ev)[0].2, 1, "3 beats its ADM DN of 2");
    assert!(!ev.iter().any(|e| matches!(e, DimxEvent::AdmPlaced { .. })));
    assert_eq!(state(&b).alien("K1").unwrap().defense(), 2);
}

#[test]
fn d5_an_eliminated_units_adm_marker_returns_to_the_pile() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251 adm 5\nadm 1"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[6, 6, 6, 6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::AlienEliminated {
            adm_back: Some(5),
            ..
        }
    )));
    assert_eq!(state(&b).adm_pile, vec![1, 5]);
}

#[test]
fn d5_no_adm_markers_left_means_no_change_and_the_unit_stays_eligible() {
    let mut b = battle(&alpha(
        "marine MS1 at 224\nmarine MS2 at 243\nkayotz K1 at 251\nadm",
    ));
    let ev = play(&mut b, &fire("MS1", "K1"), &[4, 1, 2, 2]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::NoAdmLeft { .. })));
    let k1 = state(&b).alien("K1").unwrap();
    assert_eq!(
        (k1.adm, k1.defense()),
        (None, 3),
        "assumed not hit: eligible next time"
    );
}

// ---- D.6 BUMP gun -------------------------------------------------------------------

#[test]
fn d6_the_bump_gun_is_never_blocked_but_reaches_only_six_hexes() {
    let mut b = battle(&alpha(
        "marine SO1 at 226\nkayotz K1 at 152\nkayotz K2 at 666",
    ));
    let ev = play(&mut b, &fire("SO1", "K1"), &[6]);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            DimxEvent::BumpFired {
                result: BumpResult::Vaporized,
                ..
            }
        )),
        "through the Forest in 211"
    );
    let mut b = battle(&alpha("marine SO1 at 226\nkayotz K2 at 666"));
    assert!(refused(&mut b, &fire("SO1", "K2"), &[6]).contains("six hexes"));
    // the boundary: six hexes away is in reach, seven is not
    let m = builtin("alpha").unwrap();
    let from = m.cell(226).unwrap();
    let at = |d: u16| {
        m.numbered()
            .filter(|&(_, c)| m.distance(from, c) == d)
            .map(|(h, _)| h)
            .max()
            .unwrap()
    };
    let (six, seven) = (at(6), at(7));
    let mut b = battle(&alpha(&format!(
        "marine SO1 at 226\nkayotz K1 at {six}\nkayotz K2 at {seven}"
    )));
    assert_eq!(
        refused(&mut b, &fire("SO1", "K2"), &[6]),
        format!("the BUMP gun reaches six hexes; {seven} is 7 away (rule D.6)")
    );
    let ev = play(&mut b, &fire("SO1", "K1"), &[6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::BumpFired {
            result: BumpResult::Vaporized,
            ..
        }
    )));
}

#[test]
fn d6_1_misfire_flips_the_special_ops_to_out_of_ammo() {
    let mut b = battle(&alpha("marine SO1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("SO1", "K1"), &[1]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::OutOfAmmo { .. })));
    assert_eq!(
        state(&b).alien("K1").unwrap().on_map(),
        Some(226),
        "no effect on the target"
    );
}

#[test]
fn d6_2_energy_recoil_stuns_the_special_ops() {
    let mut b = battle(&alpha("marine SO1 at 225\nkayotz K1 at 226"));
    play(&mut b, &fire("SO1", "K1"), &[2]);
    assert_eq!(condition(&b, "SO1"), Condition::Stunned);
}

#[test]
fn d6_3_beamed_to_a_random_hex() {
    let mut b = battle(&alpha("marine SO1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("SO1", "K1"), &[3, 6, 6, 6]);
    assert_event!(ev, DimxEvent::RandomHex { hex: 666, .. });
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(666));
}

#[test]
fn d6_beamed_onto_an_active_marine_the_alien_is_eliminated() {
    let mut b = battle(&alpha(
        "marine SO1 at 225\nmarine MS1 at 231 stunned\nkayotz K1 at 226",
    ));
    let ev = play(&mut b, &fire("SO1", "K1"), &[3, 2, 3, 1]);
    assert_event!(ev, DimxEvent::AlienEliminated { unit, .. } if unit == "K1");
}

#[test]
fn d6_beamed_onto_a_paralyzed_marine_or_another_alien_it_moves_to_the_highest_numbered_eligible_adjacent_hex()
 {
    for other in ["marine MS1 at 231 paralyzed", "kayotz K2 at 231"] {
        let mut b = battle(&alpha(&format!(
            "marine SO1 at 225\nkayotz K1 at 226\n{other}"
        )));
        play(&mut b, &fire("SO1", "K1"), &[3, 2, 3, 1]);
        assert_eq!(
            state(&b).alien("K1").unwrap().on_map(),
            Some(252),
            "{other}"
        );
    }
}

/// D.6 2 with assumption 10: an Energy Recoil on a Special Ops unit that is
/// already Stunned makes it Paralyzed, as D.10 does for combat.
#[test]
fn d6_2_energy_recoil_on_a_stunned_special_ops_paralyzes_it() {
    let mut b = battle(&alpha("marine SO1 at 225 stunned\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("SO1", "K1"), &[3]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::BumpFired {
            result: BumpResult::EnergyRecoil,
            net: 2,
            ..
        }
    )));
    assert_eq!(condition(&b, "SO1"), Condition::Paralyzed);
}

/// D.6: the BUMP Gun Table starts at 1; a net roll of 0 or less (Stunned and
/// Shoot and Scoot on a 1 or 2, or Stunned on a 1) is read as a Misfire.
#[test]
fn d6_a_net_bump_roll_of_0_or_less_is_a_misfire() {
    for (json, die) in [(&fire("SO1", "K1"), 1), (&scoot_fire("SO1", "K1"), 2)] {
        let mut b = battle(&alpha("marine SO1 at 225 stunned\nkayotz K1 at 226"));
        let ev = play(&mut b, json, &[die]);
        assert!(
            ev.iter().any(|e| matches!(
                e,
                DimxEvent::BumpFired {
                    result: BumpResult::Misfire,
                    net: 0,
                    ..
                }
            )),
            "{json}"
        );
        assert!(state(&b).marine("SO1").unwrap().out_of_ammo);
    }
}

/// D.6 3 when the three dice name the alien's own hex: it stays there.
#[test]
fn d6_beamed_into_its_own_hex_the_alien_stays() {
    let mut b = battle(&alpha("marine SO1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("SO1", "K1"), &[3, 2, 2, 6]);
    assert_event!(ev, DimxEvent::AlienStays { at: 226, .. });
    assert!(words(&ev).iter().any(|w| w.contains("stays there")));
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(226));
}

#[test]
fn d6_4_to_6_vaporized() {
    for d in [4, 5, 6] {
        let mut b = battle(&alpha("marine SO1 at 225\nkayotz K1 at 226"));
        play(&mut b, &fire("SO1", "K1"), &[d]);
        assert_eq!(state(&b).alien("K1").unwrap().place, AlienPlace::Eliminated);
    }
}

#[test]
fn d6_shoot_and_scoot_and_stunned_each_deduct_one_from_the_bump_roll() {
    let mut b = battle(&alpha("marine SO1 at 225 stunned\nkayotz K1 at 226"));
    let ev = play(&mut b, &scoot_fire("SO1", "K1"), &[5, 6, 6, 6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::BumpFired {
            die: 5,
            net: 3,
            result: BumpResult::Beamed,
            ..
        }
    )));
}

// ---- D.7 The Overlord ---------------------------------------------------------------

#[test]
fn d7_eliminating_the_overlord_removes_a_mission_goal_chit() {
    let mut b = battle(&alpha("marine SO1 at 225\nkayotz K7 at 226"));
    let ev = play(&mut b, &fire("SO1", "K7"), &[6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::GoalRemoved {
            why: GoalWhy::Overlord,
            ..
        }
    )));
    let s = state(&b);
    assert_eq!((s.goals.len(), s.goals_out.len()), (5, 1));
}

/// D.7 through the BUMP gun: a Vaporized Overlord, and an Overlord beamed
/// onto an Active Marine unit (D.6 3: eliminated), are eliminated by the
/// player and take a Mission Goal chit with them.
#[test]
fn d7_an_overlord_vaporized_or_beamed_onto_an_active_marine_removes_a_mission_goal_chit() {
    for dice in [&[4u8][..], &[3, 2, 3, 1]] {
        let mut b = battle(&alpha(
            "marine SO1 at 225\nmarine MS1 at 231\nkayotz K7 at 226",
        ));
        let ev = play(&mut b, &fire("SO1", "K7"), dice);
        assert_eq!(
            state(&b).alien("K7").unwrap().place,
            AlienPlace::Eliminated,
            "{dice:?}"
        );
        assert!(
            ev.iter().any(|e| matches!(
                e,
                DimxEvent::GoalRemoved {
                    why: GoalWhy::Overlord,
                    ..
                }
            )),
            "{dice:?}"
        );
        assert_eq!(state(&b).goals.len(), 5);
    }
}

#[test]
fn d7_unless_only_one_mission_goal_chit_is_left() {
    let mut b = battle(&alpha(
        "marine SO1 at 225\nkayotz K7 at 226\ngoals summoning",
    ));
    let ev = play(&mut b, &fire("SO1", "K7"), &[6]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::GoalKept { .. })));
    assert_eq!(state(&b).goals.len(), 1);
}

// ---- D.8 Out of Ammo --------------------------------------------------------------

#[test]
fn d8_two_ones_flip_to_out_of_ammo() {
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[1, 4, 1, 2]);
    assert_event!(ev, DimxEvent::OutOfAmmo { unit, .. } if unit == "MS1");
    let mut b = battle(&alpha("marine MS1 at 224\nkayotz K1 at 251"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[1, 4, 2, 2]);
    assert!(
        !ev.iter().any(|e| matches!(e, DimxEvent::OutOfAmmo { .. })),
        "one 1 is not enough"
    );
}

#[test]
fn d8_out_of_ammo_units_fire_3a_pistols_at_adjacent_aliens_only() {
    let e = plan(
        &alpha("marine MS1 at 224 out_of_ammo\nkayotz K1 at 251"),
        "MS1",
        "K1",
        false,
    )
    .unwrap_err();
    assert!(e.contains("pistols"), "{e}");
    let (net, _) = plan(
        &alpha("marine MS1 at 224 out_of_ammo\nkayotz K1 at 225"),
        "MS1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!(net, 4, "CF 3 +1 adjacent");
}

#[test]
fn d8_logistics_have_pistols_on_the_front_and_out_of_ammo_may_not_fire() {
    let (net, _) = plan(
        &alpha("marine LG1 at 225\nkayotz K1 at 226"),
        "LG1",
        "K1",
        false,
    )
    .unwrap();
    assert_eq!(net, 4);
    assert!(
        plan(
            &alpha("marine LG1 at 224\nkayotz K1 at 251"),
            "LG1",
            "K1",
            false
        )
        .unwrap_err()
        .contains("pistols")
    );
    let e = plan(
        &alpha("marine LG1 at 225 out_of_ammo\nkayotz K1 at 226"),
        "LG1",
        "K1",
        false,
    )
    .unwrap_err();
    assert!(e.contains("may not fire at all"), "{e}");
    // and the pistols themselves run out
    let mut b = battle(&alpha("marine LG1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("LG1", "K1"), &[1, 1, 2, 2]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::OutOfAmmo { .. })));
}

/// D.8 "Units remain on their Out of Ammo sides until Re-Supplied": the
/// flip outlasts the End Phase and the straightening of the next turn.
#[test]
fn d8_units_remain_out_of_ammo_until_re_supplied() {
    let mut b = battle(&alpha(
        "marine MS1 at 224\nkayotz K1 at 251\ncup lull awakening",
    ));
    play(&mut b, &fire("MS1", "K1"), &[1, 1, 2, 2]);
    assert!(state(&b).marine("MS1").unwrap().out_of_ammo, "two 1s");
    play(&mut b, END_PHASE, &[]);
    let s = state(&b);
    assert_eq!(s.turn, 2, "the next turn began");
    let m = s.marine("MS1").unwrap();
    assert!(!m.acted, "straightened");
    assert!(m.out_of_ammo, "still on its Out of Ammo side");
}

#[test]
fn d8_units_already_out_of_ammo_ignore_further_results() {
    let mut b = battle(&alpha("marine MS1 at 224 out_of_ammo\nkayotz K1 at 225"));
    let ev = play(&mut b, &fire("MS1", "K1"), &[1, 1, 1, 1]);
    assert!(!ev.iter().any(|e| matches!(e, DimxEvent::OutOfAmmo { .. })));
}

// ---- D.9 Kay'otz combat, D.10 results ------------------------------------------------------

/// Kay'otz fire comes from a chit; Laser Barrage: Odd Units fires every odd unit.
fn barrage(
    lines: &str,
    dice: &[u8],
) -> (
    Vec<DimxEvent>,
    xenolog_engine::Session<xenolog_engine::games::dimx::DimX>,
) {
    let mut b = battle(&alpha(&format!("{lines}\ncup barrage_odd")));
    let ev = play(&mut b, END_PHASE, dice);
    (ev, b)
}

#[test]
fn d9_kayotz_fire_is_blocked_only_by_lava() {
    // through Forest (151) and past a Paralyzed Marine and an alien on the line
    let (ev, _) = barrage("marine MS1 at 166\nkayotz K1 at 146", &[4, 4]);
    assert_eq!(fired(&ev)[0].3, vec![ModWhy::Cover]);
    let (ev, _) = barrage(
        "marine MS1 at 251\nmarine MS2 at 225 paralyzed\nkayotz K1 at 224\nkayotz K2 at 244",
        &[4, 4, 4],
    );
    assert_eq!(fired(&ev).len(), 1, "units never block Kay'otz fire");
    let (ev, _) = barrage("marine MS1 at 254\nkayotz K1 at 246", &[]);
    assert!(fired(&ev).is_empty(), "Lava between 246 and 254");
}

#[test]
fn d9a_target_in_or_fire_through_forest_rough_or_buildings_minus_one() {
    let (ev, _) = barrage("marine MS1 at 211\nkayotz K1 at 224", &[4, 4]);
    // rules version 3: the log says why, the target's own hex
    assert_eq!(
        fired(&ev)[0].3,
        vec![ModWhy::TargetTerrain],
        "target in Forest"
    );
    assert_eq!(
        ModWhy::TargetTerrain.words(),
        "target in Forest, Rough or Buildings"
    );
    let (ev, _) = barrage("marine MS1 at 166\nkayotz K1 at 146", &[4, 4]);
    assert_eq!(
        fired(&ev)[0].3,
        vec![ModWhy::Cover],
        "line through Forest, counted once"
    );
}

#[test]
fn d9b_a_strongpoint_in_the_target_hex_or_on_the_line_minus_one_more() {
    let (ev, _) = barrage("marine MS1 at 211\nkayotz K1 at 224\nstrongpoint 211", &[4]);
    assert_eq!(
        fired(&ev)[0].3,
        vec![ModWhy::TargetTerrain, ModWhy::Strongpoint],
        "cumulative"
    );
    let (ev, _) = barrage(
        "marine MS1 at 251\nkayotz K1 at 224\nstrongpoint 244",
        &[4, 4],
    );
    assert_eq!(
        fired(&ev)[0].3,
        vec![ModWhy::Strongpoint],
        "a Strongpoint hex on the line"
    );
}

#[test]
fn d9_adjacent_target_plus_one() {
    let (ev, _) = barrage("marine MS1 at 225\nkayotz K1 at 226", &[1, 1, 1, 1]);
    assert_eq!(fired(&ev)[0].1.len(), 4, "CF 3 +1");
    assert_eq!(fired(&ev)[0].3, vec![ModWhy::Adjacent]);
}

#[test]
fn d9_a_net_cf_of_zero_means_no_fire() {
    let (ev, _) = barrage(
        "marine MS1 at 211\nkayotz K1 at 226 cf 1\nstrongpoint 211",
        &[],
    );
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::NoFire { .. })));
    assert!(fired(&ev).is_empty());
}

/// D.9 names a net CF of "0"; a net below 0 is no fire as well (assumption 23).
#[test]
fn d9_a_net_cf_below_zero_is_no_fire_too() {
    let (ev, _) = barrage(
        "marine MS1 at 211\nkayotz K1 at 226 cf 0\nstrongpoint 211",
        &[],
    );
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::NoFire { .. })));
    assert!(fired(&ev).is_empty());
}

#[test]
fn d9_dormant_units_and_the_monolith_do_not_fire() {
    let (ev, b) = barrage(
        "marine MS1 at 225\nkayotz K1 at 226 dormant\nmonolith MON at 224",
        &[],
    );
    assert!(fired(&ev).is_empty());
    assert!(
        !state(&b).alien("K1").unwrap().dormant,
        "activated: it only flips"
    );
}

/// D.10: "If the Combat scores one or two Hits, the Marine unit becomes
/// Stunned": both halves, on a Marine unit that was Fine (DN 3).
#[test]
fn d10_one_or_two_hits_stun_the_marine() {
    for (dice, hits) in [([4, 1, 1, 1], 1), ([4, 4, 1, 1], 2)] {
        let (ev, b) = barrage("marine MS1 at 225\nkayotz K1 at 226", &dice);
        let f = fired(&ev);
        assert_eq!(f.len(), 1, "{dice:?}");
        assert_eq!(f[0].2, hits, "{dice:?}");
        assert_eq!(condition(&b, "MS1"), Condition::Stunned, "{hits} Hit(s)");
    }
}

/// D.10: "Each die roll that is greater than the targeted Marine unit's DN
/// scores one Hit": a die equal to the DN does not.
#[test]
fn d10_a_die_equal_to_the_marines_dn_is_no_hit() {
    let (ev, b) = barrage("marine MS1 at 225\nkayotz K1 at 226", &[3, 3, 3, 3]);
    let f = fired(&ev);
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].1.clone(), f[0].2), (vec![3, 3, 3, 3], 0), "DN 3");
    assert_eq!(condition(&b, "MS1"), Condition::Fine);
}

#[test]
fn d10_three_or_more_hits_paralyze_the_marine() {
    let (_, b) = barrage("marine MS1 at 225\nkayotz K1 at 226", &[4, 4, 6, 1]);
    assert_eq!(condition(&b, "MS1"), Condition::Paralyzed);
}

#[test]
fn d10_a_stunned_unit_stunned_again_becomes_paralyzed() {
    let (_, b) = barrage("marine MS1 at 225 stunned\nkayotz K1 at 226", &[4, 1, 1, 1]);
    assert_eq!(condition(&b, "MS1"), Condition::Paralyzed);
}

#[test]
fn d10_more_paralyzed_results_have_no_effect_and_kayotz_never_run_out_of_ammo() {
    // A warping alien lands on a Paralyzed Marine (random hex 2 3 1) and fires
    // point blank (CF 3 +1, -1 for the Rough in 231): three hits, no further
    // effect; its 1s mean nothing either.
    let mut b = battle(&alpha(
        "marine MS1 at 231 paralyzed\nkayotz K1 at 111\ncup warp_1_8",
    ));
    let ev = play(&mut b, END_PHASE, &[2, 3, 1, 6, 6, 6]);
    assert_eq!(fired(&ev).len(), 1);
    assert!(!ev.iter().any(|e| matches!(
        e,
        DimxEvent::ConditionChanged { .. } | DimxEvent::OutOfAmmo { .. }
    )));
    assert_eq!(
        state(&b).alien("K1").unwrap().on_map(),
        Some(252),
        "then it steps aside"
    );
    let (ev, _) = barrage("marine MS1 at 225\nkayotz K1 at 226", &[1, 1, 1, 1]);
    assert!(!ev.iter().any(|e| matches!(e, DimxEvent::OutOfAmmo { .. })));
}
