//! `xenolog`: the desktop app (no arguments) and the headless command line
//! (subcommands). Both drive the same engine and store; everything the app can
//! do to a battle, the command line can do too.

mod cli;
mod gui;

/// mimalloc: opening a long battle allocates a few small buffers per entry,
/// and the system allocator made that the largest cost (BENCHMARKS.md, open).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
