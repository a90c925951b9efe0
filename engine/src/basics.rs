//! The small types every core module names: who gives a command
//! ([`Actor`]) and why the rules refuse one ([`RuleError`]). They live here,
//! not in [`crate::game`], so that the stream ([`crate::rng`]) and the
//! moments ([`crate::moments`]) can name them without importing the `Game`
//! trait that in turn names them (`crate::game` re-exports them).

use serde::{Deserialize, Serialize as SerializeDerive};

/// A seat at the table: which player gave a command. Games name their seats.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, SerializeDerive, Deserialize,
)]
#[serde(transparent)]
pub struct Actor(pub u8);

impl Actor {
    /// The game itself: the seat that plays automatic steps (shuffling and
    /// dealing, an alien deck's turn), see [`crate::Game::automatic`].
    pub const SYSTEM: Actor = Actor(u8::MAX);
}

/// What kind of rule a command broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, SerializeDerive, Deserialize)]
pub enum RuleErrorKind {
    /// The battle is over; no command is accepted.
    GameOver,
    /// It is not this player's turn or decision.
    NotYourTurn,
    /// The command is not one this game knows, or is malformed.
    Unknown,
    /// The game's rules forbid it.
    Illegal,
    /// Entered dice do not fit the command (a face out of range, or dice left over).
    Dice,
    /// The entered dice ran out before the command had rolled all it needs.
    /// Nothing was recorded: give the same command again with one more die
    /// (a player rolling real dice can be asked die by die this way).
    MoreDice,
    /// A strict battle refuses a new command where dice have been seen.
    Strict,
}

/// A command refused by the rules, with the reason in words.
#[derive(Clone, Debug, PartialEq, Eq, SerializeDerive, Deserialize, thiserror::Error)]
#[error("{message}{}", clause.as_ref().map(|c| format!(" (rule {c})")).unwrap_or_default())]
pub struct RuleError {
    pub kind: RuleErrorKind,
    /// The clause of the rule text, e.g. `C.1` or `E.Recon`, when one applies.
    pub clause: Option<String>,
    pub message: String,
}

impl RuleError {
    pub fn new(kind: RuleErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            clause: None,
            message: message.into(),
        }
    }

    /// An illegal command, citing the clause that forbids it.
    pub fn illegal(clause: &str, message: impl Into<String>) -> Self {
        Self {
            kind: RuleErrorKind::Illegal,
            clause: Some(clause.to_owned()),
            message: message.into(),
        }
    }

    pub fn not_your_turn(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::NotYourTurn, message)
    }

    pub fn game_over() -> Self {
        Self::new(RuleErrorKind::GameOver, "the battle is over")
    }
}
