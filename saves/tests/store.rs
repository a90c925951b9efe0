//! Integration tests of the campaign store, built into one test binary.

#[path = "support/race.rs"]
mod race;

mod store {
    mod bad_files;
    pub mod common;
    mod crash;
    mod lifecycle;
    mod locking;
    mod memory;
    mod notes;
    mod sample;
    mod size;
    mod transfer;
}
