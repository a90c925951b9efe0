//! A stored event that decodes but names what the state does not have (here
//! an Alien Invasion event naming group 68 of 6, found by fuzzing
//! `battle_file`) makes the game's `apply` panic; the session catches it and
//! refuses the battle naming the entry. Bug: the caught panic was still
//! printed by the panic hook (to stderr, and to the fuzzer, which took it for
//! a crash). Now nothing is printed while the guard holds, and a panic
//! anywhere else still reaches the hook.
//!
//! Its own test binary: the panic hook is process-wide.

use std::sync::atomic::{AtomicUsize, Ordering};

use xenolog_engine::games;
use xenolog_schema::battle_file;
use xenolog_tests::fuzzing::seal_battle_file;

static HOOK_CALLS: AtomicUsize = AtomicUsize::new(0);

const INPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fuzz/regressions/battle_file/invasion-event-naming-group-68-of-6"
);

#[test]
fn regression_a_caught_panic_on_a_damaged_stored_event_is_not_printed_and_the_battle_is_refused() {
    std::panic::set_hook(Box::new(|info| {
        HOOK_CALLS.fetch_add(1, Ordering::SeqCst);
        eprintln!("{info}");
    }));
    let input = std::fs::read(INPUT).expect("the regression input is committed");
    // As the fuzz harness reads it: byte 0 picks the format version, the
    // rest is the payload the harness seals with a valid checksum.
    let version = xenolog_tests::fuzzing::format_of(input[0]);
    let sealed = seal_battle_file(version, &input[1..]);
    let f = battle_file::read_battle_file(&sealed).expect("the file itself reads");
    assert_eq!(f.meta.game, "invasion");
    let loaded = games::load_battle(f.into_stored());
    let refusal = match loaded {
        Ok(_) => panic!("a battle whose stored event cannot be applied is refused"),
        Err(e) => e.to_string(),
    };
    assert!(
        refusal.contains("entry 9 is corrupt") && refusal.contains("not valid Alien Invasion data"),
        "the refusal names the damaged entry in words: {refusal}"
    );
    assert_eq!(
        HOOK_CALLS.load(Ordering::SeqCst),
        0,
        "the panic caught by the guard was not handed to the panic hook"
    );
    // A panic outside the guard still reaches the hook.
    let caught = std::panic::catch_unwind(|| panic!("elsewhere"));
    assert!(caught.is_err());
    assert_eq!(HOOK_CALLS.load(Ordering::SeqCst), 1);
}
