//! # xenolog-schema
//!
//! Everything Xenolog persists, and how each format is versioned.
//!
//! - [`mod@migrations`]: the campaign database's SQL, as numbered `.sql` files in
//!   `schema/migrations/`, applied by `rusqlite_migration` in one transaction.
//!   The file's schema version is SQLite's `user_version`; the file is marked
//!   as ours by its `application_id`.
//! - [`codec`]: the stored form of entries and snapshots: postcard inside a
//!   versioned envelope, with the upcasters that read older versions.
//! - [`battle_file`]: the standalone file a single battle is exported to.
//!
//! The one key decision: **the stored form is not the engine's type.** An
//! entry is written as [`codec`]'s own `EntryV2`, a field-by-field mirror of
//! `xenolog_engine::EntryRecord`, so a change to the engine's structs can never
//! silently change what is on disk; changing the format means a new version
//! number and an upcaster from the old one, and a file from a newer build is
//! refused with both versions named.

pub mod battle_file;
pub mod codec;
pub mod migrations;

pub use battle_file::{BattleFile, BattleFileError};
pub use codec::{CodecError, DiceMode};
pub use migrations::{APPLICATION_ID, SCHEMA_VERSION, migrations};
