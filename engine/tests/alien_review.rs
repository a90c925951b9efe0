//! The independent clause-by-clause review of 2026-11-27 (issue 27): tests
//! for clauses the text states that were built but not yet pinned by a
//! test. Each is named after its clause (RULES.md numbers them).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
use xenolog_engine::games::alien::data::Item;
use xenolog_engine::games::alien::state::{AlienEvent as E, Pos};
use xenolog_engine::{Actor, Game};

#[test]
fn clause_5_medical_kits_can_only_be_used_by_bishop() {
    // "Medical packages can only be used by BISHOP."
    let s = at("character hicks at K9 items medkit\ncharacter hudson at K10 strength 3\n");
    let (h, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    let e = refused(&s, EXPEDITION, heal(h, 0, hu));
    assert_eq!(e.clause.as_deref(), Some("5"));
    assert!(e.message.contains("Bishop"), "{e}");
    // Bishop with the same kit treats him, for one point, one wound.
    let mut s = at("character bishop at K9 items medkit\ncharacter hudson at K10 strength 3\n");
    let b = ch(&s, "bishop");
    act(&mut s, EXPEDITION, heal(b, 0, hu), &[]);
    assert_eq!(s.characters[hu as usize].strength, 4, "one wound healed");
    assert_eq!(s.characters[b as usize].ap, 5);
    assert!(
        s.characters[b as usize].items.is_empty(),
        "the kit is set aside"
    );
}

#[test]
fn clause_5_objects_are_exchanged_only_with_a_character_on_a_neighbouring_tile() {
    // "Members of the expedition can exchange objects with other characters
    // who are in neighbouring tiles"; a pocket holds one item (3).
    let far = at("character hicks at K9 items grenade\ncharacter hudson at K11 items\n");
    let (h, hu) = (ch(&far, "hicks"), ch(&far, "hudson"));
    let e = refused(&far, EXPEDITION, give(h, 0, hu));
    assert!(e.message.contains("neighbour"), "{e}");
    let full = at(
        "character hicks at K9 items grenade\ncharacter hudson at K10 items rifle ammo medkit\n",
    );
    let e = refused(&full, EXPEDITION, give(h, 0, hu));
    assert_eq!(e.clause.as_deref(), Some("3"), "three pockets: {e}");
    let mut s = at("character hicks at K9 items grenade\ncharacter hudson at K10 items\n");
    act(&mut s, EXPEDITION, give(h, 0, hu), &[]);
    assert_eq!(s.characters[hu as usize].items, vec![Item::Grenade]);
    assert!(s.characters[h as usize].items.is_empty());
}

#[test]
fn clause_5_each_storage_gives_its_own_items_weapons_and_grenades_from_armouries_ammunition_from_magazines_too()
 {
    // "WEAPON - can be taken from any armoury"; "GRENADE - It can be taken
    // from any armoury"; ammunition "in magazines or armouries"; the
    // explosive device "in the magazine".
    let mut magazine = at("character hicks at I13 items\n");
    let h = ch(&magazine, "hicks");
    for item in [Item::Weapon(0), Item::Grenade, Item::Suit] {
        let e = refused(&magazine, EXPEDITION, C::Take { ch: h, item });
        assert_eq!(e.clause.as_deref(), Some("5"), "{item:?}: {e}");
    }
    act(&mut magazine, EXPEDITION, take(h, Item::Ammo(4)), &[]);
    act(&mut magazine, EXPEDITION, take(h, Item::Explosive), &[]);
    let mut armoury = at("character hicks at I2 items\n");
    for item in [Item::Weapon(0), Item::Grenade, Item::Ammo(4)] {
        act(&mut armoury, EXPEDITION, C::Take { ch: h, item }, &[]);
    }
    assert_eq!(armoury.characters[h as usize].ap, 3, "a point an item");
    let armoury = at("character hicks at I2 items\n");
    refused(&armoury, EXPEDITION, take(h, Item::Explosive));
}

#[test]
fn clause_5_a_grenade_is_thrown_up_to_two_tiles_not_through_walls_and_counts_as_a_shot() {
    let s = at("character hicks at F6 items grenade\n");
    let h = ch(&s, "hicks");
    let area = vec![t("G6"), t("H6"), t("I6")];
    let e = refused(
        &s,
        EXPEDITION,
        throw(h, 0, t("I6"), vec![t("H6"), t("I6"), t("J6")]),
    );
    assert!(e.message.contains("two tiles"), "three away: {e}");
    // G8 to I8 passes the wall H8.
    let walled = at("character hicks at G8 items grenade\n");
    let e = refused(
        &walled,
        EXPEDITION,
        throw(h, 0, t("I8"), vec![t("I8"), t("J8"), t("K8")]),
    );
    assert!(e.message.contains("walls"), "{e}");
    let mut s = s;
    act(&mut s, EXPEDITION, throw(h, 0, t("H6"), area), &[]);
    let c = &s.characters[h as usize];
    assert!(c.items.is_empty(), "the grenade is set aside");
    assert_eq!(c.ap, 5);
    // After the throw (a shot): no moving (4).
    let e = refused(&s, EXPEDITION, move_to(h, "E6"));
    assert_eq!(e.clause.as_deref(), Some("4"), "{e}");
}

#[test]
fn clause_4_never_more_than_six_action_points_a_shot_of_two_charges_needs_two() {
    // "Shooting a single shot" costs a point; "the figure can never use more
    // than 6 action points in one movement phase".
    let s = at("character hicks at K9 ap 1 items rifle ammo\nalien 1 at M9\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, shoot(h, 1, 2));
    assert_eq!(e.clause.as_deref(), Some("4"), "{e}");
    let mut s = s;
    act(&mut s, EXPEDITION, shoot(h, 1, 1), &[3]);
    assert_eq!(s.characters[h as usize].ap, 0);
    assert_eq!(s.characters[h as usize].items[1], Item::Ammo(3));
}

#[test]
fn clause_4_3_outside_only_from_an_airlock_and_back_in_by_a_free_airlock() {
    let s = at("character hicks at G2 items suit\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, C::GoOut { ch: h });
    assert!(e.message.contains("airlock"), "{e}");
    // Gorman past the end of the track; Hicks stands in airlock 1.
    let mut s = at("character hicks at G1\ncharacter gorman at outside 3 items suit\n");
    let g = ch(&s, "gorman");
    let e = refused(&s, EXPEDITION, C::ComeIn { ch: g, airlock: 1 });
    assert_eq!(e.clause.as_deref(), Some("4.3"), "{e}");
    refused(&s, EXPEDITION, C::ComeIn { ch: g, airlock: 6 });
    act(&mut s, EXPEDITION, C::ComeIn { ch: g, airlock: 2 }, &[]);
    assert_eq!(s.characters[g as usize].pos, Pos::Tile(t("O1")));
    assert_eq!(s.characters[g as usize].ap, 5);
}

#[test]
fn clause_4_2_the_apc_cannot_move_when_there_is_no_fuel_in_it() {
    // "At the beginning of the game the APC is located on the landing field
    // ... It has no fuel"; "The APC can not ... Move when there is no fuel".
    let s = at("");
    let e = refused(&s, EXPEDITION, drive("B14"));
    assert!(e.message.contains("no fuel"), "{e}");
}

#[test]
fn clause_9_1_new_aliens_only_on_the_five_hatching_places() {
    let mut s = at("phase hatching\nhatching roll 2 placing 2\n");
    for bad in [0, 6] {
        let e = refused(&s, ALIEN, C::Place { hatch: bad });
        assert_eq!(e.clause.as_deref(), Some("9.1"), "{bad}: {e}");
    }
    let ev = act(&mut s, ALIEN, C::Place { hatch: 5 }, &[]);
    assert!(matches!(ev[0], E::Hatched { strength: 2, .. }), "{ev:?}");
    assert_eq!(s.aliens[0].at, t("U12"));
}

#[test]
fn clause_10_each_alien_next_to_a_character_must_attack_before_the_turn_ends() {
    // "Each ALIEN must attack while standing in a tile adjacent to the tile
    // occupied by a character."
    let mut s = at("phase attacks\ncharacter hicks at K9\nalien 1 at J9\n");
    assert_eq!(xenolog_engine::games::alien::Alien::automatic(&s), None);
    let e = refused(&s, Actor::SYSTEM, C::EndTurn);
    assert_eq!(e.clause.as_deref(), Some("10"), "{e}");
    let asked = xenolog_engine::games::alien::Alien::legal(&s);
    assert!(
        asked
            .iter()
            .all(|(a, c)| *a == ALIEN && matches!(c, C::Attack { .. })),
        "only attacks are asked: {asked:?}"
    );
    let h = ch(&s, "hicks");
    act(&mut s, ALIEN, C::Attack { ch: h }, &[3]);
    assert_eq!(
        xenolog_engine::games::alien::Alien::automatic(&s),
        Some(C::EndTurn)
    );
}

#[test]
fn clause_3_a_killed_character_takes_no_more_actions() {
    let s = at("character hicks at dead\n");
    let h = ch(&s, "hicks");
    let e = refused(&s, EXPEDITION, move_to(h, "F12"));
    assert_eq!(e.clause.as_deref(), Some("3"), "{e}");
}

#[test]
fn clause_4_2_aliens_can_freely_move_through_and_around_the_apc() {
    // "Aliens can freely move through and around the APC."
    let mut s = at("character gorman at apc\napc G12 fuel 1\nalien 2 at G10\n");
    s.phase = xenolog_engine::games::alien::state::Phase::Moving;
    let r = xenolog_engine::games::alien::rules::alien_moves(&s, 1);
    assert!(r.contains(&t("G12")), "onto the APC's tile: {r:?}");
    assert!(r.contains(&t("G13")), "through it: {r:?}");
    act(
        &mut s,
        ALIEN,
        C::MoveAlien {
            alien: 1,
            to: t("G12"),
        },
        &[],
    );
    assert_eq!(s.aliens[0].at, s.apc.at);
}
