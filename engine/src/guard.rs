//! Running game code over stored, untrusted entries without letting a panic
//! out, and without a word on stderr.
//!
//! A stored entry is untrusted until verified: damaged bytes that still
//! decode may name a group, a card or a pocket the state does not have, and a
//! game's `apply`, `describe_event`, `moment` or `dice_meanings` may index
//! past the end on it. [`quietly`] runs such code under `catch_unwind`; the
//! caller notes the entry as damaged (loading refuses the battle naming it,
//! `verify` reports it), exactly as for bytes that do not decode. Events that
//! apply cleanly may still leave a state the game cannot show: loading asks
//! the game to show the cursor's state under the guard too, and the show
//! methods of a battle rebuilt from stored parts run under it
//! (`Session::shown` in `battle.rs`).
//!
//! The panic hook is process-wide. The first call installs a hook that stays
//! silent while this thread is inside [`quietly`] and hands every other panic
//! to the hook that was there before (the default one, or a test's, or a
//! fuzzer's), so a panic anywhere else is reported as it always was.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How deep this thread is inside [`quietly`].
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

static HOOK: Once = Once::new();

/// `f()`, or `None` when it panicked (the panic caught and not printed).
pub(crate) fn quietly<R>(f: impl FnOnce() -> R) -> Option<R> {
    HOOK.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) == 0 {
                before(info);
            }
        }));
    });
    QUIET.with(|q| q.set(q.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    result.ok()
}
