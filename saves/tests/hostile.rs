//! Hostile files (issue 16): campaign files damaged in every way we can
//! think of, and files from a stranger built to make Xenolog allocate without
//! bound, write where it should not, or run something. One test binary, with
//! a counting global allocator to measure the heap a call holds at its peak.

#[path = "support/race.rs"]
mod race;

mod hostile {
    pub mod heap;
    pub mod mutants;
    mod scenarios;
    mod stranger;
}

#[global_allocator]
static HEAP: hostile::heap::Counting = hostile::heap::Counting;
