//! Dice Race: a tiny two-player push-your-luck game used to test and benchmark
//! the engine on its own (it is not one of the four games).
//!
//! Each turn the player rolls one to three dice as often as they like, adding
//! them to a turn total; any 1 loses the turn total and ends the turn. Holding
//! banks the turn total. The first to reach the target (50 unless set) wins.

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, FlowMark, Game, Outcome, RuleError, RuleErrorKind, ScenarioInfo, SetupError,
};
use crate::rng::Randomness;
use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

pub struct Race;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RaceConfig {
    /// Points needed to win.
    pub target: u32,
}

impl Default for RaceConfig {
    fn default() -> Self {
        Self { target: 50 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceState {
    pub target: u32,
    pub scores: [u32; 2],
    pub turn_total: u32,
    pub to_move: u8,
    pub turn: u32,
    pub winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RaceCommand {
    /// Roll 1 to 3 dice.
    Roll { dice: u8 },
    /// Bank the turn total.
    Hold,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RaceEvent {
    Rolled { dice: Vec<u8> },
    Busted { dice: Vec<u8> },
    Held { points: u32 },
    Won { player: u8 },
}

impl Game for Race {
    type Config = RaceConfig;
    type State = RaceState;
    type Command = RaceCommand;
    type Event = RaceEvent;
    const ID: &'static str = "race";
    const NAME: &'static str = "Dice Race (test game)";
    const RULES_VERSION: u32 = 1;

    fn scenarios() -> Vec<ScenarioInfo> {
        vec![ScenarioInfo {
            id: "standard".into(),
            name: "First to 50".into(),
            description: "Two players race to 50 points.".into(),
        }]
    }

    fn setup(config: &RaceConfig) -> Result<RaceState, SetupError> {
        if config.target == 0 {
            return Err(SetupError("the target must be at least 1 point".into()));
        }
        Ok(RaceState {
            target: config.target,
            scores: [0, 0],
            turn_total: 0,
            to_move: 0,
            turn: 1,
            winner: None,
        })
    }

    fn decide(
        state: &RaceState,
        actor: Actor,
        command: &RaceCommand,
        rng: &mut Randomness,
    ) -> Result<Vec<RaceEvent>, RuleError> {
        if state.winner.is_some() {
            return Err(RuleError::game_over());
        }
        if actor.0 != state.to_move {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn",
                Self::actor_name(Actor(state.to_move))
            )));
        }
        match *command {
            RaceCommand::Roll { dice } => {
                if !(1..=3).contains(&dice) {
                    return Err(RuleError::new(
                        RuleErrorKind::Illegal,
                        format!("roll 1 to 3 dice, not {dice}"),
                    ));
                }
                let dice = rng.roll(dice as usize, 6)?;
                Ok(vec![if dice.contains(&1) {
                    RaceEvent::Busted { dice }
                } else {
                    RaceEvent::Rolled { dice }
                }])
            }
            RaceCommand::Hold => {
                let mut events = vec![RaceEvent::Held {
                    points: state.turn_total,
                }];
                if state.scores[state.to_move as usize] + state.turn_total >= state.target {
                    events.push(RaceEvent::Won {
                        player: state.to_move,
                    });
                }
                Ok(events)
            }
        }
    }

    fn apply(state: &mut RaceState, event: &RaceEvent) {
        match event {
            RaceEvent::Rolled { dice } => {
                state.turn_total += dice.iter().map(|&d| u32::from(d)).sum::<u32>();
            }
            RaceEvent::Busted { .. } => {
                state.turn_total = 0;
                state.to_move = 1 - state.to_move;
                state.turn += 1;
            }
            RaceEvent::Held { points } => {
                state.scores[state.to_move as usize] += points;
                state.turn_total = 0;
                state.to_move = 1 - state.to_move;
                state.turn += 1;
            }
            RaceEvent::Won { player } => state.winner = Some(*player),
        }
    }

    fn legal(state: &RaceState) -> Vec<(Actor, RaceCommand)> {
        if state.winner.is_some() {
            return Vec::new();
        }
        let a = Actor(state.to_move);
        vec![
            (a, RaceCommand::Roll { dice: 1 }),
            (a, RaceCommand::Roll { dice: 2 }),
            (a, RaceCommand::Roll { dice: 3 }),
            (a, RaceCommand::Hold),
        ]
    }

    fn to_move(state: &RaceState) -> Option<Actor> {
        state.winner.is_none().then_some(Actor(state.to_move))
    }

    fn outcome(state: &RaceState) -> Option<Outcome> {
        state.winner.map(|w| Outcome {
            winner: Some(Actor(w)),
            summary: format!("{} wins", Self::actor_name(Actor(w))),
        })
    }

    fn view(state: &RaceState, _viewer: Actor) -> RaceState {
        state.clone()
    }

    fn actor_name(actor: Actor) -> String {
        format!("Player {}", actor.0 + 1)
    }

    fn describe_command(_state: &RaceState, actor: Actor, command: &RaceCommand) -> String {
        match command {
            RaceCommand::Roll { dice } => format!("{} rolls {dice} dice", Self::actor_name(actor)),
            RaceCommand::Hold => format!("{} holds", Self::actor_name(actor)),
        }
    }

    fn describe_event(event: &RaceEvent) -> String {
        match event {
            RaceEvent::Rolled { dice } => format!("rolled {dice:?}"),
            RaceEvent::Busted { dice } => format!("rolled {dice:?}: a 1, the turn total is lost"),
            RaceEvent::Held { points } => format!("banked {points} points"),
            RaceEvent::Won { player } => format!(
                "{} reached the target and wins",
                Self::actor_name(Actor(*player))
            ),
        }
    }

    fn flow(state: &RaceState) -> FlowMark {
        FlowMark {
            turn: state.turn,
            phase: Self::actor_name(Actor(state.to_move)),
        }
    }

    fn scene(state: &RaceState) -> Scene {
        let mut items = Vec::new();
        for p in 0..2 {
            let y = 20.0 + 40.0 * p as f32;
            let w = 300.0 * (state.scores[p] as f32 / state.target as f32).min(1.0);
            items.push(Item {
                id: format!("score:{p}"),
                kind: ItemKind::Counter,
                shape: Shape::Rect {
                    min: [10.0, y],
                    max: [10.0 + w.max(1.0), y + 25.0],
                    rounding: 3.0,
                },
                fill: if p == 0 {
                    Rgba::rgb(60, 120, 220)
                } else {
                    Rgba::rgb(220, 90, 60)
                },
                stroke: (0.0, Rgba::BLACK),
                tooltip: Some(format!("Player {}: {} points", p + 1, state.scores[p])),
            });
        }
        Scene {
            width: 320.0,
            height: 100.0,
            background: Some(Rgba::WHITE),
            items,
        }
    }
}
