//! The worked examples of rule text 003, each exactly as printed.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::Game;
use xenolog_engine::games::dimx::DimX;
use xenolog_engine::games::dimx::map::{Terrain, builtin};
use xenolog_engine::games::dimx::movement::path_cost;
use xenolog_engine::games::dimx::state::{AlienMove, DimxEvent, Hold, Mod, ModWhy};
use xenolog_engine::games::dimx::units::Condition;

fn cells(hexes: &[u16]) -> Vec<u16> {
    let m = builtin("alpha").unwrap();
    hexes.iter().map(|&h| m.cell(h).unwrap()).collect()
}

/// "A Scout unit is in hex 263 (Map A). It conducts a Full Move action and
/// thus has 4 MPs. It moves to 326 for 1/2 MP, to 352 for 1 MP, to 353 for
/// 1/2 MP and then to 415 for 2 MPs. Thus it has spent its entire total of 4 MPs."
#[test]
fn example_movement_full_move_costs_4_mp() {
    let m = builtin("alpha").unwrap();
    let c = cells(&[263, 326, 352, 353, 415]);
    let each: Vec<u8> = (1..c.len())
        .map(|i| path_cost(m, Some(c[i - 1]), &c[i..=i]).unwrap())
        .collect();
    assert_eq!(each, vec![1, 2, 1, 4], "half-MP: 1/2, 1, 1/2, 2");
    assert_eq!(path_cost(m, Some(c[0]), &c[1..]), Some(8), "4 MP in all");

    let mut b = battle(&alpha("marine SC1 at 263"));
    let ev = play(&mut b, &full_move("SC1", 415), &[]);
    let moved = moved(&ev);
    let (spent, allowance, path) = moved.expect("a move");
    assert_eq!(
        (spent, allowance),
        (8, 8),
        "the Scout spends its entire 4 MP"
    );
    assert_eq!(path, vec![326, 352, 353, 415], "the printed route");
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(415));
    // and 4 MP is the least it can cost: with 3 MP it could not get there
    let mut b = battle(&alpha("marine SC1 at 263 mp 3"));
    let why = refused(&mut b, &full_move("SC1", 415), &[]);
    assert_eq!(
        why,
        "415 costs 4 MP to reach but Scout SC1 has only 3 MP (rule C.1)"
    );
}

/// "If the unit had opted for a Shoot & Scoot action, its total allowed
/// movement would be reduced to 2 MPs (half of 4). It could then move to 326
/// for 1/2 MP, to 325 for 1/2 MP, to 352 for 1/2 MP and end at 353 for 1/2 MP."
#[test]
fn example_movement_shoot_and_scoot_route_through_325_costs_2_mp() {
    let m = builtin("alpha").unwrap();
    let c = cells(&[263, 326, 325, 352, 353]);
    for i in 1..c.len() {
        assert_eq!(
            path_cost(m, Some(c[i - 1]), &c[i..=i]),
            Some(1),
            "each step 1/2 MP along the road"
        );
    }
    let mut b = battle(&alpha("marine SC1 at 263"));
    let ev = play(&mut b, &scoot_move("SC1", 353), &[]);
    let spent = moved(&ev);
    // the engine takes a cheapest route (assumption 18); 326-352-353 ties
    // with the printed 326-325-352-353 at 2 MP
    let (half_mp, allowance, path) = spent.expect("a move");
    assert_eq!((half_mp, allowance), (4, 4), "2 MP of 2");
    assert_eq!(path.last(), Some(&353));
    assert_eq!(
        path_cost(m, Some(c[0]), &c[1..]),
        Some(4),
        "the printed route costs 2 MP in all"
    );
    // 415 is out of reach with half MP
    let mut b = battle(&alpha("marine SC1 at 263"));
    assert_eq!(
        refused(&mut b, &scoot_move("SC1", 415), &[]),
        "415 costs 4 MP to reach but Scout SC1 has only 2 MP (half MP for Shoot and Scoot) (rule C.1)"
    );
}

/// "It then can conduct Combat against an alien unit at hex 421 (it would have
/// been blocked from that shot from hex 263 by the Forest hexes)."
#[test]
fn example_movement_forest_blocks_the_shot_from_263_but_not_from_353() {
    let mut b = battle(&alpha("marine SC1 at 263\nkayotz K10 at 421"));
    let why = refused(&mut b, &scoot_fire("SC1", "K10"), &[]);
    // "blocked ... by the Forest hexes": the line from 263 to 421 meets
    // Forest hexes and no other blocking terrain, and no unit
    let m = builtin("alpha").unwrap();
    let c = |h: u16| m.cell(h).unwrap();
    let blocking: Vec<Terrain> = m
        .between(c(263), c(421))
        .iter()
        .filter(|&x| m.blocks_marines.contains(x))
        .map(|x| m.terrain(x))
        .collect();
    let blocking_hexes: Vec<Option<u16>> = m
        .between(c(263), c(421))
        .iter()
        .filter(|&x| m.blocks_marines.contains(x))
        .map(|x| m.number(x))
        .collect();
    assert_eq!(
        blocking_hexes,
        vec![Some(316), Some(362)],
        "the Forest hexes on the line"
    );
    assert!(blocking.len() >= 2, "Forest hexes, plural: {blocking:?}");
    assert!(
        blocking.iter().all(|&t| t == Terrain::Forest),
        "{blocking:?}"
    );
    assert_eq!(
        why,
        "Scout SC1's line of fire to 421 touches the edge of the Forest hex 316, which blocks it (rule D.2)",
        "the refusal names the first Forest hex on the line"
    );
    play(&mut b, &scoot_move("SC1", 353), &[]);
    assert!(is_legal(
        &b,
        r#"{"shoot_and_scoot_fire":{"unit":"SC1","target":"K10","dice":null}}"#
    ));
}

/// The combat example: CF 3, -1 Shoot & Scoot, +1 adjacent, +1 HQ in 331:
/// four dice 1, 4, 1, 3 against DN 3: one Hit, not destroyed, an ADM 5
/// marker, and two 1s flip the Scout to Out of Ammo.
#[test]
fn example_combat_cf_4_rolls_1_4_1_3_one_hit_adm_5_out_of_ammo() {
    let mut b = battle(&alpha(
        "marine SC1 at 263\nmarine HQ1 at 331\nkayotz K10 at 421\nadm 5",
    ));
    play(&mut b, &scoot_move("SC1", 353), &[]);
    let ev = play(&mut b, &scoot_fire("SC1", "K10"), &[1, 4, 1, 3]);
    let fired = ev.iter().find_map(|e| match e {
        DimxEvent::Fired {
            base,
            mods,
            dice,
            dn,
            hits,
            ..
        } => Some((*base, mods.clone(), dice.clone(), *dn, *hits)),
        _ => None,
    });
    let (base, mods, dice, dn, hits) = fired.expect("the Scout fires");
    assert_eq!(base, 3);
    let net: i8 = base as i8 + mods.iter().map(|m| m.value).sum::<i8>();
    assert_eq!(net, 4, "net total CF of 4");
    for why in [ModWhy::ShootAndScoot, ModWhy::Adjacent, ModWhy::HqAdjacent] {
        assert!(mods.iter().any(|m| m.why == why), "{why:?} in {mods:?}");
    }
    assert_eq!(mods.len(), 3, "no other modifier: {mods:?}");
    assert_eq!(
        mods[0],
        Mod {
            value: -1,
            why: ModWhy::ShootAndScoot
        }
    );
    assert_eq!((dice, dn, hits), (vec![1, 4, 1, 3], 3, 1), "only one Hit");
    assert_event!(ev, DimxEvent::AdmPlaced { value: 5, .. }, "an ADM 5 marker");
    assert_event!(ev, DimxEvent::OutOfAmmo { unit, .. } if unit == "SC1", "two 1s: Out of Ammo");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, DimxEvent::AlienEliminated { .. })),
        "not destroyed"
    );
    let s = state(&b);
    assert_eq!(
        s.alien("K10").unwrap().defense(),
        5,
        "a nearly impervious DN of 5"
    );
    assert!(s.marine("SC1").unwrap().out_of_ammo);
    let text = words(&ev).join("; ");
    assert!(
        text.contains("Scout SC1 fires at Kay'otz #10 in 421 with CF 4 (3, -1 Shoot and Scoot, +1 HQ adjacent, +1 adjacent): rolls 1 4 1 3 against DN 3, 1 hit"),
        "{text}"
    );
    assert!(
        text.contains(
            "the player draws an ADM 5 marker and places it under Kay'otz #10: its DN is now 5"
        ) && text.contains("Scout SC1 is out of ammo: flipped to its back side"),
        "{text}"
    );
}

fn activation_example() -> String {
    alpha(
        "marine MS1 at 314\nmarine HQ1 at 111 paralyzed\nmarine SC1 at 666 paralyzed\n\
         kayotz K8 at 321\nkayotz K10 at 421\nkayotz K12 at 416\ncup rush_8_12",
    )
}

fn moves(ev: &[DimxEvent]) -> Vec<(String, Option<u16>, u16)> {
    ev.iter()
        .filter_map(|e| match e {
            DimxEvent::AlienMoved {
                unit,
                from,
                to,
                how: AlienMove::Rush,
                ..
            } => Some((unit.clone(), *from, *to)),
            _ => None,
        })
        .collect()
}

/// The Kay'otz activation example, when #10's fire does not Paralyze the
/// Marine Squad: #8 is blocked by Lava on the way to 246, #10 moves down the
/// row to 313 and fires, #12 goes to 245 (313 is taken) and fires.
#[test]
fn example_kayotz_activation_rush_8_through_12() {
    let mut b = battle(&activation_example());
    // #10 rolls five dice (CF 4 +1 adjacent), no hit; #12 the same.
    let ev = play(&mut b, END_PHASE, &[1, 1, 2, 2, 3, 1, 1, 2, 2, 3]);
    let text = words(&ev);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::ChitsDrawn { names, .. } if names == &vec!["Alien Rush: Units #8 through #12".to_owned()])));
    let order: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::AlienTurn { unit, .. } => Some(unit.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        vec!["K8", "K10", "K12"],
        "lower-numbered units first"
    );
    assert_event!(
        ev,
        DimxEvent::AlienHolds { unit, why: Hold::LavaInTheWay(246), .. } if unit == "K8",
        "#8 does nothing: Lava between 321 and 246: {text:?}"
    );
    assert_eq!(
        moves(&ev),
        vec![
            ("K10".into(), Some(421), 313),
            ("K12".into(), Some(416), 245)
        ]
    );
    let shots: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::Fired {
                shooter, target, ..
            } if target == "MS1" => Some(shooter.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(shots, vec!["K10", "K12"], "each fires after moving");
    assert_eq!(state(&b).alien("K8").unwrap().on_map(), Some(321));
}

/// "If the Marine unit were Paralyzed by that combat, alien unit #12 would not
/// move at all, since there is then no Active Marine unit on the map."
#[test]
fn example_kayotz_activation_paralyzed_marine_stops_unit_12() {
    let mut b = battle(&activation_example());
    let ev = play(&mut b, END_PHASE, &[6, 6, 6, 1, 2]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::ConditionChanged { unit, to: Condition::Paralyzed, .. } if unit == "MS1")));
    assert_eq!(moves(&ev), vec![("K10".into(), Some(421), 313)]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::AlienHolds { unit, why: Hold::NoActiveMarine, .. } if unit == "K12")));
    assert_eq!(state(&b).alien("K12").unwrap().on_map(), Some(416));
}

/// "Unit #10 is moved directly down the row of hexes": 421, 353, 352, 325, 313
/// lie on one straight row; and the hexes the text names are adjacent.
#[test]
fn example_kayotz_activation_geometry() {
    let m = builtin("alpha").unwrap();
    let c = |h: u16| m.cell(h).unwrap();
    let between: Vec<u16> = m
        .between(c(421), c(313))
        .iter()
        .filter_map(|x| m.number(x))
        .collect();
    let mut row = between.clone();
    row.sort();
    assert_eq!(
        row,
        vec![325, 352, 353],
        "a straight row of hexes, centre to centre"
    );
    for h in [313, 245, 246] {
        assert!(m.adjacent(c(314), c(h)), "314 next to {h}");
    }
    assert!(
        m.between(c(321), c(246)).meets(&m.lava),
        "Lava between 321 and 246"
    );
    assert!(!m.between(c(416), c(245)).meets(&m.lava));
    assert_eq!(DimX::NAME, "Invaders From Dimension X!");
}
