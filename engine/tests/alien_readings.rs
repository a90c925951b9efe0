//! Session 20 (review9's S3, S4, S5): readings where the text does not
//! decide, each written as a numbered assumption in RULES.md (28 and 29)
//! and pinned here, so a change of reading is a deliberate one; S3 (27)
//! became the rule of version 5 (session 21): one die an alien a phase.

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
use xenolog_engine::games::alien::data::{Item, Terrain};
use xenolog_engine::games::alien::rules;
use xenolog_engine::games::alien::state::{AlienEvent as E, Phase, Pos, Queen, Result as End};

fn shot(events: &[E]) -> (i32, u8) {
    match events.first() {
        Some(E::Shot { force, roll, .. }) => (*force, *roll),
        other => panic!("no shot: {other:?}"),
    }
}

#[test]
fn clause_6_charges_are_chosen_once_for_each_target_one_die_per_alien_a_phase() {
    // "In one phase they can shoot one or several ALIENS ... They also need
    // to choose how many charges they are going to use against each of
    // their targets ... the player ... throws the die once ... the result
    // is calculated separately for each ALIEN attacked" (rules version 5,
    // review9 S3; under 4, assumption 27 let a second shot at the same
    // alien roll a new die against its lowered strength). Hicks (5, rifle
    // +3) at an alien of 4 in the duct P6 (8): one charge is force 0; a 5
    // reads A1/0 and D1/0, the alien drops to 3 (6 in the duct), and Hicks,
    // not next to it, loses nothing.
    let mut s = at("character hicks at N6\nalien 4 at P6\nalien 1 at L6\n");
    let h = ch(&s, "hicks");
    let (alien, other) = (s.aliens[0].id, s.aliens[1].id);
    let first = act(&mut s, EXPEDITION, shoot(h, alien, 1), &[5]);
    assert_eq!(shot(&first), (0, 5));
    assert_eq!(s.aliens[0].strength, 3);
    assert_eq!(s.characters[h as usize].strength, 5);
    // The same alien again this phase: refused in words, with the clause,
    // and not offered; nothing changes.
    let before = s.clone();
    let e = refused(&s, EXPEDITION, shoot(h, alien, 1));
    assert_eq!(e.clause.as_deref(), Some("6"), "{e}");
    assert!(e.to_string().contains("chosen once"), "{e}");
    assert_eq!(s, before);
    assert!(!offers(
        &s,
        |c| matches!(c, C::Shoot { alien: a, .. } if *a == alien)
    ));
    // Another alien is another target: its own charges, its own die.
    assert!(offers(
        &s,
        |c| matches!(c, C::Shoot { alien: a, .. } if *a == other)
    ));
    let second = act(&mut s, EXPEDITION, shoot(h, other, 1), &[1]);
    assert!(matches!(second.first(), Some(E::Shot { alien: a, .. }) if *a == other));
    assert_eq!(s.characters[h as usize].charges(), 2, "two charges used");
    // The next phase the first alien may be shot again.
    act(&mut s, EXPEDITION, C::EndPhase, &[]);
    act(&mut s, xenolog_engine::Actor::SYSTEM, C::RollHatch, &[1]);
    act(&mut s, ALIEN, C::Hatch { parts: vec![1] }, &[]);
    act(&mut s, ALIEN, C::Place { hatch: 2 }, &[]);
    act(&mut s, ALIEN, C::EndMoves, &[]);
    steps(&mut s);
    assert_eq!((s.phase, s.turn), (Phase::Expedition, 2));
    assert!(s.characters[h as usize].shot_at.is_empty());
    assert!(s.alien(alien).is_some(), "the first alien still stands");
    assert!(offers(
        &s,
        |c| matches!(c, C::Shoot { alien: a, .. } if *a == alien)
    ));
}

#[test]
fn clause_6_a_state_from_before_version_5_without_the_phases_targets_reads_as_none_shot() {
    // Review14 S4: a seat's copy is built from the server's state as JSON;
    // a server of rules version 4 sends characters without `shot_at`. They
    // read as having shot no alien this phase, not as a broken state.
    let mut s = at("character hicks at N6\nalien 4 at P6\n");
    let h = ch(&s, "hicks");
    let alien = s.aliens[0].id;
    act(&mut s, EXPEDITION, shoot(h, alien, 1), &[5]);
    assert_eq!(s.characters[h as usize].shot_at, vec![alien]);
    let mut json = serde_json::to_value(&s).unwrap();
    for c in json["characters"].as_array_mut().unwrap() {
        assert!(c.as_object_mut().unwrap().remove("shot_at").is_some());
    }
    let old: xenolog_engine::games::alien::state::AlienState =
        serde_json::from_value(json).expect("a state of version 4 reads");
    assert!(old.characters.iter().all(|c| c.shot_at.is_empty()));
    let mut want = s.clone();
    want.characters[h as usize].shot_at.clear();
    assert_eq!(old, want, "only the field it lacks differs");
}

#[test]
fn clause_4_2_assumed_28_an_apc_without_fuel_is_closed_to_characters_until_fuel_is_delivered() {
    // "To enter the vehicle a character has to stand on a tile ... on which
    // the APC stands"; "Until the delivery of a new fuel container no
    // character can dwell inside it"; "Aliens can freely move through and
    // around the APC" (aliens only). Assumption 28: the tile of an APC
    // without fuel is closed to characters (standing on it is being
    // inside), open to aliens; on F12 it closes the landing field's way
    // out until a container is delivered from a neighbouring tile.
    let mut s = at("apc F12\ncharacter hicks at G12 items fuel\ncharacter hudson at E12\n");
    let (h, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    assert_eq!(name(&s, s.characters[hu as usize].tile().unwrap()), "E12");
    let e = refused(&s, EXPEDITION, move_to(hu, "F12"));
    assert_eq!(e.clause.as_deref(), Some("4.2"), "{e}");
    let e = refused(&s, EXPEDITION, move_to(h, "F12"));
    assert_eq!(e.clause.as_deref(), Some("4.2"), "{e}");
    // Aliens may stand on it and pass it
    // (`clause_4_2_aliens_can_freely_move_through_and_around_the_apc`).
    // Hicks delivers the container from next to it; then the tile opens.
    act(&mut s, EXPEDITION, C::Fuel { ch: h, pocket: 0 }, &[]);
    assert_eq!(s.apc.fuel, 3);
    act(&mut s, EXPEDITION, move_to(h, "F12"), &[]);
    assert_eq!(s.characters[h as usize].pos, Pos::Apc);
    assert!(!s.characters[h as usize].items.contains(&Item::Fuel));
}

#[test]
fn clause_11_assumed_29_a_character_who_never_left_the_landing_field_is_safe_and_wins_when_the_queen_dies()
 {
    // "characters may not enter the landing field"; aliens may not "enter
    // the landing site"; "until one of its members arrives to the landing
    // field, at which time the game ends in victory for the expedition".
    // The text does not say whether a character who never left has
    // "arrived". Assumption 29: it has; no alien can reach a tile next to
    // C13 (all its neighbours are landing field), and the command that
    // kills the Queen ends the battle when a character stands there.
    let s = at("points 3\ndone 6 7 8\n");
    let base = &s.content.base;
    for n in base.neighbours(t("C13")) {
        assert_eq!(base.terrain(n), Terrain::Landing, "{}", name(&s, n));
        assert!(
            !rules::alien_ground(&s, n),
            "an alien may not stand on {}",
            name(&s, n)
        );
    }
    let mut s = s;
    act(&mut s, EXPEDITION, C::AttackQueen, &[2]);
    assert_eq!(s.queen, Queen::Dead { hatching: false });
    assert_eq!(
        s.over,
        Some(End::Expedition),
        "nobody left, yet the expedition wins"
    );
    // A passenger of an APC with fuel that never drives keeps its fuel
    // (assumption 11: a phase of fuel is used by driving) and is no target
    // (assumption 16).
    let mut s = at("character gorman at apc\napc G12 fuel 3\nalien 4 at G11\n");
    s.phase = Phase::Attacks;
    assert!(!rules::attack_targets(&s).contains(&ch(&s, "gorman")));
    let mut s = at("character gorman at apc\napc G12 fuel 3\n");
    act(&mut s, EXPEDITION, C::EndPhase, &[]);
    steps(&mut s);
    assert_eq!(s.apc.fuel, 3, "no phase of fuel used without driving");
}

#[test]
fn clause_8_option_1_every_expedition_player_may_declare_the_attack_and_drive() {
    // "The players in control of the expedition may declare an attack on
    // the Alien Queen" (8); the APC names no driver (4.2, assumption 11):
    // with three players, seat 2 is offered both while seat 1 is still in
    // the phase (review9 NIT 2: only the first seat was).
    use xenolog_engine::games::alien::{Alien, AlienConfig};
    use xenolog_engine::{Actor, Game};
    let s = with(AlienConfig {
        players: 3,
        scenario_text: Some("points 3\ndone 6 7 8\napc G12 fuel 1\n".into()),
        ..AlienConfig::default()
    });
    let legal = Alien::legal(&s);
    for seat in [Actor(1), Actor(2)] {
        assert!(legal.contains(&(seat, C::AttackQueen)), "{seat:?}");
        assert!(
            legal
                .iter()
                .any(|(a, c)| *a == seat && matches!(c, C::Drive { .. })),
            "{seat:?} drives"
        );
    }
    let mut s2 = s.clone();
    act(&mut s2, Actor(2), C::AttackQueen, &[2]);
    assert_eq!(s2.queen, Queen::Dead { hatching: false });
}
