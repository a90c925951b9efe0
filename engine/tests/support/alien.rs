//! Helpers shared by the Alien integration tests (included with `#[path]`):
//! a battle from a position file, commands decided with entered dice and
//! applied, tiles and characters by name.
#![allow(dead_code)]

#[path = "game.rs"]
mod game;

use xenolog_engine::games::alien::data::{Item, Tile};
use xenolog_engine::games::alien::rules::AlienCommand;
use xenolog_engine::games::alien::state::{AlienEvent, AlienState};
use xenolog_engine::games::alien::{Alien, AlienConfig, start};
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

/// Given: this position (as `at`) in this phase of the turn.
pub fn at_phase(position: &str, phase: xenolog_engine::games::alien::state::Phase) -> AlienState {
    let mut s = at(position);
    s.phase = phase;
    s
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
    game::decide_and_apply::<Alien>(s, actor, &cmd, 7, entered)
}

pub fn act(s: &mut AlienState, actor: Actor, cmd: AlienCommand, dice: &[u8]) -> Vec<AlienEvent> {
    try_act(s, actor, cmd.clone(), dice).unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"))
}

/// The refusal of a command, with its clause.
/// Whether `legal` lists a command that `is` picks out.
pub fn offers(s: &AlienState, is: impl Fn(&AlienCommand) -> bool) -> bool {
    Alien::legal(s).iter().any(|(_, c)| is(c))
}

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
    game::words_of::<Alien>(s, events)
}

/// A tile of the shipped base by name.
pub fn t(name: &str) -> Tile {
    let base =
        xenolog_engine::games::alien::data::parse_base(xenolog_engine::games::alien::data::BASE)
            .unwrap();
    base.tile(name).unwrap_or_else(|| panic!("no tile {name}"))
}

// ---- given / when / then -------------------------------------------------------------
//
// A clause test reads: given a position (`at`, `with`), when a command (the
// constructors below) with its dice (`act`, `try_act`), then the events and
// the state, or `refused` and the clause it names.

/// When: a character shoots its first weapon at an alien with these charges.
pub fn shoot(ch: u8, alien: u16, charges: u8) -> AlienCommand {
    AlienCommand::Shoot {
        ch,
        weapon: 0,
        alien,
        charges,
    }
}

/// When: a character gives the item in this pocket to a neighbour.
pub fn give(ch: u8, pocket: u8, to: u8) -> AlienCommand {
    AlienCommand::Give { ch, pocket, to }
}

/// When: a character takes an item from the storage it stands in.
pub fn take(ch: u8, item: Item) -> AlienCommand {
    AlienCommand::Take { ch, item }
}

/// When: a character uses the medkit in this pocket on a patient.
pub fn heal(ch: u8, pocket: u8, patient: u8) -> AlienCommand {
    AlienCommand::Heal {
        ch,
        pocket,
        patient,
    }
}

/// When: a character drops the item in this pocket (`leave`: on the tile).
pub fn drop_item(ch: u8, pocket: u8, leave: bool) -> AlienCommand {
    AlienCommand::Drop { ch, pocket, leave }
}

/// When: a character sets off the explosive in this pocket at a tile.
pub fn blow(ch: u8, pocket: u8, at: Tile) -> AlienCommand {
    AlienCommand::Blow { ch, pocket, at }
}

/// When: a character throws the grenade in this pocket at a tile, striking
/// these three tiles.
pub fn throw(ch: u8, pocket: u8, at: Tile, area: Vec<Tile>) -> AlienCommand {
    AlienCommand::Throw {
        ch,
        pocket,
        at,
        area,
    }
}

/// When: a character moves to a tile.
pub fn move_to(ch: u8, to: &str) -> AlienCommand {
    AlienCommand::Move { ch, to: t(to) }
}

/// When: the APC drives to a tile.
pub fn drive(to: &str) -> AlienCommand {
    AlienCommand::Drive { to: t(to) }
}
