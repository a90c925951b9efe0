//! Night of the Saucers: the Action step (move, attack, search, swap), the
//! cards and the gangs' class abilities, with the text's examples and F.A.Q.
//! answers. Dice are entered: faces 1-2 blank, 3-5 one hit, 6 dead alien
//! (two hits).

#[path = "support/saucers.rs"]
mod support;

use support::*;
use xenolog_engine::RuleErrorKind;
use xenolog_engine::games::saucers::data::{AlienKind, Kind};
use xenolog_engine::games::saucers::{
    Saucers, SaucersCommand as C, SaucersConfig, SaucersEvent as E, Target, describe,
};
use xenolog_engine::{Actor, Game};

#[test]
fn turn_actions_two_actions_per_student_in_any_order_the_same_one_twice() {
    let mut st = quiet(&["nine_lives"], "C3");
    let tabby = human(&st, "tabby");
    ok(&mut st, 0, move_to(tabby, "C4"), None);
    ok(&mut st, 0, move_to(tabby, "C5"), None);
    let e = refused(&mut st, 0, move_to(tabby, "C6"), None, "Turn.Actions");
    assert!(e.contains("both actions"), "{e}");
    let patch = human(&st, "patch");
    ok(&mut st, 0, C::Search { human: patch }, None);
    ok(&mut st, 0, move_to(patch, "D3"), None);
}

#[test]
fn turn_move_orthogonally_up_to_the_move_on_the_id_card_not_diagonally() {
    let mut st = quiet(&["nine_lives"], "C3");
    let tabby = human(&st, "tabby"); // Move 2
    // D4 is one diagonal step away, but two orthogonal ones: its path is orthogonal.
    let ev = ok(&mut st.clone(), 0, move_to(tabby, "D4"), None);
    assert!(
        matches!(&ev[1], E::Moved { path, .. } if path.len() == 2),
        "{ev:?}"
    );
    refused(&mut st, 0, move_to(tabby, "E4"), None, "Turn.Move");
    refused(&mut st, 0, move_to(tabby, "C6"), None, "Turn.Move");
    ok(&mut st, 0, move_to(tabby, "D2"), None);
    let ev = ok(&mut st, 0, move_to(tabby, "F2"), None);
    assert!(ev.contains(&E::Moved {
        human: tabby,
        path: vec![at("E2"), at("F2")]
    }));
}

#[test]
fn gangs_short_cut_the_fly_boyz_also_move_diagonally() {
    let mut st = quiet(&["fly_boyz"], "C3");
    let ace = human(&st, "ace"); // Move 3
    ok(&mut st, 0, move_to(ace, "F6"), None);
    assert_eq!(st.humans[ace as usize].at, at("F6"), "three diagonal steps");
}

#[test]
fn turn_move_the_log_says_where_a_move_began_and_the_tiles_it_crossed() {
    let mut st = quiet(&["fly_boyz"], "C3");
    let ace = human(&st, "ace");
    let before = st.clone();
    let events = ok(&mut st, 0, move_to(ace, "A1"), None);
    let said = words(&before, &events);
    assert!(
        said.iter().any(|w| w == "Ace moves from C3 by B2 to A1"),
        "{said:?}"
    );
    let before = st.clone();
    let events = ok(&mut st, 0, move_to(ace, "A2"), None);
    let said = words(&before, &events);
    assert!(
        said.iter().any(|w| w == "Ace moves from A1 to A2"),
        "{said:?}"
    );
}

#[test]
fn turn_move_alien_no_leaving_a_tile_holding_an_alien_until_it_is_defeated() {
    let mut st = quiet(&["dirty_birds"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let brick = human(&st, "brick");
    refused(&mut st, 0, move_to(brick, "C4"), None, "Turn.Move.Alien");
    // Defeat it (two hits with a dead alien face), then leave.
    ok(&mut st, 0, attack_alien(brick, "C3", scout), dice(&[6, 1]));
    assert!(st.alien(scout).is_none());
    ok(&mut st, 0, move_to(brick, "C4"), None);
}

#[test]
fn turn_move_alien_a_move_card_that_allows_escape_leaves_the_tile() {
    let mut st = quiet(&["dirty_birds"], "C3");
    alien(&mut st, AlienKind::Probe, "C3");
    let brick = human(&st, "brick");
    let car = give(&mut st, 0, "muscle_car");
    let board = give(&mut st, 0, "skateboard");
    refused(
        &mut st,
        0,
        move_card(brick, board, "C5"),
        None,
        "Turn.Move.Alien",
    );
    ok(&mut st, 0, move_card(brick, car, "C6"), None);
    assert_eq!(st.seats[0].tokens.fuel, 1, "the Muscle Car costs one Fuel");
}

#[test]
fn turn_move_radiation_no_entering_or_crossing_destroyed_tiles() {
    let mut st = quiet(&["nine_lives"], "C3");
    st.board[at("C4") as usize].destroyed = true;
    let whiskers = human(&st, "whiskers"); // Move 3
    refused(
        &mut st,
        0,
        move_to(whiskers, "C4"),
        None,
        "Turn.Move.Radiation",
    );
    // C5 only round the crater: C3-B3-B4-B5 is 3 steps then C5 is a fourth.
    refused(&mut st, 0, move_to(whiskers, "C5"), None, "Turn.Move");
    ok(&mut st, 0, move_to(whiskers, "B5"), None);
}

#[test]
fn aliens_probe_prevents_movement_through_its_building() {
    let mut st = quiet(&["nine_lives"], "C3");
    alien(&mut st, AlienKind::Probe, "C4");
    let whiskers = human(&st, "whiskers"); // Move 3
    // Straight through C4 is barred; ending on it is not.
    let legal_to: Vec<_> = legal(&st)
        .into_iter()
        .filter_map(|(_, c)| match c {
            C::Move { human, to } if human == whiskers => Some(to),
            _ => None,
        })
        .collect();
    assert!(legal_to.contains(&at("C4")));
    // C5 lies two steps straight through the Probe; round it (C3-B3-B4-B5-C5
    // or by D) is four, past Whiskers' Move of 3: not offered at all.
    assert!(!legal_to.contains(&at("C5")));
    refused(&mut st, 0, move_to(whiskers, "C5"), None, "Turn.Move");
    // Assumption 10 (review7 N7): any ground alien bars passing, a Scout too.
    let mut st = quiet(&["nine_lives"], "C3");
    alien(&mut st, AlienKind::Scout, "C4");
    refused(&mut st, 0, move_to(whiskers, "C5"), None, "Turn.Move");
    ok(&mut st, 0, move_to(whiskers, "C4"), None);
}

#[test]
fn cards_move_a_move_card_is_used_instead_of_the_move_and_does_not_add_to_it() {
    let mut st = quiet(&["fly_boyz"], "A1");
    st.board.iter_mut().for_each(|t| t.destroyed = false);
    let wingnut = human(&st, "wingnut"); // Move 2, Short Cut
    let board = give(&mut st, 0, "skateboard"); // 3 tiles
    refused(
        &mut st,
        0,
        move_card(wingnut, board, "A6"),
        None,
        "Turn.Move",
    );
    ok(&mut st, 0, move_card(wingnut, board, "A4"), None);
    assert!(
        st.discard.contains(&board),
        "played cards go to the discard pile"
    );
    assert_eq!(
        st.humans[wingnut as usize].actions, 1,
        "a Move card is the action"
    );
}

#[test]
fn turn_attack_an_alien_is_defeated_when_the_roll_equals_or_beats_its_life() {
    let mut st = quiet(&["nine_lives"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3"); // 2 HP
    let patch = human(&st, "patch"); // Attack 2
    let ev = ok(&mut st, 0, attack_alien(patch, "C3", scout), dice(&[3, 4]));
    assert!(ev.contains(&E::Rolled {
        dice: vec![3, 4],
        hits: 2
    }));
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::AlienKilled { alien, by: Some(0) } if *alien == scout))
    );
    let probe = alien(&mut st, AlienKind::Probe, "C3");
    let tabby = human(&st, "tabby");
    ok(&mut st, 0, attack_alien(tabby, "C3", probe), dice(&[2]));
    assert!(st.alien(probe).is_some(), "a blank does not hurt");
}

#[test]
fn faq_combined_a_team_on_one_tile_kills_an_alien_none_could_kill_alone() {
    let mut st = quiet(&["nine_lives"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3"); // 2 HP
    let tabby = human(&st, "tabby"); // Attack 1
    let whiskers = human(&st, "whiskers"); // Attack 1
    ok(&mut st, 0, attack_alien(tabby, "C3", scout), dice(&[3]));
    assert_eq!(
        st.alien(scout).unwrap().damage,
        1,
        "one hit: the Scout stands"
    );
    let ev = ok(&mut st, 0, attack_alien(whiskers, "C3", scout), dice(&[5]));
    assert!(
        ev.iter().any(|e| matches!(e, E::AlienKilled { .. })),
        "the attacks of the turn add up"
    );
    assert!(st.alien(scout).is_none());
}

#[test]
fn faq_split_one_roll_split_across_two_aliens_of_one_tile() {
    let mut st = quiet(&["nine_lives"], "C3");
    let p1 = alien(&mut st, AlienKind::Probe, "C3");
    let p2 = alien(&mut st, AlienKind::Probe, "C3");
    let patch = human(&st, "patch"); // Attack 2
    ok(
        &mut st,
        0,
        attack(patch, "C3", vec![Target::Alien(p2), Target::Alien(p1)]),
        dice(&[3, 3]),
    );
    assert!(st.aliens.is_empty(), "both Probes defeated by one roll");
    assert_eq!(st.seats[0].kills_pending, 2);
    // A target must be on the attacked tile.
    let far = alien(&mut st, AlienKind::Probe, "D3");
    refused(
        &mut st,
        0,
        attack_alien(patch, "C3", far),
        dice(&[3, 3]),
        "FAQ.Split",
    );
}

#[test]
fn cards_attack_an_attack_card_does_not_add_to_the_standard_attack() {
    let mut st = quiet(&["nine_lives"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let patch = human(&st, "patch"); // Attack 2
    let bat = give(&mut st, 0, "bat"); // 2 dice
    let err = run(
        &mut st,
        0,
        attack_card(patch, bat, "C3", vec![Target::Alien(scout)]),
        dice(&[1, 1, 1, 1]),
    )
    .unwrap_err();
    assert_eq!(
        err.kind,
        RuleErrorKind::Dice,
        "the bat rolls its own 2 dice, not 2 + 2: {err}"
    );
    let ev = ok(
        &mut st,
        0,
        attack_card(patch, bat, "C3", vec![Target::Alien(scout)]),
        dice(&[1, 3]),
    );
    assert!(ev.contains(&E::Rolled {
        dice: vec![1, 3],
        hits: 1
    }));
    assert!(st.discard.contains(&bat));
}

#[test]
fn cards_attack_range_only_the_red_squares_of_the_grid_one_per_attack() {
    let mut st = quiet(&["nine_lives"], "C3");
    let near = alien(&mut st, AlienKind::Probe, "C2");
    let far = alien(&mut st, AlienKind::Probe, "C1");
    let tabby = human(&st, "tabby");
    let shotgun = give(&mut st, 0, "shotgun"); // own tile and the four next to it
    refused(
        &mut st,
        0,
        attack_alien(tabby, "C2", near),
        dice(&[3]),
        "Cards.Attack.Range",
    );
    refused(
        &mut st,
        0,
        attack_card(tabby, shotgun, "C1", vec![Target::Alien(far)]),
        dice(&[3, 3, 3]),
        "Cards.Attack.Range",
    );
    ok(
        &mut st,
        0,
        attack_card(tabby, shotgun, "C2", vec![Target::Alien(near)]),
        dice(&[3, 1, 1]),
    );
    assert_eq!(st.seats[0].tokens.ammo, 1, "the Shotgun costs one Ammo");
    let rifle = give(&mut st, 0, "rifle");
    ok(
        &mut st,
        0,
        attack_card(tabby, rifle, "C1", vec![Target::Alien(far)]),
        dice(&[3, 1]),
    );
    assert!(st.aliens.is_empty());
}

#[test]
fn cards_cost_a_card_is_paid_in_supplies_alien_tokens_are_wild_and_0_is_free() {
    let mut st = quiet(&["nine_lives"], "C3");
    let p = alien(&mut st, AlienKind::Probe, "C3");
    let tabby = human(&st, "tabby");
    st.seats[0].tokens = tokens(0, 0, 0, 0, 1);
    let shotgun = give(&mut st, 0, "shotgun");
    let ev = ok(
        &mut st,
        0,
        attack_card(tabby, shotgun, "C3", vec![Target::Alien(p)]),
        dice(&[1, 1, 1]),
    );
    assert!(ev.contains(&E::CardPlayed {
        seat: 0,
        card: shotgun,
        paid: tokens(0, 0, 0, 0, 1)
    }));
    let chainsaw = give(&mut st, 0, "chainsaw");
    refused(
        &mut st,
        0,
        attack_card(tabby, chainsaw, "C3", vec![Target::Alien(p)]),
        dice(&[1, 1, 1]),
        "Cards.Cost",
    );
    let bat = give(&mut st, 0, "bat");
    let patch = human(&st, "patch");
    ok(
        &mut st,
        0,
        attack_card(patch, bat, "C3", vec![Target::Alien(p)]),
        dice(&[3, 1]),
    );
}

#[test]
fn gangs_fight_dirty_the_dirty_birds_roll_an_extra_die_with_melee_weapons() {
    let mut st = quiet(&["dirty_birds"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let crow = human(&st, "crow");
    let bat = give(&mut st, 0, "bat"); // melee, 2 dice
    let ev = ok(
        &mut st,
        0,
        attack_card(crow, bat, "C3", vec![Target::Alien(scout)]),
        dice(&[1, 1, 3]),
    );
    assert!(
        ev.contains(&E::Rolled {
            dice: vec![1, 1, 3],
            hits: 1
        }),
        "three dice"
    );
    let slingshot = give(&mut st, 0, "slingshot"); // short range: no extra die
    let err = run(
        &mut st,
        0,
        attack_card(crow, slingshot, "C3", vec![Target::Alien(scout)]),
        dice(&[1, 1, 1]),
    )
    .unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::Dice);
    // The standard attack uses no weapon: Crow's own Attack, no extra die
    // (assumption 9, review7 N6).
    let own = usize::from(st.content.humans[st.humans[crow as usize].def as usize].attack);
    let err = run(
        &mut st,
        0,
        attack(crow, "C3", vec![Target::Alien(scout)]),
        Some(vec![1; own + 1]),
    )
    .unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::Dice);
    ok(
        &mut st,
        0,
        attack(crow, "C3", vec![Target::Alien(scout)]),
        Some(vec![1; own]),
    );
}

#[test]
fn aliens_saucer_only_surface_to_air_cards_attack_a_saucer_strike() {
    let (mut st, patch, saucer) = patch_facing(AlienKind::Saucer, "C3");
    refused(
        &mut st,
        0,
        attack_alien(patch, "C3", saucer),
        dice(&[6, 6]),
        "Aliens.Saucer",
    );
    let sam = give(&mut st, 0, "sam");
    ok(
        &mut st,
        0,
        attack_card(patch, sam, "C3", vec![Target::Alien(saucer)]),
        dice(&[6, 3, 1, 1]),
    );
    assert!(st.alien(saucer).is_none(), "three hits: shot down");
}

/// Aliens.HP: "Scouts have 2 HP. Probes have 1 HP. Commanders have 1 HP.
/// Saucer Strikes have 3 HP." One hit at a time (one die a 3, every other
/// die blank), the Nine Lives on the alien's tile attack it: it stands after
/// one hit fewer than its hit points and falls to the last (the hits add up
/// through the turn, FAQ.Combined); a Saucer only to Surface to Air cards.
#[test]
fn aliens_hp_scouts_2_probes_1_commanders_1_saucer_strikes_3() {
    use xenolog_engine::games::saucers::rules::attack_profile;
    for (kind, life) in [
        (AlienKind::Scout, 2),
        (AlienKind::Probe, 1),
        (AlienKind::Commander, 1),
        (AlienKind::Saucer, 3),
    ] {
        let (mut st, _, alien) = patch_facing(kind, "C3");
        st.seats[0].tokens = tokens(9, 9, 9, 9, 0);
        let attackers = ["tabby", "tabby", "whiskers", "whiskers", "patch", "patch"];
        for (i, id) in attackers.iter().take(life).enumerate() {
            let h = human(&st, id);
            let card = (kind == AlienKind::Saucer).then(|| give(&mut st, 0, "sam"));
            let n = attack_profile(&st, h as usize, card).unwrap().0 as usize;
            let mut faces = vec![1; n];
            faces[0] = 3;
            let target = vec![Target::Alien(alien)];
            let cmd = match card {
                Some(c) => attack_card(h, c, "C3", target),
                None => attack(h, "C3", target),
            };
            ok(&mut st, 0, cmd, Some(faces));
            let hits = i + 1;
            assert_eq!(
                st.alien(alien).is_some(),
                hits < life,
                "{kind:?} after {hits} hit(s): {life} HP"
            );
        }
    }
}

#[test]
fn turn_search_turns_over_the_tile_and_collect_gives_its_supply() {
    let mut st = quiet(&["nine_lives"], "C3");
    building(&mut st, "C3", "gas_station");
    let tabby = human(&st, "tabby");
    ok(&mut st, 0, C::Search { human: tabby }, None);
    assert!(st.board[at("C3") as usize].searched);
    refused(&mut st, 0, C::Search { human: tabby }, None, "Turn.Search");
    ok(&mut st, 0, C::EndActions, None);
    let fuel = st.seats[0].tokens.fuel;
    step(&mut st, C::Collect);
    assert_eq!(
        st.seats[0].tokens.fuel,
        fuel + 1,
        "one Fuel for the searched tile (three students stand on it)"
    );
}

/// Collect: "If any of your humans have ended their movement on a searched
/// building tile, (supply side up) take one supply token of that color":
/// one token a tile, not one a student (review of 2026-11-27, misread M1).
#[test]
fn collect_one_supply_token_for_each_searched_tile_any_of_your_students_is_on() {
    let mut st = quiet(&["nine_lives"], "C3");
    building(&mut st, "C3", "gas_station");
    st.board[at("C3") as usize].searched = true;
    // A second searched tile, a Food one, with the third student on it.
    building(&mut st, "D3", "high_school");
    st.board[at("D3") as usize].searched = true;
    let patch = human(&st, "patch");
    st.humans[patch as usize].at = at("D3");
    ok(&mut st, 0, C::EndActions, None);
    let (fuel, food) = (st.seats[0].tokens.fuel, st.seats[0].tokens.food);
    step(&mut st, C::Collect);
    assert_eq!(
        st.seats[0].tokens.fuel,
        fuel + 1,
        "two students on the searched gas station: one Fuel, not two"
    );
    assert_eq!(
        st.seats[0].tokens.food,
        food + 1,
        "one student on the searched high school: one Food"
    );
}

/// Setup.2 ("arrange them ... building side face up") and the ambush
/// paragraph ("Some have hidden themselves inside of buildings"), review7
/// N8: a seat's view shows an unsearched tile by its building side only.
/// Where a players' tiles file gives an ambush the front of an ordinary
/// building, the two cannot be told apart before a search, in the view or
/// in the words; the search turns the tile over for every seat. (The
/// shipped fronts are all different, as physical tiles with fixed backs:
/// assumption 3.)
/// A players' files: the shipped tiles with the Scout ambush `mall` given
/// the building side `name`.
fn mall_fronted_as(name: &str) -> std::collections::BTreeMap<String, String> {
    let shipped = xenolog_engine::games::saucers::data::FILES
        .iter()
        .find(|f| f.0 == "tiles")
        .unwrap()
        .1;
    let own = shipped.replace(
        "tile mall \"Shopping Mall\" none ambush scout",
        &format!("tile mall \"{name}\" none ambush scout"),
    );
    assert_ne!(own, shipped);
    std::collections::BTreeMap::from([("tiles".to_owned(), own)])
}

#[test]
fn setup_2_an_unsearched_tile_shows_only_its_building_side_an_ambush_behind_a_repeated_front_is_hidden()
 {
    let mut st = game(SaucersConfig {
        files: mall_fronted_as("Mel's Diner"),
        ..gangs(&["nine_lives", "sewer_rats"])
    });
    let def = |id: &str| st.content.tiles.iter().position(|t| t.id == id).unwrap() as u16;
    let (mall, diner) = (def("mall"), def("diner"));
    let spot = |st: &xenolog_engine::games::saucers::SaucersState, d: u16| {
        st.board.iter().position(|t| t.def == d).unwrap()
    };
    let (m, d) = (spot(&st, mall), spot(&st, diner));
    for seat in [Actor(0), Actor(1), Actor::SYSTEM] {
        let seen = Saucers::view(&st, seat);
        assert_eq!(
            seen.board[m].def, diner,
            "the ambush shows the Diner's front"
        );
        assert_eq!(seen.board[d].def, diner);
        assert!(
            seen.board.iter().all(|t| t.def != mall),
            "no tile shows the ambush"
        );
    }
    // Searched, the tile is turned over for all, and the words are alike
    // for the whole state and a seat's view (no back named before).
    st.aliens.clear();
    st.board[m].searched = false;
    let tabby = human(&st, "tabby");
    st.humans[tabby as usize].at = m as u8;
    st.humans[tabby as usize].actions = 2;
    let before = st.clone();
    let ev = ok(&mut st, 0, C::Search { human: tabby }, None);
    let searched = ev.iter().find(|e| matches!(e, E::Searched { .. })).unwrap();
    let whole = describe::event(&before, searched);
    let seen = describe::event(&Saucers::view(&before, Actor(1)), searched);
    assert_eq!(whole, seen);
    assert!(
        !whole.contains("ambush") && !whole.contains("supplies"),
        "{whole}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::AlienPlaced { alien } if alien.kind == AlienKind::Scout))
    );
    assert_eq!(Saucers::view(&st, Actor(1)).board[m].def, mall);
    // The shipped tiles: every front its own, the view shows the board as it is.
    let shipped_game = game(gangs(&["nine_lives"]));
    assert_eq!(
        Saucers::view(&shipped_game, Actor(0)).board,
        shipped_game.board
    );
}

#[test]
fn missions_assumed_3_a_mission_is_delivered_at_any_tile_of_its_buildings_name_so_it_tells_no_ambush()
 {
    // Review14 S3: a players' tiles.txt gives an ambush the front of the
    // building a Task Force mission names. Standing on either tile of that
    // name, the carrier is offered the delivery and makes it alike, so the
    // mission does not tell which of the two hides the ambush.
    let ids = ["nine_lives"];
    let shipped_game = game(gangs(&ids));
    let carrier = shipped_game
        .humans
        .iter()
        .position(|h| h.mission.is_some())
        .unwrap();
    let m = shipped_game.humans[carrier].mission.unwrap();
    let building = shipped_game.content.missions[m as usize].tile;
    let name = shipped_game.content.tiles[building].name.clone();
    let mut st = game(SaucersConfig {
        files: mall_fronted_as(&name),
        ..gangs(&ids)
    });
    assert_eq!(st.humans[carrier].mission, Some(m), "the same deal");
    st.aliens.clear();
    for t in &mut st.board {
        t.searched = false;
        t.destroyed = false;
    }
    st.seats[0].tokens = tokens(9, 9, 9, 9, 0);
    let mall = st
        .content
        .tiles
        .iter()
        .position(|t| t.id == "mall")
        .unwrap() as u16;
    let spot = |d: u16| st.board.iter().position(|t| t.def == d).unwrap() as u8;
    let (ambush, ordinary) = (spot(mall), spot(building as u16));
    let human = carrier as u16;
    let mut offered = Vec::new();
    for tile in [ordinary, ambush] {
        let mut s = st.clone();
        s.current = 0;
        s.humans[carrier].at = tile;
        s.humans[carrier].actions = 2;
        offered.push(
            legal(&s)
                .iter()
                .any(|(_, c)| matches!(c, C::Complete { human: h } if *h == human)),
        );
        let ev = ok(&mut s, 0, C::Complete { human }, None);
        assert!(
            ev.iter().any(|e| matches!(e, E::MissionCompleted { .. })),
            "{ev:?}"
        );
        assert_eq!(s.seats[0].missions_done, vec![m]);
    }
    assert_eq!(offered, vec![true, true], "offered on both tiles alike");
}

#[test]
fn faq_ambush_an_ambush_tile_spawns_its_alien_only_on_the_first_search() {
    let mut st = quiet(&["nine_lives"], "C3");
    building(&mut st, "C3", "mall"); // a Scout ambush
    let tabby = human(&st, "tabby");
    let ev = ok(&mut st, 0, C::Search { human: tabby }, None);
    assert!(ev.iter().any(|e| matches!(e, E::AlienPlaced { alien } if alien.kind == AlienKind::Scout && alien.at == at("C3"))));
    assert_eq!(st.aliens.len(), 1);
    refused(&mut st, 0, C::Search { human: tabby }, None, "Turn.Search");
    // Later turns: no new alien from the tile.
    st.aliens.clear();
    ok(&mut st, 0, C::EndActions, None);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    top_alien(&mut st, AlienKind::Probe, "F6", None);
    step(&mut st, C::AlienTurn);
    assert!(st.aliens.iter().all(|a| a.at != at("C3")));
}

#[test]
fn turn_swap_supplies_and_cards_with_a_player_on_the_same_tile() {
    let mut st = quiet(&["nine_lives", "sewer_rats"], "C3");
    let tabby = human(&st, "tabby");
    let bat = give(&mut st, 0, "bat");
    let sewer = give(&mut st, 1, "sewer");
    ok(
        &mut st,
        0,
        C::Swap {
            human: tabby,
            with: 1,
            give: tokens(1, 0, 0, 0, 0),
            give_cards: vec![bat],
            take: tokens(0, 2, 0, 0, 0),
            take_cards: vec![sewer],
        },
        None,
    );
    assert_eq!(st.seats[0].tokens, tokens(1, 4, 2, 2, 0));
    assert_eq!(st.seats[1].tokens, tokens(3, 0, 2, 2, 0));
    assert_eq!(st.seats[0].hand, vec![sewer]);
    assert_eq!(st.seats[1].hand, vec![bat]);
    let squeak = human(&st, "squeak");
    st.humans[squeak as usize].at = at("F6");
    for h in ["gutter", "stinky"] {
        put(&mut st, h, "F6");
    }
    refused(
        &mut st,
        0,
        C::Swap {
            human: tabby,
            with: 1,
            give: tokens(1, 0, 0, 0, 0),
            give_cards: vec![],
            take: tokens(0, 0, 0, 0, 0),
            take_cards: vec![],
        },
        None,
        "Turn.Swap",
    );
}

#[test]
fn gangs_rat_nest_an_alien_kill_for_a_supply_or_a_card_discarding_down() {
    let mut st = quiet(&["sewer_rats"], "C3");
    st.seats[0].tokens.alien = 2;
    ok(
        &mut st,
        0,
        C::RatNest {
            take: Some(Kind::Scrap),
        },
        None,
    );
    assert_eq!((st.seats[0].tokens.alien, st.seats[0].tokens.scrap), (1, 3));
    // A full hand: the card drawn puts it over, so a card is discarded at once.
    let fill: Vec<u16> = non_events(&st, 7);
    st.seats[0].hand = fill[..6].to_vec();
    st.deck = vec![fill[6]];
    ok(&mut st, 0, C::RatNest { take: None }, None);
    assert_eq!(st.seats[0].hand.len(), 7);
    assert_eq!(st.owed, vec![(0, 1)]);
    let tabby_like = st.living(0).next().unwrap().0 as u16;
    assert!(
        run(&mut st, 0, C::Search { human: tabby_like }, None).is_err(),
        "first the discard"
    );
    let c = st.seats[0].hand[0];
    ok(&mut st, 0, C::Discard { card: c }, None);
    assert!(st.owed.is_empty());
    let mut other = quiet(&["nine_lives"], "C3");
    other.seats[0].tokens.alien = 1;
    refused(
        &mut other,
        0,
        C::RatNest { take: None },
        None,
        "Gangs.RatNest",
    );
}

#[test]
fn cards_instant_played_in_another_players_turn_for_another_player() {
    let mut st = quiet(&["nine_lives", "sewer_rats"], "C3");
    for h in ["squeak", "gutter", "stinky"] {
        put(&mut st, h, "E5");
    }
    let saucer = alien(&mut st, AlienKind::Saucer, "C3");
    let sewer = give(&mut st, 1, "sewer");
    let asked: Vec<u8> = xenolog_engine::games::saucers::legal::asked(&st)
        .iter()
        .map(|a| a.seat.0)
        .collect();
    assert_eq!(
        asked,
        vec![0, 1],
        "the seat holding the instant is asked in seat 0's turn"
    );
    let tabby = human(&st, "tabby");
    assert!(
        legal(&st)
            .iter()
            .any(|(a, c)| a.0 == 1 && matches!(c, C::Instant { card, .. } if *card == sewer))
    );
    ok(
        &mut st,
        1,
        C::Instant {
            card: sewer,
            on: xenolog_engine::games::saucers::InstantOn::Escape {
                human: tabby,
                to: at("A3"),
            },
        },
        None,
    );
    assert_eq!(
        st.humans[tabby as usize].at,
        at("A3"),
        "out of the Saucer's crosshairs"
    );
    assert!(st.alien(saucer).is_some());
    assert_eq!(st.current, 0, "still seat 0's turn");
    // Firecrackers: one hit on an alien with a student, by any seat.
    let probe = alien(&mut st, AlienKind::Probe, "E5");
    let fc = give(&mut st, 1, "firecrackers");
    ok(
        &mut st,
        1,
        C::Instant {
            card: fc,
            on: xenolog_engine::games::saucers::InstantOn::Alien { alien: probe },
        },
        None,
    );
    assert!(st.alien(probe).is_none());
    assert_eq!(st.seats[1].kills, 1, "the kill is the instant's player's");
}

/// Setup.2 "building side up" and principle 14 (session 22, rulesmix's
/// note): the `Dealt` event holds the board as dealt, backs included, and
/// `view_event` has no tiles file to turn it to its fronts; a seat reads
/// that entry only in words (`entry_texts_as`, what the club server sends
/// and a seat's copy holds), and those name no tile of the deal, so an
/// ambush behind a repeated front is not told. The whole state's words are
/// the same.
#[test]
fn setup_2_a_seat_reads_the_deal_only_in_words_that_name_no_tile_of_the_board() {
    use xenolog_engine::{Battle, Session, Viewer};
    let config = SaucersConfig {
        files: mall_fronted_as("Mel's Diner"),
        hidden_hands: true,
        ..gangs(&["nine_lives", "sewer_rats"])
    };
    let mut s = Session::<Saucers>::new(3, config).unwrap();
    s.play_due().unwrap();
    let b: &dyn Battle = &s;
    let line = b.path_to(b.cursor());
    assert!(!line.is_empty());
    let names: Vec<String> = s
        .state()
        .content
        .tiles
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(names.iter().any(|n| n == "Mel's Diner"));
    for viewer in [Viewer::Seat(Actor(0)), Viewer::Seat(Actor(1)), Viewer::All] {
        for t in b.entry_texts_as(&line, viewer) {
            for text in t.events.iter().chain([&t.command]) {
                assert!(!text.to_lowercase().contains("ambush"), "{text}");
                for n in &names {
                    assert!(!text.contains(n.as_str()), "names the tile {n}: {text}");
                }
            }
        }
    }
}
