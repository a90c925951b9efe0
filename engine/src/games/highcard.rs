//! High Card: a tiny two-player card game that exercises what the three
//! games to come need of the core and Dice Race does not have: steps the game
//! takes on its own ([`Game::automatic`]: the shuffle and deal that opens
//! every round, the reveal that ends every trick) and hands of cards that are
//! hidden information. Not one of the four games; a test game like Dice Race.
//!
//! Each round the game shuffles the twelve cards (1 to 12) and deals three to
//! each player. The players take turns to lay one card face down; when both
//! have, the game reveals them: the higher card wins the trick (1 point) and
//! its player leads the next. After three tricks the next round is dealt.
//! After the last round the player with more points wins; equal points draw.

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, Ask, FlowMark, Game, Outcome, RuleError, RuleErrorKind, SeatScore, SetupError,
};
use crate::rng::Randomness;
use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

pub struct HighCard;

/// Cards in the deck, valued 1 to this.
pub const DECK: u8 = 12;
/// Cards dealt to each player each round.
pub const HAND: usize = 3;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HighCardConfig {
    /// Rounds of three tricks.
    pub rounds: u8,
}

impl Default for HighCardConfig {
    fn default() -> Self {
        Self { rounds: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HighCardState {
    pub rounds: u8,
    /// Rounds dealt so far.
    pub round: u8,
    pub hands: [Vec<u8>; 2],
    /// The cards laid face down in the current trick.
    pub laid: [Option<u8>; 2],
    pub scores: [u32; 2],
    /// Who lays a card next.
    pub to_play: u8,
    pub over: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HighCardCommand {
    /// The game shuffles and deals a round (a step of its own).
    Deal,
    /// A player lays a card face down.
    Lay { card: u8 },
    /// The game turns the trick's cards over (a step of its own).
    Reveal,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HighCardEvent {
    Dealt { hands: [Vec<u8>; 2] },
    Laid { player: u8, card: u8 },
    Revealed { cards: [u8; 2], winner: u8 },
    Ended,
}

fn name(p: u8) -> String {
    format!("Player {}", p + 1)
}

impl Game for HighCard {
    game_parts! {
        scenario: "standard", "Three rounds",
            "Two players, three rounds of three tricks.";
        types: HighCardConfig, HighCardState, HighCardCommand, HighCardEvent;
    }
    const ID: &'static str = "highcard";
    const NAME: &'static str = "High Card (test game)";
    const RULES_VERSION: u32 = 1;

    fn options() -> Vec<crate::game::GameOption> {
        vec![crate::game::GameOption {
            key: "rounds",
            group: "Game",
            label: "Rounds",
            help: "Each round deals three cards to each player.",
            kind: crate::game::OptionKind::Number {
                min: 1,
                max: 9,
                default: 3,
            },
        }]
    }

    fn setup(config: &HighCardConfig) -> Result<HighCardState, SetupError> {
        if config.rounds == 0 {
            return Err(SetupError("play at least one round".into()));
        }
        Ok(HighCardState {
            rounds: config.rounds,
            round: 0,
            hands: [Vec::new(), Vec::new()],
            laid: [None, None],
            scores: [0, 0],
            to_play: 0,
            over: false,
        })
    }

    fn automatic(state: &HighCardState) -> Option<HighCardCommand> {
        if state.over {
            None
        } else if state.laid.iter().all(Option::is_some) {
            Some(HighCardCommand::Reveal)
        } else if state.hands.iter().all(Vec::is_empty) && state.laid == [None, None] {
            Some(HighCardCommand::Deal)
        } else {
            None
        }
    }

    fn decide(
        state: &HighCardState,
        actor: Actor,
        command: &HighCardCommand,
        rng: &mut Randomness,
    ) -> Result<Vec<HighCardEvent>, RuleError> {
        if state.over {
            return Err(RuleError::game_over());
        }
        match *command {
            HighCardCommand::Deal => {
                let mut deck: Vec<u8> = (1..=DECK).collect();
                rng.shuffle(&mut deck);
                let mut hands = [deck[..HAND].to_vec(), deck[HAND..2 * HAND].to_vec()];
                for h in &mut hands {
                    h.sort_unstable();
                }
                Ok(vec![HighCardEvent::Dealt { hands }])
            }
            HighCardCommand::Lay { card } => {
                if actor.0 != state.to_play {
                    return Err(RuleError::not_your_turn(format!(
                        "it is {}'s turn to lay a card",
                        name(state.to_play)
                    )));
                }
                if !state.hands[actor.0 as usize].contains(&card) {
                    return Err(RuleError::new(
                        RuleErrorKind::Illegal,
                        format!("{} holds no {card}", name(actor.0)),
                    ));
                }
                Ok(vec![HighCardEvent::Laid {
                    player: actor.0,
                    card,
                }])
            }
            HighCardCommand::Reveal => {
                let [Some(a), Some(b)] = state.laid else {
                    return Err(RuleError::new(
                        RuleErrorKind::Illegal,
                        "both players must lay a card first",
                    ));
                };
                let winner = u8::from(b > a);
                let mut events = vec![HighCardEvent::Revealed {
                    cards: [a, b],
                    winner,
                }];
                let last_trick = state.hands.iter().all(Vec::is_empty);
                if last_trick && state.round >= state.rounds {
                    events.push(HighCardEvent::Ended);
                }
                Ok(events)
            }
        }
    }

    fn apply(state: &mut HighCardState, event: &HighCardEvent) {
        match event {
            HighCardEvent::Dealt { hands } => {
                state.hands = hands.clone();
                state.round += 1;
            }
            HighCardEvent::Laid { player, card } => {
                let p = *player as usize;
                state.hands[p].retain(|c| c != card);
                state.laid[p] = Some(*card);
                state.to_play = 1 - *player;
            }
            HighCardEvent::Revealed { winner, .. } => {
                state.scores[*winner as usize] += 1;
                state.laid = [None, None];
                state.to_play = *winner;
            }
            HighCardEvent::Ended => state.over = true,
        }
    }

    fn legal(state: &HighCardState) -> Vec<(Actor, HighCardCommand)> {
        if state.over || Self::automatic(state).is_some() {
            return Vec::new();
        }
        let p = state.to_play;
        state.hands[p as usize]
            .iter()
            .map(|&card| (Actor(p), HighCardCommand::Lay { card }))
            .collect()
    }

    fn asked(state: &HighCardState) -> Vec<Ask> {
        if state.over {
            return Vec::new();
        }
        vec![Ask {
            seat: Actor(state.to_play),
            what: "lay a card face down".into(),
        }]
    }

    fn outcome(state: &HighCardState) -> Option<Outcome> {
        if !state.over {
            return None;
        }
        let [a, b] = state.scores;
        let (winners, summary) = match a.cmp(&b) {
            std::cmp::Ordering::Greater => (vec![Actor(0)], format!("{} wins {a} to {b}", name(0))),
            std::cmp::Ordering::Less => (vec![Actor(1)], format!("{} wins {b} to {a}", name(1))),
            std::cmp::Ordering::Equal => (Vec::new(), format!("a draw, {a} all")),
        };
        Some(Outcome {
            scores: (0..2)
                .map(|p| SeatScore {
                    seat: Actor(p),
                    points: i64::from(state.scores[p as usize]),
                })
                .collect(),
            ..Outcome::won(winners, summary)
        })
    }

    fn view(state: &HighCardState, viewer: Actor) -> HighCardState {
        // A player sees their own hand and their own face-down card only.
        let mut seen = state.clone();
        for p in 0..2 {
            if Actor(p as u8) != viewer {
                seen.hands[p] = vec![0; state.hands[p].len()];
                seen.laid[p] = state.laid[p].map(|_| 0);
            }
        }
        seen
    }

    fn view_event(event: &HighCardEvent, viewer: Actor) -> HighCardEvent {
        match event {
            HighCardEvent::Dealt { hands } => HighCardEvent::Dealt {
                hands: [0, 1].map(|p| {
                    if Actor(p) == viewer {
                        hands[p as usize].clone()
                    } else {
                        vec![0; hands[p as usize].len()]
                    }
                }),
            },
            HighCardEvent::Laid { player, .. } if Actor(*player) != viewer => HighCardEvent::Laid {
                player: *player,
                card: 0,
            },
            e => e.clone(),
        }
    }

    fn view_command(command: &HighCardCommand, actor: Actor, viewer: Actor) -> HighCardCommand {
        match command {
            HighCardCommand::Lay { .. } if actor != viewer => HighCardCommand::Lay { card: 0 },
            c => c.clone(),
        }
    }

    fn actor_name(actor: Actor) -> String {
        name(actor.0)
    }

    fn describe_command(_state: &HighCardState, actor: Actor, command: &HighCardCommand) -> String {
        match command {
            HighCardCommand::Deal => "shuffles and deals a round".into(),
            HighCardCommand::Lay { card: 0 } => format!("{} lays a card", name(actor.0)),
            HighCardCommand::Lay { card } => format!("{} lays the {card}", name(actor.0)),
            HighCardCommand::Reveal => "turns the trick over".into(),
        }
    }

    fn describe_event(_state: &HighCardState, event: &HighCardEvent) -> String {
        match event {
            HighCardEvent::Dealt { hands } => {
                let hand = |h: &Vec<u8>| {
                    if h.contains(&0) {
                        format!("{} cards", h.len())
                    } else {
                        format!("{h:?}")
                    }
                };
                format!(
                    "dealt {} to {} and {} to {}",
                    hand(&hands[0]),
                    name(0),
                    hand(&hands[1]),
                    name(1)
                )
            }
            HighCardEvent::Laid { player, card: 0 } => {
                format!("{} lays a card face down", name(*player))
            }
            HighCardEvent::Laid { player, card } => {
                format!("{} lays the {card} face down", name(*player))
            }
            HighCardEvent::Revealed { cards, winner } => format!(
                "{} against {}: {} takes the trick",
                cards[0],
                cards[1],
                name(*winner)
            ),
            HighCardEvent::Ended => "the last round is over".into(),
        }
    }

    fn flow(state: &HighCardState) -> FlowMark {
        FlowMark {
            turn: u32::from(state.round.max(1)),
            phase: format!("Round {}", state.round.max(1)),
        }
    }

    fn scene(state: &HighCardState) -> Scene {
        let mut items = Vec::new();
        for p in 0..2usize {
            let y = 10.0 + 60.0 * p as f32;
            let cards = state.hands[p]
                .iter()
                .map(|&c| (c, false))
                .chain(state.laid[p].map(|c| (c, true)));
            for (i, (card, laid)) in cards.enumerate() {
                let x = 10.0 + 40.0 * i as f32 + if laid { 20.0 } else { 0.0 };
                items.push(Item {
                    id: format!("card:{p}:{i}"),
                    kind: ItemKind::Counter,
                    shape: Shape::rect([x, y], [32.0, 48.0], 3.0),
                    fill: if laid {
                        Rgba::rgb(200, 200, 120)
                    } else {
                        Rgba::WHITE
                    },
                    stroke: (1.0, Rgba::BLACK),
                    tooltip: Some(match card {
                        0 => format!("{}: a card you may not see", name(p as u8)),
                        c => format!("{}: {c}", name(p as u8)),
                    }),
                    name: None,
                });
            }
            items.push(Item {
                id: format!("score:{p}"),
                kind: ItemKind::Label,
                shape: Shape::Text {
                    pos: [220.0, y + 24.0],
                    text: format!("{}: {}", name(p as u8), state.scores[p]),
                    size: 12.0,
                },
                fill: Rgba::BLACK,
                stroke: (0.0, Rgba::BLACK),
                tooltip: None,
                name: None,
            });
        }
        Scene {
            width: 300.0,
            height: 130.0,
            background: Some(Rgba::rgb(40, 110, 60)),
            items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    #[test]
    fn the_game_deals_before_anyone_may_lay_a_card() {
        let mut s = Session::<HighCard>::new(3, HighCardConfig::default()).unwrap();
        assert_eq!(s.due(), Some(HighCardCommand::Deal));
        let err = s
            .play(Actor(0), &HighCardCommand::Lay { card: 1 }, None)
            .unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
        assert!(err.message.contains("shuffles and deals"), "{err}");
        let played = s.play_due().unwrap();
        assert_eq!(played.len(), 1);
        assert_eq!(s.records()[0].actor, Actor::SYSTEM);
        assert_eq!(s.state().hands.each_ref().map(Vec::len), [HAND, HAND]);
    }

    #[test]
    fn a_player_cannot_play_the_games_own_step_nor_another_one() {
        let mut s = Session::<HighCard>::new(3, HighCardConfig::default()).unwrap();
        s.play_due().unwrap();
        let err = s
            .play(Actor::SYSTEM, &HighCardCommand::Deal, None)
            .unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::NotYourTurn, "no deal is due now");
        let err = s
            .play(Actor(0), &HighCardCommand::Reveal, None)
            .unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::Illegal);
    }

    #[test]
    fn a_whole_game_is_steps_of_the_game_between_the_players_cards() {
        let mut s = Session::<HighCard>::new(9, HighCardConfig { rounds: 2 }).unwrap();
        loop {
            s.play_due().unwrap();
            let Some((actor, cmd)) = HighCard::legal(s.state()).into_iter().next() else {
                break;
            };
            s.play(actor, &cmd, None).unwrap();
        }
        let out = HighCard::outcome(s.state()).expect("over");
        assert_eq!(out.scores.iter().map(|s| s.points).sum::<i64>(), 6);
        let system = s
            .records()
            .iter()
            .filter(|r| r.actor == Actor::SYSTEM)
            .count();
        assert_eq!(system, 2 + 6, "two deals and six reveals");
        assert!(s.verify().ok());
    }

    #[test]
    fn a_player_sees_only_their_own_hand() {
        let mut s = Session::<HighCard>::new(4, HighCardConfig::default()).unwrap();
        s.play_due().unwrap();
        let seen = HighCard::view(s.state(), Actor(0));
        assert_eq!(seen.hands[0], s.state().hands[0]);
        assert_eq!(seen.hands[1], vec![0; HAND]);
    }

    #[test]
    fn every_face_of_the_battle_shows_a_seat_only_what_it_may_see() {
        use crate::battle::Battle;
        use crate::game::Viewer;
        let mut s = Session::<HighCard>::new(4, HighCardConfig::default()).unwrap();
        s.play_due().unwrap();
        let (p1, card) = match HighCard::legal(s.state())[0] {
            (a, HighCardCommand::Lay { card }) => (a, card),
            _ => unreachable!("a lay"),
        };
        s.play(p1, &HighCardCommand::Lay { card }, None).unwrap();
        let other = Actor(1 - p1.0);
        let b: &dyn Battle = &s;
        assert!(b.hides_information());
        let line = b.path_to(b.cursor());
        let mine = b.entry_texts_as(&line, Viewer::Seat(p1));
        let theirs = b.entry_texts_as(&line, Viewer::Seat(other));
        assert!(
            mine[1].command.contains(&format!("lays the {card}")),
            "{:?}",
            mine[1]
        );
        assert_eq!(theirs[1].command, format!("{} lays a card", name(p1.0)));
        assert!(theirs[1].events[0].contains("lays a card face down"));
        let own_hand = format!("{:?}", s.state().hands[other.0 as usize]);
        assert!(theirs[0].events[0].contains(&own_hand), "{:?}", theirs[0]);
        assert!(theirs[0].events[0].contains("3 cards"), "{:?}", theirs[0]);
        // The state and the board the same way; everyone sees all.
        let seen = b.state_json_as(b.cursor(), Viewer::Seat(other));
        assert_eq!(seen["laid"][p1.0 as usize], 0);
        assert_eq!(
            b.state_json_as(b.cursor(), Viewer::All)["laid"][p1.0 as usize],
            card
        );
        let tips: Vec<String> = b
            .scene_at_as(b.cursor(), Viewer::Seat(other))
            .items
            .into_iter()
            .filter_map(|i| i.tooltip)
            .collect();
        assert!(
            !tips.iter().any(|t| t == &format!("{}: {card}", name(p1.0))),
            "{tips:?}"
        );
        assert!(
            tips.iter().any(|t| t.ends_with("a card you may not see")),
            "{tips:?}"
        );
    }
}
