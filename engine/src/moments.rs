//! What an entry meant, as the game says it: how much each event matters to
//! a reader and whom it concerns, and what each die was for, what it needed
//! and whether it counted. Reports, the dice tray and the luck statistics all
//! read these, so they agree; a game says them through
//! [`crate::Game::moment`] and [`crate::Game::dice_meanings`].

use serde::{Deserialize, Serialize};

use crate::basics::Actor;
use crate::record::EntryId;

/// How much an event matters to someone reading the battle afterwards.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Importance {
    /// Bookkeeping: a move, a card drawn. Folded in a report.
    #[default]
    Routine,
    /// Worth telling: a hit, a roll that failed.
    Notable,
    /// A moment that mattered: a kill, an elimination, the victory.
    Key,
}

/// What kind of moment an event is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentKind {
    #[default]
    Routine,
    /// A model or figure killed.
    Kill,
    /// A unit, group or side put out of the battle.
    Elimination,
    /// The battle won or lost.
    Victory,
    /// A roll that had to succeed and did not, or dice that all missed.
    FailedRoll,
    /// A roll far above the odds: every die a hit, a decisive success.
    CriticalRoll,
    /// Another turn of events the game thinks worth telling.
    Turn,
}

impl MomentKind {
    /// In words, for a report's margin: "kill", "failed roll".
    pub fn words(self) -> &'static str {
        match self {
            MomentKind::Routine => "",
            MomentKind::Kill => "kill",
            MomentKind::Elimination => "elimination",
            MomentKind::Victory => "victory",
            MomentKind::FailedRoll => "failed roll",
            MomentKind::CriticalRoll => "critical roll",
            MomentKind::Turn => "turn of events",
        }
    }
}

/// How much one event matters, and to whom.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    pub importance: Importance,
    pub kind: MomentKind,
    /// The seats it concerns (the side that killed and the side that lost a
    /// model); empty: everyone or no one in particular.
    pub concerns: Vec<Actor>,
}

impl Moment {
    /// A routine event, nobody's in particular.
    pub fn routine() -> Self {
        Self::default()
    }
    pub fn notable(kind: MomentKind, concerns: Vec<Actor>) -> Self {
        Self {
            importance: Importance::Notable,
            kind,
            concerns,
        }
    }
    pub fn key(kind: MomentKind, concerns: Vec<Actor>) -> Self {
        Self {
            importance: Importance::Key,
            kind,
            concerns,
        }
    }
}

/// How one die counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieMark {
    Hit,
    Miss,
    /// A roll that had to succeed (rally, recon) and did.
    Pass,
    /// A roll that had to succeed and did not.
    Fail,
    /// Not a to-hit die (a move roll, a draw, a die of a total), or the game
    /// does not say.
    Plain,
}

/// What a die needed, as the rules set it for this roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    /// Nothing to reach: a random hex, how far a jump lands, a how-many roll.
    Nothing,
    /// A hit when the die shows more than this (a DN to beat).
    Above(u8),
    /// A success when the die shows this or more (a 6 to succeed). A
    /// value above the die's sides can never succeed; 1 always does.
    AtLeast(u8),
    /// The dice of the roll (those sharing its [`DieMeaning::roll`]) are
    /// totalled: one kill for each `score` reached, at most `most` (the
    /// figures there were to kill).
    Total { score: u32, most: u32 },
}

impl Need {
    /// Whether a die showing `face` counted (for [`Need::Above`] and
    /// [`Need::AtLeast`]; dice of a total or of no need never count alone).
    pub fn counts(self, face: u8) -> bool {
        match self {
            Need::Above(n) => face > n,
            Need::AtLeast(n) => face >= n,
            Need::Nothing | Need::Total { .. } => false,
        }
    }

    /// In words: "above 3", "5 or more", "a total of 7 per kill (at most 3)".
    pub fn words(self) -> String {
        match self {
            Need::Nothing => String::new(),
            Need::Above(n) => format!("above {n}"),
            Need::AtLeast(n) => format!("{n}+"),
            Need::Total { score, most } => format!("total {score} a kill (at most {most})"),
        }
    }
}

/// What a roll counted, for the luck statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counts {
    /// Nothing to count (a die with no need).
    Nothing,
    /// Hits against a DN.
    Hits,
    /// Successes of rolls that had to succeed.
    Successes,
    /// Kills from totals against kill scores.
    Kills,
}

impl Counts {
    pub fn words(self) -> &'static str {
        match self {
            Counts::Nothing => "other dice",
            Counts::Hits => "hits",
            Counts::Successes => "successes",
            Counts::Kills => "kills",
        }
    }
}

/// What one die of an entry meant, in roll order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieMeaning {
    /// What it was for, in words ("whether Marine Squad MS1 hits Kay'otz #3 (D.4)").
    pub purpose: String,
    /// What it needed.
    pub need: Need,
    /// What it counted towards.
    pub counts: Counts,
    /// Whether it counted (hit, miss, success, failure, plain).
    pub mark: DieMark,
    /// The seat whose luck it is (the side that rolled it): the Kay'otz'
    /// fire is theirs even when the Marine player's command set it off.
    /// `None`: the game's own roll, nobody's luck (a random hex).
    pub seat: Option<Actor>,
    /// Dice of one roll share this number within the entry (a total is one
    /// roll of several dice); numbered from 0 in roll order.
    pub roll: u16,
}

impl DieMeaning {
    /// A die the game says nothing about.
    pub fn plain(purpose: impl Into<String>, seat: Option<Actor>, roll: u16) -> Self {
        Self {
            purpose: purpose.into(),
            need: Need::Nothing,
            counts: Counts::Nothing,
            mark: DieMark::Plain,
            seat,
            roll,
        }
    }

    /// A die that needed `need` (per die) and counted as `counts`, marked
    /// from its face.
    pub fn needing(
        purpose: impl Into<String>,
        need: Need,
        counts: Counts,
        face: u8,
        seat: Option<Actor>,
        roll: u16,
    ) -> Self {
        let ok = need.counts(face);
        let mark = match (counts, ok) {
            (Counts::Hits, true) => DieMark::Hit,
            (Counts::Hits, false) => DieMark::Miss,
            (Counts::Successes, true) => DieMark::Pass,
            (Counts::Successes, false) => DieMark::Fail,
            _ => DieMark::Plain,
        };
        Self {
            purpose: purpose.into(),
            need,
            counts,
            mark,
            seat,
            roll,
        }
    }
}

/// What an entry meant, as [`crate::Battle::entry_facts`] gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryFacts {
    pub id: EntryId,
    /// One per event, in order (as [`crate::EntryText::events`]).
    pub moments: Vec<Moment>,
    /// One per die the entry rolled, in roll order.
    pub dice: Vec<DieMeaning>,
}

impl EntryFacts {
    /// The most an event of this entry matters.
    pub fn importance(&self) -> Importance {
        self.moments
            .iter()
            .map(|m| m.importance)
            .max()
            .unwrap_or_default()
    }
}
