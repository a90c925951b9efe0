//! Dice Race: a tiny two-player push-your-luck game used to test and benchmark
//! the engine on its own (it is not one of the four games).
//!
//! Each turn the player rolls one to three dice as often as they like, adding
//! them to a turn total; any 1 loses the turn total and ends the turn. Holding
//! banks the turn total. The first to reach the target (50 unless set) wins.
//!
//! Rules version 2 changed the layout of its events, and nothing else: a
//! bust is a roll with `bust: true` instead of an event of its own. Version 1
//! battles are read through [`v1`]'s upcaster (the example that
//! `xenolog_engine::upcast` describes, pinned by the compatibility fixtures).

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, Ask, FlowMark, Game, Outcome, RuleError, RuleErrorKind, SeatScore, SetupError,
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
    /// The dice rolled; with a 1 among them the turn total is lost.
    Rolled {
        dice: Vec<u8>,
        bust: bool,
    },
    Held {
        points: u32,
    },
    Won {
        player: u8,
    },
}

/// The stored form of rules version 1, frozen: its events as they were
/// written, and the upcaster into today's.
pub mod v1 {
    use serde::{Deserialize, Serialize};

    use super::RaceEvent;

    /// An event as rules version 1 stored it.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub enum RaceEventV1 {
        Rolled { dice: Vec<u8> },
        Busted { dice: Vec<u8> },
        Held { points: u32 },
        Won { player: u8 },
    }

    impl From<RaceEventV1> for RaceEvent {
        fn from(e: RaceEventV1) -> Self {
            match e {
                RaceEventV1::Rolled { dice } => RaceEvent::Rolled { dice, bust: false },
                RaceEventV1::Busted { dice } => RaceEvent::Rolled { dice, bust: true },
                RaceEventV1::Held { points } => RaceEvent::Held { points },
                RaceEventV1::Won { player } => RaceEvent::Won { player },
            }
        }
    }
}

impl Game for Race {
    game_parts! {
        scenario: "standard", "First to 50",
            "Two players race to 50 points.";
        types: RaceConfig, RaceState, RaceCommand, RaceEvent;
    }
    const ID: &'static str = "race";
    const NAME: &'static str = "Dice Race (test game)";
    const RULES_VERSION: u32 = 2;

    /// A 1 busts the turn: each die needs a 2 or more; a win is the key moment.
    fn moment(_state: &Self::State, event: &RaceEvent) -> crate::Moment {
        match event {
            RaceEvent::Won { player } => {
                crate::Moment::key(crate::MomentKind::Victory, vec![Actor(*player)])
            }
            RaceEvent::Rolled { bust: true, .. } => {
                crate::Moment::notable(crate::MomentKind::FailedRoll, Vec::new())
            }
            _ => crate::Moment::routine(),
        }
    }

    fn dice_meanings(
        _state: &Self::State,
        actor: Actor,
        events: &[RaceEvent],
    ) -> Vec<crate::DieMeaning> {
        let mut out = Vec::new();
        for (roll, e) in events.iter().enumerate() {
            if let RaceEvent::Rolled { dice, .. } = e {
                for &d in dice {
                    out.push(crate::DieMeaning::needing(
                        "whether the turn goes on (a 1 busts it)",
                        crate::Need::AtLeast(2),
                        crate::Counts::Successes,
                        d,
                        Some(actor),
                        roll as u16,
                    ));
                }
            }
        }
        out
    }

    fn options() -> Vec<crate::game::GameOption> {
        vec![crate::game::GameOption {
            key: "target",
            group: "Race",
            label: "Points to win",
            help: "The first player to bank this many points wins.",
            kind: crate::game::OptionKind::Number {
                min: 1,
                max: 10_000,
                default: 50,
            },
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
                let bust = dice.contains(&1);
                Ok(vec![RaceEvent::Rolled { dice, bust }])
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
            RaceEvent::Rolled { dice, bust: false } => {
                state.turn_total += dice.iter().map(|&d| u32::from(d)).sum::<u32>();
            }
            RaceEvent::Rolled { bust: true, .. } => {
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

    fn decode_events(rules_version: u32, bytes: &[u8]) -> Result<Vec<RaceEvent>, String> {
        match rules_version {
            1 => crate::upcast::exact::<Vec<v1::RaceEventV1>>(bytes)
                .map(|events| events.into_iter().map(RaceEvent::from).collect()),
            v => crate::upcast::current(Self::NAME, Self::RULES_VERSION, v, bytes),
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

    fn asked(state: &RaceState) -> Vec<Ask> {
        if state.winner.is_some() {
            return Vec::new();
        }
        vec![Ask {
            seat: Actor(state.to_move),
            what: "roll or hold".into(),
        }]
    }

    fn outcome(state: &RaceState) -> Option<Outcome> {
        state.winner.map(|w| Outcome {
            scores: (0..2)
                .map(|p| SeatScore {
                    seat: Actor(p),
                    points: i64::from(state.scores[p as usize]),
                })
                .collect(),
            ..Outcome::won(
                vec![Actor(w)],
                format!("{} wins", Self::actor_name(Actor(w))),
            )
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
            RaceCommand::Roll { dice: 1 } => format!("{} rolls 1 die", Self::actor_name(actor)),
            RaceCommand::Roll { dice } => format!("{} rolls {dice} dice", Self::actor_name(actor)),
            RaceCommand::Hold => format!("{} holds", Self::actor_name(actor)),
        }
    }

    fn describe_event(_state: &RaceState, event: &RaceEvent) -> String {
        match event {
            RaceEvent::Rolled { dice, bust: false } => format!("rolled {dice:?}"),
            RaceEvent::Rolled { dice, bust: true } => {
                format!("rolled {dice:?}: a 1, the turn total is lost")
            }
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
                shape: Shape::rect([10.0, y], [w.max(1.0), 25.0], 3.0),
                fill: if p == 0 {
                    Rgba::rgb(60, 120, 220)
                } else {
                    Rgba::rgb(220, 90, 60)
                },
                stroke: (0.0, Rgba::BLACK),
                tooltip: Some(format!("Player {}: {} points", p + 1, state.scores[p])),
                name: None,
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

#[cfg(test)]
mod tests {
    use super::v1::RaceEventV1;
    use super::*;

    /// Events exactly as rules version 1 wrote them (frozen bytes).
    fn v1_bytes() -> Vec<u8> {
        let events = vec![
            RaceEventV1::Rolled { dice: vec![4, 5] },
            RaceEventV1::Busted { dice: vec![1] },
            RaceEventV1::Held { points: 9 },
            RaceEventV1::Won { player: 1 },
        ];
        let bytes = postcard::to_allocvec(&events).unwrap();
        assert_eq!(
            bytes,
            vec![4, 0, 2, 4, 5, 1, 1, 1, 2, 9, 3, 1],
            "the version 1 layout is frozen"
        );
        bytes
    }

    #[test]
    fn events_recorded_under_rules_version_1_are_upcast() {
        let events = Race::decode_events(1, &v1_bytes()).unwrap();
        assert_eq!(
            events,
            vec![
                RaceEvent::Rolled {
                    dice: vec![4, 5],
                    bust: false
                },
                RaceEvent::Rolled {
                    dice: vec![1],
                    bust: true
                },
                RaceEvent::Held { points: 9 },
                RaceEvent::Won { player: 1 },
            ]
        );
    }

    #[test]
    fn version_1_bytes_read_as_todays_layout_would_be_wrong() {
        // Why the upcaster dispatches on the recorded version, not on whether
        // the bytes happen to decode.
        let as_today = Race::decode_events(Race::RULES_VERSION, &v1_bytes());
        assert_ne!(as_today, Race::decode_events(1, &v1_bytes()));
    }

    #[test]
    fn a_newer_rules_version_is_refused_in_words() {
        let bytes = postcard::to_allocvec(&vec![RaceEvent::Held { points: 1 }]).unwrap();
        let err = Race::decode_events(Race::RULES_VERSION + 1, &bytes).unwrap_err();
        assert!(err.contains("newer than this build's"), "{err}");
    }

    #[test]
    fn the_outcome_names_the_winner_and_both_scores() {
        let mut state = Race::setup(&RaceConfig { target: 5 }).unwrap();
        Race::apply(
            &mut state,
            &RaceEvent::Rolled {
                dice: vec![6],
                bust: false,
            },
        );
        Race::apply(&mut state, &RaceEvent::Held { points: 6 });
        Race::apply(&mut state, &RaceEvent::Won { player: 0 });
        let out = Race::outcome(&state).unwrap();
        assert_eq!(out.winners, vec![Actor(0)]);
        assert!(out.is_winner(Actor(0)) && !out.is_winner(Actor(1)));
        assert_eq!(
            out.scores,
            vec![
                SeatScore {
                    seat: Actor(0),
                    points: 6
                },
                SeatScore {
                    seat: Actor(1),
                    points: 0
                }
            ]
        );
    }
}
