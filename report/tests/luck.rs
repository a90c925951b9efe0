//! Luck statistics: a battle with entered dice of known faces gives the
//! counts, means and exact probabilities worked out by hand here, and the
//! exact tail probability matches a brute-force enumeration of every way
//! small rolls can fall.

use serde_json::json;
use xenolog_engine::{Actor, Battle, Counts};
use xenolog_report::luck::{self, Dist, binomial, chance, convolve_all, total_kills};

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} is not {b}");
}

/// Play a Dice Race command with these dice typed in.
fn roll(b: &mut dyn Battle, seat: u8, dice: &[u8]) {
    assert_eq!(b.to_move(), Some(Actor(seat)), "seat {seat} is to move");
    let p = b
        .prepare_json(
            Actor(seat),
            &json!({"roll": {"dice": dice.len()}}),
            Some(dice.to_vec()),
        )
        .unwrap();
    b.commit(p).unwrap();
}

fn hold(b: &mut dyn Battle, seat: u8) {
    let p = b.prepare_json(Actor(seat), &json!("hold"), None).unwrap();
    b.commit(p).unwrap();
}

#[test]
fn entered_dice_of_known_faces_give_the_counts_means_and_chances_worked_by_hand() {
    let mut b = xenolog_engine::games::new_battle("race", 1, &json!({"target": 1000})).unwrap();
    roll(&mut *b, 0, &[3, 4, 6]);
    hold(&mut *b, 0);
    roll(&mut *b, 1, &[1, 5]); // a 1: bust, the turn passes
    roll(&mut *b, 0, &[2]);
    hold(&mut *b, 0);
    roll(&mut *b, 1, &[1]);
    let line = b.path_to(b.head(b.current_branch()));
    let dice = luck::dice_of(&*b, &line, 0);
    assert_eq!(dice.len(), 7);
    assert!(dice.iter().all(|d| d.entered));
    let l = luck::luck(&dice);
    assert_eq!(l.sides.len(), 2);
    let (p1, p2) = (&l.sides[0], &l.sides[1]);
    assert_eq!((p1.rolled, p1.entered), (0, 4));
    assert_eq!(p1.faces, [0, 1, 1, 1, 0, 1]);
    close(p1.mean.unwrap(), (3.0 + 4.0 + 6.0 + 2.0) / 4.0);
    // Each die needed a 2 or more (a 1 busts): 4 successes of 4 dice.
    let s1 = &p1.categories[0];
    assert_eq!(
        (s1.counts, s1.rolls, s1.observed),
        (Counts::Successes, 4, 4)
    );
    close(s1.expected, 4.0 * 5.0 / 6.0);
    // At least 4 of 4: (5/6)^4 = 625/1296.
    close(s1.p_at_least, 625.0 / 1296.0);
    close(s1.luckier_than(), (1.0 - 625.0 / 1296.0) * 100.0);

    assert_eq!((p2.rolled, p2.entered), (0, 3));
    assert_eq!(p2.faces, [2, 0, 0, 0, 1, 0]);
    close(p2.mean.unwrap(), 7.0 / 3.0);
    let s2 = &p2.categories[0];
    assert_eq!((s2.rolls, s2.observed), (3, 1));
    close(s2.expected, 2.5);
    // At least 1 of 3: everything but three 1s, 1 - 1/216.
    close(s2.p_at_least, 215.0 / 216.0);
    // Running luck: after each entry, successes so far less expected.
    assert_eq!(p1.running.len(), 2);
    close(p1.running[0].1, 3.0 - 2.5);
    close(p1.running[1].1, 4.0 - 4.0 * 5.0 / 6.0);
    // Too few dice for the chi-square to flag anything.
    assert!(!p1.chi_square.as_ref().unwrap().flagged);
}

/// Every way `n` d6 can fall.
fn every_roll(n: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|r| {
                (1..=6u8).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    out
}

#[test]
fn the_exact_tail_matches_brute_force_enumeration() {
    // Two dice against DN 3, one die needing a 5+, and two dice totalled
    // against a kill score of 4 (at most 2 kills): every one of the 6^5
    // ways they can fall, counted.
    let mut count = [0u32; 6];
    for r in every_roll(5) {
        let hits = u32::from(r[0] > 3) + u32::from(r[1] > 3) + u32::from(r[2] >= 5);
        let kills = ((u32::from(r[3]) + u32::from(r[4])) / 4).min(2);
        count[(hits + kills) as usize] += 1;
    }
    let total = 6f64.powi(5);
    let parts = [
        Dist::bernoulli(chance(xenolog_engine::Need::Above(3), 6)),
        Dist::bernoulli(chance(xenolog_engine::Need::Above(3), 6)),
        Dist::bernoulli(chance(xenolog_engine::Need::AtLeast(5), 6)),
        total_kills(&[0, 0], 6, 4, 2),
    ];
    let exact = convolve_all(parts.iter());
    for k in 0..=5u32 {
        let brute: u32 = count[k as usize..].iter().sum();
        close(exact.at_least(k), f64::from(brute) / total);
    }
    let mean: f64 = count
        .iter()
        .enumerate()
        .map(|(k, c)| k as f64 * f64::from(*c))
        .sum::<f64>()
        / total;
    close(exact.mean(), mean);

    // A binomial built by doubling agrees with counting every way n dice
    // fall, n to 5 (7 and 8 take the odd powers of two).
    for n in 1..=8usize {
        let d = binomial(n as u32, 0.5);
        close(d.mean(), n as f64 / 2.0);
        if n > 5 {
            continue;
        }
        let rolls = every_roll(n);
        for k in 0..=n as u32 {
            let brute = rolls
                .iter()
                .filter(|r| r.iter().filter(|&&f| f > 3).count() as u32 >= k)
                .count();
            close(d.at_least(k), brute as f64 / 6f64.powi(n as i32));
        }
    }
}

#[test]
fn a_campaigns_worth_of_dice_convolves_quickly_and_stays_a_distribution() {
    // 20,000 dice at three chances and 500 totals: the trimmed convolution
    // keeps its mass and its mean.
    let mut parts = Vec::new();
    for i in 0..20_000u32 {
        parts.push(Dist::bernoulli(
            [0.5, 2.0 / 3.0, 1.0 / 6.0][(i % 3) as usize],
        ));
    }
    for _ in 0..500 {
        parts.push(total_kills(&[0, 0, 0], 6, 5, 3));
    }
    let d = convolve_all(parts.iter());
    let mass: f64 = d.p.iter().sum();
    assert!((mass - 1.0).abs() < 1e-9, "{mass}");
    let want = 6_667.0 * 0.5
        + 6_667.0 * 2.0 / 3.0
        + 6_666.0 / 6.0
        + 500.0 * total_kills(&[0, 0, 0], 6, 5, 3).mean();
    assert!((d.mean() - want).abs() < 1e-6, "{} vs {want}", d.mean());
}

/// Every die of a bot's battle of each built game has its meaning from the
/// game (none falls back to a plain die the game says nothing about), and
/// the marks agree with the needs.
#[test]
fn every_die_of_every_built_game_has_its_meaning_from_the_game() {
    let configs = [
        ("dimx", json!({})),
        ("invasion", json!({"scenario": "crash_site"})),
    ];
    for (game, config) in configs {
        for seed in 1..=2u64 {
            let mut b = xenolog_engine::games::new_battle(game, seed, &config).unwrap();
            for i in 0..300usize {
                b.play_due().unwrap();
                let legal = b.legal();
                if legal.is_empty() {
                    break;
                }
                let c = &legal[(i * 11 + seed as usize) % legal.len()];
                let p = b.prepare_json(c.actor, &c.command, None).unwrap();
                b.commit(p).unwrap();
            }
            let line = b.path_to(b.head(b.current_branch()));
            let facts = b.entry_facts(&line);
            let texts = b.entry_texts(&line);
            let mut dice = 0;
            for (f, t) in facts.iter().zip(&texts) {
                let rec = &b.records()[f.id as usize];
                assert_eq!(f.dice.len(), rec.dice().len());
                assert_eq!(f.moments.len(), t.events.len());
                for (d, m) in rec.dice().iter().zip(&f.dice) {
                    dice += 1;
                    assert_ne!(
                        m.purpose, "a die",
                        "{game} seed {seed} entry {}: {m:?}",
                        f.id
                    );
                    assert!(!m.purpose.is_empty(), "{game} entry {}: {m:?}", f.id);
                    if matches!(
                        m.need,
                        xenolog_engine::Need::Above(_) | xenolog_engine::Need::AtLeast(_)
                    ) {
                        let counted = m.need.counts(d.value);
                        let marked = matches!(
                            m.mark,
                            xenolog_engine::DieMark::Hit | xenolog_engine::DieMark::Pass
                        );
                        assert_eq!(counted, marked, "{game} entry {}: {m:?}", f.id);
                    }
                }
            }
            assert!(dice > 10, "{game} seed {seed}: {dice} dice");
            let l = luck::luck(&luck::dice_of(&*b, &line, 0));
            assert!(
                l.sides.iter().any(|s| !s.categories.is_empty()),
                "{game}: {l:?}"
            );
        }
    }
}
