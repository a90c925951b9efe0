//! What identifies a battle's stream and rules ([`BattleMeta`]), apart
//! from [`crate::session`] (which re-exports it) so that the chain's root
//! ([`crate::hash::root_chain`]) names it without importing the session.

use serde::{Deserialize, Serialize};

/// What identifies a battle's stream and rules: stamped once, never changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleMeta {
    pub game: String,
    pub seed: u64,
    /// The rules version the battle was started under. Each entry records the
    /// version that decided it ([`crate::EntryRecord::rules_version`]), which is this
    /// one until the battle goes on under a newer build.
    pub rules_version: u32,
    /// The game's config as JSON (scenario and options).
    pub config: String,
    /// A strict battle: no command from a point whose dice have been seen
    /// (see [`crate::Session::prepare`]); against dice foresight in solitaire play.
    #[serde(default)]
    pub strict: bool,
    /// A battle of a club server: the commitment to the server's secret and
    /// every seat's nonce, from which `seed` was derived ([`crate::fair`]).
    /// `None` for every battle whose seed was simply drawn.
    #[serde(default)]
    pub fair: Option<crate::fair::FairSeed>,
}
