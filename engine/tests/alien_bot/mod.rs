//! The random bot of Alien's autoplay tests, shared with the
//! `alien_replay` example (`engine/examples/alien_replay.rs`), so that a
//! seed of the soak can be replayed and looked into outside the test.

use xenolog_engine::Session;
use xenolog_engine::games::alien::rules;
use xenolog_engine::games::alien::{Alien, AlienCommand, AlienConfig, AlienState};

#[path = "../support/bot.rs"]
mod bot;

/// The config of battle `n`: 2 to 7 players, both ways to kill the Queen,
/// the battle options on and off.
pub fn config(n: u64) -> AlienConfig {
    AlienConfig {
        players: 2 + (n % 6) as u8,
        queen: 1 + (n % 2) as u8,
        tasks: 1 + (n % 3) as u8,
        keep_base_whole: n % 4 >= 2,
        bishop_shoots: n.is_multiple_of(5),
        ..AlienConfig::default()
    }
}

/// A blow that would seal a part of the base off (5): legal by the text's
/// reading (the default), but a character shut in so can never be reached
/// by an alien nor reach the ship, and the battle has no end. The bot, like
/// players who mean to finish, gives no such blow.
fn seals_off(s: &AlienState, cmd: &AlienCommand) -> bool {
    matches!(cmd, AlienCommand::Blow { at, .. } if rules::cuts_the_base(s, *at))
}

/// Battle `seed` played by the random bot for at most `cap` commands: the
/// game's own steps as they fall due, then one legal command picked at
/// random. Panics (naming the seed) when no command is legal while the
/// battle goes on, or when a legal command is refused.
pub fn play(seed: u64, config: AlienConfig, cap: usize) -> Session<Alien> {
    bot::random_battle(
        seed,
        config,
        0x5eed,
        cap,
        |s, c| !seals_off(s, c),
        |_, _| {},
    )
}
