//! # Alien (Artur Górski)
//!
//! The expedition against the Alien Queen, from rule text 004
//! (`../shared/seeds/004_39c9e975b49c8b56.txt`). Two to seven players: seat 0
//! is the Alien Queen's player, seats 1 and up share the six characters of
//! the expedition. `RULES.md` beside this file maps every clause to code
//! and tests and lists every assumption.
//!
//! A turn is two phases. Phase 1: the APC drives (before any character
//! acts), then every expedition seat acts with its characters' six action
//! points and ends the phase. Phase 2 is the Alien player's and the game's:
//! the game rolls the hatching die ([`crate::Game::automatic`]), the Alien
//! player splits the roll into new aliens and places them, moves the
//! aliens, the game merges aliens in ducts (metamorphosis), and the Alien
//! player attacks with every alien next to a character; then the game
//! begins the next turn.
//!
//! Task cards are hidden from the Alien player ([`Alien::view`],
//! [`Alien::view_event`]) until a task is done.
//!
//! Modules: [`data`] (the base, items, characters, FIGHT RESULT table and
//! task cards as data), [`state`] (state, events, `apply`), [`rules`]
//! (commands, `decide`, `legal`), [`position`] (position files),
//! [`describe`] and [`scene`].

pub mod data;
pub mod describe;
pub mod position;
pub mod rules;
pub mod scene;
pub mod state;

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, Fate, FlowMark, Game, GameOption, OptionKind, Outcome, PieceResult, SeatScore,
    SetupError,
};

pub use rules::AlienCommand;
use state::{ACTION_POINTS, Apc, Character, Phase, Pos, Queen, QueenOption};
pub use state::{AlienEvent, AlienState};

/// The game.
pub struct Alien;

/// How a battle is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlienConfig {
    /// Players, 2 to 7: seat 0 the Alien Queen, the others the expedition.
    pub players: u8,
    /// How the Queen is killed: 1 (declare an attack after a task, a die
    /// against the points) or 2 (a number of tasks agreed before the game).
    pub queen: u8,
    /// Option 2: tasks to do.
    pub tasks: u8,
    /// A shipped scenario id (only `standard`).
    pub scenario: String,
    /// A position file to start from (see [`position`]).
    pub scenario_text: Option<String>,
    /// A player's own base, items, characters, FIGHT RESULT table or task cards.
    pub base_text: Option<String>,
    pub items_text: Option<String>,
    pub characters_text: Option<String>,
    pub table_text: Option<String>,
    pub tasks_text: Option<String>,
    /// Battle option (5, assumption 18): an explosive charge may not cut the
    /// base in two. Off (the text: "a freely chosen corridor"), any corridor
    /// tile next to the character may be blown.
    pub keep_base_whole: bool,
    /// Battle option (3, assumption 3): the characters whose card says
    /// `unarmed` (Bishop) may shoot and throw grenades all the same. Off:
    /// Xenolog's reading of the card, which the text does not print.
    pub bishop_shoots: bool,
}

impl Default for AlienConfig {
    fn default() -> Self {
        Self {
            players: 2,
            queen: 1,
            tasks: 3,
            scenario: String::new(),
            scenario_text: None,
            base_text: None,
            items_text: None,
            characters_text: None,
            table_text: None,
            tasks_text: None,
            keep_base_whole: false,
            bishop_shoots: false,
        }
    }
}

/// The state before the first command.
pub fn start(config: &AlienConfig) -> Result<AlienState, SetupError> {
    start_recorded(config, Alien::RULES_VERSION)
}

/// The state before the first command of a battle started under
/// `rules_version`: under version 2 a charge never cut the base in two (the
/// rule was no option then), so such a battle keeps that rule.
pub fn start_recorded(config: &AlienConfig, rules_version: u32) -> Result<AlienState, SetupError> {
    if !(2..=7).contains(&config.players) {
        return Err(SetupError("Alien is played by 2 to 7 players".into()));
    }
    if !config.scenario.is_empty() && config.scenario != "standard" {
        return Err(SetupError(format!(
            "there is no Alien scenario '{}' (try: standard, or a position file)",
            config.scenario
        )));
    }
    let option = match config.queen {
        1 => QueenOption::Declare,
        2 if (1..=20).contains(&config.tasks) => QueenOption::Tasks(config.tasks),
        2 => return Err(SetupError("Option 2 needs 1 to 20 tasks".into())),
        q => {
            return Err(SetupError(format!(
                "the Queen is killed by Option 1 or 2, not {q}"
            )));
        }
    };
    let content = data::content(
        config.base_text.as_deref(),
        config.items_text.as_deref(),
        config.characters_text.as_deref(),
        config.table_text.as_deref(),
        config.tasks_text.as_deref(),
    )
    .map_err(|e| SetupError(format!("a data file is not valid: {e}")))?;
    let mut content = content;
    if config.bishop_shoots {
        for card in &mut content.characters {
            card.unarmed = false;
        }
    }
    let expedition = config.players - 1;
    let characters: Vec<Character> = content
        .characters
        .iter()
        .enumerate()
        .map(|(i, card)| Character {
            card: i as u8,
            seat: 1 + (i as u8 % expedition),
            strength: card.strength,
            pos: Pos::Tile(content.base.start[i]),
            items: card.items.clone(),
            ap: ACTION_POINTS,
            shot: false,
            shot_at: Vec::new(),
            stopped: false,
            left_apc: false,
            kills: 0,
        })
        .collect();
    let mut taken = vec![0u8; data::Kind::ALL.len()];
    let mut weapons_taken = vec![0u8; content.items.weapons.len()];
    for it in characters.iter().flat_map(|c| c.items.iter()) {
        match it {
            data::Item::Weapon(w) => weapons_taken[usize::from(*w)] += 1,
            other => taken[other.kind().index()] += 1,
        }
    }
    let deck = content.tasks.iter().map(|t| t.n).collect();
    let mut state = AlienState {
        apc: Apc {
            at: content.base.apc,
            fuel: 0,
            driven: 0,
        },
        content: content.into(),
        option,
        players: config.players,
        turn: 1,
        phase: Phase::Expedition,
        characters,
        aliens: Vec::new(),
        next_alien: 1,
        floor: Vec::new(),
        collapsed: Vec::new(),
        taken,
        weapons_taken,
        deck,
        open: Vec::new(),
        done: Vec::new(),
        points: 0,
        may_declare: false,
        queen: Queen::Alive,
        acted: false,
        seats_done: Vec::new(),
        hatch_roll: None,
        to_place: Vec::new(),
        over: None,
        keep_base_whole: config.keep_base_whole || rules_version == 2,
    };
    if let Some(text) = &config.scenario_text {
        position::apply_position(&mut state, text)
            .map_err(|e| SetupError(format!("the position file is not valid: {e}")))?;
    }
    Ok(state)
}

impl Game for Alien {
    game_parts! {
        scenario: "standard", "The expedition lands",
            "Every character and the APC (without fuel) on the landing field; no aliens until the first Alien phase.";
        types: AlienConfig, AlienState, AlienCommand, AlienEvent;
        setup: start; setup_recorded: start_recorded;
        decide: rules::decide; decide_and_apply: rules::decide_and_apply; legal: rules::legal; automatic: rules::automatic; asked: rules::asked;
        apply: state::apply;
        describe_command: describe::command; describe_event: describe::event;
        scene: scene::scene; anchors: scene::anchors;
    }
    const ID: &'static str = "alien";
    const NAME: &'static str = "Alien";
    /// 2: an explosive charge may not cut the base in two (assumption 18),
    /// so a blow legal under 1 may be refused; battles of 1 open and verify
    /// and name the change where a recorded blow is now refused.
    /// 3 (issue 27): characters may enter the landing field to start the APC
    /// (4.1); coming in next to an alien stops the character (4.1); the
    /// no-cut rule of 2 is an option (`keep_base_whole`, off: the text's
    /// freely chosen corridor; battles of 2 keep it on); Bishop may shoot
    /// as an option; position files set the phase and the turn's flags.
    /// 4 (session 20, review9): a grenade in a room strikes no tile behind
    /// a wall ("two tiles away" counted over tiles that are not walls), so
    /// a recorded throw of 3 may now be refused.
    /// 5 (session 21, review9 S3): the charges against each target are
    /// chosen once a phase (6), so a character shoots an alien at most once
    /// a phase, one die; the state remembers each character's targets
    /// (`Character::shot_at`), and a second shot recorded under 4 is now
    /// refused (the battle opens and `verify` names that entry as decided
    /// differently; the older entries decided the same are a layout change).
    const RULES_VERSION: u32 = 5;

    fn options() -> Vec<GameOption> {
        vec![
            super::players_option(
                "The first player (seat 1; actor 0 in the JSON lines) runs the Alien Queen's forces; the others (seats 2 and up) share the six characters of the expedition.",
                2,
                7,
            ),
            GameOption {
                key: "queen",
                group: "Rules",
                label: "Killing the Queen",
                help: "1: declare an attack after a task, the Alien player's die against the points. 2: the Queen dies when the agreed number of tasks is done.",
                kind: OptionKind::Choice {
                    choices: &[
                        (1, "Option 1: attack the Queen"),
                        (2, "Option 2: a number of tasks"),
                    ],
                    default: 1,
                },
            },
            GameOption {
                key: "tasks",
                group: "Rules",
                label: "Option 2: tasks to kill the Queen",
                help: "How many completed tasks kill the Queen under option 2.",
                kind: OptionKind::Number {
                    min: 1,
                    max: 20,
                    default: 3,
                },
            },
            GameOption {
                key: "keep_base_whole",
                group: "Rules",
                label: "Charges may not cut the base in two",
                help: "The text lets a charge blow \"a freely chosen corridor\" (off). On: a corridor tile is not blown when its open neighbours would no longer connect without it, so no one can be sealed off where no alien reaches them and the battle cannot end.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "bishop_shoots",
                group: "Rules",
                label: "Bishop may shoot",
                help: "The text says only that medical kits are Bishop's; his card's restrictions are not printed. Off: Bishop (the card marked unarmed) neither shoots nor throws grenades. On: he may.",
                kind: OptionKind::Flag { default: false },
            },
        ]
    }

    /// Characters by id or card name and tiles by name (`"K6"`), as well as
    /// by number (RULES.md, "Position files").
    fn command_from_json(
        state: &AlienState,
        _actor: Actor,
        json: &serde_json::Value,
    ) -> Result<AlienCommand, String> {
        rules::command_from_json(state, json)
    }

    fn outcome(state: &AlienState) -> Option<Outcome> {
        let result = state.over?;
        let expedition: Vec<Actor> = state.expedition_seats().into_iter().map(Actor).collect();
        let (winners, summary) = match result {
            state::Result::Expedition => (
                expedition.clone(),
                "The expedition wins: the Queen is dead and a character reached the ship",
            ),
            state::Result::Draw => (
                Vec::new(),
                "A draw: the Queen is dead, but every member of the expedition was killed",
            ),
            state::Result::Aliens => (
                vec![Actor(0)],
                "The Aliens win: every member of the expedition was killed",
            ),
        };
        let pieces = state
            .characters
            .iter()
            .map(|c| PieceResult {
                id: state.content.characters[usize::from(c.card)].id.clone(),
                seat: Actor(c.seat),
                // On the landing field when the expedition wins: reached
                // the ship, aboard the APC standing there too (assumption 20).
                fate: match (c.pos, result) {
                    (Pos::Dead, _) => Fate::Killed,
                    (Pos::Tile(t), state::Result::Expedition)
                        if state.content.base.terrain(t) == data::Terrain::Landing =>
                    {
                        Fate::Escaped
                    }
                    (Pos::Apc, state::Result::Expedition)
                        if state.content.base.terrain(state.apc.at) == data::Terrain::Landing =>
                    {
                        Fate::Escaped
                    }
                    _ => Fate::Survived,
                },
                kills: Some(c.kills),
            })
            .collect();
        Some(Outcome {
            winners,
            scores: std::iter::once(Actor(0))
                .chain(expedition)
                .map(|seat| SeatScore {
                    seat,
                    points: if seat == Actor(0) {
                        0
                    } else {
                        i64::from(state.points)
                    },
                })
                .collect(),
            pieces,
            summary: summary.into(),
        })
    }

    fn view(state: &AlienState, viewer: Actor) -> AlienState {
        if state.over.is_some() {
            return state.clone();
        }
        // The pile is face down for every seat (12: "shuffled task cards");
        // the Alien player sees how many cards are drawn, not which (7).
        let mut seen = state.clone();
        seen.deck = vec![0; state.deck.len()];
        // The Expedition's open task cards are theirs: hidden from the Alien
        // player and from the public view (spectators, `Actor::SYSTEM`).
        if viewer == Actor(0) || viewer == Actor::SYSTEM {
            seen.open = vec![0; state.open.len()];
        }
        seen
    }

    fn view_event(event: &AlienEvent, viewer: Actor) -> AlienEvent {
        match event {
            AlienEvent::TaskDrawn { .. } if viewer == Actor(0) || viewer == Actor::SYSTEM => {
                AlienEvent::TaskDrawn { card: 0 }
            }
            e => e.clone(),
        }
    }

    fn seats(state: &AlienState) -> Vec<Actor> {
        (0..state.players).map(Actor).collect()
    }

    fn actor_name(actor: Actor) -> String {
        if actor.0 == 0 {
            "Alien Queen".into()
        } else {
            format!("Expedition {}", actor.0)
        }
    }

    fn seat_name(state: &AlienState, actor: Actor) -> String {
        if actor.0 == 0 || state.players == 2 {
            if actor.0 == 0 {
                return "Alien Queen".into();
            }
            return "Expedition".into();
        }
        let names: Vec<String> = state
            .characters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.seat == actor.0)
            .map(|(i, _)| state.name(i as u8))
            .collect();
        format!("Expedition {} ({})", actor.0, names.join(", "))
    }

    fn flow(state: &AlienState) -> FlowMark {
        let phase = match (state.over, state.phase) {
            (Some(_), _) => "Battle over",
            (None, Phase::Expedition) => "Phase 1: Expedition",
            (None, Phase::Hatching) => "Phase 2: Hatching",
            (None, Phase::Moving) => "Phase 2: Aliens' movement",
            (None, Phase::Metamorphosis) => "Phase 2: Metamorphosis",
            (None, Phase::Attacks) => "Phase 2: Aliens' attacks",
        };
        FlowMark {
            turn: state.turn,
            phase: phase.into(),
        }
    }
}
