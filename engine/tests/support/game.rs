//! What every game's test support does the same way, written once
//! (included with `#[path]` by each game's support module): decide a command
//! and fold its events, and the log in words.
#![allow(dead_code)]

use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Game, RuleError};

/// Decide a command with the stream of `seed` (or these entered dice, every
/// one of which must be used) and apply its events; a refusal changes
/// nothing.
pub fn decide_and_apply<G: Game>(
    state: &mut G::State,
    actor: Actor,
    command: &G::Command,
    seed: u64,
    entered: Option<Vec<u8>>,
) -> Result<Vec<G::Event>, RuleError> {
    let mut rng = Randomness::new(seed, 0, entered);
    let events = G::decide(state, actor, command, &mut rng)?;
    rng.finish()?;
    for e in &events {
        G::apply(state, e);
    }
    Ok(events)
}

/// Every event in words, each described against the state before it (the
/// game's own `describe_event`, then `apply`).
pub fn words_of<G: Game>(before: &G::State, events: &[G::Event]) -> Vec<String> {
    let mut st = before.clone();
    events
        .iter()
        .map(|e| {
            let w = G::describe_event(&st, e);
            G::apply(&mut st, e);
            w
        })
        .collect()
}
