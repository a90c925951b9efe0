//! Shooting and fights through the FIGHT RESULT table (6), the aliens'
//! phase (9) and their attacks (10).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::data::{Hit, TABLE, parse_table};
use xenolog_engine::games::alien::rules::{alien_moves, attack_targets};
use xenolog_engine::games::alien::state::{AlienEvent as E, Phase, Pos, Queen};
use xenolog_engine::games::alien::{AlienCommand as C, AlienConfig};

#[test]
fn clause_6_the_assumed_table_gives_the_three_examples_and_is_replaceable() {
    let table = parse_table(TABLE).unwrap();
    assert_eq!(
        table.result(3, 5).defender,
        Hit {
            lost: 1,
            withdraw: 1
        }
    );
    assert_eq!(
        table.result(-2, 5).attacker,
        Hit {
            lost: 2,
            withdraw: 2
        }
    );
    assert_eq!(
        table.result(5, 4).defender,
        Hit {
            lost: 2,
            withdraw: 2
        }
    );
    // Off the table: the first and last columns.
    assert_eq!(table.result(-40, 1), table.result(-5, 1));
    assert_eq!(table.result(40, 6), table.result(7, 6));
    // A table of one's own: every cell "D4/0" kills any alien shot at.
    let own = format!(
        "columns 0\n{}",
        (1..=6)
            .map(|r| format!("roll {r} D4/0\n"))
            .collect::<String>()
    );
    let mut s = with(AlienConfig {
        table_text: Some(own),
        scenario_text: Some("character hicks at N6\nalien 4 at P6\n".into()),
        ..AlienConfig::default()
    });
    let ev = act(&mut s, EXPEDITION, shoot(0, 1, 1), &[2]);
    assert!(ev.contains(&E::AlienKilled {
        alien: 1,
        by: Some(0)
    }));
    let bad = with_err("columns 0 1\nroll 1 - -\n");
    assert!(
        bad.contains("roll of roll 2") || bad.contains("roll 2"),
        "{bad}"
    );
}

fn with_err(table: &str) -> String {
    xenolog_engine::games::alien::start(&AlienConfig {
        table_text: Some(table.into()),
        ..AlienConfig::default()
    })
    .unwrap_err()
    .to_string()
}

#[test]
fn clause_6_a_shooter_next_to_the_alien_suffers_an_unfavourable_result_one_farther_does_not() {
    // Force 5 + 3 - 4 = +4, roll 1: A1/1 against the shooter.
    let mut s = at("character hicks at N6\nalien 4 at O6\n");
    let h = ch(&s, "hicks");
    let ev = act(&mut s, EXPEDITION, shoot(h, 1, 1), &[1]);
    assert!(ev.contains(&E::CharacterHit { ch: h, lost: 1 }), "{ev:?}");
    assert_eq!(s.characters[h as usize].strength, 4);
    let mut s = at("character hicks at M6\nalien 4 at O6\n");
    let ev = act(&mut s, EXPEDITION, shoot(h, 1, 1), &[1]);
    assert!(
        !ev.iter().any(|e| matches!(e, E::CharacterHit { .. })),
        "{ev:?}"
    );
    assert_eq!(s.characters[h as usize].strength, 5);
}

#[test]
fn clause_6_an_alien_that_cannot_withdraw_is_killed() {
    // G15 is a dead end: the alien there cannot withdraw away from Hicks.
    let mut s = at("character hicks at G12\nalien 4 at G15\ncharacter hudson at G14\n");
    let h = ch(&s, "hudson");
    // Hudson next to it: force 5 + 3 - 4 = +4, roll 4: D1/1.
    let ev = act(&mut s, EXPEDITION, shoot(h, 1, 1), &[4]);
    assert_eq!(ev[1], E::AlienHit { alien: 1, lost: 1 });
    assert_eq!(
        ev[2],
        E::AlienKilled {
            alien: 1,
            by: Some(h)
        }
    );
    assert_eq!(s.characters[h as usize].kills, 1);
}

#[test]
fn clause_9_1_hatching_on_any_hatching_places_and_none_after_the_queen_dies() {
    let mut s = at_phase("", Phase::Hatching);
    act(&mut s, xenolog_engine::Actor::SYSTEM, C::RollHatch, &[5]);
    act(&mut s, ALIEN, C::Hatch { parts: vec![3, 2] }, &[]);
    act(&mut s, ALIEN, C::Place { hatch: 4 }, &[]);
    act(&mut s, ALIEN, C::Place { hatch: 4 }, &[]);
    assert_eq!(s.aliens.len(), 2, "both on one hatching place");
    assert!(s.aliens.iter().all(|a| a.at == t("M14")));
    assert_eq!(s.phase, Phase::Moving);
    let mut s = at_phase("queen dead\n", Phase::Hatching);
    let ev = steps(&mut s);
    assert_eq!(
        ev[0],
        E::PhaseBegun {
            phase: Phase::Moving
        }
    );
    assert!(s.aliens.is_empty());
    let mut s = at_phase("queen dead_hatching\n", Phase::Hatching);
    let ev = steps(&mut s);
    assert!(
        matches!(ev[0], E::HatchRolled { .. }),
        "an equal roll: hatching goes on"
    );
}

#[test]
fn clause_9_2_aliens_move_four_tiles_never_into_airlocks_or_the_landing_field_nor_through_aliens() {
    let mut s = at_phase("alien 2 at G9\nalien 1 at F12\n", Phase::Moving);
    let reach = alien_moves(&s, 1);
    assert!(
        reach.contains(&t("G5")) && !reach.contains(&t("G4")),
        "four tiles, not five"
    );
    let near_airlock = at("alien 2 at G2\n");
    let blocked = at("alien 2 at G9\nalien 1 at G10\n");
    for (from, alien, tile, why) in [
        (&near_airlock, 1, "G1", "not into airlock 1"),
        (&s, 2, "E12", "not onto the landing field"),
        (&blocked, 1, "G11", "not through another alien"),
        (&blocked, 1, "G10", "not onto one outside a duct"),
    ] {
        assert!(!alien_moves(from, alien).contains(&t(tile)), "{why}");
    }
    // Stop next to a character: no further.
    let stop = at("alien 2 at G6\ncharacter hicks at F9\n");
    let r = alien_moves(&stop, 1);
    assert!(r.contains(&t("G9")) && !r.contains(&t("G10")), "{r:?}");
    let e = refused(
        &s,
        ALIEN,
        C::MoveAlien {
            alien: 1,
            to: t("G4"),
        },
    );
    assert_eq!(e.clause.as_deref(), Some("9.2"));
    act(
        &mut s,
        ALIEN,
        C::MoveAlien {
            alien: 1,
            to: t("G5"),
        },
        &[],
    );
    let e = refused(
        &s,
        ALIEN,
        C::MoveAlien {
            alien: 1,
            to: t("G6"),
        },
    );
    assert!(e.message.contains("moved"), "{e}");
}

#[test]
fn clause_9_3_metamorphosis_only_in_ducts_and_never_next_to_a_character() {
    let mut s = at_phase(
        "alien 3 at R6\nalien 2 at R6\ncharacter hicks at Q6\n",
        Phase::Metamorphosis,
    );
    let ev = steps(&mut s);
    assert!(
        !ev.iter().any(|e| matches!(e, E::Merged { .. })),
        "next to Hicks: none"
    );
    let mut s = at_phase(
        "alien 2 at R6\nalien 1 at R6\nalien 2 at R6\n",
        Phase::Metamorphosis,
    );
    steps(&mut s);
    assert_eq!(s.aliens.len(), 1);
    assert_eq!(s.aliens[0].strength, 4, "2 + 1 + 2 capped at four");
    // An alien may end its move on another in a duct, to merge.
    let mut s = at_phase("alien 2 at P6\nalien 1 at R6\n", Phase::Moving);
    act(
        &mut s,
        ALIEN,
        C::MoveAlien {
            alien: 1,
            to: t("R6"),
        },
        &[],
    );
}

#[test]
fn clause_10_an_unfavourable_result_hits_all_the_attackers() {
    // 1 + 1 - 5 = -3, roll 3: A3/3 for both: both die.
    let mut s = at_phase(
        "character hicks at K9\nalien 1 at J9\nalien 1 at L9\n",
        Phase::Attacks,
    );
    let ev = act(&mut s, ALIEN, C::Attack { ch: 0 }, &[3]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, E::AlienKilled { .. }))
            .count(),
        2
    );
    assert!(s.aliens.is_empty());
}

#[test]
fn clause_10_a_character_who_cannot_withdraw_loses_a_point_per_tile() {
    // Hicks in the dead end G15, aliens at G14: 4 + 4 - 5 = +3, roll 6: D2/2;
    // he cannot withdraw at all: 2 + 2 lost.
    let mut s = at_phase("character hicks at G15\nalien 4 at G14\n", Phase::Attacks);
    // One alien: 4 - 5 = -1, roll 6: both lose one, no withdrawal.
    let ev = act(&mut s, ALIEN, C::Attack { ch: 0 }, &[6]);
    let E::Attacked { result, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!(
        (result.attacker, result.defender),
        (
            Hit {
                lost: 1,
                withdraw: 0
            },
            Hit {
                lost: 1,
                withdraw: 0
            }
        )
    );
    assert_eq!((s.characters[0].strength, s.aliens[0].strength), (4, 3));
    let mut s = at_phase(
        "character hicks at G15 strength 3\nalien 4 at G14\n",
        Phase::Attacks,
    );
    // 4 - 3 = +1, roll 6: D1/1; the only tile back is the alien's: 1 + 1.
    act(&mut s, ALIEN, C::Attack { ch: 0 }, &[6]);
    assert_eq!(s.characters[0].strength, 1);
    let mut s = at("character hicks at G15 strength 3\nalien 4 at G14\n");
    s.content.table = parse_table(&format!(
        "columns 0\n{}",
        (1..=6)
            .map(|r| format!("roll {r} D1/2\n"))
            .collect::<String>()
    ))
    .unwrap();
    s.phase = Phase::Attacks;
    let ev = act(&mut s, ALIEN, C::Attack { ch: 0 }, &[6]);
    assert!(
        ev.contains(&E::CharacterHit { ch: 0, lost: 3 }),
        "1 + 2 tiles not withdrawn: {ev:?}"
    );
    assert_eq!(s.characters[0].pos, Pos::Dead);
}

#[test]
fn clause_10_each_alien_attacks_once_a_phase_and_never_the_apc() {
    let mut s = at_phase(
        "character hicks at K9\ncharacter hudson at K11\nalien 1 at K10\n",
        Phase::Attacks,
    );
    assert_eq!(attack_targets(&s).len(), 2);
    act(&mut s, ALIEN, C::Attack { ch: 0 }, &[6]);
    assert!(attack_targets(&s).is_empty() || s.aliens.is_empty());
    let e = refused(
        &s,
        ALIEN,
        C::Attack {
            ch: ch(&s, "hudson"),
        },
    );
    assert_eq!(e.clause.as_deref(), Some("10"));
    let s = at("character gorman at apc\napc G12 fuel 2\nalien 4 at G11\n");
    let mut s2 = s.clone();
    s2.phase = Phase::Attacks;
    assert!(attack_targets(&s2).is_empty());
    let _ = Queen::Alive;
}
