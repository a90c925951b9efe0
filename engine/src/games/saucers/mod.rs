//! # Night of the Saucers
//!
//! The co-operative game of rule text 002 (`../shared/seeds/002_ac9624c7b5279b1c.txt`):
//! one to four players, each running three students of a gang, search a
//! 6x6 board of building tiles for supplies and fight the alien deck.
//! `RULES.md` beside this file maps every clause to code and tests and
//! lists every assumption.
//!
//! The one key decision: **everything the rules do on their own is a step of
//! the game** ([`crate::Game::automatic`], played by [`Actor::SYSTEM`]): the
//! opening shuffle and deal, each turn's draw (Event cards resolved as
//! drawn), collecting supplies, and the Alien turn (strikes, one alien card,
//! hit points returning). Players answer in between, several at once where
//! the text lets them: every seat gives out its mission at the setup, and
//! any seat holding an Instant card is asked, in anyone's turn.
//!
//! Modules: [`data`] (the components as data), [`state`] (state, events,
//! `apply`), [`rules`] (commands and `decide`), [`legal`] (who is asked and
//! what they may do), [`describe`] and [`scene`].

pub mod data;
pub mod describe;
pub mod legal;
pub mod names;
pub mod position;
pub mod rules;
pub mod scene;
pub mod state;

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use crate::game::{
    Actor, Fate, FlowMark, Game, GameOption, OptionKind, Outcome, PieceResult, ScenarioInfo,
    SeatScore, SetupError,
};

pub use rules::{InstantOn, SaucersCommand};
pub use state::{HIDDEN, Overlay, Phase, SaucersEvent, SaucersState, Target, Variant};
use state::{Human, Seat};

/// The game.
pub struct Saucers;

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SaucersConfig {
    /// 1 to 4.
    pub players: u8,
    /// The gang of each seat, by id (empty: the gangs in file order); a
    /// list, or one string of ids separated by commas
    /// (`--option gangs=nine_lives,fly_boyz`).
    #[serde(deserialize_with = "gang_ids")]
    pub gangs: Vec<String>,
    /// 1 Easy (30 alien cards), 2 Normal, 3 Hard.
    pub difficulty: u8,
    /// Task Force missions to complete to win: 2 Easy, 3 Normal, 4+ Hard.
    pub missions: u8,
    /// 0 the co-operative game, 1 Great Grey Hunter, 2 Gang Warfare (the
    /// words `coop`, `hunter` and `gang_warfare` are read too).
    #[serde(deserialize_with = "variant_number")]
    pub variant: u8,
    /// Hands hidden from the other seats in the co-operative game (always
    /// hidden in Gang Warfare).
    pub hidden_hands: bool,
    /// The seat of the youngest player, who starts (1-based; past the last
    /// seat means the last).
    pub youngest: u8,
    /// Players' own data files by name (`tiles`, `humans`, `cards`,
    /// `aliens`, `missions`, `tokens`), replacing the shipped ones.
    pub files: BTreeMap<String, String>,
    /// A position file to start from (`position.rs`; the command line's
    /// `--scenario-file`).
    pub scenario_text: Option<String>,
    /// Instants only in the Actions, Defeat and Upkeep steps of a turn (the
    /// old reading); by default they are played at any moment a player may
    /// act, the setup included (the text: "Can be used at anytime").
    pub instants_in_turn_steps: bool,
    /// Collect supplies only for students that ended a movement this turn
    /// on the searched tile (the text: "ended their movement"); by default
    /// each searched supply tile any of one's students stands on yields one.
    pub collect_after_moving: bool,
    /// A Saucer Strike strikes the moment its card is placed; by default it
    /// strikes at the next Alien turn (RULES.md assumption 8).
    pub saucers_strike_at_once: bool,
    /// Great Grey Hunter: name the Hunter (the highest tally) even when the
    /// humans lose (the text: "At the end of the game, tally up"); by
    /// default nobody wins a lost game (RULES.md assumption 15, C4).
    pub hunter_named_in_defeat: bool,
    /// A Saucer in the crosshairs holds students on its tile as every alien
    /// does (Turn.Move.Alien: off only by defeating it, an Instant or an
    /// escape Move card); by default a Saucer is in the air and holds
    /// nobody (RULES.md assumption 8, review17 S1).
    pub saucers_hold_students: bool,
}

impl Default for SaucersConfig {
    fn default() -> Self {
        Self {
            players: 2,
            gangs: Vec::new(),
            difficulty: 1,
            missions: 2,
            variant: 0,
            hidden_hands: false,
            youngest: 1,
            files: BTreeMap::new(),
            scenario_text: None,
            instants_in_turn_steps: false,
            collect_after_moving: false,
            saucers_strike_at_once: false,
            hunter_named_in_defeat: false,
            saucers_hold_students: false,
        }
    }
}

/// The gangs as a list of ids or as one string of ids separated by commas
/// (what `--option gangs=...` gives; review17 N1).
fn gang_ids<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum ListOrWords {
        List(Vec<String>),
        Words(String),
    }
    match ListOrWords::deserialize(d).map_err(|_| {
        serde::de::Error::custom(
            "gangs are a list of gang ids or one string of ids separated by commas",
        )
    })? {
        ListOrWords::List(ids) => Ok(ids),
        // A string names every gang (review18 N3): an empty one, or one
        // with nothing between two commas, is a slip, not "the default".
        ListOrWords::Words(w) => {
            let ids: Vec<String> = w.split(',').map(|id| id.trim().to_string()).collect();
            if ids.iter().all(|id| id.is_empty()) {
                return Err(serde::de::Error::custom(format!(
                    "gangs '{w}' names no gang: give gang ids separated by commas, or leave the option out for the gangs in file order"
                )));
            }
            if ids.iter().any(|id| id.is_empty()) {
                return Err(serde::de::Error::custom(format!(
                    "gangs '{w}' has an empty id between its commas"
                )));
            }
            Ok(ids)
        }
    }
}

fn variant_number<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrWord {
        Number(u8),
        Word(String),
    }
    match NumberOrWord::deserialize(d)? {
        NumberOrWord::Number(n) => Ok(n),
        NumberOrWord::Word(w) => match w.as_str() {
            "coop" | "co-op" | "cooperative" => Ok(0),
            "hunter" | "great_grey_hunter" => Ok(1),
            "gang_warfare" | "gang-warfare" | "warfare" => Ok(2),
            _ => Err(serde::de::Error::custom(format!(
                "'{w}' is not a variant (coop, hunter, gang_warfare or 0, 1, 2)"
            ))),
        },
    }
}

/// The state before the opening deal.
pub fn start(config: &SaucersConfig) -> Result<SaucersState, SetupError> {
    start_recorded(config, <Saucers as Game>::RULES_VERSION)
}

/// The state before the opening deal of a battle started under
/// `rules_version`. Before version 6 a gang that lost its last student in
/// its own turn played that turn's steps on (assumption 14), and a position
/// file could leave a seat with no living student; such a battle keeps both.
pub fn start_recorded(
    config: &SaucersConfig,
    rules_version: u32,
) -> Result<SaucersState, SetupError> {
    let own: Vec<(String, String)> = config
        .files
        .iter()
        .map(|(k, v)| (k.trim_end_matches(".txt").to_owned(), v.clone()))
        .collect();
    let content =
        data::parse(&own).map_err(|e| SetupError(format!("a data file is not valid: {e}")))?;
    if !(1..=4).contains(&config.players) {
        return Err(SetupError(format!(
            "Night of the Saucers is for 1 to 4 players, not {}",
            config.players
        )));
    }
    let n = config.players as usize;
    if n > content.gangs.len() {
        return Err(SetupError(format!(
            "{n} players need {n} gangs; the data has {}",
            content.gangs.len()
        )));
    }
    if !content
        .difficulties
        .iter()
        .any(|d| d.level == config.difficulty)
    {
        let known: Vec<String> = content
            .difficulties
            .iter()
            .map(|d| format!("{} {}", d.level, d.name))
            .collect();
        return Err(SetupError(format!(
            "there is no difficulty {} (try {})",
            config.difficulty,
            known.join(", ")
        )));
    }
    if config.missions == 0 || usize::from(config.missions) > content.missions.len() {
        return Err(SetupError(format!(
            "the missions to win must be 1 to {} (2 Easy, 3 Normal, 4+ Hard)",
            content.missions.len()
        )));
    }
    let variant = match config.variant {
        0 => Variant::Coop,
        1 => Variant::Hunter,
        2 => Variant::GangWarfare,
        v => {
            return Err(SetupError(format!(
                "there is no variant {v} (0 co-operative, 1 Great Grey Hunter, 2 Gang Warfare)"
            )));
        }
    };
    let gangs: Vec<usize> = if config.gangs.is_empty() {
        (0..n).collect()
    } else {
        if config.gangs.len() != n {
            return Err(SetupError(format!(
                "{n} players need {n} gangs, {} were given",
                config.gangs.len()
            )));
        }
        let mut out = Vec::new();
        for id in &config.gangs {
            let g = content.gang(id).ok_or_else(|| {
                let known: Vec<&str> = content.gangs.iter().map(|g| g.id.as_str()).collect();
                SetupError(format!(
                    "there is no gang '{id}' (try {})",
                    known.join(", ")
                ))
            })?;
            if out.contains(&g) {
                return Err(SetupError(format!("the gang '{id}' is chosen twice")));
            }
            out.push(g);
        }
        out
    };
    let mut humans = Vec::new();
    for (seat, &g) in gangs.iter().enumerate() {
        for def in content.gang_humans(g) {
            humans.push(Human {
                def: def as u16,
                seat: seat as u8,
                at: 0,
                alive: true,
                actions: 0,
                mission: None,
                moved: false,
            });
        }
    }
    let preset = match &config.scenario_text {
        None => None,
        Some(text) => {
            let p =
                position::parse(text, &content, &gangs, rules_version >= 6).map_err(SetupError)?;
            if let Some(def) = p
                .students
                .iter()
                .map(|s| s.def)
                .find(|d| !humans.iter().any(|h: &Human| h.def == *d))
            {
                return Err(SetupError(format!(
                    "the position file places {}, who is not in this game's gangs",
                    content.humans[def as usize].name
                )));
            }
            Some(p)
        }
    };
    let start_tokens = content.start_tokens();
    Ok(SaucersState {
        variant,
        hidden_hands: config.hidden_hands,
        instants_in_turn_steps: config.instants_in_turn_steps,
        collect_after_moving: config.collect_after_moving,
        saucers_strike_at_once: config.saucers_strike_at_once,
        hunter_named_in_defeat: config.hunter_named_in_defeat,
        saucers_hold_students: config.saucers_hold_students,
        pass_over_lost_gangs: rules_version >= 6,
        difficulty: config.difficulty,
        missions_to_win: config.missions,
        first: config.youngest.clamp(1, config.players) - 1,
        board: Vec::new(),
        seats: gangs
            .iter()
            .map(|&g| Seat {
                gang: g as u16,
                hand: Vec::new(),
                tokens: start_tokens,
                kills_pending: 0,
                kills: 0,
                missions_done: Vec::new(),
                unassigned: None,
            })
            .collect(),
        humans,
        aliens: Vec::new(),
        next_alien: 1,
        deck: Vec::new(),
        discard: Vec::new(),
        alien_deck: Vec::new(),
        alien_drawn: Vec::new(),
        mission_pile: Vec::new(),
        turn: 0,
        current: 0,
        phase: Phase::Deal,
        losses: Vec::new(),
        owed: Vec::new(),
        offer: None,
        over: None,
        preset,
        content: content.into(),
    })
}

fn hide(v: &[u16]) -> Vec<u16> {
    vec![HIDDEN; v.len()]
}

impl Game for Saucers {
    game_parts! {
        types: SaucersConfig, SaucersState, SaucersCommand, SaucersEvent;
        setup: start; setup_recorded: start_recorded; decide: rules::decide; decide_and_apply: rules::decide_and_apply; automatic: rules::automatic; apply: state::apply;
        legal: legal::legal; asked: legal::asked; anchors: legal::anchors;
        describe_command: describe::command; describe_event: describe::event; scene: scene::scene;
        // Students and cards by name, tiles as `"C4"` (`names.rs`).
        command_from_json: names::command_from_json;
    }
    const ID: &'static str = "saucers";
    const NAME: &'static str = "Night of the Saucers";
    /// 4 (session 21, review7 M2's fuller reading, assumption 18): a swap
    /// that takes from a hidden hand or another gang is an offer the other
    /// seat accepts or declines (`SaucersState::offer`). 5 (session 22,
    /// assumption 18): the offering seat may withdraw its offer
    /// (`Withdraw`), so a battle whose answering player is away goes on.
    /// 6 (session 23, review17 M1 and S1): with option
    /// `saucers_strike_at_once`, the Draw step measures the hand size before
    /// each card (a strike mid-draw shrinks it) and a deliverer struck by
    /// its reward draw takes no new mission; option `saucers_hold_students`
    /// (a Saucer holds students on its tile). In a battle started under 6
    /// (review18 S2, N1): a gang that loses its last student in its own
    /// turn plays no further step of it but the Alien turn, whatever the
    /// step, and a position file that would stall on a seat with no living
    /// student is refused.
    const RULES_VERSION: u32 = 6;

    fn scenarios() -> Vec<ScenarioInfo> {
        Vec::new()
    }

    fn waits_for(state: &SaucersState, seat: Actor) -> bool {
        legal::waits_for(state, seat)
    }

    fn options() -> Vec<GameOption> {
        vec![
            super::players_option(
                "One to four players, each running the three students of one gang.",
                1,
                4,
            ),
            GameOption {
                key: "youngest",
                group: "Players",
                label: "Youngest player (starts)",
                help: "The seat of the youngest player, who places the students on the high school and starts.",
                kind: OptionKind::Number {
                    min: 1,
                    max: 4,
                    default: 1,
                },
            },
            GameOption {
                key: "difficulty",
                group: "Game",
                label: "Difficulty (Alien deck)",
                help: "Easy: 30 alien cards (9 Scouts, 9 Probes, 10 Saucer Strikes, 2 Commanders); Normal and Hard add more aliens.",
                kind: OptionKind::Choice {
                    choices: &[(1, "Easy"), (2, "Normal"), (3, "Hard")],
                    default: 1,
                },
            },
            GameOption {
                key: "missions",
                group: "Game",
                label: "Missions to win",
                help: "Task Force missions to complete: 2 Easy, 3 Normal, 4 or more Hard (1, a game shorter than the text's levels, and up to the 10 shipped missions are accepted).",
                // The range `start` accepts with the shipped missions (review7
                // N3): 1 stays, so battles made with it still open.
                kind: OptionKind::Number {
                    min: 1,
                    max: 10,
                    default: 2,
                },
            },
            GameOption {
                key: "variant",
                group: "Game",
                label: "Variant",
                help: "The co-operative game; Great Grey Hunter (the same, with scores of kills and missions); Gang Warfare (secret missions, gangs attack each other, the first mission wins).",
                kind: OptionKind::Choice {
                    choices: &[
                        (0, "Co-operative"),
                        (1, "Great Grey Hunter"),
                        (2, "Gang Warfare"),
                    ],
                    default: 0,
                },
            },
            GameOption {
                key: "instants_in_turn_steps",
                group: "Rules",
                label: "Instants only in a turn's steps",
                help: "Instant cards only in the Actions, Defeat and Upkeep steps of a turn. Off (the text: 'Can be used at anytime'): at any moment a player may act, the setup's mission-giving included.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "collect_after_moving",
                group: "Rules",
                label: "Collect only after moving",
                help: "Collect supplies only for students that ended a movement this turn on the searched tile (the text: 'ended their movement'). Off: each searched supply tile any of one's students stands on yields one token.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "saucers_strike_at_once",
                group: "Rules",
                label: "Saucers strike at once",
                help: "A Saucer Strike destroys its tile the moment its card is placed. Off: it is placed in the crosshairs and strikes at the next Alien turn, so players can escape or shoot it down.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "saucers_hold_students",
                group: "Rules",
                label: "Saucers hold students",
                help: "A Saucer in the crosshairs holds students on its tile as any alien does: they leave only by shooting it down, an Instant or an escape Move card. Off: a Saucer is in the air, and students may walk out from under it.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "hunter_named_in_defeat",
                group: "Rules",
                label: "Great Grey Hunter even in defeat",
                help: "Great Grey Hunter: the highest tally of kills and missions wins even when every student is eliminated (the text: 'At the end of the game, tally up'). Off: a lost game has no winner.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "hidden_hands",
                group: "Table",
                label: "Hide hands",
                help: "Each player sees only their own hand (hands are open in the co-operative game unless the table hides them; always hidden in Gang Warfare).",
                kind: OptionKind::Flag { default: false },
            },
        ]
    }

    fn outcome(state: &SaucersState) -> Option<Outcome> {
        let end = state.over.as_ref()?;
        let pieces = state
            .humans
            .iter()
            .map(|h| PieceResult {
                id: format!("human:{}", state.content.humans[h.def as usize].id),
                seat: Actor(h.seat),
                fate: if h.alive {
                    Fate::Survived
                } else {
                    Fate::Killed
                },
                kills: None,
            })
            .collect();
        let scores = match state.variant {
            Variant::Hunter => (0..state.seats.len() as u8)
                .map(|s| SeatScore {
                    seat: Actor(s),
                    points: rules::hunter_score(state, s),
                })
                .collect(),
            _ => Vec::new(),
        };
        Some(Outcome {
            winners: end.winners.iter().map(|&w| Actor(w)).collect(),
            scores,
            pieces,
            summary: end.summary.clone(),
        })
    }

    fn view(state: &SaucersState, viewer: Actor) -> SaucersState {
        let mut seen = state.clone();
        seen.deck = hide(&state.deck);
        seen.alien_deck = hide(&state.alien_deck);
        seen.mission_pile = hide(&state.mission_pile);
        // The position file the game started from holds the hands, the
        // decks' next cards and the missions it laid (principle 14). Only the
        // deal reads it, and the deal is decided on the whole state.
        seen.preset = None;
        // An unsearched tile shows its building side only (N8).
        if state.over.is_none() {
            for t in seen.board.iter_mut().filter(|t| !t.searched) {
                t.def = state.content.front(t.def);
            }
        }
        let open = rules::open(state);
        let secret = state.variant == Variant::GangWarfare;
        for (s, seat) in seen.seats.iter_mut().enumerate() {
            if Actor(s as u8) == viewer || state.over.is_some() {
                continue;
            }
            if !open {
                seat.hand = hide(&seat.hand);
            }
            if secret && seat.unassigned.is_some() {
                seat.unassigned = Some(HIDDEN);
            }
        }
        if let Some(o) = &mut seen.offer
            && !open
            && Actor(o.from) != viewer
            && Actor(o.to) != viewer
        {
            o.give_cards = hide(&o.give_cards);
            o.take_cards = hide(&o.take_cards);
        }
        if secret && state.over.is_none() {
            for h in &mut seen.humans {
                if Actor(h.seat) != viewer && h.mission.is_some() {
                    h.mission = Some(HIDDEN);
                }
            }
        }
        seen
    }

    fn view_event(event: &SaucersEvent, viewer: Actor) -> SaucersEvent {
        use SaucersEvent as E;
        match event {
            E::Dealt {
                board,
                hands,
                deck,
                alien_deck,
                missions,
                mission_pile,
                starts,
                open,
                secret,
            } => E::Dealt {
                // The tiles as dealt: seats read entries in words, which
                // name no tile's back (`describe::event`); the state's view
                // shows unsearched tiles building side up (N8).
                board: board.clone(),
                hands: hands
                    .iter()
                    .enumerate()
                    .map(|(s, h)| {
                        if *open || Actor(s as u8) == viewer {
                            h.clone()
                        } else {
                            hide(h)
                        }
                    })
                    .collect(),
                deck: hide(deck),
                alien_deck: hide(alien_deck),
                missions: missions
                    .iter()
                    .enumerate()
                    .map(|(s, &m)| {
                        if !*secret || Actor(s as u8) == viewer {
                            m
                        } else {
                            HIDDEN
                        }
                    })
                    .collect(),
                mission_pile: hide(mission_pile),
                starts: starts.clone(),
                open: *open,
                secret: *secret,
            },
            E::Reshuffled { deck } => E::Reshuffled { deck: hide(deck) },
            E::Overlaid(o) => {
                let mut o = (**o).clone();
                o.deck = hide(&o.deck);
                o.alien_deck = hide(&o.alien_deck);
                o.mission_pile = hide(&o.mission_pile);
                for (s, h) in o.hands.iter_mut().enumerate() {
                    if !o.open && Actor(s as u8) != viewer {
                        *h = hide(h);
                    }
                }
                if o.secret {
                    for (s, u) in o.unassigned.iter_mut().enumerate() {
                        if Actor(s as u8) != viewer && u.is_some() {
                            *u = Some(HIDDEN);
                        }
                    }
                    for h in &mut o.humans {
                        if Actor(h.0) != viewer && h.3.is_some() {
                            h.3 = Some(HIDDEN);
                        }
                    }
                }
                E::Overlaid(Box::new(o))
            }
            E::Drew {
                seat, open: false, ..
            } if Actor(*seat) != viewer => E::Drew {
                seat: *seat,
                card: HIDDEN,
                open: false,
            },
            E::MissionAssigned {
                seat,
                human,
                secret: true,
                ..
            } if Actor(*seat) != viewer => E::MissionAssigned {
                seat: *seat,
                human: *human,
                mission: HIDDEN,
                secret: true,
            },
            E::MissionLost {
                human,
                secret: true,
                ..
            } => E::MissionLost {
                human: *human,
                mission: HIDDEN,
                secret: true,
            },
            // A swap offered: the cards it names, face down to the others
            // (offers are made only where hands are closed).
            E::Offered(o) if Actor(o.from) != viewer && Actor(o.to) != viewer => {
                let mut o = o.clone();
                o.give_cards = hide(&o.give_cards);
                o.take_cards = hide(&o.take_cards);
                E::Offered(o)
            }
            // A closed swap: the cards that changed hands, face down.
            E::Swapped {
                from,
                to,
                open: false,
                ..
            } if Actor(*from) != viewer && Actor(*to) != viewer => {
                let mut seen = event.clone();
                if let E::Swapped {
                    give_cards,
                    take_cards,
                    ..
                } = &mut seen
                {
                    *give_cards = hide(give_cards);
                    *take_cards = hide(take_cards);
                }
                seen
            }
            e => e.clone(),
        }
    }

    fn view_command(command: &SaucersCommand, actor: Actor, viewer: Actor) -> SaucersCommand {
        match command {
            SaucersCommand::Swap {
                human,
                with,
                give,
                give_cards,
                take,
                take_cards,
            } if actor != viewer && Actor(*with) != viewer => SaucersCommand::Swap {
                human: *human,
                with: *with,
                give: *give,
                give_cards: hide(give_cards),
                take: *take,
                take_cards: hide(take_cards),
            },
            c => c.clone(),
        }
    }

    fn seats(state: &SaucersState) -> Vec<Actor> {
        (0..state.seats.len() as u8).map(Actor).collect()
    }

    fn actor_name(actor: Actor) -> String {
        format!("Player {}", u16::from(actor.0) + 1)
    }

    fn seat_name(state: &SaucersState, actor: Actor) -> String {
        rules::seat_label(state, actor.0)
    }

    fn flow(state: &SaucersState) -> FlowMark {
        let phase = match (&state.over, state.phase) {
            (Some(_), _) => "Game over".to_owned(),
            (None, Phase::Deal | Phase::Assign) => "Setup".to_owned(),
            (None, p) => format!(
                "{}: {}",
                rules::seat_label(state, state.current),
                rules::phase_name(p)
            ),
        };
        FlowMark {
            turn: state.turn,
            phase,
        }
    }
}
