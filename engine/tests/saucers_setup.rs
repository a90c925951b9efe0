//! Night of the Saucers: Setting Up (steps 1 to 8), the hand size example
//! and the Draw step. Each test is named after the clause of `RULES.md`.

#[path = "support/saucers.rs"]
mod support;

use support::*;
use xenolog_engine::games::saucers::data::{AlienKind, Kind};
use xenolog_engine::games::saucers::{
    Phase, Saucers, SaucersCommand as C, SaucersConfig, SaucersEvent as E, Variant,
};
use xenolog_engine::{Actor, Game, Session};

fn dealt(config: SaucersConfig) -> Session<Saucers> {
    let mut s = Session::<Saucers>::new(3, config).unwrap();
    assert_eq!(
        s.due(),
        Some(C::Deal),
        "the first step is the game's shuffle and deal"
    );
    s.play_due().unwrap();
    assert_eq!(s.records()[0].actor, Actor::SYSTEM);
    s
}

#[test]
fn setup_2_the_36_tiles_are_shuffled_onto_the_board_building_side_up() {
    let s = dealt(SaucersConfig::default());
    let st = s.state();
    assert_eq!(st.board.len(), 36);
    let mut defs: Vec<u16> = st.board.iter().map(|t| t.def).collect();
    defs.sort_unstable();
    assert_eq!(defs, (0..36).collect::<Vec<u16>>(), "every tile once");
    assert!(st.board.iter().all(|t| !t.searched && !t.destroyed));
    let other = dealt(SaucersConfig::default());
    let seed9 = {
        let mut s = Session::<Saucers>::new(9, SaucersConfig::default()).unwrap();
        s.play_due().unwrap();
        s.state().board.clone()
    };
    assert_eq!(
        other.state().board,
        st.board,
        "the same seed lays the same board"
    );
    assert_ne!(seed9, st.board, "another seed another board");
}

#[test]
fn setup_3_each_player_runs_the_three_students_of_a_gang() {
    let st = game(gangs(&["sewer_rats", "fly_boyz", "nine_lives"]));
    assert_eq!(st.humans.len(), 9);
    for seat in 0..3u8 {
        let ids: Vec<usize> = st.living(seat).map(|(_, h)| h.def as usize).collect();
        assert_eq!(ids.len(), 3);
        let gang = st.seats[seat as usize].gang as usize;
        assert!(ids.iter().all(|&d| st.content.humans[d].gang == gang));
    }
    assert_eq!(Saucers::seat_name(&st, Actor(0)), "Sewer Rats");
    let err = Session::<Saucers>::new(1, gangs(&["fly_boyz", "fly_boyz"]))
        .err()
        .unwrap();
    assert!(err.0.contains("chosen twice"), "{err}");
    let err = Session::<Saucers>::new(
        1,
        SaucersConfig {
            players: 5,
            ..SaucersConfig::default()
        },
    )
    .err()
    .unwrap();
    assert!(err.0.contains("1 to 4"), "{err}");
}

#[test]
fn setup_4_every_player_starts_with_two_of_each_supply() {
    let s = Session::<Saucers>::new(
        1,
        SaucersConfig {
            players: 4,
            ..SaucersConfig::default()
        },
    )
    .unwrap();
    for seat in &s.state().seats {
        assert_eq!(seat.tokens, tokens(2, 2, 2, 2, 0));
    }
}

#[test]
fn setup_5_the_opening_hands_hold_no_event_the_events_go_back_into_the_deck() {
    for seed in 0..30 {
        let mut s = Session::<Saucers>::new(
            seed,
            SaucersConfig {
                players: 4,
                ..SaucersConfig::default()
            },
        )
        .unwrap();
        s.play_due().unwrap();
        let st = s.state();
        let events_total = st.content.cards.iter().filter(|c| c.is_event()).count();
        for (i, seat) in st.seats.iter().enumerate() {
            assert_eq!(
                seat.hand.len(),
                st.hand_size(i as u8),
                "seed {seed}: dealt the hand size"
            );
            assert!(
                seat.hand
                    .iter()
                    .all(|&c| !st.content.cards[c as usize].is_event())
            );
        }
        let in_deck = st
            .deck
            .iter()
            .filter(|&&c| st.content.cards[c as usize].is_event())
            .count();
        assert_eq!(
            in_deck, events_total,
            "seed {seed}: every event is back in the deck"
        );
        assert!(st.discard.is_empty());
    }
}

#[test]
fn setup_6_the_easy_alien_deck_is_9_scouts_9_probes_10_saucer_strikes_2_commanders() {
    let s = dealt(SaucersConfig::default());
    let st = s.state();
    assert_eq!(st.alien_deck.len(), 30, "30 Alien cards = Easy");
    let count = |k: AlienKind| {
        st.alien_deck
            .iter()
            .filter(|&&c| st.content.aliens[c as usize].kind == k)
            .count()
    };
    assert_eq!(
        [
            count(AlienKind::Scout),
            count(AlienKind::Probe),
            count(AlienKind::Saucer),
            count(AlienKind::Commander)
        ],
        [9, 9, 10, 2]
    );
    for (level, more) in [(2u8, 40usize), (3, 50)] {
        let s = dealt(SaucersConfig {
            difficulty: level,
            ..SaucersConfig::default()
        });
        assert_eq!(s.state().alien_deck.len(), more, "harder decks add aliens");
    }
}

#[test]
fn setup_7_each_player_gives_one_mission_to_one_of_their_students() {
    let mut s = dealt(SaucersConfig {
        players: 3,
        missions: 3,
        ..SaucersConfig::default()
    });
    assert_eq!(s.state().phase, Phase::Assign);
    assert_eq!(s.state().missions_to_win, 3);
    let asked: Vec<Actor> = Saucers::asked(s.state()).iter().map(|a| a.seat).collect();
    assert_eq!(
        asked,
        vec![Actor(0), Actor(1), Actor(2)],
        "every seat at once, in any order"
    );
    let third = s.state().living(2).nth(2).unwrap().0 as u16;
    s.play(Actor(2), &C::Assign { human: third }, None).unwrap();
    let err = s
        .play(Actor(2), &C::Assign { human: third }, None)
        .unwrap_err();
    assert_eq!(err.clause.as_deref(), Some("Setup.7"));
    let theirs = s.state().living(0).next().unwrap().0 as u16;
    assert!(
        s.play(Actor(1), &C::Assign { human: theirs }, None)
            .is_err(),
        "only one's own students"
    );
    for seat in 0..2u8 {
        let h = s.state().living(seat).next().unwrap().0 as u16;
        s.play(Actor(seat), &C::Assign { human: h }, None).unwrap();
    }
    let st = s.state();
    assert_eq!(st.humans.iter().filter(|h| h.mission.is_some()).count(), 3);
    assert!(st.humans[third as usize].mission.is_some());
    assert_eq!(
        st.mission_pile.len(),
        st.content.missions.len() - 3,
        "the others set aside"
    );
}

#[test]
fn setup_8_the_youngest_player_starts_on_the_high_school() {
    let mut s = dealt(SaucersConfig {
        players: 3,
        youngest: 2,
        ..SaucersConfig::default()
    });
    for seat in 0..3u8 {
        let h = s.state().living(seat).next().unwrap().0 as u16;
        s.play(Actor(seat), &C::Assign { human: h }, None).unwrap();
    }
    s.play_due().unwrap();
    let st = s.state();
    assert_eq!(st.current, 1, "the youngest player (seat 2) starts");
    let school = st
        .board
        .iter()
        .position(|t| st.content.tiles[t.def as usize].school)
        .unwrap() as u8;
    assert!(st.humans.iter().all(|h| h.at == school));
}

#[test]
fn setup_example_hand_size_2_times_3_students_is_6_cards_and_smaller_after_a_death() {
    let mut st = quiet(&["nine_lives"], "C3");
    assert!(
        st.content
            .humans
            .iter()
            .filter(|h| h.gang == 3)
            .all(|h| h.hand == 2)
    );
    assert_eq!(st.hand_size(0), 6, "2 x 3 = 6 cards");
    // Draw: from an empty hand, a deck of non-events, six cards.
    st.deck = non_events(&st, 10);
    st.phase = Phase::Draw;
    step(&mut st, C::Draw);
    assert_eq!(st.seats[0].hand.len(), 6);
    // Q: Does this mean your hand size will get smaller if a student is killed? A: Yes.
    let tabby = human(&st, "tabby");
    st.humans[tabby as usize].alive = false;
    assert_eq!(st.hand_size(0), 4);
    st.seats[0].hand.truncate(1);
    st.phase = Phase::Draw;
    step(&mut st, C::Draw);
    assert_eq!(st.seats[0].hand.len(), 4);
}

#[test]
fn turn_draw_events_are_resolved_as_drawn_and_count_toward_the_hand_size() {
    let mut st = quiet(&["fly_boyz"], "C3");
    let supply_drop = card(&st, "supply_drop");
    let others: Vec<u16> = non_events(&st, 8);
    // Top last: the event is the second card drawn.
    st.deck = others.clone();
    st.deck.insert(others.len() - 1, supply_drop);
    st.phase = Phase::Draw;
    let ammo = st.seats[0].tokens.ammo;
    let ev = step(&mut st, C::Draw);
    assert!(ev.contains(&E::EventDrawn {
        seat: 0,
        card: supply_drop
    }));
    assert_eq!(st.seats[0].hand.len(), 5, "six drawn, the event among them");
    assert_eq!(st.seats[0].tokens.ammo, ammo + 1, "Supply Drop: one Ammo");
    assert!(st.discard.contains(&supply_drop));
    assert_eq!(st.phase, Phase::Actions);
}

#[test]
fn turn_draw_the_discard_pile_is_reshuffled_when_the_deck_runs_out() {
    let mut st = quiet(&["fly_boyz"], "C3");
    let fill = non_events(&st, 12);
    st.deck = fill[..2].to_vec();
    st.discard = fill[2..12].to_vec();
    st.phase = Phase::Draw;
    let ev = step(&mut st, C::Draw);
    assert!(ev.iter().any(|e| matches!(e, E::Reshuffled { .. })));
    assert_eq!(st.seats[0].hand.len(), 6);
    assert!(st.discard.is_empty());
}

#[test]
fn setup_the_variants_and_hidden_hands_are_options() {
    assert_options_include(&[
        "players",
        "difficulty",
        "missions",
        "variant",
        "hidden_hands",
        "youngest",
    ]);
    let c: SaucersConfig =
        serde_json::from_value(serde_json::json!({"variant": "gang_warfare"})).unwrap();
    let s = Session::<Saucers>::new(1, c).unwrap();
    assert_eq!(s.state().variant, Variant::GangWarfare);
    let bad: Result<SaucersConfig, _> =
        serde_json::from_value(serde_json::json!({"variant": "chess"}));
    assert!(bad.is_err());
}

#[test]
fn components_a_players_own_data_file_replaces_the_shipped_one_and_a_bad_line_is_named() {
    let mut files = std::collections::BTreeMap::new();
    files.insert(
        "tokens".to_owned(),
        "token food \"Food\" 0 0 255 start 5\n".to_owned(),
    );
    let err = Session::<Saucers>::new(
        1,
        SaucersConfig {
            files: files.clone(),
            ..SaucersConfig::default()
        },
    )
    .err()
    .unwrap();
    assert!(err.0.contains("tokens.txt"), "{err}");
    let shipped = xenolog_engine::games::saucers::data::FILES
        .iter()
        .find(|f| f.0 == "tokens")
        .unwrap()
        .1;
    files.insert("tokens".to_owned(), shipped.replace("start 2", "start 3"));
    let s = Session::<Saucers>::new(
        1,
        SaucersConfig {
            files,
            ..SaucersConfig::default()
        },
    )
    .unwrap();
    assert_eq!(s.state().seats[0].tokens.get(Kind::Scrap), 3);
}

#[test]
fn position_a_position_file_lays_a_board_of_ones_own_over_the_deal() {
    let c = xenolog_engine::games::saucers::data::shipped();
    let ids: Vec<&str> = c.tiles.iter().map(|t| t.id.as_str()).collect();
    let text = format!(
        "# a club's opening\nboard {}\nsearched B1 C1\ndestroyed F6\nalien scout A1 s\nalien probe B1\nstudent ace B1\n",
        ids.join(" ")
    );
    let config = SaucersConfig {
        players: 1,
        scenario_text: Some(text.clone()),
        ..SaucersConfig::default()
    };
    let mut s = Session::<Saucers>::new(2, config).unwrap();
    s.play_due().unwrap();
    let st = s.state();
    assert_eq!(
        st.board.iter().map(|t| t.def).collect::<Vec<_>>(),
        (0..36).collect::<Vec<u16>>(),
        "the file's board, not the shuffle"
    );
    assert!(st.board[at("B1") as usize].searched && st.board[at("F6") as usize].destroyed);
    assert_eq!(st.aliens.len(), 2);
    assert_eq!(st.humans[human(st, "ace") as usize].at, at("B1"));
    assert_eq!(
        st.humans[human(st, "jet") as usize].at,
        at("A1"),
        "the others on the high school (A1 here)"
    );
    assert!(s.verify().ok());
    // A bad line is named; a student not in the game is refused.
    let refused = |text: &str| {
        let bad = SaucersConfig {
            players: 1,
            scenario_text: Some(text.into()),
            ..SaucersConfig::default()
        };
        Session::<Saucers>::new(2, bad).err().unwrap()
    };
    let err = refused("searched B1\nalien dragon C3\n");
    assert!(err.0.contains("position line 2"), "{err}");
    let err = refused("student tabby C3\n");
    assert!(err.0.contains("Tabby"), "{err}");
}

/// Setup.3 with the config's `gangs` (RULES.md "Config", review17 N1): the
/// gangs in seat order as a list, or as one string of ids separated by
/// commas, which is what the command line's `--option gangs=...` gives;
/// anything else is refused in words and starts nothing.
#[test]
fn setup_3_the_gangs_are_given_as_a_list_or_as_ids_separated_by_commas() {
    let seats = |json: &str| -> Vec<String> {
        let config: SaucersConfig = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"));
        let s = Session::<Saucers>::new(2, config).unwrap_or_else(|e| panic!("{e}"));
        let st = s.state();
        (0..st.seats.len() as u8)
            .map(|seat| st.gang_of(seat).id.clone())
            .collect()
    };
    let want = ["sewer_rats", "fly_boyz"];
    assert_eq!(
        seats(r#"{"players":2,"gangs":["sewer_rats","fly_boyz"]}"#),
        want
    );
    assert_eq!(
        seats(r#"{"players":2,"gangs":"sewer_rats, fly_boyz"}"#),
        want
    );
    assert_eq!(
        seats(r#"{"players":1,"gangs":"nine_lives"}"#),
        ["nine_lives"]
    );
    // An empty string, or one of commas and spaces, names no gang (review18
    // N3): refused in words, never read as "the default gangs".
    for json in [
        r#"{"players":2,"gangs":""}"#,
        r#"{"players":2,"gangs":" , "}"#,
    ] {
        let err = serde_json::from_str::<SaucersConfig>(json)
            .expect_err("no gang named")
            .to_string();
        assert!(err.contains("names no gang"), "{json}: {err}");
    }
    let err =
        serde_json::from_str::<SaucersConfig>(r#"{"players":2,"gangs":"nine_lives,,fly_boyz"}"#)
            .expect_err("a blank between commas")
            .to_string();
    assert!(err.contains("empty id between its commas"), "{err}");
    let err = serde_json::from_str::<SaucersConfig>(r#"{"players":2,"gangs":7}"#)
        .expect_err("a number names no gang")
        .to_string();
    assert!(err.contains("separated by commas"), "{err}");
    let config: SaucersConfig =
        serde_json::from_str(r#"{"players":2,"gangs":"nine_lives,dragons"}"#).unwrap();
    let err = Session::<Saucers>::new(2, config)
        .err()
        .expect("no such gang")
        .0;
    assert!(err.contains("dragons"), "{err}");
}
