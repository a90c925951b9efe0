//! An entry as it is kept and stored ([`EntryRecord`]) and the ids that
//! name entries and branches. Apart from [`crate::session`] (which
//! re-exports them) so that the hash chain ([`crate::hash`]), the moments
//! and the fair-seed receipts can name a record without importing the
//! session that in turn hashes it.

use serde::{Deserialize, Serialize};

use crate::basics::Actor;
use crate::rng::Die;

/// A 128-bit BLAKE3 digest: a state's hash, an entry's place in the chain.
pub type Hash16 = [u8; 16];

/// Index of an entry in its battle's arena.
pub type EntryId = u64;
/// Index of a branch in its battle.
pub type BranchId = u32;

/// One accepted command with its outcome, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryRecord {
    pub parent: Option<EntryId>,
    pub branch: BranchId,
    pub actor: Actor,
    /// postcard of the game's command.
    pub command: Vec<u8>,
    /// postcard of the game's `Vec<Event>`.
    pub events: Vec<u8>,
    /// Every die the command rolled, in order.
    pub dice: Vec<Die>,
    /// Whether those dice were typed in by the players.
    pub entered: bool,
    /// Stream position after the command.
    pub rng_after: u64,
    /// Hash of the state after the command (with the stream position).
    pub state_hash: Hash16,
    /// Hash chain: parent's chain and this entry's content.
    pub chain: Hash16,
    /// The rules version that decided this entry; its command and events are
    /// stored in that version's layout ([`crate::upcast`]).
    pub rules_version: u32,
}
