//! # xenolog-saves
//!
//! The campaign store: one SQLite file per campaign holding its battles, each
//! battle an event log (entries on branches, snapshots, the player's cursor).
//!
//! The one key decision: **a command is on disk before `play` returns, and
//! nothing changes anywhere unless everything does.** [`Campaign::play`] asks
//! the engine to *decide* the command (`prepare_json`: nothing changes yet),
//! writes the new entry, any new branch, any snapshot and the new cursor in one
//! SQLite transaction, and only after that transaction is durably committed
//! makes the entry part of the battle in memory (`commit`, which cannot fail).
//! If the rules refuse the command or the disk refuses the write, the battle
//! in memory and the file are exactly as they were.
//!
//! ## Durability: WAL with `synchronous=FULL`
//!
//! The file runs in write-ahead-log mode: appends are sequential writes to the
//! log, readers (another process with [`Campaign::open_read_only`]) never block
//! the writer, and a crash at any moment leaves the last committed transaction
//! intact. The connection uses `synchronous=FULL`. With `NORMAL`, SQLite in WAL
//! mode syncs the log only at checkpoints, so a commit is atomic and consistent
//! but *not durable*: a power loss can take the last transactions back, which
//! would break principle 5 ("a committed command is on disk before the UI shows
//! it"). `FULL` syncs the log on every commit. Measured on the shared
//! development VM (ext4 on a virtual disk; `notes/bench_store.md`), the median
//! durable append (`Campaign::play`, one fsync) was 0.8-4.0 ms with `FULL`
//! against 18 us with `NORMAL`: inside the 5 ms target, so the safer setting
//! stays. The cost is one fsync per command, which a player never notices.
//!
//! ## Layout on disk
//!
//! The tables are created by the numbered migrations in `schema/migrations/`.
//! `entries` is a `WITHOUT ROWID` table keyed by `(battle, seq)` holding each
//! entry's postcard record ([`xenolog_schema::codec`]), with no other index, so
//! an entry costs about its record (under 100 bytes for the test game) and
//! loading a battle is one prepared statement scanning one key range in order.
//! Snapshots of the state every [`xenolog_engine::session::SNAPSHOT_EVERY`]
//! entries live in their own table, so opening a battle of a million entries
//! folds at most that many entries to reach the cursor.
//!
//! ## One door to the database
//!
//! Every SQL statement goes through [`db::Db`] (issue 31, step P1 of
//! `server/POSTGRES.md`), never through the driver's own API: the campaign
//! rules are written once, and a PostgreSQL backend is one more
//! implementation of that trait. A campaign holds a [`db::Conn`], an enum of
//! the backends (a SQLite file or memory, or a PostgreSQL schema:
//! [`Campaign::create_postgres`], [`Campaign::open_postgres`]); the module
//! says why. [`copy_campaign`] moves a campaign whole between them.
//!
//! ## Files beside the campaign
//!
//! - `<campaign>.lock`: the writer lock (an OS file lock, see [`Campaign::open`]).
//! - `<campaign>-wal`, `<campaign>-shm`: SQLite's log and its index, while the
//!   file is open. A reader cannot remove them when it closes, so after a
//!   read-only visit they stay behind, empty and harmless, until the next
//!   writer closes the campaign.
//! - `<stem>.backup-v<N>.xenolog`: the copy kept before upgrading from format N.
//!
//! ## Status
//!
//! A battle's `status` and `result` (for the campaign browser) summarise the
//! outcome at its saved cursor. `play` writes them in the same transaction as
//! the entry (the engine's `Pending` carries the outcome after it); cursor
//! moves write them with the cursor. A load still corrects a stale status left
//! by files written before this was so.

mod batch;
mod battles;
mod blocks;
mod campaign;
mod copy;
pub mod db;
mod error;
mod fair;
mod file;
mod merge;
mod names;
mod notes;
mod pgbatch;
mod rosters;
pub mod sample;
mod scan;
mod since;
mod transfer;
pub mod trust;

pub use batch::{AppendNotify, Decided, decide};
pub use battles::dice_to_enter;
pub use campaign::{BattleSummary, Campaign};
pub use copy::{CampaignCopy, copy_campaign};
pub use error::SaveError;
pub use file::write_atomically;
pub use merge::{
    Conflict, Counts, Ending, MergeOptions, MergeSource, Merged, SetAside, TwoEndings,
};
pub use names::BattleNames;
pub use notes::Note;
pub use pgbatch::{BUSY_MEMO, COMMITTER_SETTINGS, Committer, Group, LOCK_WAIT, with_session};
pub use rosters::{
    CampaignFail, CampaignReport, EntryKey, Recomputed, SeatPick, describe, faction_name,
    kind_name, skill_table,
};
pub use since::Carried;
pub use transfer::Imported;
pub use xenolog_schema::DiceMode;

/// A battle's id within its campaign.
pub type BattleId = i64;
