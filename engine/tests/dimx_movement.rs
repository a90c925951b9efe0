//! Rule text 003, sections A (components), B (sequence of play) and C
//! (movement and jump packs): one test per clause, named after it.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::games::dimx::map::{Terrain, builtin};
use xenolog_engine::games::dimx::movement::{allowance, move_targets, path_cost, step_cost};
use xenolog_engine::games::dimx::scenario;
use xenolog_engine::games::dimx::state::{Cause, DimxEvent, Hold, Landing, Phase};
use xenolog_engine::games::dimx::units::{AlienPlace, Condition, Place};
use xenolog_engine::games::dimx::{DimX, DimxConfig};
use xenolog_engine::{Actor, Game, Session};

fn spent(ev: &[DimxEvent]) -> Option<(u8, u8)> {
    ev.iter().find_map(|e| match e {
        DimxEvent::Moved {
            half_mp, allowance, ..
        } => Some((*half_mp, *allowance)),
        _ => None,
    })
}

/// Half MP spent and the allowance of MS1's full move from `at` to `to`,
/// alone on the alpha map.
fn full_move_spends(at: u16, to: u16) -> Option<(u8, u8)> {
    let mut b = battle(&alpha(&format!("marine MS1 at {at}")));
    spent(&play(&mut b, &full_move("MS1", to), &[]))
}

fn landed(ev: &[DimxEvent]) -> Option<(u16, Landing)> {
    ev.iter().find_map(|e| match e {
        DimxEvent::Landed { at, how, .. } => Some((*at, *how)),
        _ => None,
    })
}

// ---- A. Game components -------------------------------------------------

#[test]
fn a1_two_maps_with_216_hexes_numbered_111_to_666_and_unnumbered_lava() {
    for key in ["alpha", "beta"] {
        let m = builtin(key).unwrap();
        assert_eq!(m.numbered().count(), 216);
        assert!(m.numbered().all(|(h, _)| (111..=666).contains(&h)
            && h.to_string().chars().all(|d| ('1'..='6').contains(&d))));
        let lava = m
            .hexes
            .iter()
            .filter(|h| h.terrain == Terrain::Lava)
            .count();
        assert_eq!(
            lava + 216,
            m.hexes.len(),
            "the remaining hexes are Lava Flow"
        );
        for t in [
            Terrain::Rough,
            Terrain::Forest,
            Terrain::Buildings,
            Terrain::Wormhole,
        ] {
            assert!(m.hexes.iter().any(|h| h.terrain == t), "{key} has {t:?}");
        }
        assert!(
            m.hexes
                .iter()
                .any(|h| h.terrain == Terrain::Lava && h.road != 0),
            "{key} has a bridge"
        );
    }
}

#[test]
fn a1_one_map_per_scenario_the_scenario_names_it() {
    for (id, map) in [("alpha", "alpha"), ("beta", "beta"), ("campaign", "alpha")] {
        let s = Session::<DimX>::new(
            1,
            DimxConfig {
                scenario: id.into(),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.state().map.key(), map);
    }
}

#[test]
fn a2_a_marine_without_a_paralyzed_marker_is_active_stunned_included() {
    let b = battle(&alpha(
        "marine MS1 at 225 stunned\nmarine MS2 at 226 paralyzed",
    ));
    let s = state(&b);
    assert!(
        s.marine("MS1").unwrap().active(),
        "a Stunned unit is still Active"
    );
    assert!(!s.marine("MS2").unwrap().active());
}

#[test]
fn a3_a_random_hex_is_three_dice_read_as_digits() {
    // a jump pack malfunction rolls one die (1) then three dice 2 3 1: hex 231
    let mut b = battle(&alpha("marine SC1 at 111"));
    let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::RandomHex {
            dice: [2, 3, 1],
            hex: 231,
            on_map: true
        }
    )));
    assert_eq!(landed(&ev), Some((231, Landing::Malfunction)));
}

// ---- B. Sequence of play ------------------------------------------------

/// B "Any remaining Kay'otz units are placed in one of the two cups": the
/// Monolith is a Kay'otz unit, so a scenario file that does not list it puts
/// it where `other_kayotz` says (the built-in scenarios list it). From the
/// unit cup a Summon may bring it onto the map, where it stays (A.2 b).
#[test]
fn b_an_unlisted_monolith_goes_where_other_kayotz_says() {
    let text = |others: &str| {
        format!(
            "scenario \"test\"\nmap alpha\nother_kayotz {others}\ncup pod_drop\nentry 111\nmarine MS1 at 225\n"
        )
    };
    let b = battle(&text("aside"));
    assert_eq!(state(&b).alien("MON").unwrap().place, AlienPlace::Aside);
    let b = battle(&text("cup"));
    assert_eq!(state(&b).alien("MON").unwrap().place, AlienPlace::Cup);
    // with the Monolith alone in the unit cup, the Pod Drop summons it
    let mut b = battle(&alpha("marine MS1 at 225\nmonolith MON cup\ncup pod_drop"));
    play(&mut b, END_PHASE, &[6, 6, 6]);
    assert_eq!(state(&b).alien("MON").unwrap().on_map(), Some(666));
}

#[test]
fn b_setup_twenty_chits_ten_adm_six_goals_and_the_other_kayotz_in_the_cup() {
    let s = Session::<DimX>::new(1, DimxConfig::default()).unwrap();
    let st = s.state();
    assert_eq!(
        (st.cup.len(), st.adm_pile.len(), st.goals.len()),
        (20, 10, 6)
    );
    let on_map = st.aliens.iter().filter(|a| a.on_map().is_some()).count();
    let cup = st
        .aliens
        .iter()
        .filter(|a| a.place == AlienPlace::Cup)
        .count();
    assert!(on_map > 0 && cup > 0);
    // "Any remaining Kay'otz units are placed in one of the two cups"; the
    // Monolith, which Battle 1 does not use, is no pod (assumption 14): it
    // is one of the "unused ... units placed aside"
    let elsewhere: Vec<&str> = st
        .aliens
        .iter()
        .filter(|a| a.on_map().is_none() && a.place != AlienPlace::Cup)
        .map(|a| a.id.as_str())
        .collect();
    assert_eq!(elsewhere, vec!["MON"], "every other unit is in the cup");
    assert_eq!(on_map + cup + 1, st.aliens.len());
    // the chits are the twenty of the sheet, the markers all face down
    let mut keys: Vec<&str> = st
        .cup
        .iter()
        .map(|&c| st.chits()[usize::from(c)].key.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 20, "twenty different chits");
    assert!(st.aliens.iter().all(|a| a.adm.is_none()));
    assert!(st.used.is_empty() && !st.recon && st.strongpoints.is_empty());
    assert_eq!(st.turn, 1);
    assert!(
        matches!(st.phase, Phase::MarineAction { .. }),
        "each turn starts with the Marine Action Phase"
    );
}

#[test]
fn b_a_full_game_lasts_18_or_19_turns() {
    let mut seen = [false; 2];
    for seed in 0..30 {
        let mut s = Session::<DimX>::new(seed, DimxConfig::default()).unwrap();
        while s.state().phase != Phase::Activated && DimX::outcome(s.state()).is_none() {
            s.play(Actor(0), &cmd(END_PHASE), None).unwrap();
        }
        let t = s.state().turn;
        assert!(t == 18 || t == 19, "seed {seed}: {t} turns");
        seen[usize::from(t - 18)] = true;
    }
    assert_eq!(
        seen,
        [true, true],
        "both lengths happen, depending on the draws"
    );
}

#[test]
fn b1_each_marine_unit_takes_one_action_per_phase() {
    let mut b = battle(&alpha("marine MS1 at 225"));
    play(&mut b, &full_move("MS1", 244), &[]);
    assert!(state(&b).marine("MS1").unwrap().acted, "turned 45 degrees");
    assert!(refused(&mut b, &full_move("MS1", 225), &[]).contains("already acted"));
    // a new turn straightens the units
    let mut b = battle(&alpha("marine MS1 at 225\ncup lull awakening"));
    play(&mut b, &full_move("MS1", 244), &[]);
    play(&mut b, END_PHASE, &[]);
    assert_eq!(state(&b).turn, 2);
    assert!(!state(&b).marine("MS1").unwrap().acted);
}

#[test]
fn b1_an_action_is_resolved_before_the_next_unit_acts() {
    let mut b = battle(&alpha("marine MS1 at 225\nmarine MS2 at 166"));
    play(&mut b, &scoot_move("MS1", 244), &[]);
    assert!(
        refused(&mut b, &full_move("MS2", 165), &[]).contains("finish MS1's Shoot and Scoot first")
    );
    play(&mut b, &order("finish_action", "MS1"), &[]);
    play(&mut b, &full_move("MS2", 165), &[]);
}

#[test]
fn b1_ending_the_action_phase_is_always_possible() {
    let b = battle(&alpha("marine MS1 at 225"));
    assert!(is_legal(&b, END_PHASE));
    let mut b = battle(&alpha("marine MS1 at 225"));
    play(&mut b, &scoot_move("MS1", 244), &[]);
    assert!(is_legal(&b, END_PHASE));
}

// ---- C.1 Regular Marine movement ----------------------------------------

#[test]
fn c1_each_clear_hex_costs_one_mp() {
    assert_eq!(full_move_spends(225, 244), Some((2, 8)));
    assert_eq!(
        full_move_spends(224, 251),
        Some((6, 8)),
        "three hexes, 3 MP"
    );
}

#[test]
fn c1_forest_and_rough_cost_two_mp() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    assert_eq!(step_cost(m, Some(c(166)), c(151)), Some(4), "Forest");
    assert_eq!(step_cost(m, Some(c(226)), c(231)), Some(4), "Rough");
    assert_eq!(full_move_spends(166, 151), Some((4, 8)));
}

#[test]
fn c1_along_a_connected_road_each_hex_costs_half_an_mp() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    assert_eq!(step_cost(m, Some(c(263)), c(326)), Some(1));
    assert_eq!(
        step_cost(m, Some(c(326)), c(352)),
        Some(2),
        "352 is a road hex but not connected to 326"
    );
    assert_eq!(
        full_move_spends(263, 353),
        Some((4, 8)),
        "four road hexes: 2 MP"
    );
}

#[test]
fn c1_buildings_and_bridges_are_road_hexes() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    assert!(m.is_road(c(216)) && m.terrain(c(216)) == Terrain::Buildings);
    assert_eq!(
        step_cost(m, Some(c(215)), c(216)),
        Some(1),
        "into Buildings along the road"
    );
    assert_eq!(
        step_cost(m, Some(c(235)), c(216)),
        Some(2),
        "into Buildings off the road: 1 MP"
    );
    // 253 -> bridge L7-5 -> 312: two road steps over the Lava Flow
    let mut b = battle(&alpha("marine MS1 at 253 mp 1"));
    let ev = play(&mut b, &full_move("MS1", 312), &[]);
    assert_eq!(spent(&ev), Some((2, 2)));
    assert!(
        words(&ev)[1].contains("253 -> L7-5 -> 312"),
        "{:?}",
        words(&ev)
    );
}

/// C.1 "moving from a Road hex into a directly connected Road hex (i.e.,
/// moving along the road)": Building hexes are Road hexes, but two adjacent
/// Building hexes are "directly connected" only where the map prints a road
/// between them (Xenolog's reading; the movement example's 326 to 352 shows
/// that adjacency alone does not connect two road hexes).
#[test]
fn c1_adjacent_building_hexes_are_connected_only_by_a_printed_road() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    for h in [456, 515, 516] {
        assert_eq!(m.terrain(c(h)), Terrain::Buildings);
    }
    assert!(m.adjacent(c(456), c(515)) && !m.road_connected(c(456), c(515)));
    assert_eq!(
        step_cost(m, Some(c(456)), c(515)),
        Some(2),
        "no printed road: a normal 1 MP move"
    );
    assert_eq!(
        step_cost(m, Some(c(456)), c(516)),
        Some(1),
        "a printed road: 1/2 MP"
    );
}

#[test]
fn c1_lava_flow_only_along_a_road_through_it() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    let lava = m.parse_ref("L6-7").unwrap();
    assert_eq!(m.terrain(lava), Terrain::Lava);
    assert_eq!(
        step_cost(m, Some(c(234)), lava),
        None,
        "no road into this Lava hex"
    );
    let bridge = m.parse_ref("L7-5").unwrap();
    assert_eq!(step_cost(m, Some(c(253)), bridge), Some(1));
    assert_eq!(
        step_cost(m, Some(c(252)), bridge),
        None,
        "into the bridge hex only along its road"
    );
    assert_eq!(path_cost(m, Some(c(252)), &[bridge, c(312)]), None);
}

/// C.1 "Units may never enter a Lava Flow hex unless moving along a Road
/// through that hex": a unit on a bridge goes on along the road, never off
/// it onto a bank hex the road does not run to (Mapzone Alpha, L16-7 on the
/// road 534 L16-7 564 beside Outpost Skylar: 546 lies south of the bridge).
#[test]
fn c1_a_unit_leaves_a_bridge_only_along_its_road() {
    let m = builtin("alpha").unwrap();
    let c = |h| m.cell(h).unwrap();
    let bridge = m.parse_ref("L16-7").unwrap();
    assert_eq!(m.terrain(bridge), Terrain::Lava);
    assert!(m.adjacent(bridge, c(546)) && !m.road_connected(bridge, c(546)));
    assert_eq!(
        step_cost(m, Some(c(534)), bridge),
        Some(1),
        "onto it along the road"
    );
    assert_eq!(
        step_cost(m, Some(bridge), c(546)),
        None,
        "off the bridge where no road runs"
    );
    assert_eq!(path_cost(m, Some(c(534)), &[bridge, c(546)]), None);
    assert_eq!(
        path_cost(m, Some(c(534)), &[bridge, c(564), c(565), c(546)]),
        Some(6),
        "along the road through the bridge, then 565 and 546: 3 MP"
    );
    // Shoot and Scoot from Outpost Skylar: 2 MP do not reach 546
    let mut b = battle(&alpha("marine MS1 at 534"));
    let why = refused(&mut b, &scoot_move("MS1", 546), &[]);
    assert!(
        why.contains("546 costs 3 MP to reach") && why.contains("only 2 MP"),
        "{why}"
    );
    let s = state(&b);
    let (_, scoot) = move_targets(s, m, s.marine("MS1").unwrap(), true);
    assert!(!scoot.iter().any(|&(h, _)| h == 546), "{scoot:?}");
    assert!(
        offered(&b, "MS1").contains(&(546, 6)),
        "a Full Move reaches it"
    );
    assert_eq!(
        offered(&b, "MS1"),
        cheapest(534, &[], 8),
        "the moves offered are the cheapest routes by the per-hex costs"
    );
    // a Full Move does, along the road through the bridge
    let ev = play(&mut b, &full_move("MS1", 546), &[]);
    assert_eq!(spent(&ev), Some((6, 8)));
    assert!(
        words(&ev).iter().any(|w| w.contains("L16-7 -> 564")),
        "{:?}",
        words(&ev)
    );
}

/// The same clause on Mapzone Beta: the only bridges (L11-6, L10-5) carry
/// the road 421 L11-6 L10-5 363 over the long Lava Flow, and the Monolith
/// stands on 421, the road's southern end. A unit from 363 may not step off
/// L10-5 onto the south bank (364 or 345); with 421 closed to it (C.1, an
/// alien's hex) it cannot cross the flow there at all.
#[test]
fn c1_no_crossing_the_lava_flow_off_the_road_past_the_monolith() {
    let m = builtin("beta").unwrap();
    let c = |h| m.cell(h).unwrap();
    let bridge = m.parse_ref("L10-5").unwrap();
    for bank in [364, 345] {
        assert!(m.adjacent(bridge, c(bank)), "{bank}");
        assert_eq!(
            path_cost(m, Some(c(363)), &[bridge, c(bank)]),
            None,
            "363 -> L10-5 -> {bank}"
        );
    }
    let mut b = battle(&beta("marine MS1 at 363\nmonolith MON at 421"));
    let why = refused(&mut b, &full_move("MS1", 364), &[]);
    assert!(
        why.contains("364 costs") && why.contains("only 4 MP"),
        "round the flow, never across it: {why}"
    );
    assert!(
        !offered_on(&b, "beta", "MS1")
            .iter()
            .any(|&(h, _)| h == 364 || h == 345)
    );
    // without the Monolith the road itself still crosses: 363 -> 421
    let mut b = battle(&beta("marine MS1 at 363"));
    let ev = play(&mut b, &full_move("MS1", 421), &[]);
    assert_eq!(spent(&ev), Some((3, 8)), "three road steps of 1/2 MP");
}

/// Every bridge of every shipped map: a unit leaves a Lava hex only into a
/// hex its road runs to (C.1, "along a Road through that hex").
#[test]
fn c1_every_bridge_of_the_shipped_maps_is_left_only_along_its_road() {
    let mut bridges = 0;
    for key in ["alpha", "beta"] {
        let m = builtin(key).unwrap();
        for (i, h) in m.hexes.iter().enumerate() {
            if h.terrain != Terrain::Lava {
                continue;
            }
            let lava = u16::try_from(i).unwrap();
            bridges += usize::from(h.road != 0);
            for n in m.neighbours(lava) {
                let along = m.road_connected(lava, n);
                assert_eq!(
                    step_cost(m, Some(lava), n).is_some(),
                    along,
                    "{key}: from {} to {}",
                    m.label(lava),
                    m.label(n)
                );
            }
        }
    }
    assert_eq!(bridges, 4, "Alpha L7-5 and L16-7, Beta L11-6 and L10-5");
}

/// The cheapest cost in half-MP of every numbered hex a unit at `start` can
/// reach within `budget`, by the per-hex costs of `step_cost` (which refuses
/// Lava off the road), never entering the `closed` hexes.
fn cheapest(start: u16, closed: &[u16], budget: u8) -> Vec<(u16, u8)> {
    let m = builtin("alpha").unwrap();
    let start = m.cell(start).unwrap();
    let shut: Vec<_> = closed.iter().map(|&h| m.cell(h).unwrap()).collect();
    let mut best = vec![u8::MAX; m.hexes.len()];
    best[usize::from(start)] = 0;
    let mut open = vec![start];
    while let Some(i) = (0..open.len()).min_by_key(|&i| best[usize::from(open[i])]) {
        let c = open.swap_remove(i);
        for n in m.neighbours(c) {
            if shut.contains(&n) {
                continue;
            }
            let Some(k) = step_cost(m, Some(c), n) else {
                continue;
            };
            let k = best[usize::from(c)] + k;
            if k < best[usize::from(n)] && k <= budget {
                best[usize::from(n)] = k;
                open.push(n);
            }
        }
    }
    let mut out: Vec<(u16, u8)> = m
        .numbered()
        .filter(|&(_, c)| c != start && best[usize::from(c)] != u8::MAX)
        .map(|(h, c)| (h, best[usize::from(c)]))
        .collect();
    out.sort();
    out
}

fn offered(b: &Session<DimX>, unit: &str) -> Vec<(u16, u8)> {
    offered_on(b, "alpha", unit)
}

fn offered_on(b: &Session<DimX>, map: &str, unit: &str) -> Vec<(u16, u8)> {
    let s = state(b);
    let m = builtin(map).unwrap();
    let (_, mut t) = move_targets(s, m, s.marine(unit).unwrap(), false);
    t.sort();
    t
}

/// C.1 as the moves the game offers see it: every destination costs exactly
/// the cheapest route by the per-hex costs, with no step into Lava off the
/// road (a search that let a unit cross Lava would find cheaper routes past
/// the Lava Flow next to 234).
#[test]
fn c1_moves_cost_the_cheapest_route_and_never_cross_lava_off_the_road() {
    let b = battle(&alpha("marine MS1 at 234 mp 12"));
    let expected = cheapest(234, &[], 24);
    assert!(
        expected.len() > 20,
        "a real neighbourhood: {}",
        expected.len()
    );
    assert_eq!(offered(&b, "MS1"), expected);
}

/// "Note that there are no Zones of Controls in this game": next to aliens a
/// Marine unit moves as if they were not there, except that their own hexes
/// are closed to it (C.1); nothing stops it or costs more beside them.
#[test]
fn c_no_zones_of_control() {
    let mut b = battle(&alpha(
        "marine MS1 at 224\nkayotz K1 at 225\nkayotz K2 at 243",
    ));
    assert_eq!(offered(&b, "MS1"), cheapest(224, &[225, 243], 8));
    let ev = play(&mut b, &full_move("MS1", 226), &[]);
    assert!(spent(&ev).is_some(), "leaves the aliens' side freely");
}

#[test]
fn c1_a_stunned_unit_has_one_mp_less() {
    let b = battle(&alpha("marine MS1 at 225 stunned\nmarine MS2 at 224"));
    assert_eq!(allowance(state(&b).marine("MS1").unwrap(), false), 6);
    assert_eq!(allowance(state(&b).marine("MS2").unwrap(), false), 8);
}

#[test]
fn c1_a_paralyzed_unit_may_not_move_at_all() {
    let mut b = battle(&alpha(
        "marine MS1 at 225 paralyzed\nmarine SC1 at 226 paralyzed",
    ));
    assert!(refused(&mut b, &full_move("MS1", 244), &[]).contains("Paralyzed"));
    assert!(refused(&mut b, &jump("SC1", 244), &[4]).contains("Paralyzed"));
}

#[test]
fn c1_without_enough_mp_left_a_unit_may_not_enter_the_next_hex() {
    let mut b = battle(&alpha("marine MS1 at 166 mp 1"));
    assert!(refused(&mut b, &full_move("MS1", 151), &[]).contains("costs 2 MP"));
}

#[test]
fn c1_no_stacking_at_the_end_of_a_move_but_passing_through_is_allowed() {
    // MS1 in 224 is hemmed in by Marines in 225, 243 and 165: it passes through
    let text =
        alpha("marine MS1 at 224 mp 2\nmarine MS2 at 225\nmarine MS3 at 243\nmarine MS4 at 165");
    let mut b = battle(&text);
    assert!(refused(&mut b, &full_move("MS1", 225), &[]).contains("stacked"));
    assert_eq!(
        spent(&play(&mut b, &full_move("MS1", 226), &[])),
        Some((4, 4))
    );
}

#[test]
fn c1_a_marine_may_never_enter_a_hex_with_an_alien_unit() {
    let text = alpha("marine MS1 at 224\nkayotz K1 at 225\nkayotz K2 at 243\nkayotz K3 at 165");
    let mut b = battle(&text);
    assert!(
        refused(&mut b, &full_move("MS1", 225), &[]).contains("never enter a hex with an alien")
    );
    assert!(
        refused(&mut b, &full_move("MS1", 226), &[]).contains("cannot reach"),
        "not even passing through"
    );
}

#[test]
fn c1a_a_full_move_allows_nothing_else() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 at 231"));
    play(&mut b, &full_move("MS1", 226), &[]);
    assert!(refused(&mut b, &fire("MS1", "K1"), &[6, 6, 6, 6]).contains("already acted"));
}

#[test]
fn c1b_shoot_and_scoot_gets_half_mp_rounded_down_after_other_changes() {
    let b = battle(&alpha(
        "marine MS1 at 225 stunned\nmarine HW1 at 226\nmarine MS2 at 224",
    ));
    let s = state(&b);
    assert_eq!(
        allowance(s.marine("MS1").unwrap(), true),
        2,
        "4 -1 Stunned = 3, halved: 1 MP"
    );
    assert_eq!(
        allowance(s.marine("HW1").unwrap(), true),
        2,
        "3 halved: 1 MP"
    );
    assert_eq!(
        allowance(s.marine("MS2").unwrap(), true),
        4,
        "4 halved: 2 MP"
    );
}

#[test]
fn c1b_shoot_and_scoot_may_fire_first_and_then_move() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &scoot_fire("MS1", "K1"), &[1, 2, 2, 2]);
    assert_event!(ev, DimxEvent::Fired { dice, .. } if dice.len() == 4, "CF 4 -1 +1 adjacent");
    let ev = play(&mut b, &scoot_move("MS1", 165), &[]);
    assert_event!(ev, DimxEvent::ActionFinished { .. }, "both halves done");
    assert!(matches!(
        state(&b).phase,
        Phase::MarineAction { partial: None }
    ));
}

#[test]
fn c1c_full_fire_allows_no_movement() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 at 226"));
    play(&mut b, &fire("MS1", "K1"), &[1, 2, 2, 2, 2]);
    assert!(refused(&mut b, &scoot_move("MS1", 165), &[]).contains("already acted"));
}

// ---- C.2 Jump packs --------------------------------------------------------

#[test]
fn c2_only_scout_and_special_ops_units_have_jump_packs() {
    let mut b = battle(&alpha("marine MS1 at 225\nmarine SO1 at 111"));
    assert!(refused(&mut b, &jump("MS1", 251), &[6]).contains("no jump pack"));
    assert_eq!(
        landed(&play(&mut b, &jump("SO1", 666), &[6])),
        Some((666, Landing::Safe)),
        "any distance"
    );
}

#[test]
fn c2_4_to_6_is_a_safe_landing() {
    for d in [4, 5, 6] {
        let mut b = battle(&alpha("marine SC1 at 111"));
        assert_eq!(
            landed(&play(&mut b, &jump("SC1", 225), &[d])),
            Some((225, Landing::Safe))
        );
    }
}

#[test]
fn c2_2_or_3_scatters_to_the_highest_numbered_eligible_adjacent_hex() {
    for d in [2, 3] {
        let mut b = battle(&alpha("marine SC1 at 111"));
        assert_eq!(
            landed(&play(&mut b, &jump("SC1", 225), &[d])),
            Some((244, Landing::Scattered))
        );
    }
    let mut b = battle(&alpha("marine SC1 at 111\nmarine MS1 at 244"));
    assert_eq!(
        landed(&play(&mut b, &jump("SC1", 225), &[2])),
        Some((243, Landing::Scattered)),
        "244 is taken"
    );
}

#[test]
fn c2_1_is_a_malfunction_to_a_random_hex_with_a_stunned_marker() {
    let mut b = battle(&alpha("marine SC1 at 111"));
    let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    assert_eq!(landed(&ev), Some((231, Landing::Malfunction)));
    assert_eq!(
        state(&b).marine("SC1").unwrap().condition,
        Condition::Stunned
    );
}

/// A map of three hexes in a row (a scenario file's own map), for the cases
/// where no hex is free.
pub fn tiny(lines: &str) -> String {
    format!(
        "scenario \"tiny\"\nmap tiny\nmap_name \"Tiny\"\ngrid 3 1\nrow 1 111. 112. 113.\n\
         other_kayotz aside\nentry 111\ncup lull\n{lines}\n"
    )
}

/// C.2 1 with assumption 10: a Stunned unit that malfunctions gets a second
/// Stunned marker and so becomes Paralyzed, as D.10 does for combat.
#[test]
fn c2_1_a_stunned_unit_that_malfunctions_becomes_paralyzed() {
    let mut b = battle(&alpha("marine SC1 at 111 stunned"));
    let ev = play(&mut b, &jump("SC1", 225), &[2, 2, 3, 1]);
    assert_eq!(landed(&ev), Some((231, Landing::Malfunction)), "2 - 1 = 1");
    assert_eq!(
        state(&b).marine("SC1").unwrap().condition,
        Condition::Paralyzed
    );
}

/// C.2: the jump table starts at 1; a net roll of 0 or less (a Stunned unit
/// jumping with Shoot and Scoot on a 1 or 2) is read as a Malfunction.
#[test]
fn c2_a_net_jump_roll_of_0_or_less_is_a_malfunction() {
    for (scoot, die) in [(false, 1), (true, 1), (true, 2)] {
        let mut b = battle(&alpha("marine SC1 at 111 stunned"));
        let json = if scoot {
            r#"{"shoot_and_scoot_jump":{"unit":"SC1","to":225}}"#
        } else {
            &jump("SC1", 225)
        };
        let ev = play(&mut b, json, &[die, 2, 3, 1]);
        assert_eq!(
            landed(&ev),
            Some((231, Landing::Malfunction)),
            "scoot {scoot}, die {die}"
        );
    }
}

/// C.2 2-3 when no eligible hex is free anywhere (assumption 9 looks further
/// out, and finds none): the unit stays where it was, here waiting at the map
/// edge, and the log says so.
#[test]
fn c2_a_scattered_jump_with_no_free_hex_anywhere_stays_where_it_was() {
    let mut b = battle(&tiny(
        "marine MS1 at 111\nmarine MS2 at 113\nmarine SC1 waiting",
    ));
    let ev = play(&mut b, &jump("SC1", 112), &[2]);
    assert_event!(
        ev,
        DimxEvent::NoRoom { unit, at: None, .. } if unit == "SC1",
        "{:?}",
        words(&ev)
    );
    assert_eq!(state(&b).marine("SC1").unwrap().place, Place::Waiting);
    assert!(
        words(&ev)
            .iter()
            .any(|w| w.contains("no eligible hex is free"))
    );
}

/// A.3 on a map of one's own that lacks some hex numbers: three dice that
/// name no hex of it are rolled again (assumed).
#[test]
fn a3_a_random_hex_the_map_lacks_is_rolled_again() {
    let mut b = battle(&tiny("marine SC1 at 111"));
    let ev = play(&mut b, &jump("SC1", 113), &[1, 4, 5, 6, 1, 1, 2]);
    let rolls: Vec<(u16, bool)> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::RandomHex { hex, on_map, .. } => Some((*hex, *on_map)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec![(456, false), (112, true)]);
    assert_eq!(landed(&ev), Some((112, Landing::Malfunction)));
}

#[test]
fn c2_malfunction_onto_an_active_alien_eliminates_the_jumping_unit() {
    let mut b = battle(&alpha("marine SC1 at 111\nkayotz K1 at 231"));
    let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::MarineEliminated {
            why: Cause::LandedOnActiveAlien,
            ..
        }
    )));
    assert_eq!(state(&b).marine("SC1").unwrap().place, Place::Eliminated);
}

/// C.2 "If it lands on an Active alien unit, the jumping Marine unit is
/// eliminated": an Active Monolith is an alien unit (A.2 b, "the alien
/// Monolith unit"), so landing on it eliminates the jumper; a Monolith shut
/// down by an adjacent HQ is Inactive, not Active, and the jumper comes down
/// beside it as beside a Dormant alien (assumption 27).
#[test]
fn c2_malfunction_onto_an_active_monolith_eliminates_onto_a_shut_down_one_steps_aside() {
    let mut b = battle(&alpha("marine SC1 at 111\nmonolith MON at 231"));
    play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    assert_eq!(
        state(&b).marine("SC1").unwrap().place,
        Place::Eliminated,
        "onto the Active Monolith"
    );
    let m = builtin("alpha").unwrap();
    let c231 = m.cell(231).unwrap();
    let mut around: Vec<u16> = m
        .numbered()
        .filter(|&(_, c)| m.adjacent(c231, c))
        .map(|(h, _)| h)
        .collect();
    around.sort_unstable();
    let hq = around[0];
    let mut b = battle(&alpha(&format!(
        "marine SC1 at 111\nmarine HQ1 at {hq}\nmonolith MON at 231"
    )));
    let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    let highest = *around.last().unwrap();
    assert_eq!(
        landed(&ev),
        Some((highest, Landing::MalfunctionAside)),
        "beside the shut-down Monolith, on 231's highest free neighbour"
    );
    let sc = state(&b).marine("SC1").unwrap();
    assert_eq!(sc.condition, Condition::Stunned);
}

/// C.2 "If it lands on an Active alien unit, the jumping Marine unit is
/// eliminated" with A.2 b "As soon as there is no Active eligible Marine
/// unit adjacent to the Monolith unit, it is immediately flipped back to its
/// Active side": a Special Ops unit that alone shut the Monolith down has
/// left its hex when it malfunctions onto it, so the Monolith is Active and
/// the jumper is eliminated (rules version 5; before, it came down beside).
/// With an HQ still next to the Monolith it is shut down, and the jumper
/// comes down beside it.
#[test]
fn c2_a_special_ops_that_shut_the_monolith_down_and_malfunctions_onto_it_is_eliminated() {
    let mut b = battle(&beta("monolith MON at 421\nmarine SO1 at 435"));
    let ev = play(&mut b, &jump("SO1", 111), &[1, 4, 2, 1]);
    assert_eq!(state(&b).marine("SO1").unwrap().place, Place::Eliminated);
    assert_event!(
        ev,
        DimxEvent::MarineEliminated {
            why: Cause::LandedOnActiveAlien,
            ..
        }
    );
    assert_event!(ev, DimxEvent::MonolithSwitched { active: true, .. });

    let mut b = battle(&beta(
        "monolith MON at 421\nmarine SO1 at 435\nmarine HQ1 at 422",
    ));
    let ev = play(&mut b, &jump("SO1", 111), &[1, 4, 2, 1]);
    assert!(
        matches!(landed(&ev), Some((_, Landing::MalfunctionAside))),
        "{:?}",
        words(&ev)
    );
    assert_eq!(
        state(&b).marine("SO1").unwrap().condition,
        Condition::Stunned
    );
}

#[test]
fn c2_malfunction_onto_a_marine_or_dormant_alien_moves_to_the_highest_numbered_eligible_adjacent_hex()
 {
    for other in ["kayotz K1 at 231 dormant", "marine MS1 at 231"] {
        let mut b = battle(&alpha(&format!("marine SC1 at 111\n{other}")));
        let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
        // rules version 3: the log says the random hex was occupied, and
        // the Stunned marker comes once the unit is down
        assert_eq!(
            landed(&ev),
            Some((252, Landing::MalfunctionAside)),
            "{other}: 231's highest free neighbour"
        );
        let landing = ev
            .iter()
            .position(|e| matches!(e, DimxEvent::Landed { .. }))
            .unwrap();
        let stunned = ev
            .iter()
            .position(|e| matches!(e, DimxEvent::ConditionChanged { .. }))
            .unwrap();
        assert!(landing < stunned, "{ev:?}");
        let words = xenolog_engine::games::dimx::describe::event(&ev[landing]);
        assert!(
            words.contains("finds its random hex occupied and comes down beside it, in 252"),
            "{words}"
        );
    }
}

#[test]
fn c2_shoot_and_scoot_and_stunned_each_deduct_one_from_the_jump_roll() {
    let mut b = battle(&alpha("marine SC1 at 111 stunned"));
    let ev = play(
        &mut b,
        r#"{"shoot_and_scoot_jump":{"unit":"SC1","to":225}}"#,
        &[5],
    );
    assert_event!(ev, DimxEvent::JumpRolled { die: 5, net: 3, .. });
    assert_eq!(landed(&ev), Some((244, Landing::Scattered)));
}

#[test]
fn c2_reinforcement_units_may_jump_in_from_off_the_map() {
    let mut b = battle(&alpha("marine SC1 waiting"));
    assert_eq!(
        landed(&play(&mut b, &jump("SC1", 425), &[6])),
        Some((425, Landing::Safe))
    );
}

#[test]
fn c2_a_jump_may_not_aim_at_an_occupied_hex() {
    let mut b = battle(&alpha(
        "marine SC1 at 111\nmarine MS1 at 225\nkayotz K1 at 226",
    ));
    assert!(refused(&mut b, &jump("SC1", 225), &[6]).contains("not a hex"));
    assert!(refused(&mut b, &jump("SC1", 226), &[6]).contains("not a hex"));
}

// ---- C.3 Kay'otz movement, C.4 leaving the map ------------------------------

#[test]
fn c3_a_dormant_unit_that_a_chit_activates_only_flips_to_active() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K8 at 251 dormant\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(ev.iter().any(
        |e| matches!(e, DimxEvent::AlienFlipped { unit, dormant: false, .. } if unit == "K8")
    ));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, DimxEvent::AlienMoved { .. } | DimxEvent::Fired { .. }))
    );
    assert_eq!(state(&b).alien("K8").unwrap().on_map(), Some(251));
}

fn held(ev: &[DimxEvent], unit: &str) -> Option<Hold> {
    ev.iter().find_map(|e| match e {
        DimxEvent::AlienHolds { unit: u, why, .. } if u == unit => Some(*why),
        _ => None,
    })
}

fn did_something(ev: &[DimxEvent], unit: &str) -> bool {
    ev.iter().any(|e| match e {
        DimxEvent::AlienMoved { unit: u, .. } => u == unit,
        DimxEvent::Fired { shooter, .. } | DimxEvent::NoFire { shooter, .. } => shooter == unit,
        _ => false,
    })
}

/// C.3 "...is instead simply flipped back over to its Active side (only) and
/// does nothing else for that turn": The Overlord's Command wakes the Dormant
/// Overlord, then draws "Alien Rush: Units #4 through #8", which names it
/// again in the same turn (F.4).
#[test]
fn c3_a_unit_woken_by_a_chit_does_nothing_else_that_turn_even_after_a_draw_again_chit() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K7 at 226 dormant\ncup overlords_command rush_4_8\nrecon yes",
    ));
    play(&mut b, END_PHASE, &[]);
    let ev = play(&mut b, &choose_chit("overlords_command"), &[]);
    let turns = ev
        .iter()
        .filter(|e| matches!(e, DimxEvent::AlienTurn { unit, .. } if unit == "K7"))
        .count();
    assert_eq!(turns, 2, "both chits name the Overlord");
    assert!(ev.iter().any(
        |e| matches!(e, DimxEvent::AlienFlipped { unit, dormant: false, .. } if unit == "K7")
    ));
    assert_eq!(held(&ev, "K7"), Some(Hold::WokeThisTurn));
    assert!(!did_something(&ev, "K7"), "{:?}", words(&ev));
    assert_eq!(
        state(&b).marine("MS1").unwrap().condition,
        Condition::Fine,
        "no fire at the Marine next to it"
    );
    assert!(!state(&b).alien("K7").unwrap().dormant, "it stays Active");
}

/// C.3 also when the waking chit flips every Dormant unit at once (a wake
/// step, as "The Awakening" has) and a draw-again step then draws a chit that
/// names the unit.
#[test]
fn c3_a_unit_woken_by_a_wake_step_does_nothing_else_that_turn() {
    let text = "scenario \"t\"\nmap alpha\nother_kayotz aside\nmarine MS1 at 225\nkayotz K8 at 226 dormant\nkayotz K9 at 224\n\
                chit wake_again \"Wake, then draw again\"\n  wake all\n  draw_another\n\
                chit rush \"Rush all\"\n  rush all\ncup wake_again rush\nrecon yes\n";
    let mut b = battle(text);
    play(&mut b, END_PHASE, &[]);
    let ev = play(&mut b, &choose_chit("wake_again"), &[1, 1, 1, 1]);
    assert_eq!(held(&ev, "K8"), Some(Hold::WokeThisTurn));
    assert!(!did_something(&ev, "K8"));
    assert!(
        did_something(&ev, "K9"),
        "a unit that was Active all along acts: {:?}",
        words(&ev)
    );
}

/// C.3 "for that turn": the next turn the woken unit acts as usual.
#[test]
fn c3_a_unit_woken_this_turn_acts_normally_the_next_turn() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K7 at 226 dormant\ncup awakening rush_4_8\nrecon yes",
    ));
    play(&mut b, END_PHASE, &[]);
    let ev = play(&mut b, &choose_chit("awakening"), &[]);
    assert!(ev.iter().any(
        |e| matches!(e, DimxEvent::AlienFlipped { unit, dormant: false, .. } if unit == "K7")
    ));
    assert_eq!(state(&b).turn, 2);
    assert!(state(&b).woke.is_empty(), "a new turn");
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1, 1]);
    assert!(
        ev.iter().any(
            |e| matches!(e, DimxEvent::Fired { shooter, target, .. } if shooter == "K7" && target == "MS1")
        ),
        "{:?}",
        words(&ev)
    );
}

#[test]
fn c3_aliens_move_any_distance_through_units_and_never_end_stacked() {
    // K8 in 111 rushes to the Marine in 225 past a Paralyzed Marine in 131 and
    // K1 in 146; it ends next to MS1 in an empty hex (244 and 226 are taken).
    let mut b = battle(&alpha(
        "marine MS1 at 225\nmarine MS2 at 226\nmarine MS3 at 131 paralyzed\nkayotz K8 at 111\nkayotz K1 at 146\nkayotz K2 at 244\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1, 1]);
    let to = ev.iter().find_map(|e| match e {
        DimxEvent::AlienMoved { unit, to, .. } if unit == "K8" => Some(*to),
        _ => None,
    });
    let s = state(&b);
    let to = to.expect("K8 moves");
    assert!(![225, 226, 244, 146, 131].contains(&to));
    let m = builtin("alpha").unwrap();
    assert!(
        m.adjacent(m.cell(to).unwrap(), m.cell(225).unwrap())
            || m.adjacent(m.cell(to).unwrap(), m.cell(226).unwrap())
    );
    assert_eq!(
        s.aliens.iter().filter(|a| a.on_map() == Some(to)).count(),
        1
    );
}

#[test]
fn c4_units_leave_the_map_only_where_the_scenario_allows() {
    let text = alpha("exit 666\nmarine MS1 at 666\nmarine MS2 at 665");
    let mut b = battle(&text);
    assert!(refused(&mut b, &order("leave_map", "MS2"), &[]).contains("not an exit hex"));
    let ev = play(&mut b, &order("leave_map", "MS1"), &[]);
    assert_event!(ev, DimxEvent::ExitedMap { from: 666, .. });
    assert_eq!(state(&b).marine("MS1").unwrap().place, Place::Exited);
}

/// C.4 "unless allowed to by scenario instructions": the Campaign scenario
/// allows it at the eastern edge of Mapzone Alpha, and its victory counts the
/// units that got through (instant at four, at the end at two).
#[test]
fn c4_the_campaign_scenario_lets_units_leave_by_its_eastern_exit_hexes() {
    let campaign = scenario::BUILTIN
        .iter()
        .find(|(id, _)| *id == "campaign")
        .unwrap()
        .1;
    let sc = scenario::parse(campaign, "campaign", false).unwrap();
    let m = builtin("alpha").unwrap();
    assert!(!sc.state.rules.exit.is_empty());
    for &h in &sc.state.rules.exit {
        assert_eq!(
            m.hex(m.cell(h).unwrap()).col,
            m.cols - 1,
            "{h} is on the eastern edge"
        );
    }
    // the same scenario with four Marine units already at the exits
    let text = campaign
        .replace("marine MS1 at 141", "marine MS1 at 652")
        .replace("marine MS2 at 143", "marine MS2 at 653")
        .replace("marine MS3 at 122", "marine MS3 at 654")
        .replace("marine SC1 at 142", "marine SC1 at 655");
    let mut b = battle(&text);
    for u in ["MS1", "MS2", "MS3", "SC1"] {
        assert!(is_legal(
            &b,
            &format!(r#"{{"leave_map":{{"unit":"{u}"}}}}"#)
        ));
        play(&mut b, &format!(r#"{{"leave_map":{{"unit":"{u}"}}}}"#), &[]);
        assert_eq!(state(&b).marine(u).unwrap().place, Place::Exited);
    }
    assert!(
        !is_legal(&b, &order("leave_map", "HQ1")),
        "HQ1 in 123 is not at an exit"
    );
    play(&mut b, END_PHASE, &[]);
    let out = DimX::outcome(state(&b)).expect("instant victory");
    assert_eq!(
        out.summary,
        "Instant victory: Marines (four Marine units got through to the east)"
    );
}

/// C.4 "No unit of either side may leave the map unless allowed to by
/// scenario instructions": the two Battle scenarios give no exit, so no unit
/// may leave, even from an edge hex; and a Paralyzed unit, which may not
/// move (C.1), may not leave by an exit either.
#[test]
fn c4_no_unit_may_leave_where_the_scenario_gives_no_exit() {
    for id in ["alpha", "beta"] {
        let sc = scenario::builtin().iter().find(|s| s.id == id).unwrap();
        assert!(sc.state.rules.exit.is_empty(), "{id}");
    }
    let mut b = battle(&alpha("marine MS1 at 666"));
    assert!(!is_legal(&b, &order("leave_map", "MS1")));
    assert!(refused(&mut b, &order("leave_map", "MS1"), &[]).contains("not an exit hex"));
    let mut b = battle(&alpha("exit 666\nmarine MS1 at 666 paralyzed"));
    assert!(!is_legal(&b, &order("leave_map", "MS1")));
    assert!(refused(&mut b, &order("leave_map", "MS1"), &[]).contains("Paralyzed"));
}

#[test]
fn c_waiting_units_enter_through_the_scenario_entry_hexes() {
    let mut b = battle(&alpha("marine MS1 waiting"));
    assert!(is_legal(&b, &full_move("MS1", 111)));
    assert!(refused(&mut b, &full_move("MS1", 666), &[]).contains("has only 4 MP"));
    play(&mut b, &full_move("MS1", 131), &[]);
    assert_eq!(state(&b).marine("MS1").unwrap().on_map(), Some(131));
    let _ = scenario::builtin();
}

/// Assumption 4 (the text is silent on entering the map): a road hex among
/// the scenario's entry hexes is entered along its road, 1/2 MP, whether or
/// not the printed road runs off the map there (Alpha 114: the road comes in
/// at 113 and turns along the edge); any other entry hex costs its terrain.
#[test]
fn a4_entering_a_road_hex_among_the_entry_hexes_costs_half_an_mp() {
    let entering = |to: u16| {
        let mut b = battle(&alpha("marine MS1 waiting\nentry 111 113 114 115"));
        spent(&play(&mut b, &full_move("MS1", to), &[]))
    };
    assert_eq!(entering(113), Some((1, 8)), "113, road: 1/2 MP");
    assert_eq!(entering(114), Some((1, 8)), "114, road (Rough): 1/2 MP");
    assert_eq!(
        entering(134),
        Some((2, 8)),
        "114 then 134 along the road: 1 MP"
    );
    assert_eq!(entering(111), Some((2, 8)), "111, clear, no road: 1 MP");
    assert_eq!(entering(115), Some((4, 8)), "115, Rough, no road: 2 MP");
}

/// Rules version 3: the action of a unit that is gone ends with it.
#[test]
fn c1b_a_shoot_and_scoot_ends_with_a_unit_eliminated_half_way() {
    let mut b = battle(&alpha(
        "marine SC1 at 111\nmarine MS1 at 113\nkayotz K1 at 231",
    ));
    // The jump half: a 1 after the -1 is a Malfunction; the random hex 231
    // holds an Active alien, and SC1 is eliminated there.
    let ev = play(
        &mut b,
        r#"{"shoot_and_scoot_jump":{"unit":"SC1","to":225}}"#,
        &[2, 2, 3, 1],
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::MarineEliminated {
            why: Cause::LandedOnActiveAlien,
            ..
        }
    )));
    assert!(
        matches!(ev.last(), Some(DimxEvent::ActionFinished { unit, .. }) if unit == "SC1"),
        "{ev:?}"
    );
    assert!(matches!(
        state(&b).phase,
        Phase::MarineAction { partial: None }
    ));
    // Nothing waits for SC1: another unit acts at once.
    assert!(!is_legal(&b, &order("finish_action", "SC1")));
    play(&mut b, &full_move("MS1", 114), &[]);
}
