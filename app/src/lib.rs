//! The `xenolog` binary's two faces as a library: the eframe desktop app
//! ([`gui`]) and the headless command line ([`cli`]). Both drive the same
//! engine and store; everything the app can do to a battle, the command line
//! can do too. `main.rs` only picks the allocator and calls [`cli::main`],
//! handing it [`gui::run`] for the app: the command line never names the GUI.

pub mod cli;
pub mod gui;
pub mod private;

/// A seed from the clock, for a battle started without one (the app's New
/// battle form shows it, so it can be noted; the command line prints it).
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // SplitMix64 so seeds started close together look nothing alike.
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 1_000_000_000
}
