//! The games Xenolog plays, and the registry that finds one by id.
//!
//! Each game lives in its own module with its rules, its content data (under
//! `engine/data/<game>/`, compiled in and replaceable by the player's own files)
//! and a `RULES.md` mapping each clause of the rule text to code and tests.

use serde_json::Value;

use crate::battle::Battle;
use crate::game::{Game, ScenarioInfo};
use crate::session::{LoadError, Session, StoredBattle};

pub mod dimx;
pub mod race;

/// A game as the command line and the app list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub players: &'static str,
    /// `false` for games that are listed but not built yet.
    pub available: bool,
    /// A small game for tests and benchmarks, not shown to players by default.
    pub test_only: bool,
    pub scenarios: Vec<ScenarioInfo>,
}

fn info<G: Game>(players: &'static str, test_only: bool) -> GameInfo {
    GameInfo {
        id: G::ID,
        name: G::NAME,
        players,
        available: true,
        test_only,
        scenarios: G::scenarios(),
    }
}

fn coming(id: &'static str, name: &'static str, players: &'static str) -> GameInfo {
    GameInfo {
        id,
        name,
        players,
        available: false,
        test_only: false,
        scenarios: Vec::new(),
    }
}

/// Every game, in the order the app lists them.
pub fn games() -> Vec<GameInfo> {
    vec![
        info::<dimx::DimX>("1-2", false),
        coming("saucers", "Night of the Saucers", "1-4"),
        coming("alien", "Alien", "2-7"),
        coming("invasion", "Alien Invasion", "2-6"),
        info::<race::Race>("2", true),
    ]
}

/// Why a battle could not be started.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NewBattleError {
    #[error("there is no game called '{0}' (try one of: {1})")]
    UnknownGame(String, String),
    #[error("{0} is not built yet: it is on the roadmap")]
    NotYet(&'static str),
    #[error("bad options for {game}: {why}")]
    Config { game: &'static str, why: String },
    #[error("{0}")]
    Setup(#[from] crate::game::SetupError),
}

fn known_ids() -> String {
    games()
        .iter()
        .filter(|g| g.available)
        .map(|g| g.id)
        .collect::<Vec<_>>()
        .join(", ")
}

fn start<G: Game>(
    seed: u64,
    config: &Value,
    strict: bool,
) -> Result<Box<dyn Battle>, NewBattleError> {
    let config: G::Config =
        serde_json::from_value(config.clone()).map_err(|e| NewBattleError::Config {
            game: G::NAME,
            why: e.to_string(),
        })?;
    Ok(Box::new(Session::<G>::new_with(seed, config, strict)?))
}

/// Start a battle of `game` with this seed and config (JSON; `{}` for defaults).
pub fn new_battle(
    game: &str,
    seed: u64,
    config: &Value,
) -> Result<Box<dyn Battle>, NewBattleError> {
    new_battle_with(game, seed, config, false)
}

/// Start a battle, strict or not (see [`crate::BattleMeta::strict`]).
pub fn new_battle_with(
    game: &str,
    seed: u64,
    config: &Value,
    strict: bool,
) -> Result<Box<dyn Battle>, NewBattleError> {
    match game {
        dimx::DimX::ID => start::<dimx::DimX>(seed, config, strict),
        race::Race::ID => start::<race::Race>(seed, config, strict),
        other => match games().into_iter().find(|g| g.id == other) {
            Some(g) => Err(NewBattleError::NotYet(g.name)),
            None => Err(NewBattleError::UnknownGame(other.to_owned(), known_ids())),
        },
    }
}

/// Rebuild a stored battle.
pub fn load_battle(parts: StoredBattle) -> Result<Box<dyn Battle>, LoadError> {
    fn load<G: Game>(parts: StoredBattle) -> Result<Box<dyn Battle>, LoadError> {
        Ok(Box::new(Session::<G>::from_parts(parts)?))
    }
    match parts.meta.game.as_str() {
        dimx::DimX::ID => load::<dimx::DimX>(parts),
        race::Race::ID => load::<race::Race>(parts),
        other => Err(LoadError::Other(format!(
            "this battle is of game '{other}', which this build of Xenolog does not know"
        ))),
    }
}
