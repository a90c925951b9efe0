//! # Invaders From Dimension X!
//!
//! The solitaire hex wargame of rule text 003, with the Kay'otz run by the
//! engine (and a two-player variant where a second player runs them).
//! `RULES.md` beside this file maps every clause of the text to its code and
//! tests and lists every assumption.
//!
//! The one key decision: **the whole Kay'otz Activation Phase of the solitaire
//! game is decided inside the Marine player's `end_action_phase` command**.
//! Each step (chit drawn, unit flipped, unit moved, fire with its dice, hits,
//! markers) is its own event, so the log reads as a step-by-step account and
//! the app can replay it, while the battle needs no "press to continue"
//! commands. Entered dice for that command are used in order for every roll of
//! the phase; a player rolling real dice may enter them one at a time (the
//! command is refused with `RuleErrorKind::MoreDice` until enough are in).
//! In the two-player variant play pauses instead wherever the Kay'otz player
//! decides: the chit, the order of activation, and every tie of equally
//! eligible hexes (`DimxState::placing`).
//!
//! Modules: [`map`] (hex geometry, terrain, lines of fire), [`units`]
//! (counters), [`chits`] (the activation chit sheet), [`state`] (state, events,
//! `apply`), [`movement`], [`combat`], [`special`] (special actions),
//! [`kayotz`] (activation and the Kay'otz "bot"), [`endphase`], [`scenario`]
//! (scenario files), [`actions`] (commands: `legal` and `decide`), [`scene`],
//! [`describe`].

pub mod actions;
pub mod chits;
pub mod combat;
pub mod describe;
pub mod endphase;
pub mod kayotz;
pub mod map;
pub mod moments;
pub mod movement;
pub mod rules;
pub mod scenario;
pub mod scene;
pub mod special;
pub mod state;
pub mod text;
pub mod units;

use serde::{Deserialize, Serialize};

use crate::game::{Actor, Anchors, FlowMark, Game, Outcome, ScenarioInfo, SetupError};

pub use actions::DimxCommand;
pub use state::{DimxEvent, DimxState};

/// The content compiled in from `engine/data/dimx/`: file name and text.
pub const CONTENT: [(&str, &str); 7] = [
    ("chits.txt", include_str!("../../../data/dimx/chits.txt")),
    (
        "counters.txt",
        include_str!("../../../data/dimx/counters.txt"),
    ),
    (
        "map_alpha.txt",
        include_str!("../../../data/dimx/map_alpha.txt"),
    ),
    (
        "map_beta.txt",
        include_str!("../../../data/dimx/map_beta.txt"),
    ),
    (
        "scenario_alpha.txt",
        include_str!("../../../data/dimx/scenario_alpha.txt"),
    ),
    (
        "scenario_beta.txt",
        include_str!("../../../data/dimx/scenario_beta.txt"),
    ),
    (
        "scenario_campaign.txt",
        include_str!("../../../data/dimx/scenario_campaign.txt"),
    ),
];

/// A digest of what the compiled-in content says: every statement of every
/// file in [`CONTENT`], comments and spacing left out, so a reworded comment
/// does not count as a change but any value does.
pub fn content_digest() -> String {
    let mut h = blake3::Hasher::new();
    for (name, text) in CONTENT {
        h.update(name.as_bytes());
        h.update(b"\n");
        // a file that does not split is caught by the parse tests; its raw
        // text still goes into the digest
        match text::lines(text) {
            Ok(ls) => {
                for l in ls {
                    h.update(l.words.join("\u{1f}").as_bytes());
                    h.update(b"\n");
                }
            }
            Err(_) => {
                h.update(text.as_bytes());
            }
        }
    }
    h.finalize().to_hex().as_str()[..16].to_owned()
}

/// The game.
pub struct DimX;

/// How a battle is set up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DimxConfig {
    /// A scenario id (`alpha`, `beta`, `campaign`); empty means the first.
    pub scenario: String,
    /// A player's own scenario file, as text (it wins over `scenario`).
    pub scenario_text: Option<String>,
    /// The two-player variant: a second player runs the Kay'otz.
    pub two_player: bool,
    /// G.3 f Summoning counts only the numbered Kay'otz units, never the
    /// Monolith (the reading of rules version 3; by default an Active
    /// Monolith counts, A.2 b). Contested reading, off by default.
    #[serde(skip_serializing_if = "is_false")]
    pub summoning_ignores_monolith: bool,
    /// The Successful Recon marker also doubles the draw of a draw-again
    /// chit's follow-up (F.4). Contested reading, off by default.
    #[serde(skip_serializing_if = "is_false")]
    pub recon_doubles_follow_up: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Build the starting state from a config.
pub fn start(config: &DimxConfig) -> Result<DimxState, SetupError> {
    start_as(config, false)
}

/// Build the starting state; `before_v3` reads a scenario file as rules
/// versions 1 and 2 did (a Strongpoint given twice, a unit both Stunned and
/// Paralyzed were accepted), so battles started then still open as they were.
fn start_as(config: &DimxConfig, before_v3: bool) -> Result<DimxState, SetupError> {
    let mut s = start_scenario(config, before_v3)?;
    s.summoning_ignores_monolith = config.summoning_ignores_monolith;
    s.recon_doubles_follow_up = config.recon_doubles_follow_up;
    Ok(s)
}

/// The scenario's starting state with the two-player option set.
fn start_scenario(config: &DimxConfig, before_v3: bool) -> Result<DimxState, SetupError> {
    if let Some(text) = &config.scenario_text {
        return scenario::parse_as(text, "file", config.two_player, before_v3)
            .map(|s| s.state)
            .map_err(|e| SetupError(format!("the scenario file is not valid: {e}")));
    }
    let all = scenario::builtin();
    let sc = if config.scenario.is_empty() {
        &all[0]
    } else {
        all.iter()
            .find(|s| s.id == config.scenario)
            .ok_or_else(|| {
                SetupError(format!(
                    "there is no scenario '{}' (try one of: {})",
                    config.scenario,
                    all.iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?
    };
    let mut s = sc.state.clone();
    s.two_player = config.two_player;
    Ok(s)
}

impl Game for DimX {
    game_parts! {
        types: DimxConfig, DimxState, DimxCommand, DimxEvent;
        setup: start; apply: state::apply; moment: moments::moment; scene: scene::scene;
        decide: actions::decide; decide_and_apply: actions::decide_and_apply; legal: actions::legal; asked: actions::asked;
        describe_command: describe::command;
    }

    const ID: &'static str = "dimx";
    const NAME: &'static str = "Invaders From Dimension X!";
    /// Bump this whenever a change can alter a recorded battle: a rule in the
    /// code, or the compiled-in content in `engine/data/dimx/` (maps, counter
    /// sheet, chit sheet, scenarios), so `verify` reports "recorded under
    /// rules version X, now Y" instead of replaying an old battle differently.
    /// The test `builtin_content_is_pinned_to_the_rules_version` fails when
    /// that content changes, as a reminder. 2: C.3 "does nothing else for that
    /// turn" across draw-again chits, and the review fixes that followed.
    /// 4: the independent review: G.3 f Summoning counts an Active Monolith,
    /// and two battle options for contested readings (RULES.md, "Review").
    /// 5: C.1, a unit leaves a Lava bridge only along its road; in the
    /// two-player variant a chit's Summon to random hexes waits for the
    /// Kay'otz player's `roll_for_aliens`; a Special Ops unit that
    /// malfunctions onto the Monolith it alone shut down is eliminated (review8).
    /// 6: in the two-player variant, a Shoot and Scoot jump in from off the
    /// map whose landing the Kay'otz player chooses keeps its fire (C.1 b);
    /// `activate` refuses a `target` or `hex` the unit's step does not use
    /// (review16).
    const RULES_VERSION: u32 = 6;

    fn options() -> Vec<crate::game::GameOption> {
        vec![
            crate::game::GameOption {
                key: "two_player",
                group: "Players",
                label: "Two-player variant (a player runs the invaders)",
                help: "The invaders' player picks the chit to enact, the order the invaders act in, \
                       and breaks their ties; without it Xenolog runs the invaders by the rules.",
                kind: crate::game::OptionKind::Flag { default: false },
            },
            crate::game::GameOption {
                key: "summoning_ignores_monolith",
                group: "Rules",
                label: "Summoning does not count the Monolith (G.3 f)",
                help: "The Summoning Mission Goal needs eight Active Kay'otz units. By default an \
                       Active Monolith is one of them (A.2 b: Kay'otz units are also called alien \
                       units); with this on only the numbered pods count.",
                kind: crate::game::OptionKind::Flag { default: false },
            },
            crate::game::GameOption {
                key: "recon_doubles_follow_up",
                group: "Rules",
                label: "A successful Recon also doubles the follow-up draw (F.4)",
                help: "By default a successful Recon lets the player draw two chits and pick one \
                       only for the phase's first draw; with this on, the chit a draw-again chit \
                       makes you draw is also two-and-pick.",
                kind: crate::game::OptionKind::Flag { default: false },
            },
        ]
    }

    fn dice_meanings(
        state: &DimxState,
        _actor: Actor,
        events: &[DimxEvent],
    ) -> Vec<crate::DieMeaning> {
        moments::dice_meanings(state, events)
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        scenario::builtin()
            .iter()
            .map(|s| ScenarioInfo {
                id: s.id.clone(),
                name: s.name.clone(),
                description: s.description.clone(),
            })
            .collect()
    }

    fn setup_recorded(config: &DimxConfig, rules_version: u32) -> Result<DimxState, SetupError> {
        start_as(config, rules_version < 3)
    }

    fn outcome(state: &DimxState) -> Option<Outcome> {
        match &state.phase {
            state::Phase::Over { winner, summary } => Some(Outcome {
                pieces: pieces(state),
                ..Outcome::won(
                    winner.map(actions::side_actor).into_iter().collect(),
                    summary.clone(),
                )
            }),
            _ => None,
        }
    }

    fn view(state: &DimxState, _viewer: Actor) -> DimxState {
        // Face-down Mission Goal chits stay face down for both players, and the
        // ADM pile and chit cup show what is in them, not their order.
        let mut v = state.clone();
        for g in &mut v.goals {
            *g = units::Goal::FaceDown;
        }
        v.adm_pile.sort_unstable();
        v.cup.sort_unstable();
        v
    }

    fn actor_name(actor: Actor) -> String {
        if actor == Actor(0) {
            "Marines".into()
        } else {
            "Kay'otz".into()
        }
    }

    fn describe_event(_state: &DimxState, event: &DimxEvent) -> String {
        describe::event(event)
    }

    fn flow(state: &DimxState) -> FlowMark {
        let phase = match &state.phase {
            state::Phase::MarineAction { .. } => "Marine Action Phase",
            state::Phase::ChooseChit { .. } | state::Phase::Kayotz { .. } => {
                "Kay'otz Activation Phase"
            }
            state::Phase::Activated => "End Phase",
            state::Phase::Over { .. } => "Game over",
        };
        FlowMark {
            turn: u32::from(state.turn),
            phase: phase.into(),
        }
    }

    fn anchors(state: &DimxState, command: &DimxCommand) -> Anchors {
        use DimxCommand as C;
        let hex = |h: &u16| Some(format!("hex:{h}"));
        let unit = |u: &String| Some(format!("unit:{u}"));
        let subject = command.unit().map(|u| format!("unit:{u}"));
        let target = match command {
            C::FullMove { to, .. }
            | C::Jump { to, .. }
            | C::ShootAndScootMove { to, .. }
            | C::ShootAndScootJump { to, .. } => hex(to),
            C::FullFire { target, .. }
            | C::ShootAndScootFire { target, .. }
            | C::ReSupply { target, .. } => unit(target),
            C::Recon { hq: Some(h), .. } => unit(h),
            C::Activate { hex: Some(h), .. } | C::PlaceUnit { hex: h, .. } => hex(h),
            C::Activate {
                target: Some(t), ..
            } => unit(t),
            _ => None,
        };
        let _ = state;
        Anchors { subject, target }
    }
}

/// What became of every unit, for the outcome (kills are not counted by the
/// text, so none are given).
fn pieces(state: &DimxState) -> Vec<crate::game::PieceResult> {
    use crate::game::{Fate, PieceResult};
    use units::{AlienPlace, Place};
    let marines = state.marines.iter().map(|m| PieceResult {
        id: String::from(&m.id),
        seat: actions::side_actor(state::Side::Marines),
        fate: match m.place {
            Place::Map(_) => Fate::Survived,
            Place::Exited => Fate::Escaped,
            Place::Eliminated => Fate::Killed,
            Place::Waiting | Place::Arrives(_) | Place::Pool => Fate::NotDeployed,
        },
        kills: None,
    });
    let aliens = state.aliens.iter().map(|a| PieceResult {
        id: String::from(&a.id),
        seat: actions::side_actor(state::Side::Kayotz),
        fate: match a.place {
            AlienPlace::Map(_) => Fate::Survived,
            AlienPlace::Eliminated => Fate::Killed,
            AlienPlace::Cup | AlienPlace::Aside => Fate::NotDeployed,
        },
        kills: None,
    });
    marines.chain(aliens).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest of the compiled-in content that `RULES_VERSION` was last
    /// checked against.
    const PINNED_CONTENT: &str = "795412ef61e0d523";

    #[test]
    fn builtin_content_is_pinned_to_the_rules_version() {
        let now = content_digest();
        assert_eq!(
            now,
            PINNED_CONTENT,
            "the content in engine/data/dimx changed (rules version {}). If the change can \
             alter a recorded battle (a value, a hex, a chit step, a scenario line), bump \
             DimX::RULES_VERSION; then pin the new digest \"{now}\" in PINNED_CONTENT",
            DimX::RULES_VERSION
        );
    }
}
