//! A counting global allocator: how much heap one thread holds at its peak
//! while a call runs, so a test can show that a hostile file's declared
//! lengths never turn into allocations.
//!
//! Counting is per thread (the test harness runs tests side by side, and a
//! neighbour's allocations must not count against the call being measured).
//! A block freed on another thread than the one that allocated it makes the
//! counts of both a little off; the calls measured here are single-threaded.
//! SQLite's own allocations go through its own `malloc` and are not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes each thread holds.
pub struct Counting;

thread_local! {
    /// Bytes this thread holds now (may go below zero: see the module docs).
    static HELD: Cell<isize> = const { Cell::new(0) };
    /// The most this thread held since [`peak_during`] started.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(n: isize) {
    // `try_with`: during thread teardown the slots may be gone already.
    let _ = HELD.try_with(|h| {
        let now = h.get() + n;
        h.set(now);
        let _ = PEAK.try_with(|p| {
            if now > p.get() {
                p.set(now);
            }
        });
    });
}

// SAFETY: every call is forwarded to `System` unchanged; the counting touches
// only const-initialised thread locals without destructors, which never
// allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as isize));
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Run `f` and return its result with the most heap this thread held above
/// what it held when `f` started, in bytes.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = HELD.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = f();
    let peak = PEAK.with(Cell::get);
    (out, (peak - start).max(0) as usize)
}

/// One mebibyte.
pub const MIB: usize = 1 << 20;
