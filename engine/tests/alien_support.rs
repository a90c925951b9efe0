//! Helpers shared by the Alien integration tests (included with `#[path]`):
//! a battle from a position file, commands decided with entered dice and
//! applied, tiles and characters by name.
#![allow(dead_code)]

use xenolog_engine::games::alien::data::Tile;
use xenolog_engine::games::alien::rules::{self, AlienCommand};
use xenolog_engine::games::alien::state::{self, AlienEvent, AlienState};
use xenolog_engine::games::alien::{Alien, AlienConfig, start};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Game, RuleError};

pub const ALIEN: Actor = Actor(0);
pub const EXPEDITION: Actor = Actor(1);

/// A two-player battle (option 1) from a position file.
pub fn at(position: &str) -> AlienState {
    with(AlienConfig {
        scenario_text: Some(position.to_owned()),
        ..AlienConfig::default()
    })
}

pub fn with(config: AlienConfig) -> AlienState {
    start(&config).unwrap_or_else(|e| panic!("setup: {e}"))
}

pub fn tile(s: &AlienState, name: &str) -> Tile {
    s.content
        .base
        .tile(name)
        .unwrap_or_else(|| panic!("no tile {name}"))
}

pub fn name(s: &AlienState, t: Tile) -> String {
    s.content.base.name(t)
}

/// A character's index by id.
pub fn ch(s: &AlienState, id: &str) -> u8 {
    s.characters
        .iter()
        .position(|c| s.content.characters[usize::from(c.card)].id == id)
        .unwrap_or_else(|| panic!("no character {id}")) as u8
}

/// Decide with these entered dice (none: the battle's stream) and apply.
pub fn try_act(
    s: &mut AlienState,
    actor: Actor,
    cmd: AlienCommand,
    dice: &[u8],
) -> Result<Vec<AlienEvent>, RuleError> {
    let entered = (!dice.is_empty()).then(|| dice.to_vec());
    let mut rng = Randomness::new(7, 0, entered);
    let events = rules::decide(s, actor, &cmd, &mut rng)?;
    rng.finish()?;
    for e in &events {
        state::apply(s, e);
    }
    Ok(events)
}

pub fn act(s: &mut AlienState, actor: Actor, cmd: AlienCommand, dice: &[u8]) -> Vec<AlienEvent> {
    try_act(s, actor, cmd.clone(), dice).unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"))
}

/// The refusal of a command, with its clause.
pub fn refused(s: &AlienState, actor: Actor, cmd: AlienCommand) -> RuleError {
    let mut probe = s.clone();
    match try_act(&mut probe, actor, cmd.clone(), &[]) {
        Ok(e) => panic!("{cmd:?} was accepted: {e:?}"),
        Err(e) => e,
    }
}

/// Play the game's own steps until a player is asked.
pub fn steps(s: &mut AlienState) -> Vec<AlienEvent> {
    let mut all = Vec::new();
    while let Some(cmd) = Alien::automatic(s) {
        all.extend(act(s, Actor::SYSTEM, cmd, &[]));
    }
    all
}

/// Events in words.
pub fn words(s: &AlienState, events: &[AlienEvent]) -> Vec<String> {
    let mut st = s.clone();
    events
        .iter()
        .map(|e| {
            let w = Alien::describe_event(&st, e);
            state::apply(&mut st, e);
            w
        })
        .collect()
}

/// A tile of the shipped base by name.
pub fn t(name: &str) -> Tile {
    let base =
        xenolog_engine::games::alien::data::parse_base(xenolog_engine::games::alien::data::BASE)
            .unwrap();
    base.tile(name).unwrap_or_else(|| panic!("no tile {name}"))
}
