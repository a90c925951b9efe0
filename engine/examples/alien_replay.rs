//! Replays one battle of Alien's random-bot soak and prints where it ended:
//! the phase, the Queen, every character, and the base with its aliens.
//!
//! `cargo run --release -p xenolog-engine --example alien_replay -- SEED [CAP]`
//! (the soak plays seeds 10000 to 10999 with a cap of 60,000 commands).

#[path = "../tests/alien_bot/mod.rs"]
mod alien_bot;

use xenolog_engine::games::alien::data::Terrain;
use xenolog_engine::games::alien::state::AlienState;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> u64 {
        match args.get(i) {
            None => default,
            Some(a) => a.parse().unwrap_or_else(|_| {
                eprintln!("usage: alien_replay SEED [CAP]: `{a}` is not a number");
                std::process::exit(2)
            }),
        }
    };
    if args.is_empty() {
        eprintln!("usage: alien_replay SEED [CAP]");
        std::process::exit(2);
    }
    let seed = number(0, 0);
    let cap = number(1, 60_000) as usize;
    let t = std::time::Instant::now();
    let s = alien_bot::play(seed, alien_bot::config(seed), cap);
    let st = s.state();
    println!(
        "seed {seed}: {} entries in {:.2?}",
        s.records().len(),
        t.elapsed()
    );
    println!(
        "turn {} phase {:?} aliens {} over {:?} queen {:?} points {} apc {:?}",
        st.turn,
        st.phase,
        st.aliens.len(),
        st.over,
        st.queen,
        st.points,
        st.apc
    );
    for (i, c) in st.characters.iter().enumerate() {
        let at = c.tile().map(|t| st.content.base.name(t));
        println!(
            "{} {:?} {:?} strength {} ap {} {:?}",
            st.name(i as u8),
            c.pos,
            at,
            c.strength,
            c.ap,
            c.items
        );
    }
    print!("{}", picture(st));
}

/// The base in letters: `#` wall, `.` corridor, `o` room, `=` duct, `L`
/// landing field, airlock numbers, `x` collapsed; a character by its
/// initial, an alien by its strength (`+` for several on one tile).
fn picture(st: &AlienState) -> String {
    let b = &st.content.base;
    let mut out = String::new();
    for y in 0..i32::from(b.height) {
        for x in 0..i32::from(b.width) {
            let Some(t) = b.at(x, y) else { continue };
            let aliens: Vec<u8> = st
                .aliens
                .iter()
                .filter(|a| a.at == t)
                .map(|a| a.strength)
                .collect();
            let c = if let Some(ch) = st.character_at(t) {
                st.name(ch as u8).chars().next().unwrap_or('?')
            } else if aliens.len() > 1 {
                '+'
            } else if let Some(s) = aliens.first() {
                char::from(b'0' + s)
            } else if st.collapsed.contains(&t) {
                'x'
            } else {
                match b.terrain(t) {
                    Terrain::Wall => '#',
                    Terrain::Corridor => '.',
                    Terrain::Room => 'o',
                    Terrain::Duct => '=',
                    Terrain::Landing => 'L',
                    Terrain::Airlock(n) => char::from(b'0' + n),
                }
            };
            out.push(c);
        }
        out.push('\n');
    }
    out
}
