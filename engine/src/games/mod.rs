//! The games Xenolog plays, and the registry that finds one by id.
//!
//! Each game lives in its own module with its rules, its content data (under
//! `engine/data/<game>/`, compiled in and replaceable by the player's own files)
//! and a `RULES.md` mapping each clause of the rule text to code and tests.
//!
//! The registry is one table, [`REGISTRY`]: a game is added by writing its
//! module and adding its entry there (`built::<MyGame>(Seats::new(2, 4, "faction"), false)`);
//! starting, loading, listing and the conformance test that every game must
//! pass (`tests/tests/conformance.rs`) all read the table.

use serde_json::Value;

use crate::battle::Battle;
use crate::game::{Game, GameOption, ScenarioInfo};
use crate::session::{LoadError, Session, StoredBattle};

/// The part of a game's `impl Game` that only hands a call on to the game's
/// own modules, said once for every game. Inside `impl Game for X { .. }`,
/// `scenario: id, name, description;` (first, if at all) gives the one
/// scenario of a game that ships one, `types: Config, State, Command, Event;`
/// names the four associated types, and each `method: path;` after them writes the trait's `method` as a call
/// of `path` with the method's own arguments (`decide: rules::decide;`, see
/// `game_part!`). Several may stand on one line. A method a game writes
/// itself (its outcome, its view, a delegation that drops an argument)
/// stays written out beside it.
macro_rules! game_parts {
    (
        $(scenario: $id:literal, $name:literal, $description:literal;)?
        types: $config:ty, $state:ty, $command:ty, $event:ty;
        $($method:ident: $f:path;)*
    ) => {
        type Config = $config;
        type State = $state;
        type Command = $command;
        type Event = $event;
        $(
            fn scenarios() -> Vec<crate::game::ScenarioInfo> {
                vec![crate::game::ScenarioInfo {
                    id: $id.into(),
                    name: $name.into(),
                    description: $description.into(),
                }]
            }
        )?
        $(game_part!($method $f);)*
    };
}

/// One method of `game_parts!`: `game_part!(decide rules::decide)`.
macro_rules! game_part {
    (command_from_json $f:path) => {
        fn command_from_json(
            state: &Self::State,
            actor: crate::Actor,
            json: &serde_json::Value,
        ) -> Result<Self::Command, String> {
            $f(state, actor, json)
        }
    };
    (setup $f:path) => {
        fn setup(config: &Self::Config) -> Result<Self::State, crate::game::SetupError> {
            $f(config)
        }
    };
    (setup_recorded $f:path) => {
        fn setup_recorded(
            config: &Self::Config,
            rules_version: u32,
        ) -> Result<Self::State, crate::game::SetupError> {
            $f(config, rules_version)
        }
    };
    (decide $f:path) => {
        fn decide(
            state: &Self::State,
            actor: crate::Actor,
            command: &Self::Command,
            rng: &mut crate::Randomness,
        ) -> Result<Vec<Self::Event>, crate::RuleError> {
            $f(state, actor, command, rng)
        }
    };
    (decide_and_apply $f:path) => {
        fn decide_and_apply(
            state: &Self::State,
            actor: crate::Actor,
            command: &Self::Command,
            rng: &mut crate::Randomness,
        ) -> Result<(Vec<Self::Event>, Self::State), crate::RuleError> {
            $f(state, actor, command, rng)
        }
    };
    (apply $f:path) => {
        fn apply(state: &mut Self::State, event: &Self::Event) {
            $f(state, event)
        }
    };
    (legal $f:path) => {
        fn legal(state: &Self::State) -> Vec<(crate::Actor, Self::Command)> {
            $f(state)
        }
    };
    (automatic $f:path) => {
        fn automatic(state: &Self::State) -> Option<Self::Command> {
            $f(state)
        }
    };
    (asked $f:path) => {
        fn asked(state: &Self::State) -> Vec<crate::game::Ask> {
            $f(state)
        }
    };
    (describe_command $f:path) => {
        fn describe_command(
            state: &Self::State,
            actor: crate::Actor,
            command: &Self::Command,
        ) -> String {
            $f(state, actor, command)
        }
    };
    (describe_event $f:path) => {
        fn describe_event(state: &Self::State, event: &Self::Event) -> String {
            $f(state, event)
        }
    };
    (scene $f:path) => {
        fn scene(state: &Self::State) -> crate::Scene {
            $f(state)
        }
    };
    (anchors $f:path) => {
        fn anchors(state: &Self::State, command: &Self::Command) -> crate::game::Anchors {
            $f(state, command)
        }
    };
    (moment $f:path) => {
        fn moment(state: &Self::State, event: &Self::Event) -> crate::Moment {
            $f(state, event)
        }
    };
}

/// The "Players" option of a game whose number of players is set per
/// battle: from `min` to `max`, two by default; `help` says who plays what.
pub(crate) fn players_option(help: &'static str, min: i64, max: i64) -> GameOption {
    GameOption {
        key: "players",
        group: "Players",
        label: "Players",
        help,
        kind: crate::game::OptionKind::Number {
            min,
            max,
            default: 2,
        },
    }
}

pub mod alien;
pub mod dimx;
pub mod hexwar;
pub mod highcard;
pub mod invasion;
pub mod race;
pub mod saucers;
pub mod words;

/// Who sits at a game: how many players, and what each one plays (a side,
/// a faction, a student...). The New battle dialog and `xenolog games` lay
/// it out; the seats of a battle are named from its config
/// (`Game::seat_name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Seats {
    pub min: u8,
    pub max: u8,
    /// What each player plays, singular: "side", "faction", "student".
    pub each: &'static str,
}

impl Seats {
    pub const fn new(min: u8, max: u8, each: &'static str) -> Self {
        Seats { min, max, each }
    }

    /// "2-6", or "2" when there is one count.
    pub fn range(&self) -> String {
        if self.min == self.max {
            self.min.to_string()
        } else {
            format!("{}-{}", self.min, self.max)
        }
    }

    /// "2 to 6 players, a faction each".
    pub fn words(&self) -> String {
        let count = if self.min == self.max {
            format!(
                "{} player{}",
                self.min,
                if self.min == 1 { "" } else { "s" }
            )
        } else {
            format!("{} to {} players", self.min, self.max)
        };
        let article = if self.each.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{count}, {article} {} each", self.each)
    }

    /// Whether `n` players may sit at it.
    pub fn allows(&self, n: usize) -> bool {
        (usize::from(self.min)..=usize::from(self.max)).contains(&n)
    }
}

/// A game as the command line and the app list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub seats: Seats,
    /// `false` for games that are listed but not built yet.
    pub available: bool,
    /// A small game for tests and benchmarks, not shown to players by default.
    pub test_only: bool,
    pub scenarios: Vec<ScenarioInfo>,
    /// The options of its config (see [`crate::Game::options`]).
    pub options: Vec<GameOption>,
    /// This build's rules version of the game (0 for a game not built yet).
    pub rules_version: u32,
}

/// One game in the registry: what lists it, starts a battle of it and
/// rebuilds a stored one.
pub struct Entry {
    pub id: &'static str,
    pub name: &'static str,
    pub seats: Seats,
    pub test_only: bool,
    /// `None` for a game that is listed but not built yet.
    pub rules: Option<Rules>,
}

/// Starts a battle: seed, config (JSON), strict.
pub type StartFn = fn(u64, &Value, bool) -> Result<Box<dyn Battle>, NewBattleError>;
/// Rebuilds a battle from its stored parts.
pub type LoadFn = fn(StoredBattle) -> Result<Box<dyn Battle>, LoadError>;

/// What a built game gives the registry: its functions, instantiated once.
#[derive(Clone, Copy)]
pub struct Rules {
    pub rules_version: u32,
    pub scenarios: fn() -> Vec<ScenarioInfo>,
    pub options: fn() -> Vec<GameOption>,
    pub start: StartFn,
    pub load: LoadFn,
    /// Whether a JSON value is a state of this game, read and written back
    /// unchanged (see [`crate::seat::game_of_state`]).
    pub is_state: fn(&Value) -> bool,
    /// Opens a seat's battle over what it received (see
    /// [`crate::seat::seat_battle`]).
    pub open_seat: fn(&crate::seat::SeatLog) -> Result<Box<dyn Battle>, String>,
}

/// The registry entry of a built game.
pub const fn built<G: Game>(seats: Seats, test_only: bool) -> Entry {
    Entry {
        id: G::ID,
        name: G::NAME,
        seats,
        test_only,
        rules: Some(Rules {
            rules_version: G::RULES_VERSION,
            scenarios: G::scenarios,
            options: G::options,
            start: start::<G>,
            load: load::<G>,
            is_state: is_state_of::<G>,
            open_seat: crate::seat::open::<G>,
        }),
    }
}

/// The registry entry of a game that is listed but not built yet.
pub const fn coming(id: &'static str, name: &'static str, seats: Seats) -> Entry {
    Entry {
        id,
        name,
        seats,
        test_only: false,
        rules: None,
    }
}

/// Every game, in the order the app lists them: the one table that knows them.
pub static REGISTRY: &[Entry] = &[
    built::<dimx::DimX>(Seats::new(1, 2, "side"), false),
    built::<saucers::Saucers>(Seats::new(1, 4, "set of students"), false),
    built::<alien::Alien>(Seats::new(2, 7, "side (the Alien or a crew member)"), false),
    built::<invasion::Invasion>(Seats::new(2, 6, "faction"), false),
    built::<race::Race>(Seats::new(2, 2, "racer"), true),
    built::<highcard::HighCard>(Seats::new(2, 2, "hand"), true),
    built::<hexwar::HexWar>(Seats::new(2, 2, "side"), true),
];

impl Entry {
    /// The entry as the app and the command line list it.
    pub fn info(&self) -> GameInfo {
        GameInfo {
            id: self.id,
            name: self.name,
            seats: self.seats,
            available: self.rules.is_some(),
            test_only: self.test_only,
            scenarios: self.rules.map(|r| (r.scenarios)()).unwrap_or_default(),
            options: self.rules.map(|r| (r.options)()).unwrap_or_default(),
            rules_version: self.rules.map_or(0, |r| r.rules_version),
        }
    }
}

/// The registry entry of a game id.
pub fn entry(id: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.id == id)
}

/// Every game, in the order the app lists them.
pub fn games() -> Vec<GameInfo> {
    REGISTRY.iter().map(Entry::info).collect()
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
    REGISTRY
        .iter()
        .filter(|g| g.rules.is_some())
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

/// Whether a view state (JSON) is a state of `G`: it parses, and writes
/// back as it came (a state of another game may parse with defaults, but
/// does not write back the same).
fn is_state_of<G: Game>(v: &Value) -> bool {
    serde_json::from_value::<G::State>(v.clone())
        .ok()
        .and_then(|s| serde_json::to_value(s).ok())
        .is_some_and(|back| &back == v)
}

fn load<G: Game>(parts: StoredBattle) -> Result<Box<dyn Battle>, LoadError> {
    Ok(Box::new(Session::<G>::from_parts(parts)?))
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
    match entry(game) {
        Some(Entry {
            rules: Some(rules), ..
        }) => (rules.start)(seed, config, strict),
        Some(e) => Err(NewBattleError::NotYet(e.name)),
        None => Err(NewBattleError::UnknownGame(game.to_owned(), known_ids())),
    }
}

/// Rebuild a stored battle.
pub fn load_battle(parts: StoredBattle) -> Result<Box<dyn Battle>, LoadError> {
    match entry(&parts.meta.game).and_then(|e| e.rules) {
        Some(rules) => (rules.load)(parts),
        None => Err(LoadError::Other(format!(
            "this battle is of game '{}', which this build of Xenolog does not know",
            parts.meta.game
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_id_is_in_the_registry_once() {
        let mut ids: Vec<&str> = REGISTRY.iter().map(|e| e.id).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "a game id is listed twice");
    }

    #[test]
    fn an_unknown_game_lists_the_built_ones() {
        let err = new_battle("chess", 1, &Value::Null).err().unwrap();
        assert!(
            err.to_string()
                .contains("dimx, saucers, alien, invasion, race, highcard, hexwar"),
            "{err}"
        );
    }
}
