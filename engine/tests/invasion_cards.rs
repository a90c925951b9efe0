//! Rule text 000, "Action cards" and "Mechanics of Play": the deck, the
//! draw, the order of play and what each card allows.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::rules::make_deck;
use xenolog_engine::games::invasion::state::{Card, CardKind, InvasionEvent as E, Place};

fn count(deck: &[Card], seat: Option<u8>, kind: CardKind) -> usize {
    deck.iter()
        .filter(|c| c.seat == seat && c.kind == kind)
        .count()
}

// ---- "Action cards" -------------------------------------------------------------

#[test]
fn action_cards_each_faction_gets_5_single_3_double_1_triple() {
    let s = given(&["unit", "daleks", "mib", "spugs"]);
    let deck = make_deck(&s);
    for seat in 0..4 {
        assert_eq!(count(&deck, Some(seat), CardKind::Single), 5);
        assert_eq!(count(&deck, Some(seat), CardKind::Double), 3);
        assert_eq!(count(&deck, Some(seat), CardKind::Triple), 1);
    }
}

#[test]
fn action_cards_one_special_event_card_per_faction_up_to_four() {
    let mut s = given(&["unit", "daleks"]);
    assert_eq!(count(&make_deck(&s), None, CardKind::Special), 2);
    assert_eq!(make_deck(&s).len(), 2 * 9 + 2);
    let s4 = given(&["unit", "daleks", "mib", "spugs"]);
    assert_eq!(count(&make_deck(&s4), None, CardKind::Special), 4);
    // Six factions: still four.
    let extra = s.factions[0].clone();
    for _ in 0..4 {
        s.factions.push(extra.clone());
    }
    assert_eq!(count(&make_deck(&s), None, CardKind::Special), 4);
    assert_eq!(make_deck(&s).len(), 6 * 9 + 4);
}

#[test]
fn action_cards_a_faction_file_may_change_its_number_of_cards() {
    // "Some factions can be given advantages or disadvantages by increasing
    // or decreasing the number or type of Action Cards for them."
    let mut s = given(&["unit", "daleks"]);
    s.factions[1].cards.single = 7;
    s.factions[1].cards.triple = 0;
    let deck = make_deck(&s);
    assert_eq!(count(&deck, Some(1), CardKind::Single), 7);
    assert_eq!(count(&deck, Some(1), CardKind::Triple), 0);
}

// ---- "Mechanics of Play" ----------------------------------------------------------

fn drawn(p: &Played) -> Vec<Card> {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Drew { cards, .. } => Some(cards.clone()),
            _ => None,
        })
        .expect("a draw")
}

#[test]
fn mechanics_of_play_four_cards_are_drawn_when_fewer_than_four_factions() {
    let mut s = given(&["unit", "daleks"]);
    let p = step(&mut s, &[]);
    assert!(matches!(p.events[0], E::Shuffled { ref deck } if deck.len() == 20));
    assert_eq!(drawn(&p).len(), 4);
    assert_eq!(s.deck.len(), 16);
    p.assert_says("round 1: drew ");
}

#[test]
fn mechanics_of_play_as_many_cards_as_factions_when_four_or_more() {
    let mut s = given(&["unit", "daleks", "mib", "spugs"]);
    let extra = s.factions[0].clone();
    s.factions.push(extra);
    s.kills.push(0);
    let p = step(&mut s, &[]);
    assert_eq!(drawn(&p).len(), 5);
}

#[test]
fn mechanics_of_play_when_the_deck_is_exhausted_the_discard_pile_is_shuffled() {
    let mut s = given(&["unit", "daleks"]);
    s.shuffled = true;
    let all = make_deck(&s);
    // Two cards left, the rest discarded.
    s.deck = all[..2].to_vec();
    s.discard = all[2..].to_vec();
    let p = step(&mut s, &[]);
    match &p.events[0] {
        E::Shuffled { deck } => assert_eq!(deck.len(), 20),
        e => panic!("expected a shuffle, got {e:?}"),
    }
    assert_eq!(drawn(&p).len(), 4);
    assert!(s.discard.is_empty());
    assert_eq!(s.deck.len(), 16);
}

#[test]
fn mechanics_of_play_cards_are_played_in_order_and_go_to_the_discard_pile() {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 10,20; d1 at 30,20");
    seat_cards(&mut s, &[(0, CardKind::Single), (1, CardKind::Single)]);
    let e = refused(&mut s, 1, &move_to(dal, 2900, 2000), &[]);
    assert_eq!(
        e.message,
        "the card in play is a Single Action card for U.N.I.T."
    );
    play(&mut s, 0, &move_to(sec, 1100, 2000), &[]);
    // The Single card is used up: the game finishes it.
    let p = step(&mut s, &[]);
    p.assert_says("the U.N.I.T. Single card is done");
    assert_eq!(s.discard.len(), 1);
    assert_eq!(s.card().unwrap().seat, Some(1));
    play(&mut s, 1, &move_to(dal, 2900, 2000), &[]);
    step(&mut s, &[]);
    // Once the cards have been used another set is drawn.
    let p = step(&mut s, &[]);
    p.assert_says("round 1: drew ");
}

#[test]
fn action_cards_single_allows_one_group_one_action() {
    let (mut s, [a, b]) = given_at(&["unit", "daleks"], "s1 at 10,20; s2 at 10,15");
    seat_cards(&mut s, &[(0, CardKind::Single), (1, CardKind::Single)]);
    play(&mut s, 0, &move_to(a, 1000, 2200), &[]);
    assert!(xenolog_engine::games::invasion::rules::automatic(&s).is_some());
    let e = refused(&mut s, 0, &move_to(b, 1000, 1600), &[]);
    assert_eq!(e.message, "the game takes a step of its own first");
}

#[test]
fn action_cards_double_allows_one_group_two_actions() {
    let (mut s, [a]) = given_at(&["unit", "daleks"], "s1 at 10,20");
    card(&mut s, 0, CardKind::Double);
    play(&mut s, 0, &move_to(a, 1000, 2500), &[]);
    play(&mut s, 0, &move_to(a, 1600, 2500), &[]);
    assert_eq!(s.actions_left(), 0);
}

#[test]
fn action_cards_double_allows_two_groups_one_action_each() {
    let (mut s, [a, b, _]) = given_at(&["unit", "daleks"], "s1 at 10,20; s2 at 10,15; s3 at 20,15");
    seat_cards(&mut s, &[(0, CardKind::Double), (1, CardKind::Single)]);
    play(&mut s, 0, &move_to(a, 1000, 2200), &[]);
    play(&mut s, 0, &move_to(b, 1000, 1700), &[]);
    assert_eq!(s.actions_left(), 0);
    assert!(xenolog_engine::games::invasion::rules::automatic(&s).is_some());
}

#[test]
fn action_cards_triple_allows_three_groups_one_each_or_one_and_two() {
    let (mut s, [a, b, c, d]) = given_at(
        &["unit", "daleks"],
        "s1 at 10,20; s2 at 10,15; s3 at 20,15; s4 at 20,20",
    );
    let base = s.clone();
    card(&mut s, 0, CardKind::Triple);
    for (g, y) in [(a, 2100), (b, 1600), (c, 1600)] {
        let x = if g == c { 2000 } else { 1000 };
        play(
            &mut s,
            0,
            &format!(r#"{{"move":{{"group":{g},"to":{{"x":{x},"y":{y}}}}}}}"#),
            &[],
        );
    }
    assert_eq!(s.actions_left(), 0);
    // One group one action, another two.
    let mut s = base.clone();
    card(&mut s, 0, CardKind::Triple);
    play(&mut s, 0, &move_to(a, 1000, 2100), &[]);
    play(&mut s, 0, &move_to(d, 2000, 2300), &[]);
    play(&mut s, 0, &move_to(d, 2000, 2600), &[]);
    assert_eq!(s.actions_left(), 0);
    // One group three actions.
    let mut s = base;
    card(&mut s, 0, CardKind::Triple);
    for y in [2100, 2200, 2300] {
        play(
            &mut s,
            0,
            &format!(r#"{{"move":{{"group":{a},"to":{{"x":1000,"y":{y}}}}}}}"#),
            &[],
        );
    }
    assert_eq!(s.actions_left(), 0);
}

#[test]
fn action_cards_a_fourth_action_on_a_triple_card_is_refused_with_the_clause() {
    let (mut s, [a, dal]) = given_at(&["unit", "daleks"], "s1 at 10,20; d1 at 10,10");
    seat_cards(&mut s, &[(0, CardKind::Triple), (1, CardKind::Single)]);
    play(&mut s, 0, &shoot(&[a, a], dal), &[1; 16]);
    when_seat(&mut s, 0, &shoot(&[a, a], dal))
        .refused("[Action cards] the Triple card gives 3 actions, and 1 is left");
}

#[test]
fn action_cards_a_player_is_never_required_to_use_all_the_actions() {
    let mut s = given(&["unit", "daleks"]);
    seat_cards(&mut s, &[(0, CardKind::Triple), (1, CardKind::Single)]);
    assert!(is_legal(&s, r#""end_card""#));
    let p = play(&mut s, 0, r#""end_card""#, &[]);
    p.assert_says("the U.N.I.T. Triple card is done");
    assert_eq!(s.card().unwrap().seat, Some(1));
}

#[test]
fn action_cards_special_event_card_does_nothing_without_clean_up_teams_or_sewers() {
    let mut s = given(&["unit", "daleks"]);
    cards(
        &mut s,
        &[(None, CardKind::Special), (Some(1), CardKind::Single)],
    );
    let p = step(&mut s, &[]);
    assert_eq!(p.events, vec![E::Nothing, E::CardDone]);
    p.assert_says("nothing happens");
}

#[test]
fn action_cards_special_event_card_brings_the_mib_clean_up_teams() {
    let mut s = given(&["mib", "daleks"]);
    let c1 = gid(&s, "c1");
    assert_eq!(s.group(c1).place, Place::Reserve);
    cards(
        &mut s,
        &[(None, CardKind::Special), (Some(1), CardKind::Single)],
    );
    let p = step(&mut s, &[]);
    assert_eq!(
        p.count(|e| matches!(e, E::Arrived { .. })),
        2,
        "both sections arrive"
    );
    p.assert_says("Men in Black Clean Up Alpha arrive (1D6 per man)");
    assert_eq!(s.group(c1).place, Place::Table);
    assert!(s.group(c1).placed());
}

#[test]
fn action_cards_only_the_cards_faction_acts_and_the_game_itself_only_steps() {
    let mut s = given(&["unit", "daleks"]);
    let e = refused(&mut s, 0, r#""end_card""#, &[]);
    assert!(
        e.message.contains("the game takes a step of its own first"),
        "{e}"
    );
    seat_cards(&mut s, &[(0, CardKind::Single), (1, CardKind::Single)]);
    let e = refused(&mut s, 255, r#""continue""#, &[]);
    assert!(
        e.message.contains("no step of the game's own is due"),
        "{e}"
    );
    let e = refused(&mut s, 0, r#""continue""#, &[]);
    assert!(e.message.contains("only the game itself"), "{e}");
}

/// Issue 28, rounds counted one way. "Once the cards have been used another
/// set of cards is drawn": Xenolog calls a set of cards drawn and played a
/// round (the text names no unit; the scenarios' length is in rounds). The
/// setup is round 1's drawing, so there is no round 0, and the log ("draws
/// the cards of round 2"), the timeline's flow and the game's word for a
/// turn ("Round") give one number for one moment.
#[test]
fn mechanics_of_play_a_set_of_cards_drawn_is_a_round_counted_from_1_in_every_word() {
    use xenolog_engine::games::invasion::Invasion;
    use xenolog_engine::{Actor, Game};
    // Then: the flow is round `n`'s drawing, and the game's step says so.
    let drawing_round = |s: &_, n: u32| {
        let f = Invasion::flow(s);
        assert_eq!((f.turn, f.phase.as_str()), (n, "Drawing cards"));
        let draw = Invasion::automatic(s).expect("the game draws");
        let says = Invasion::describe_command(s, Actor::SYSTEM, &draw);
        assert_eq!(says, format!("draws the cards of round {n}"));
    };
    let mut s = given(&["unit", "daleks"]);
    assert_eq!(Invasion::turn_word(), "Round");
    drawing_round(&s, 1);
    let p = step(&mut s, &[]);
    assert!(
        p.words.iter().any(|w| w.starts_with("round 1: drew")),
        "{:?}",
        p.words
    );
    let f = Invasion::flow(&s);
    assert_eq!(f.turn, 1, "round 1's cards are played in round 1");
    assert_ne!(f.phase, "Drawing cards");
    // Every card of the set used: the next set is round 2's, drawn in round 2.
    s.current = s.drawn.len();
    drawing_round(&s, 2);
}
