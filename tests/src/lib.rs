//! # xenolog-tests
//!
//! Cross-crate tests of Xenolog. The library is empty on purpose: every test
//! lives in the single integration-test binary `tests/tests.rs`, which lists
//! its modules:
//!
//! - `golden`: exact dice, draws and shuffles for fixed seeds. A dependency
//!   bump that changes any past roll fails here.
//! - `properties`: proptest over random legal play of the test game: fold equals
//!   live state, `verify` replays exactly, undo/redo keeps the dice, branching
//!   never loses an entry, and any changed stored byte is caught.
//! - `checker`: the determinism checker is itself shown to fail on games that
//!   are deliberately not deterministic.
