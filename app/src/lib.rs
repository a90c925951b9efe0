//! The `xenolog` binary's two faces as a library: the eframe desktop app
//! ([`gui`]) and the headless command line ([`cli`]). Both drive the same
//! engine and store; everything the app can do to a battle, the command line
//! can do too. `main.rs` only picks the allocator and calls [`cli::main`].

pub mod cli;
pub mod gui;
