//! The expedition: players and phases (1, 2), characters (3), action points
//! (4), moving (4.1), the APC (4.2), outside (4.3) and items (5).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::data::{Item, Kind};
use xenolog_engine::games::alien::rules;
use xenolog_engine::games::alien::state::{AlienEvent as E, AlienState, Phase, Pos};
use xenolog_engine::games::alien::{Alien, AlienCommand as C, AlienConfig};
use xenolog_engine::{Actor, Game};

#[test]
fn clause_1_two_to_seven_players_share_the_six_characters() {
    let s = with(AlienConfig {
        players: 4,
        ..AlienConfig::default()
    });
    let seats: Vec<u8> = s.characters.iter().map(|c| c.seat).collect();
    assert_eq!(seats, vec![1, 2, 3, 1, 2, 3]);
    assert_eq!(Alien::seats(&s).len(), 4);
    assert_eq!(Alien::seat_name(&s, Actor(0)), "Alien Queen");
    for bad in [1, 8] {
        assert!(
            xenolog_engine::games::alien::start(&AlienConfig {
                players: bad,
                ..AlienConfig::default()
            })
            .is_err()
        );
    }
    // Another seat's character is not yours.
    let e = refused(&s, Actor(2), move_to(0, "F12"));
    assert_eq!(e.kind, xenolog_engine::RuleErrorKind::NotYourTurn);
}

#[test]
fn clause_2_the_two_phases_in_their_order() {
    let mut s = at("");
    assert_eq!(s.phase, Phase::Expedition);
    act(&mut s, EXPEDITION, C::EndPhase, &[]);
    assert_eq!(s.phase, Phase::Hatching);
    assert_eq!(Alien::automatic(&s), Some(C::RollHatch));
    act(&mut s, Actor::SYSTEM, C::RollHatch, &[3]);
    assert_eq!(s.hatch_roll, Some(3));
    act(&mut s, ALIEN, C::Hatch { parts: vec![3] }, &[]);
    act(&mut s, ALIEN, C::Place { hatch: 2 }, &[]);
    assert_eq!(s.phase, Phase::Moving);
    act(&mut s, ALIEN, C::EndMoves, &[]);
    assert_eq!(s.phase, Phase::Metamorphosis);
    steps(&mut s);
    assert_eq!((s.phase, s.turn), (Phase::Expedition, 2));
}

#[test]
fn clause_3_strength_lost_healed_never_above_the_start_and_death_loses_the_items() {
    let mut s =
        at("character bishop at K9 items medkit medkit\ncharacter hicks at K10 strength 3\n");
    let (b, h) = (ch(&s, "bishop"), ch(&s, "hicks"));
    act(&mut s, EXPEDITION, heal(b, 0, h), &[]);
    act(&mut s, EXPEDITION, heal(b, 0, h), &[]);
    assert_eq!(s.characters[h as usize].strength, 5);
    let mut full = at("character bishop at K9 items medkit\ncharacter hicks at K10\n");
    let e = refused(&full, EXPEDITION, heal(b, 0, h));
    assert_eq!(e.clause.as_deref(), Some("3"));
    // Not next to Bishop: no treatment.
    act(&mut full, EXPEDITION, move_to(h, "K11"), &[]);
    full.characters[h as usize].strength = 2;
    refused(&full, EXPEDITION, heal(b, 0, h));
    // Death at zero: the token leaves the board with its items.
    let mut s =
        at("character hudson at G9 strength 1 items rifle ammo\nalien 4 at G8\nalien 4 at G10\n");
    s.phase = Phase::Attacks;
    let hu = ch(&s, "hudson");
    act(&mut s, ALIEN, C::Attack { ch: hu }, &[6]);
    assert_eq!(s.characters[hu as usize].pos, Pos::Dead);
    assert!(s.characters[hu as usize].items.is_empty());
}

#[test]
fn clause_3_three_pockets_and_the_cards_restrictions_and_starting_items() {
    let s = at("");
    let g = ch(&s, "gorman");
    let gorman = &s.characters[g as usize];
    assert_eq!(
        gorman.items.len(),
        2,
        "a pistol, a full cartridge, an empty third pocket"
    );
    assert_eq!(s.content.items.name(gorman.items[0]), "a pistol");
    assert_eq!(gorman.items[1], Item::Ammo(4));
    assert_eq!(s.characters[ch(&s, "hicks") as usize].strength, 5);
    assert_eq!(s.characters[ch(&s, "hudson") as usize].strength, 5);
    let mut s = at("character vasquez at I13 items smartgun ammo grenade\n");
    let v = ch(&s, "vasquez");
    let e = refused(&s, EXPEDITION, take(v, Item::Explosive));
    assert!(e.message.contains("three pockets"), "{e}");
    act(&mut s, EXPEDITION, drop_item(v, 2, true), &[]);
    act(&mut s, EXPEDITION, take(v, Item::Explosive), &[]);
    // Bishop may not shoot; only Bishop heals.
    let s = at(
        "character bishop at N6 items pistol ammo\nalien 1 at P6\ncharacter hicks at K9 items medkit\ncharacter hudson at K10 strength 3\n",
    );
    refused(&s, EXPEDITION, shoot(ch(&s, "bishop"), 1, 1));
    let e = refused(&s, EXPEDITION, heal(ch(&s, "hicks"), 0, ch(&s, "hudson")));
    assert!(e.message.contains("Bishop"), "{e}");
}

#[test]
fn clause_4_six_action_points_not_carried_over_and_nothing_but_shots_after_shooting() {
    let mut s = at("character hicks at N6\nalien 1 at R6\n");
    let h = ch(&s, "hicks");
    act(&mut s, EXPEDITION, shoot(h, 1, 1), &[1]);
    let e = refused(&s, EXPEDITION, move_to(h, "M6"));
    assert!(e.message.contains("has shot"), "{e}");
    refused(&s, EXPEDITION, drop_item(h, 0, true));
    let mut s = at("character hicks at G9 ap 2\n");
    act(&mut s, EXPEDITION, move_to(h, "G10"), &[]);
    act(&mut s, EXPEDITION, move_to(h, "G11"), &[]);
    let e = refused(&s, EXPEDITION, move_to(h, "G12"));
    assert!(e.message.contains("action points"), "{e}");
    act(&mut s, EXPEDITION, C::EndPhase, &[]);
    steps(&mut s);
    let parts = vec![1; s.hatch_roll.unwrap() as usize];
    act(&mut s, ALIEN, C::Hatch { parts }, &[]);
    while !s.to_place.is_empty() {
        act(&mut s, ALIEN, C::Place { hatch: 1 }, &[]);
    }
    act(&mut s, ALIEN, C::EndMoves, &[]);
    steps(&mut s);
    assert_eq!(
        s.characters[h as usize].ap, 6,
        "six again, none carried over"
    );
}

#[test]
fn clause_4_1_no_standing_on_or_passing_through_another_character() {
    let s = at("character hicks at G9\ncharacter hudson at G10\n");
    let e = refused(&s, EXPEDITION, move_to(ch(&s, "hicks"), "G10"));
    assert_eq!(e.clause.as_deref(), Some("4.1"));
    refused(&s, EXPEDITION, move_to(ch(&s, "hicks"), "G11"));
}

#[test]
fn clause_4_1_a_character_stops_next_to_an_alien() {
    let mut s = at("character hicks at G9\nalien 2 at G12\n");
    let h = ch(&s, "hicks");
    act(&mut s, EXPEDITION, move_to(h, "G10"), &[]);
    let ev = act(&mut s, EXPEDITION, move_to(h, "G11"), &[]);
    assert_eq!(
        ev[0],
        E::Moved {
            ch: h,
            to: t("G11"),
            stopped: true
        }
    );
    let e = refused(&s, EXPEDITION, move_to(h, "G10"));
    assert!(e.message.contains("stop"), "{e}");
}

#[test]
fn clause_4_1_the_landing_field_is_closed_until_the_queen_is_dead() {
    let mut s = at("character hicks at F12\n");
    let h = ch(&s, "hicks");
    // E12 is the start of another character: free it.
    let v = ch(&s, "hicks");
    let _ = v;
    s.characters
        .iter_mut()
        .filter(|c| c.pos == Pos::Tile(tile(&at(""), "E12")))
        .for_each(|c| c.pos = Pos::Dead);
    let e = refused(&s, EXPEDITION, move_to(h, "E12"));
    assert!(e.message.contains("landing field"), "{e}");
    s.queen = xenolog_engine::games::alien::state::Queen::Dead { hatching: false };
    let ev = act(&mut s, EXPEDITION, move_to(h, "E12"), &[]);
    assert!(matches!(ev.last(), Some(E::Ended { .. })), "{ev:?}");
}

#[test]
fn clause_4_2_the_apc_three_phases_of_ten_tiles_through_corridors_and_rooms() {
    let mut s = at("character gorman at G13 items fuel\napc G12\ncharacter hicks at H12\n");
    let g = ch(&s, "gorman");
    let e = refused(&s, EXPEDITION, move_to(g, "G12"));
    assert!(e.message.contains("fuel"), "{e}");
    act(&mut s, EXPEDITION, C::Fuel { ch: g, pocket: 0 }, &[]);
    assert_eq!(s.apc.fuel, 3);
    act(&mut s, EXPEDITION, move_to(g, "G12"), &[]);
    assert_eq!(s.characters[g as usize].pos, Pos::Apc);
    // The APC moves before the characters act.
    let e = refused(&s, EXPEDITION, drive("G11"));
    assert!(e.message.contains("before"), "{e}");
    s.acted = false;
    let route = ["G11", "G10", "G9", "G8", "G7", "G6", "H6", "I6", "J6", "K6"];
    for (i, name) in route.iter().enumerate() {
        let ev = act(&mut s, EXPEDITION, C::Drive { to: t(name) }, &[]);
        assert_eq!(
            ev[0],
            E::ApcDrove {
                to: t(name),
                fuel_used: i == 0
            }
        );
    }
    assert_eq!(s.apc.fuel, 2);
    let e = refused(&s, EXPEDITION, drive("L6"));
    assert!(e.message.contains("ten tiles"), "{e}");
    // No ducts, airlocks or storages.
    let mut u = at("character gorman at apc\napc O6 fuel 2\n");
    refused(&u, EXPEDITION, drive("P6"));
    u.apc.at = t("W2");
    refused(&u, EXPEDITION, drive("X2"));
    u.apc.at = t("I3");
    let e = refused(&u, EXPEDITION, drive("I2"));
    assert!(e.message.contains("storages"), "{e}");
}

#[test]
fn clause_4_2_the_apc_drives_through_aliens_and_passengers_leave_for_a_point_not_to_reboard() {
    let mut s = at("character gorman at apc\napc G12 fuel 1\nalien 4 at G11\nalien 4 at G10\n");
    let g = ch(&s, "gorman");
    act(&mut s, EXPEDITION, drive("G11"), &[]);
    act(&mut s, EXPEDITION, drive("G10"), &[]);
    act(&mut s, EXPEDITION, drive("G9"), &[]);
    assert_eq!(s.apc.fuel, 0, "the last phase of fuel");
    act(&mut s, EXPEDITION, C::Leave { ch: g, to: t("G8") }, &[]);
    assert_eq!(s.characters[g as usize].ap, 5);
    let e = refused(&s, EXPEDITION, move_to(g, "G9"));
    assert!(
        e.message.contains("no one may be inside") || e.message.contains("next"),
        "{e}"
    );
    let mut s = at("character gorman at apc\napc G12 fuel 2\n");
    act(
        &mut s,
        EXPEDITION,
        C::Leave {
            ch: g,
            to: t("G13"),
        },
        &[],
    );
    let e = refused(&s, EXPEDITION, move_to(g, "G12"));
    assert!(e.message.contains("next"), "{e}");
    // The aliens never attack the APC: no one aboard is a target.
    let s = at_phase(
        "character gorman at apc\napc G12 fuel 2\nalien 4 at G11\n",
        Phase::Attacks,
    );
    assert!(xenolog_engine::games::alien::rules::attack_targets(&s).is_empty());
}

#[test]
fn clause_4_2_everyone_out_when_the_fuel_is_gone() {
    let mut s = at("character gorman at apc\ncharacter hicks at apc\napc G9 fuel 1\n");
    act(&mut s, EXPEDITION, drive("G8"), &[]);
    assert_eq!(s.apc.fuel, 0);
    let ev = act(&mut s, EXPEDITION, C::EndPhase, &[]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, E::Disembarked { .. }))
            .count(),
        2
    );
    assert!(s.characters.iter().all(|c| c.pos != Pos::Apc));
}

#[test]
fn clause_4_3_outside_with_a_suit_one_space_a_phase_back_by_any_airlock() {
    let mut s = at("character hicks at G1 items suit\ncharacter hudson at O1\n");
    let (h, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    let e = refused(&s, EXPEDITION, C::GoOut { ch: hu });
    assert!(e.message.contains("vacuum suit"), "{e}");
    act(&mut s, EXPEDITION, C::GoOut { ch: h }, &[]);
    assert_eq!(s.characters[h as usize].pos, Pos::Outside(0));
    for space in 1..4u8 {
        refused(&s, EXPEDITION, C::ComeIn { ch: h, airlock: 3 });
        act(&mut s, EXPEDITION, C::EndPhase, &[]);
        steps(&mut s);
        let parts = s.hatch_roll.map(|r| vec![1; r as usize]).unwrap();
        act(&mut s, ALIEN, C::Hatch { parts }, &[]);
        while !s.to_place.is_empty() {
            act(&mut s, ALIEN, C::Place { hatch: 1 }, &[]);
        }
        act(&mut s, ALIEN, C::EndMoves, &[]);
        steps(&mut s);
        assert_eq!(s.characters[h as usize].pos, Pos::Outside(space));
    }
    act(&mut s, EXPEDITION, C::ComeIn { ch: h, airlock: 5 }, &[]);
    assert_eq!(name(&s, s.characters[h as usize].tile().unwrap()), "X13");
}

#[test]
fn clause_5_items_from_their_storages_within_their_limits() {
    let mut s = at("character hicks at D4 items\ncharacter hudson at C4 items\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, take(h, Item::Fuel));
    assert!(e.message.contains("no fuel"), "{e}");
    for _ in 0..3 {
        act(&mut s, EXPEDITION, take(h, Item::Suit), &[]);
    }
    s.characters[h as usize].items.clear(); // three suits set aside as lost
    act(&mut s, EXPEDITION, take(h, Item::Suit), &[]);
    let e = refused(&s, EXPEDITION, take(h, Item::Suit));
    assert!(e.message.contains("only 4"), "{e}");
    // Exchanging with a neighbour; leaving an item on the tile.
    let hu = ch(&s, "hudson");
    act(&mut s, EXPEDITION, give(h, 0, hu), &[]);
    assert_eq!(s.characters[hu as usize].items, vec![Item::Suit]);
    act(&mut s, EXPEDITION, drop_item(hu, 0, true), &[]);
    assert_eq!(s.floor, vec![(t("C4"), Item::Suit)]);
    act(&mut s, EXPEDITION, take(hu, Item::Suit), &[]);
    assert!(s.floor.is_empty());
}

#[test]
fn clause_5_floppy_disks_at_most_four_on_the_board_spare_parts_unlimited() {
    let four = "floor disk L2\n".repeat(4);
    let mut s = at(&format!(
        "character hicks at M2 items\ncharacter hudson at L2 items\n{four}"
    ));
    let (h, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    let e = refused(&s, EXPEDITION, take(h, Item::Disk));
    assert!(e.message.contains("only 4"), "four disks on the board: {e}");
    act(&mut s, EXPEDITION, take(hu, Item::Disk), &[]);
    act(&mut s, EXPEDITION, drop_item(hu, 0, false), &[]);
    act(&mut s, EXPEDITION, take(h, Item::Disk), &[]);
    for _ in 0..2 {
        act(&mut s, EXPEDITION, take(h, Item::Spare), &[]);
    }
    assert_eq!(s.content.items.limit(Kind::Spare), 0, "unlimited");
}

#[test]
fn clause_5_an_explosive_charge_collapses_a_neighbouring_corridor_for_good() {
    let mut s = at("character hicks at G9 items explosive explosive\nalien 1 at O8\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, blow(h, 0, t("H9")));
    assert!(
        e.message.contains("corridor"),
        "a room is not blown up: {e}"
    );
    act(&mut s, EXPEDITION, blow(h, 0, t("G10")), &[]);
    assert!(s.collapsed.contains(&t("G10")));
    refused(&s, EXPEDITION, move_to(h, "G10"));
    assert!(!xenolog_engine::games::alien::rules::alien_ground(
        &s,
        t("G10")
    ));
    assert_eq!(
        s.characters[h as usize].items,
        vec![Item::Explosive],
        "the used charge is set aside"
    );
}

/// Assumed (5, RULES.md assumption 18): the soak's eight endless battles
/// (seeds 10088, 10173, 10322, 10635, 10651, 10767, 10852, 10927) each had
/// its last characters sealed off by collapsed corridors: on the landing
/// field behind G12, or on H12 between G12 and I12, where no alien could
/// ever come next to them and they could never reach the landing field.
#[test]
fn clause_5_option_keep_base_whole_an_explosive_charge_may_not_cut_the_base_in_two() {
    let mut s = with(AlienConfig {
        scenario_text: Some(
            "character hicks at H12 items explosive explosive explosive\nalien 1 at O2\n".into(),
        ),
        keep_base_whole: true,
        ..AlienConfig::default()
    });
    let h = ch(&s, "hicks");
    let (g12, i12) = (t("G12"), t("I12"));
    let e = refused(&s, EXPEDITION, blow(h, 0, g12));
    assert_eq!(e.clause.as_deref(), Some("5"), "{e}");
    assert!(e.message.contains("cut the base in two"), "{e}");
    assert!(
        rules::cuts_the_base(&s, g12),
        "G12 is the landing field's way in"
    );
    assert!(
        !rules::cuts_the_base(&s, i12),
        "row 12 and the G column both lead on"
    );
    act(&mut s, EXPEDITION, blow(h, 0, i12), &[]);
    assert!(s.collapsed.contains(&i12));
    // Now G12 would seal Hicks in on H12 as well as the landing field.
    let e = refused(&s, EXPEDITION, blow(h, 0, g12));
    assert!(e.message.contains("G12"), "{e}");
    assert!(
        !offers(&s, |c| matches!(c, C::Blow { at, .. } if *at == g12)),
        "legal offers no blow that cuts the base"
    );
}

#[test]
fn clause_5_a_cartridge_has_four_charges_and_fills_one_pocket_whatever_is_left() {
    let mut s = at("character hicks at N6 items rifle ammo2\nalien 4 at R6\nalien 4 at O1\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, shoot(h, 1, 3));
    assert!(e.message.contains("2 charges"), "{e}");
    act(&mut s, EXPEDITION, shoot(h, 1, 2), &[1]);
    assert_eq!(s.characters[h as usize].charges(), 0);
    let e = refused(&s, EXPEDITION, shoot(h, 2, 1));
    assert!(e.message.contains("0 charges"), "{e}");
}

#[test]
fn clause_5_weapons_range_and_no_line_through_walls_characters_or_other_aliens() {
    let s = at(
        "character gorman at G9\ncharacter hicks at G12\nalien 1 at G5\nalien 1 at G11\nalien 1 at I9\n",
    );
    let g = ch(&s, "gorman");
    // Range: the pistol reaches three tiles.
    let e = refused(&s, EXPEDITION, shoot(g, 1, 1));
    assert!(e.message.contains("range"), "{e}");
    // Through a wall: H9 is a door, but I9 behind... G9 to I9 passes H9 (a corridor): clear.
    let mut ok = s.clone();
    act(&mut ok, EXPEDITION, shoot(g, 3, 1), &[1]);
    let s2 = at("character gorman at G9\ncharacter hicks at G10\nalien 1 at G11\nalien 1 at K8\n");
    let e = refused(&s2, EXPEDITION, shoot(g, 1, 1));
    assert!(
        e.message.contains("line of fire"),
        "through a character: {e}"
    );
    let s3 = at("character gorman at G9\nalien 1 at G10\nalien 1 at G11\n");
    let e = refused(&s3, EXPEDITION, shoot(g, 2, 1));
    assert!(
        e.message.contains("line of fire"),
        "through another alien: {e}"
    );
    let s4 = at("character gorman at G9\nalien 1 at E8\n");
    let e = refused(&s4, EXPEDITION, shoot(g, 1, 1));
    assert!(e.message.contains("line of fire"), "through a wall: {e}");
}

#[test]
fn clause_5_a_grenade_strikes_three_tiles_and_kills_characters_there_too() {
    // A corridor: the tile and the two next to it, in a line.
    let mut s = at(
        "character hicks at G9 items grenade\ncharacter hudson at G13\nalien 4 at G11\nalien 2 at G12\nalien 3 at G10\n",
    );
    let h = ch(&s, "hicks");
    let area = vec![t("G10"), t("G11"), t("G12")];
    let bad = vec![t("G11"), t("G12"), t("G13"), t("G10")];
    refused(&s, EXPEDITION, throw(h, 0, t("G11"), bad));
    act(&mut s, EXPEDITION, throw(h, 0, t("G11"), area), &[]);
    assert!(s.aliens.is_empty());
    assert!(s.characters[ch(&s, "hudson") as usize].alive());
    // A room: three touching tiles, one within two of where it landed; a
    // character there dies too.
    let mut s = at("character hicks at I9 items grenade\ncharacter hudson at K9\nalien 4 at K8\n");
    let area = vec![t("K8"), t("K9"), t("K10")];
    let ev = act(&mut s, EXPEDITION, throw(h, 0, t("J9"), area), &[]);
    assert!(ev.contains(&E::CharacterKilled { ch: 1 }));
    let e = refused(&s, EXPEDITION, throw(h, 0, t("L9"), vec![]));
    assert!(
        e.message.contains("pocket") || e.message.contains("grenade"),
        "{e}"
    );
}

#[test]
fn clause_4_1_coming_in_by_an_airlock_next_to_an_alien_stops_the_character() {
    // 4.1: "If the movement of a expedition member takes him to a tile
    // adjacent to another one occupied by an alien then the character must
    // stop there"; coming in (4.3) moves the character onto the airlock.
    let position =
        "character hicks at outside 3 items suit\ncharacter hudson at W12\nalien 1 at W13\n";
    let mut s = at(position);
    let (h, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    let ev = act(&mut s, EXPEDITION, C::ComeIn { ch: h, airlock: 5 }, &[]);
    assert_eq!(name(&s, s.characters[h as usize].tile().unwrap()), "X13");
    assert!(s.characters[h as usize].stopped);
    assert!(words(&at(position), &ev)[0].contains("stops"), "{ev:?}");
    // Hudson kills the alien (5 + 3 - 1 = +7, a 6): the way is free, but
    // Hicks came in next to it and stays.
    let alien = s.aliens[0].id;
    act(
        &mut s,
        EXPEDITION,
        C::Shoot {
            ch: hu,
            weapon: 0,
            alien,
            charges: 1,
        },
        &[6],
    );
    assert!(s.aliens.is_empty());
    let e = refused(&s, EXPEDITION, move_to(h, "W13"));
    assert_eq!(e.clause.as_deref(), Some("4.1"));
    assert!(e.message.contains("stop"), "{e}");
    assert!(
        !offers(&s, |c| matches!(c, C::Move { ch, .. } if *ch == h)),
        "no move is offered"
    );
    // Nor may he go straight out again: going out is a move off the tile.
    let e = refused(&s, EXPEDITION, C::GoOut { ch: h });
    assert_eq!(e.clause.as_deref(), Some("4.1"));
    assert!(e.message.contains("stop"), "{e}");
    // By an airlock with no alien next to it, the character moves on.
    let mut s = at(position);
    act(&mut s, EXPEDITION, C::ComeIn { ch: h, airlock: 3 }, &[]);
    assert!(!s.characters[h as usize].stopped);
    act(&mut s, EXPEDITION, move_to(h, "W2"), &[]);
}

#[test]
fn clause_5_an_explosive_charge_blows_a_freely_chosen_corridor_by_default_even_one_that_seals_a_part()
 {
    // 5: "a character can blow up a freely chosen corridor": the text's
    // reading is the default; the no-cut rule of rules version 2 is the
    // option `keep_base_whole`.
    let mut s = at("character hicks at H12 items explosive explosive\nalien 1 at O2\n");
    assert!(!s.keep_base_whole);
    let h = ch(&s, "hicks");
    assert!(rules::cuts_the_base(&s, t("G12")));
    act(&mut s, EXPEDITION, blow(h, 0, t("G12")), &[]);
    assert!(
        s.collapsed.contains(&t("G12")),
        "the landing field sealed off"
    );
    // Battles recorded under rules version 2 keep the rule they were played by.
    let v2 = Alien::setup_recorded(&AlienConfig::default(), 2).unwrap();
    assert!(v2.keep_base_whole);
    assert!(
        !Alien::setup_recorded(&AlienConfig::default(), 1)
            .unwrap()
            .keep_base_whole
    );
    assert!(
        !Alien::setup_recorded(&AlienConfig::default(), 3)
            .unwrap()
            .keep_base_whole
    );
}

#[test]
fn clause_3_option_bishop_shoots_lets_the_unarmed_card_shoot_and_throw() {
    let position = "character bishop at N6 items pistol ammo grenade\nalien 1 at P6\n";
    let shoot = |s: &AlienState| shoot(ch(s, "bishop"), s.aliens[0].id, 1);
    let s = at(position);
    let e = refused(&s, EXPEDITION, shoot(&s));
    assert!(e.message.contains("may not shoot"), "{e}");
    let mut s = with(AlienConfig {
        scenario_text: Some(position.into()),
        bishop_shoots: true,
        ..AlienConfig::default()
    });
    let cmd = shoot(&s);
    let ev = act(&mut s, EXPEDITION, cmd, &[3]);
    assert!(matches!(ev[0], E::Shot { roll: 3, .. }), "{ev:?}");
}
