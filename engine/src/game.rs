//! The `Game` trait: what every game in Xenolog gives the engine.
//!
//! A game decides a command against a state into events (this may fail with a
//! [`RuleError`] that says in words which rule forbids it) and applies events to
//! a state (this may not fail, and needs no randomness and no I/O).

use std::fmt::Debug;

use serde::{Deserialize, Serialize as SerializeDerive};
use serde::{Serialize, de::DeserializeOwned};

pub use crate::basics::{Actor, RuleError, RuleErrorKind};
use crate::moments::{DieMeaning, Moment};
use crate::rng::Randomness;
use crate::scene::Scene;

/// Who is looking at a battle: one seat (its hand, not the others'), or
/// everyone (a finished battle, a referee, a report after the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, SerializeDerive, Deserialize)]
pub enum Viewer {
    All,
    Seat(Actor),
}

/// A seat the rules ask to act now, and what for. Several seats may be asked
/// at once (a casualty chosen by the target's player in the middle of the
/// shooter's action, an instant card any player may play, fire laid in
/// wait), as boardgame.io's active players with their stages.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct Ask {
    pub seat: Actor,
    /// What the seat is asked, in words: "activate a unit or end the Marine
    /// Action Phase", "choose a casualty", "may play an instant".
    pub what: String,
}

/// A battle that could not be set up (bad scenario, bad options).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// How a battle ended, typed so that nothing has to be read out of words:
/// reports and the campaign layer read the winners, scores and what became
/// of every model.
#[derive(Clone, Debug, Default, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct Outcome {
    /// The seats that won: one, several (a co-operative win), or none (a
    /// draw, or every seat lost).
    pub winners: Vec<Actor>,
    /// Points per seat, for games that score (in seat order); empty otherwise.
    #[serde(default)]
    pub scores: Vec<SeatScore>,
    /// What became of each model, unit or character that fought.
    #[serde(default)]
    pub pieces: Vec<PieceResult>,
    /// In words, e.g. "Kay'otz Major Victory (Summoning)".
    pub summary: String,
}

impl Outcome {
    /// An outcome with these winners and words, and nothing else.
    pub fn won(winners: Vec<Actor>, summary: impl Into<String>) -> Self {
        Self {
            winners,
            summary: summary.into(),
            ..Self::default()
        }
    }

    /// Whether `seat` is among the winners.
    pub fn is_winner(&self, seat: Actor) -> bool {
        self.winners.contains(&seat)
    }
}

/// A seat's points at the end of a battle.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct SeatScore {
    pub seat: Actor,
    pub points: i64,
}

/// What became of one model, unit or character.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct PieceResult {
    /// Its id in the battle (a scene item id where it has one).
    pub id: String,
    /// The seat it fought for.
    pub seat: Actor,
    pub fate: Fate,
    /// Enemies it put out of action, where the game counts them.
    pub kills: Option<u32>,
}

/// The end of a piece's battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub enum Fate {
    /// On the table when the battle ended.
    Survived,
    /// Left the battle alive (an exit, an escape, an evacuation).
    Escaped,
    /// Killed or destroyed.
    Killed,
    /// Never came into play (held back, in reserve, never drawn).
    NotDeployed,
}

/// Where an entry sits in the game's flow, for timeline ticks.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct FlowMark {
    pub turn: u32,
    pub phase: String,
}

/// Where a command sits on the board, so the app can offer it by clicking:
/// the scene item that acts (a unit) and the scene item clicked to give it
/// (a hex or a target). Both are ids of [`crate::scene::Item`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct Anchors {
    pub subject: Option<String>,
    pub target: Option<String>,
}

/// An option of a game's config, declared so that the New battle dialog and
/// the command line offer it without knowing the game.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive)]
pub struct GameOption {
    /// Its key in the config.
    pub key: &'static str,
    /// The heading it goes under in the New battle dialog, e.g. "Players".
    pub group: &'static str,
    /// What it is, e.g. "Two-player variant (a player runs the invaders)".
    pub label: &'static str,
    /// One line on what it does.
    pub help: &'static str,
    pub kind: OptionKind,
}

/// What values an option takes.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    Flag {
        default: bool,
    },
    Number {
        min: i64,
        max: i64,
        default: i64,
    },
    /// One of a few named values (kept in the config as the number).
    Choice {
        choices: &'static [(i64, &'static str)],
        default: i64,
    },
}

impl OptionKind {
    /// Every value the option takes, its default first.
    pub fn values(&self) -> Vec<serde_json::Value> {
        match *self {
            OptionKind::Flag { default } => vec![default.into(), (!default).into()],
            OptionKind::Number { min, max, default } => {
                vec![default.into(), min.into(), max.into()]
            }
            OptionKind::Choice { choices, default } => std::iter::once(default)
                .chain(choices.iter().map(|c| c.0).filter(|&v| v != default))
                .map(Into::into)
                .collect(),
        }
    }

    /// The values in words, for a listing: "true or false, default false".
    pub fn words(&self) -> String {
        match *self {
            OptionKind::Flag { default } => format!("true or false, default {default}"),
            OptionKind::Number { min, max, default } => {
                format!("{min} to {max}, default {default}")
            }
            OptionKind::Choice { choices, default } => format!(
                "{}; default {default}",
                choices
                    .iter()
                    .map(|(v, name)| format!("{v} {name}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A scenario a battle can start from.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub struct ScenarioInfo {
    pub id: String,
    pub name: String,
    pub description: String,
}

/// A game's rules. See the crate docs for the contract.
pub trait Game: Sized + 'static {
    /// How a battle is set up: scenario and options, stored with the battle.
    type Config: Serialize + DeserializeOwned + Clone + Debug + Default + Send;
    type State: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
    type Command: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
    type Event: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;

    /// Short id used on the command line and in files, e.g. `dimx`.
    const ID: &'static str;
    /// Full name, e.g. "Invaders From Dimension X!".
    const NAME: &'static str;
    /// Bumped whenever a rule change can alter the outcome of a recorded
    /// command, or the stored layout of a command, event or state changes.
    /// Every entry records the version that decided it.
    const RULES_VERSION: u32;

    /// The scenarios this game ships with.
    fn scenarios() -> Vec<ScenarioInfo>;

    /// The options of its config a player may set when starting a battle.
    fn options() -> Vec<GameOption> {
        Vec::new()
    }

    /// The state before the first command. No randomness: draws happen in play.
    fn setup(config: &Self::Config) -> Result<Self::State, SetupError>;

    /// The setup of a stored battle started under `rules_version`. A game
    /// whose setup grew stricter (a scenario file it now refuses) overrides
    /// this so that battles started before still open as they were.
    fn setup_recorded(
        config: &Self::Config,
        _rules_version: u32,
    ) -> Result<Self::State, SetupError> {
        Self::setup(config)
    }

    /// Decide a command into events, or refuse it with the rule that forbids it.
    fn decide(
        state: &Self::State,
        actor: Actor,
        command: &Self::Command,
        rng: &mut Randomness,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Decide a command as [`Game::decide`] does and hand back, beside its
    /// events, the state after them: `state` with every event applied in
    /// order, which the session keeps as the new state. A game that builds
    /// that state while deciding (a [`Work`] copy to which each event is
    /// applied as it is made) overrides this to hand it back instead of
    /// having it cloned and applied a second time. The default clones
    /// `state` and applies the events.
    fn decide_and_apply(
        state: &Self::State,
        actor: Actor,
        command: &Self::Command,
        rng: &mut Randomness,
    ) -> Result<(Vec<Self::Event>, Self::State), RuleError> {
        let events = Self::decide(state, actor, command, rng)?;
        let mut after = state.clone();
        for e in &events {
            Self::apply(&mut after, e);
        }
        Ok((events, after))
    }

    /// Apply one event. Never fails, never rolls.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// The commands some player may give now (empty when the battle is
    /// over). Every listed command is one [`Game::decide`] accepts. A game
    /// may list one command for each distinct outcome where accepted
    /// commands differ only in a detail that changes nothing (Alien lists a
    /// grenade's blast area once, at one landing tile, though `decide`
    /// accepts the same three tiles struck from another): every outcome a
    /// player can reach is listed, not every accepted command.
    fn legal(state: &Self::State) -> Vec<(Actor, Self::Command)>;

    /// Read a command from JSON as players write it. A game whose commands
    /// name tiles, characters or cards may take the names players use
    /// (`"K6"`, `"hicks"`, `"Shotgun"`) as well as numbers: it sees the state
    /// and the seat giving the command (whose hand a card is taken from) to
    /// resolve them. Plain serde by default. The error says why, in words.
    fn command_from_json(
        _state: &Self::State,
        _actor: Actor,
        json: &serde_json::Value,
    ) -> Result<Self::Command, String> {
        serde_json::from_value(json.clone()).map_err(|e| e.to_string())
    }

    /// A step the rules take on their own now, if one is due: a shuffle and
    /// deal at the start (`setup` takes no randomness), an alien deck's turn.
    /// The session plays it as an entry of [`Actor::SYSTEM`], recorded and
    /// re-decided by `verify` like any other, before any player may act;
    /// between two such steps players may answer (each is its own entry).
    /// `decide` receives it with the actor `Actor::SYSTEM`. None by default.
    fn automatic(_state: &Self::State) -> Option<Self::Command> {
        None
    }

    /// The seats the rules ask to act now and what for; empty when the
    /// battle is over. Every command `legal` lists is given by one of them.
    fn asked(state: &Self::State) -> Vec<Ask>;

    /// Whether the battle waits for `seat`, one of the seats [`Game::asked`]
    /// lists: its answer holds the game up. A seat asked only to take back
    /// what it set waiting on another (Night of the Saucers: the offering
    /// seat may withdraw its swap while the answer is awaited) is not waited
    /// for: a list names whose turn it is without it, and a bot playing it
    /// waits. Every seat asked is waited for by default.
    fn waits_for(_state: &Self::State, _seat: Actor) -> bool {
        true
    }

    /// The first seat asked (the one whose turn it is in a game of turns).
    fn to_move(state: &Self::State) -> Option<Actor> {
        Self::asked(state).first().map(|a| a.seat)
    }

    /// The result, once the battle is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// The state as `viewer` may see it (hidden information removed).
    fn view(state: &Self::State, viewer: Actor) -> Self::State;

    /// An event as `viewer` may see it: what another seat drew or was dealt
    /// removed, as [`Game::view`] does for the state. Everything by default.
    fn view_event(event: &Self::Event, _viewer: Actor) -> Self::Event {
        event.clone()
    }

    /// A command given by `actor` as `viewer` may see it (a card laid face
    /// down by another seat). Everything by default.
    fn view_command(command: &Self::Command, _actor: Actor, _viewer: Actor) -> Self::Command {
        command.clone()
    }

    /// The seats of this battle, in order (two unless the game says more).
    fn seats(_state: &Self::State) -> Vec<Actor> {
        vec![Actor(0), Actor(1)]
    }

    /// The name of a seat, e.g. "Marines", in a game whose seats are fixed.
    fn actor_name(actor: Actor) -> String;

    /// The name of a seat in this battle: a game whose seats are set up per
    /// battle (factions chosen per player) names them from its state.
    fn seat_name(_state: &Self::State, actor: Actor) -> String {
        Self::actor_name(actor)
    }

    /// A command in words, as seen before it was decided.
    fn describe_command(state: &Self::State, actor: Actor, command: &Self::Command) -> String;

    /// An event in words; `state` is the state before it is applied.
    fn describe_event(state: &Self::State, event: &Self::Event) -> String;

    /// Turn and phase, for the timeline.
    fn flow(state: &Self::State) -> FlowMark;

    /// The word for one turn of [`Game::flow`], capitalised, as the game's
    /// log and rule text say it: the timeline, the entries table and the
    /// reports name turns with it ("Turn 3"; Alien Invasion's "Round 3",
    /// a set of cards drawn), so one thing has one name and one number.
    fn turn_word() -> &'static str {
        "Turn"
    }

    /// The board as shapes in board coordinates.
    fn scene(state: &Self::State) -> Scene;

    /// Read a command stored by an entry decided under `rules_version`.
    /// Override with an upcaster when a command's layout changed (see
    /// [`crate::upcast`]); the default reads today's layout and refuses a
    /// newer version.
    fn decode_command(rules_version: u32, bytes: &[u8]) -> Result<Self::Command, String> {
        crate::upcast::current(Self::NAME, Self::RULES_VERSION, rules_version, bytes)
    }

    /// Read the events stored by an entry decided under `rules_version`; as
    /// [`Game::decode_command`].
    fn decode_events(rules_version: u32, bytes: &[u8]) -> Result<Vec<Self::Event>, String> {
        crate::upcast::current(Self::NAME, Self::RULES_VERSION, rules_version, bytes)
    }

    /// Where a command sits on the board (see [`Anchors`]); none by default.
    fn anchors(_state: &Self::State, _command: &Self::Command) -> Anchors {
        Anchors::default()
    }

    /// How much an event matters to a reader of the battle and whom it
    /// concerns (a report brings the key moments forward and folds the
    /// routine ones); `state` is the state before the event. Routine and
    /// nobody's by default.
    fn moment(_state: &Self::State, _event: &Self::Event) -> Moment {
        Moment::routine()
    }

    /// What each die an entry rolled meant, in roll order: what it was for,
    /// what it needed, whether it counted and whose luck it is (see
    /// [`DieMeaning`]). `state` is the state before the entry, `actor` the
    /// seat that gave its command. Empty by default: every die plain, the
    /// luck of the seat that gave the command.
    fn dice_meanings(
        _state: &Self::State,
        _actor: Actor,
        _events: &[Self::Event],
    ) -> Vec<DieMeaning> {
        Vec::new()
    }
}

/// A command being decided: a working copy of the state to which each event
/// is applied as it is made, so that the later steps of one command see the
/// earlier ones' results. Every game decides this way (Night of the Saucers'
/// `Cx`, Alien Invasion's start-of-card checks); a game may wrap it with its
/// own helpers (Dimension X's `Ctx` adds its map and the Monoliths that
/// switch as events land).
pub struct Work<G: Game> {
    /// The state with every event so far applied.
    pub st: G::State,
    /// The events made so far, in order.
    pub events: Vec<G::Event>,
}

impl<G: Game> Work<G> {
    /// A working copy of `state`, no event made yet.
    pub fn new(state: &G::State) -> Self {
        Work {
            st: state.clone(),
            events: Vec::new(),
        }
    }

    /// Record an event and apply it to the working copy.
    pub fn emit(&mut self, e: G::Event) {
        G::apply(&mut self.st, &e);
        self.events.push(e);
    }

    /// The events made, in order.
    pub fn into_events(self) -> Vec<G::Event> {
        self.events
    }

    /// The events made, in order, and the state after them (what
    /// [`Game::decide_and_apply`] hands back).
    pub fn into_parts(self) -> (Vec<G::Event>, G::State) {
        (self.events, self.st)
    }
}

#[cfg(test)]
mod tests {
    use super::Game;
    use crate::rng::{Randomness, SplitMix64};
    use crate::{Actor, Session};

    /// `decide_and_apply` hands back what `decide` decides, and as the state
    /// the one the session would otherwise build: the state before with
    /// every event applied in order. Checked at every state of bot-played
    /// battles of every game (each of Dimension X's scenarios, all with a
    /// Monolith whose switches are logged after the event that caused them;
    /// Alien with the Queen killed by tasks; Night of the Saucers' two
    /// variants), for the command the bot gives and for one it may not give (the same
    /// refusal both ways).
    #[test]
    fn decide_and_apply_hands_back_the_events_of_decide_and_the_state_they_make() {
        use crate::games::{alien, dimx, invasion, race, saucers};
        fn check<G: Game>(config: G::Config, seeds: std::ops::Range<u64>, commands: usize) {
            for seed in seeds {
                let mut s = Session::<G>::new(seed, config.clone()).expect("sets up");
                let mut bot = SplitMix64(seed);
                let mut played = 0;
                while played < commands {
                    let legal = G::legal(s.state());
                    let (actor, command) = match s.due() {
                        Some(step) => (Actor::SYSTEM, step),
                        None if legal.is_empty() => break,
                        None => legal[bot.below(legal.len())].clone(),
                    };
                    let draws = s.cursor().map_or(0, |c| s.records()[c as usize].rng_after);
                    let before = s.state().clone();
                    let mut rng = Randomness::new(seed, draws, None);
                    let (events, after) = G::decide_and_apply(&before, actor, &command, &mut rng)
                        .expect("a legal command is accepted");
                    let mut rng = Randomness::new(seed, draws, None);
                    let decided = G::decide(&before, actor, &command, &mut rng).expect("accepted");
                    assert_eq!(events, decided, "{} seed {seed} command {played}", G::ID);
                    let mut applied = before.clone();
                    for e in &events {
                        G::apply(&mut applied, e);
                    }
                    assert_eq!(after, applied, "{} seed {seed} command {played}", G::ID);
                    // A seat that is not asked (or the game's own step given
                    // by a player) is refused the same way by both.
                    let wrong = if actor == Actor::SYSTEM {
                        Actor(0)
                    } else {
                        Actor::SYSTEM
                    };
                    let mut rng = Randomness::new(seed, draws, None);
                    let a = G::decide_and_apply(&before, wrong, &command, &mut rng).err();
                    let mut rng = Randomness::new(seed, draws, None);
                    let b = G::decide(&before, wrong, &command, &mut rng).err();
                    assert_eq!(a, b, "{} seed {seed} command {played}", G::ID);
                    s.play(actor, &command, None).expect("legal");
                    assert_eq!(*s.state(), applied, "{} seed {seed}", G::ID);
                    played += 1;
                }
                assert!(played > 20, "{} seed {seed}: only {played} commands", G::ID);
            }
        }
        check::<alien::Alien>(Default::default(), 1..4, 600);
        // The Queen killed by option 2 (a number of tasks): where a bot game
        // gets there, `QueenDied` is pushed after the `TaskDone` that makes
        // the count.
        let tasks = alien::AlienConfig {
            queen: 2,
            tasks: 2,
            ..Default::default()
        };
        check::<alien::Alien>(tasks, 1..3, 600);
        check::<saucers::Saucers>(Default::default(), 1..4, 400);
        // Great Grey Hunter (scored) and Gang Warfare (competitive).
        for variant in [1, 2] {
            let config = saucers::SaucersConfig {
                variant,
                ..Default::default()
            };
            check::<saucers::Saucers>(config, 1..3, 300);
        }
        check::<invasion::Invasion>(Default::default(), 1..3, 200);
        for scenario in ["alpha", "beta", "campaign"] {
            let config = dimx::DimxConfig {
                scenario: scenario.into(),
                ..Default::default()
            };
            check::<dimx::DimX>(config, 1..3, 400);
        }
        check::<race::Race>(race::RaceConfig { target: u32::MAX }, 1..2, 100);
    }
}
