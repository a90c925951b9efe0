//! The long soaks of the autoplay tests (ignored by default, run by hand in
//! release; RELIABILITY.md section 7), written once: which battles
//! (`XENOLOG_SOAK_N`, `XENOLOG_SOAK_FROM`), battles spread over every core,
//! and a progress line on stderr every `XENOLOG_SOAK_EVERY` battles, so a
//! run cut short says how far it came (and can go on from there) and a slow
//! one how fast it goes.
#![allow(dead_code)]

use std::io::Write;
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

/// A number from the environment variable `name`, if it is set; a value
/// that is not one is said in words.
fn number(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("{name}={v:?}: give a number of battles"))
    })
}

/// Which battles a soak plays: up to `XENOLOG_SOAK_N` (else the older name
/// `older` if the soak had one, e.g. `ALIEN_SOAK_N`, else `default`), from
/// `XENOLOG_SOAK_FROM` (default 0: a run cut short goes on where it
/// stopped).
pub fn soak_battles(older: Option<&str>, default: u64) -> Range<u64> {
    let n = number("XENOLOG_SOAK_N")
        .or_else(|| older.and_then(number))
        .unwrap_or(default);
    number("XENOLOG_SOAK_FROM").unwrap_or(0).min(n)..n
}

/// A progress line every this many battles (`XENOLOG_SOAK_EVERY`, default
/// 100; 0 for none).
pub fn soak_every() -> u64 {
    number("XENOLOG_SOAK_EVERY").unwrap_or(100)
}

/// Soak `name`: battle `i` for every `i` in `battles` played by `one(i)`,
/// on every core (battle `i` on thread `i % threads`), the results in the
/// order of `i`. Every `every` battles finished a line on stderr:
/// `NAME: 300 of 1000 battles in 41.2 s (7.3 a second)` (battles counted
/// from the range's start). It is written to the process's stderr itself,
/// so it shows even when the test harness captures the test's output. A
/// panic in a battle fails the soak (the battle's own message names its
/// seed).
pub fn soak<R: Send>(
    name: &str,
    battles: Range<u64>,
    every: u64,
    one: impl Fn(u64) -> R + Sync,
) -> Vec<R> {
    let (from, to) = (battles.start, battles.end);
    let n = to.saturating_sub(from);
    let threads = std::thread::available_parallelism()
        .map_or(2, |t| t.get() as u64)
        .min(n.max(1));
    let start = Instant::now();
    let done = Mutex::new(0u64);
    let tick = || {
        let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
        *d += 1;
        if every > 0 && (d.is_multiple_of(every) || *d == n) {
            let s = start.elapsed().as_secs_f64();
            let _ = writeln!(
                std::io::stderr(),
                "{name}: {} of {to} battles in {s:.1} s ({:.1} a second)",
                from + *d,
                *d as f64 / s.max(1e-9)
            );
        }
    };
    let mut parts: Vec<Vec<(u64, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let (one, tick) = (&one, &tick);
                s.spawn(move || {
                    (from + k..to)
                        .step_by(threads as usize)
                        .map(|i| {
                            let r = one(i);
                            tick();
                            (i, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut all: Vec<(u64, R)> = parts.drain(..).flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
