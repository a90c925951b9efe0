//! Session 20 (review9's S6): the limits and counts the text states, each
//! read from the shipped data and played at its limit, and the expedition's
//! win shared by a seat whose characters all died. Named after the clauses
//! (RULES.md numbers them).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
use xenolog_engine::games::alien::data::{self, Item, Kind, Terrain};
use xenolog_engine::games::alien::state::{AlienState, Pos, Result as End};
use xenolog_engine::games::alien::{Alien, AlienConfig};
use xenolog_engine::{Actor, Fate, Game};

/// Takes `item` on `store` until the game refuses, discarding each token
/// taken (set aside for the game, 5) so a pocket is always free; returns
/// how many were taken and the refusal.
fn take_until_refused(s: &mut AlienState, store: &str, item: Item) -> (u8, String) {
    let h = ch(s, "hicks");
    s.characters[h as usize].pos = Pos::Tile(t(store));
    s.characters[h as usize].items.clear();
    let mut taken = 0;
    loop {
        // A fresh phase's points for every token: the count is what is tested.
        s.characters[h as usize].ap = 6;
        match try_act(s, EXPEDITION, take(h, item), &[]) {
            Ok(_) => taken += 1,
            Err(e) => {
                assert_eq!(e.clause.as_deref(), Some("5"), "{e}");
                return (taken, e.message);
            }
        }
        act(s, EXPEDITION, drop_item(h, 0, false), &[]);
        assert!(taken <= 50, "{item:?} never runs out");
    }
}

#[test]
fn clause_5_the_shipped_limits_four_suits_six_fuel_four_charges_six_kits_four_grenades() {
    // "The number of suits is limited to four"; "The number of fuel
    // containers is limited to six"; "The total number of charges is
    // limited to four"; "Medical kits are limited to six"; "The number of
    // grenades in the entire game is four".
    let items = data::parse_items(data::ITEMS).unwrap();
    for (kind, item, store, text) in [
        (Kind::Suit, Item::Suit, "D4", 4),
        (Kind::Fuel, Item::Fuel, "K15", 6),
        (Kind::Explosive, Item::Explosive, "I13", 4),
        (Kind::Medkit, Item::Medkit, "E8", 6),
        (Kind::Grenade, Item::Grenade, "I2", 4),
    ] {
        assert_eq!(items.limit(kind), text, "{kind:?} in items.txt");
        let mut s = at("");
        let (taken, refusal) = take_until_refused(&mut s, store, item);
        assert_eq!(taken, text, "{kind:?} tokens taken before the game ran out");
        assert!(refusal.contains(&format!("only {text}")), "{refusal}");
        // Used tokens are set aside for the rest of the game: the other
        // storage of the kind has none left either.
        let other = s
            .content
            .base
            .stores
            .iter()
            .filter(|(k, at)| s.content.items.stocked(*k).contains(&kind) && *at != t(store))
            .map(|(_, at)| name(&s, *at))
            .next();
        if let Some(other) = other {
            let (more, _) = take_until_refused(&mut s, &other, item);
            assert_eq!(more, 0, "{kind:?} from {other} after the limit");
        }
    }
    // The number is the data's, not the code's: a player's items file with
    // five fuel containers gives five.
    let mut s = with(AlienConfig {
        items_text: Some(data::ITEMS.replace("limit fuel 6", "limit fuel 5")),
        ..AlienConfig::default()
    });
    assert_eq!(take_until_refused(&mut s, "K15", Item::Fuel).0, 5);
}

#[test]
fn clause_5_a_vacuum_suit_is_used_any_number_of_times() {
    // "Each suit can be used any number of times, they don't wear out."
    let mut s = at("character hicks at outside 3 items suit\n");
    let h = ch(&s, "hicks");
    let taken = s.taken.clone();
    for round in 0..2 {
        act(&mut s, EXPEDITION, C::ComeIn { ch: h, airlock: 1 }, &[]);
        assert_eq!(name(&s, s.characters[h as usize].tile().unwrap()), "G1");
        assert_eq!(
            s.characters[h as usize].items,
            vec![Item::Suit],
            "round {round}: in"
        );
        act(&mut s, EXPEDITION, C::GoOut { ch: h }, &[]);
        assert_eq!(s.characters[h as usize].pos, Pos::Outside(0));
        assert_eq!(
            s.characters[h as usize].items,
            vec![Item::Suit],
            "round {round}: out"
        );
        s.characters[h as usize].pos = Pos::Outside(3);
        s.characters[h as usize].ap = 6;
    }
    assert_eq!(s.taken, taken, "no new suit was needed");
}

#[test]
fn clause_12_the_shipped_base_has_five_airlocks_three_computers_five_hatching_places() {
    // "There are five [airlocks], each marked with a different number";
    // "one of the three computers"; "There are five [hatching places]
    // scattered throughout the board".
    let base = data::parse_base(data::BASE).unwrap();
    for n in 1..=5u8 {
        let count = base
            .terrain
            .iter()
            .filter(|&&t| t == Terrain::Airlock(n))
            .count();
        assert_eq!(count, 1, "airlock {n}");
    }
    let airlocks = base
        .terrain
        .iter()
        .filter(|t| matches!(t, Terrain::Airlock(_)))
        .count();
    assert_eq!(airlocks, 5);
    assert_eq!(base.computers.len(), 3);
    assert_eq!(base.hatches.len(), 5);
    // A base that loses one is refused in words, naming what is missing.
    let e = data::parse_base(&data::BASE.replace("#..5", "#...")).unwrap_err();
    assert!(e.to_string().contains("airlock 5"), "{e}");
    let e = data::parse_base(&data::BASE.replace("computer 3 S14\n", "")).unwrap_err();
    assert!(e.to_string().contains("three computers"), "{e}");
    let e = data::parse_base(&data::BASE.replace("hatch 5 U12\n", "")).unwrap_err();
    assert!(e.to_string().contains("five hatching places"), "{e}");
}

#[test]
fn clause_11_a_seat_whose_characters_all_died_wins_with_the_expedition() {
    // "all expedition players are considered to be winners regardless of
    // whether the characters they controlled survived the expedition or
    // not". Seven players: one character each; five are dead.
    let mut s = with(AlienConfig {
        players: 7,
        scenario_text: Some(
            "queen dead\ncharacter apone at F12\ncharacter hudson at dead\ncharacter vasquez at dead\ncharacter gorman at dead\ncharacter bishop at dead\ncharacter hicks at K9\n"
                .into(),
        ),
        ..AlienConfig::default()
    });
    let apone = ch(&s, "apone");
    let hudson = ch(&s, "hudson");
    let dead_seat = Actor(s.characters[hudson as usize].seat);
    assert!(
        s.characters
            .iter()
            .filter(|c| Actor(c.seat) == dead_seat)
            .all(|c| c.pos == Pos::Dead),
        "every character of Hudson's seat is dead"
    );
    let seat = Actor(s.characters[apone as usize].seat);
    act(&mut s, seat, move_to(apone, "E12"), &[]);
    assert_eq!(s.over, Some(End::Expedition));
    let o = Alien::outcome(&s).unwrap();
    assert_eq!(o.winners, (1..7).map(Actor).collect::<Vec<_>>());
    assert!(o.winners.contains(&dead_seat));
    assert!(!o.winners.contains(&ALIEN));
    let hudson_fate = o.pieces.iter().find(|p| p.id == "hudson").unwrap();
    assert_eq!(hudson_fate.fate, Fate::Killed);
}

#[test]
fn clause_11_assumed_20_a_passenger_of_the_apc_on_the_landing_field_reached_the_ship() {
    // Assumption 20: a character aboard the APC standing on the landing
    // field counts as having reached the ship; its fate says so (review9
    // NIT 3: it said survived).
    let mut s = at(
        "queen dead\ncharacter hicks at dead\ncharacter hudson at dead\ncharacter vasquez at dead\ncharacter bishop at dead\ncharacter apone at dead\ncharacter gorman at apc\napc B15 fuel 1\n",
    );
    act(&mut s, EXPEDITION, C::EndPhase, &[]);
    assert_eq!(s.over, Some(End::Expedition));
    let o = Alien::outcome(&s).unwrap();
    let gorman = o.pieces.iter().find(|p| p.id == "gorman").unwrap();
    assert_eq!(gorman.fate, Fate::Escaped);
    let hicks = o.pieces.iter().find(|p| p.id == "hicks").unwrap();
    assert_eq!(hicks.fate, Fate::Killed);
}
