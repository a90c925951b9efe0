//! What a seat may see: the Action deck is face down.
//!
//! "Groups' and individuals' actions are regulated by drawing cards from a
//! prepared deck" and "If the deck is exhausted the discard pile is
//! shuffled and cards drawn as before": no player knows the order of the
//! deck, only what is in it (each faction's Single, Double and Triple cards
//! and the Special Event cards, less those drawn, all announced). The state
//! keeps the deck in draw order (top last) and the `Shuffled` event carries
//! that order, so both are shown to every seat alike with the deck sorted:
//! its count and make-up stay public, the coming cards do not. Nothing else
//! in the state, an event or a command tells a future draw (the drawn cards
//! are announced, the discard pile lies face up; dice are rolled as they
//! are needed). Every seat sees the same: the hot-seat curtain is not for
//! a deck that is hidden from every seat alike.

use super::state::{InvasionEvent, InvasionState};

/// The state as a seat may see it: the deck sorted.
pub fn view(state: &InvasionState) -> InvasionState {
    let mut seen = state.clone();
    seen.deck.sort_unstable();
    seen
}

/// An event as a seat may see it: a shuffle shows the deck sorted.
pub fn view_event(event: &InvasionEvent) -> InvasionEvent {
    match event {
        InvasionEvent::Shuffled { deck } => {
            let mut deck = deck.clone();
            deck.sort_unstable();
            InvasionEvent::Shuffled { deck }
        }
        e => e.clone(),
    }
}
