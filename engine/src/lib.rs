//! # xenolog-engine
//!
//! The pure core of Xenolog: no GUI, no SQL, no files, no clocks.
//!
//! A battle is event sourced. A command is *decided* against the current state
//! into events (facts in the past tense that carry their outcomes: the dice that
//! were rolled, the chit that was drawn); the state is only ever a *fold* of
//! events ([`Game::apply`]), which needs no randomness and no I/O.
//!
//! The one key decision: **randomness is a position in a stream, and the
//! position is part of the state.** Each battle has one seeded PCG32 stream; a
//! command is decided with the stream at the position recorded after its parent
//! entry. Re-deciding the recorded commands therefore reproduces the recorded
//! events bit for bit ([`Session::verify`]), undo then redo gives the same dice,
//! and a new branch from an old point sees the same stream the old line saw.
//!
//! - [`game`]: the [`Game`] trait every game implements.
//! - [`rng`]: the stream and our own dice, draws and shuffles.
//! - [`session`]: a battle's entries as a tree of branches, the cursor,
//!   snapshots, and `verify`.
//! - [`battle`]: the object-safe [`Battle`] over any game (JSON at the edge).
//! - [`scene`]: a board as shapes, drawn by the app and exported as SVG.
//! - [`games`]: the games and their registry.
//! - [`upcast`]: reading entries recorded under older rules versions.
//!
//! ## Rules versions
//!
//! Each game has a `RULES_VERSION`. A battle is stamped with the version that
//! started it, and every entry records the version that decided it, so a
//! battle that spans an upgrade of Xenolog keeps going under the new rules
//! and still verifies entry by entry: entries decided under today's rules
//! must replay exactly; an older entry that today's rules would decide
//! differently is reported as such (the first one, by id), never as
//! tampering, and the battle opens and shows every entry as recorded.

pub mod battle;
pub mod game;
pub mod games;
pub mod hash;
pub mod rng;
pub mod scene;
pub mod session;
pub mod upcast;

pub use battle::{Battle, EntryText, LegalCommand, PlayError};
pub use game::{
    Actor, Anchors, Fate, FlowMark, Game, Outcome, PieceResult, RuleError, RuleErrorKind,
    ScenarioInfo, SeatScore, SetupError, Viewer,
};
pub use rng::{Die, Randomness};
pub use scene::Scene;
pub use session::{
    BattleMeta, Branch, BranchId, Divergence, DivergenceKind, EntryId, EntryRecord, LoadError,
    Pending, PendingKind, Session, StoredBattle, StoredSnapshot, VerifyReport,
};
