//! `xenolog`: the desktop app (no arguments) and the headless command line
//! (subcommands). See the library's docs.

/// mimalloc: opening a long battle allocates a few small buffers per entry,
/// and the system allocator made that the largest cost (BENCHMARKS.md, open).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xenolog::cli::main(xenolog::gui::run)
}
