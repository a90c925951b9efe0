//! # xenolog-tests
//!
//! Cross-crate tests of Xenolog. Every test lives in the single
//! integration-test binary `tests/tests.rs`, which lists its modules:
//!
//! - `golden`: exact dice, draws and shuffles for fixed seeds. A dependency
//!   bump that changes any past roll fails here.
//! - `properties`: proptest over random legal play of the test game: fold equals
//!   live state, `verify` replays exactly, undo/redo keeps the dice, branching
//!   never loses an entry, and any changed stored byte is caught.
//! - `checker`: the determinism checker is itself shown to fail on games that
//!   are deliberately not deterministic.
//! - `illegal`: every registered game is given random JSON, bytes, legal
//!   commands at wrong moments and seats, mutated legal commands and wrong
//!   entered dice; every refusal leaves the battle (state, log, cursor,
//!   branches) and the campaign file byte for byte as they were and reads in
//!   words. CI runs a sample; the million is an `#[ignore]`d soak.
//! - `compat`: every compatibility fixture under `fixtures/compat/` opens with
//!   this build (DESIGN.md principle 12).
//!
//! The library holds only what the fixtures test shares with the example that
//! writes a fixture ([`compat`]).

pub mod compat;
pub mod fuzzing;
