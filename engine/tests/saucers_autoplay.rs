//! Night of the Saucers played by a bot that picks among the legal
//! commands at random: every game reaches a result the text allows, with no
//! panic, and replays exactly (`verify`). The quick test plays 200 games of
//! one to four players, every variant and difficulty; the soak plays a
//! thousand more and prints the bot's win rate per difficulty. It runs in
//! every `cargo test` (about 5 s in the debug build on two cores; it was
//! ignored while it took minutes, until session 22); its figures for
//! RULES.md are taken in release:
//! `cargo test --release -p xenolog-engine --test saucers_autoplay -- --nocapture`
//! (`XENOLOG_SOAK_N` games instead of 1,000, on every core, a progress line
//! on stderr every `XENOLOG_SOAK_EVERY` (100); RELIABILITY.md section 7).

#[path = "support/bot.rs"]
mod bot;
#[path = "support/soak.rs"]
mod soak;

use bot::random_battle_of;
use xenolog_engine::Session;
use xenolog_engine::games::saucers::{Saucers, SaucersConfig, SaucersState, Variant};

/// The config of game `n`: one to four players, the three variants, the
/// three difficulties, two to four missions, hands open or hidden, each
/// battle option on in some games.
fn config(n: u64) -> SaucersConfig {
    SaucersConfig {
        players: 1 + (n % 4) as u8,
        variant: ((n / 4) % 3) as u8,
        difficulty: 1 + ((n / 12) % 3) as u8,
        missions: 2 + ((n / 36) % 3) as u8,
        hidden_hands: n % 5 == 3,
        youngest: 1 + (n % 3) as u8,
        instants_in_turn_steps: n % 7 == 2,
        collect_after_moving: n % 3 == 1,
        saucers_strike_at_once: n % 6 == 5,
        hunter_named_in_defeat: n % 4 == 2,
        saucers_hold_students: n % 5 == 1,
        ..SaucersConfig::default()
    }
}

/// The bot: it ends its actions now and then rather than always using them.
fn play(seed: u64, config: SaucersConfig, cap: usize) -> Session<Saucers> {
    random_battle_of(seed, config, 0x5ace, cap)
}

/// A result the text allows.
fn check_end(seed: u64, st: &SaucersState) {
    let end = st
        .over
        .as_ref()
        .unwrap_or_else(|| panic!("seed {seed}: the game does not end"));
    let alive = st.humans.iter().any(|h| h.alive);
    let done = st.missions_completed();
    match st.variant {
        Variant::GangWarfare => {
            if let Some(&w) = end.winners.first() {
                assert_eq!(end.winners.len(), 1, "seed {seed}: one gang wins");
                assert!(
                    !st.seats[w as usize].missions_done.is_empty(),
                    "seed {seed}: a winner without its mission"
                );
            } else {
                assert!(
                    !alive || st.alien_deck.is_empty(),
                    "seed {seed}: a draw before the deck ran out"
                );
            }
        }
        _ => {
            if end.humans_won {
                assert!(
                    done >= usize::from(st.missions_to_win) || st.alien_deck.is_empty(),
                    "seed {seed}: the humans won without their missions or the deck running out"
                );
                assert!(alive, "seed {seed}: a win with no student left");
                assert!(!end.winners.is_empty());
            } else {
                assert!(!alive, "seed {seed}: Alien Domination with students left");
                // Option hunter_named_in_defeat: the Great Grey Hunter is
                // named even in defeat; otherwise nobody wins.
                assert_eq!(
                    end.winners.is_empty(),
                    !(st.variant == Variant::Hunter && st.hunter_named_in_defeat),
                    "seed {seed}: winners of a lost game"
                );
            }
        }
    }
}

fn check(seed: u64, config: SaucersConfig) -> bool {
    let s = play(seed, config.clone(), 50_000);
    check_end(seed, s.state());
    let report = s.verify();
    assert!(report.ok(), "seed {seed} {config:?}: {report}");
    s.state()
        .over
        .as_ref()
        .is_some_and(|e| e.humans_won && !e.winners.is_empty())
}

#[test]
fn two_hundred_random_games_end_as_the_text_allows_and_replay() {
    for n in 0..200 {
        check(n, config(n));
    }
}

#[test]
fn a_thousand_random_games_soak() {
    let start = std::time::Instant::now();
    let games = soak::soak_battles(None, 1000);
    let won = soak::soak("Saucers", games.clone(), soak::soak_every(), |n| {
        check(10_000 + n, config(n))
    });
    let mut wins = [(0u32, 0u32); 3];
    for (n, won) in games.clone().zip(won) {
        let c = config(n);
        let d = c.difficulty as usize - 1;
        let coop = c.variant != 2;
        if coop {
            wins[d].1 += 1;
            if won {
                wins[d].0 += 1;
            }
        }
    }
    for (d, (w, n)) in wins.iter().enumerate() {
        println!(
            "difficulty {}: the bot won {w} of {n} co-operative and Great Grey Hunter games ({:.0}%)",
            d + 1,
            100.0 * f64::from(*w) / f64::from((*n).max(1))
        );
    }
    println!("games {games:?} in {:.1} s", start.elapsed().as_secs_f64());
}
