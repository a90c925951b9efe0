//! `xenolog`: the desktop app (no arguments) and the headless command line
//! (subcommands). Both drive the same engine and store; everything the app can
//! do to a battle, the command line can do too.

mod cli;
mod gui;

fn main() -> std::process::ExitCode {
    cli::main()
}
