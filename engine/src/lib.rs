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
//! - [`campaign`]: rosters, experience and skills, folded from the campaign
//!   log and the battles' results.
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
//!
//! ## How a game is added
//!
//! 1. A folder `games/<id>/` with the game: its `Config`, `State`, `Command`
//!    and `Event` types and an `impl Game` (Dimension X is the model:
//!    `state.rs` is the event enum and the one fold, `decide` refuses with the
//!    clause, `describe.rs` puts commands and events in words).
//!    - Randomness only through the [`Randomness`] passed to `decide`; no
//!      clocks, no globals, no hash maps in the state (their order is not
//!      deterministic), positions in integer units, never floats.
//!    - Steps the rules take on their own (a shuffle and deal at the start,
//!      an alien deck's turn) are [`Game::automatic`] commands, one entry
//!      each, played by [`Actor::SYSTEM`].
//!    - Hidden information (hands, secret missions) is removed by
//!      [`Game::view`], [`Game::view_event`] and [`Game::view_command`].
//!    - The result is a typed [`Outcome`]: winners, scores, what became of
//!      every piece; never words to be parsed.
//! 2. Its content (cards, maps, factions) in `engine/data/<id>/`, compiled
//!    in, each assumption marked `# assumed:`, and a `RULES.md` mapping every
//!    clause of the rule text to code and to a test named after the clause.
//! 3. One line in [`games::REGISTRY`]: `built::<MyGame>(Seats::new(2, 4, "faction"), false)` (how many players, and what each plays).
//!    Starting, loading, listing, the command line and the conformance test
//!    (`tests/tests/conformance.rs`: legal commands accepted, fold equals
//!    live, replay exact, undo keeps the dice) then take the game in.
//! 4. A board module in the app (`app/src/gui/boards/`) for what the scene
//!    alone cannot say; the generic board plays any game from its scene.
//! 5. A compatibility fixture once it is released (`tests/fixtures/compat/`).

pub mod basics;
pub mod battle;
pub mod campaign;
pub mod encode;
pub mod fair;
pub mod game;
pub mod games;
mod guard;
pub mod hash;
pub mod ident;
pub mod meta;
pub mod moments;
pub mod record;
pub mod rng;
pub mod scene;
pub mod seat;
pub mod session;
pub mod shared;
pub mod upcast;

pub use battle::{Battle, EntryText, LegalCommand, PlayError};
pub use game::{
    Actor, Anchors, Ask, Fate, FlowMark, Game, GameOption, OptionKind, Outcome, PieceResult,
    RuleError, RuleErrorKind, ScenarioInfo, SeatScore, SetupError, Viewer, Work,
};
pub use ident::Ident;
pub use moments::{Counts, DieMark, DieMeaning, EntryFacts, Importance, Moment, MomentKind, Need};
pub use record::{EntryFields, EntryHead, RecordDice, RecordPacker};
pub use rng::{Die, Randomness};
pub use scene::Scene;
pub use session::{
    BattleMeta, Branch, BranchId, BranchKind, Divergence, DivergenceKind, EntryId, EntryRecord,
    LoadError, Pending, PendingKind, Session, StalePending, StoredBattle, StoredSnapshot,
    VerifyReport,
};
pub use shared::Shared;
