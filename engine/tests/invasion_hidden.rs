//! Hidden information in Alien Invasion: the Action deck is face down
//! ("Action cards", "Mechanics of Play": cards are drawn from a prepared
//! deck and announced; "If the deck is exhausted the discard pile is
//! shuffled"). A seat sees the deck's count and make-up, never its order:
//! `Game::view` shows it sorted and `Game::view_event` shows a shuffle
//! sorted, alike for every seat.

#[path = "support/invasion.rs"]
mod support;

use support::*;
use xenolog_engine::games::invasion::rules::make_deck;
use xenolog_engine::games::invasion::{
    Invasion, InvasionCommand, InvasionEvent, InvasionState, state,
};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Battle, Game, Session};

fn seats(s: &InvasionState) -> Vec<Actor> {
    Invasion::seats(s)
}

/// The events of the game's own step under this seed's stream.
fn step_with(s: &InvasionState, seed: u64) -> Vec<InvasionEvent> {
    let c = Invasion::automatic(s).expect("a step is due");
    let mut rng = Randomness::new(seed, 0, None);
    Invasion::decide(s, Actor::SYSTEM, &c, &mut rng).expect("the step")
}

#[test]
fn action_cards_the_same_shuffle_under_two_seeds_gives_every_seat_the_same_view() {
    let s = given(&["unit", "daleks"]);
    let (a, b) = (step_with(&s, 1), step_with(&s, 2));
    let (InvasionEvent::Shuffled { deck: da }, InvasionEvent::Shuffled { deck: db }) =
        (&a[0], &b[0])
    else {
        panic!("the first step shuffles the deck: {a:?}");
    };
    assert_ne!(da, db, "two seeds shuffle the deck into two orders");
    // The shuffle as each seat sees it, and the state after it: the same.
    let (mut sa, mut sb) = (s.clone(), s.clone());
    state::apply(&mut sa, &a[0]);
    state::apply(&mut sb, &b[0]);
    assert_ne!(sa, sb);
    for seat in seats(&s) {
        assert_eq!(
            Invasion::view_event(&a[0], seat),
            Invasion::view_event(&b[0], seat),
            "the shuffle tells {seat:?} nothing of the order"
        );
        assert_eq!(Invasion::view(&sa, seat), Invasion::view(&sb, seat));
        // Its count and make-up stay public.
        let mut all = make_deck(&s);
        all.sort_unstable();
        assert_eq!(Invasion::view(&sa, seat).deck, all);
    }
}

#[test]
fn action_cards_every_seat_sees_the_deck_alike_so_no_seat_is_curtained() {
    let mut s = given(&["unit", "daleks", "mib"]);
    let mut n = 0;
    while s.round < 3 {
        if Invasion::automatic(&s).is_some() {
            step(&mut s, &[]);
        } else {
            let seat = s.card().and_then(|c| c.seat).expect("a faction's card");
            play(&mut s, seat, r#""end_card""#, &[]);
        }
        n += 1;
        assert!(n < 200);
        let first = Invasion::view(&s, Actor(0));
        for seat in seats(&s) {
            assert_eq!(Invasion::view(&s, seat), first);
        }
        assert!(first.deck.is_sorted());
    }
    // The battle as the app and the club server see it: something is
    // hidden (the deck's order), but from every seat alike (no hot-seat
    // curtain is needed).
    let mut b = Session::<Invasion>::new(
        5,
        xenolog_engine::games::invasion::InvasionConfig {
            scenario: "skirmish".into(),
            ..Default::default()
        },
    )
    .unwrap();
    b.play_due().unwrap();
    let battle: &dyn Battle = &b;
    assert!(battle.hides_information());
    assert!(!battle.seats_see_differently());
}

/// Play a two-faction battle by ending every card at once (the game's own
/// steps between), past two reshuffles of the discard pile, and fold the
/// events as a seat sees them beside the real ones: the seat's fold is
/// always the view of the real state (the drawn cards leave the deck by
/// what they are, so a sorted deck folds to the same make-up).
#[test]
fn mechanics_of_play_the_discard_pile_shuffled_into_the_deck_stays_hidden_and_folds_alike() {
    let mut s = given(&["unit", "daleks"]);
    let mut seen: Vec<InvasionState> = seats(&s).iter().map(|&a| Invasion::view(&s, a)).collect();
    let mut shuffles = 0;
    let mut n = 0u64;
    while shuffles < 3 {
        let (actor, c) = match Invasion::automatic(&s) {
            Some(c) => (Actor::SYSTEM, c),
            None => (
                Actor(s.card().and_then(|c| c.seat).expect("a faction's card")),
                InvasionCommand::EndCard,
            ),
        };
        let mut rng = Randomness::new(n, 0, None);
        let events = Invasion::decide(&s, actor, &c, &mut rng).expect("decided");
        for e in &events {
            if let InvasionEvent::Shuffled { deck } = e {
                shuffles += 1;
                // The real event carries an order a seat must not learn.
                assert!(!deck.is_sorted(), "a shuffled deck in draw order");
            }
            state::apply(&mut s, e);
            for (i, &seat) in seats(&s).iter().enumerate() {
                state::apply(&mut seen[i], &Invasion::view_event(e, seat));
            }
        }
        for (i, &seat) in seats(&s).iter().enumerate() {
            assert_eq!(seen[i], Invasion::view(&s, seat), "after command {n}");
        }
        n += 1;
        assert!(n < 2000, "three shuffles come");
    }
    assert!(s.round > 5);
    // Each draw still took the top of the deck (the last cards).
    let before = s.deck.clone();
    let mut t = s.clone();
    while t.card().is_some() {
        let seat = t.card().and_then(|c| c.seat);
        match seat {
            Some(seat) if Invasion::automatic(&t).is_none() => {
                play(&mut t, seat, r#""end_card""#, &[]);
            }
            _ => {
                step(&mut t, &[]);
            }
        }
    }
    let p = step(&mut t, &[]);
    if let Some(InvasionEvent::Drew { cards, .. }) = p.events.last()
        && !p
            .events
            .iter()
            .any(|e| matches!(e, InvasionEvent::Shuffled { .. }))
    {
        let top: Vec<_> = before.iter().rev().take(cards.len()).copied().collect();
        assert_eq!(&top, cards);
        assert_eq!(t.deck, before[..before.len() - cards.len()]);
    }
}
