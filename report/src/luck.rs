//! Luck statistics: how each side's dice fell against what the rules made
//! likely.
//!
//! Every die comes with its meaning from the engine ([`DieMeaning`]: what it
//! needed, what it counted towards, whose luck it is), so the statistics
//! agree with the dice tray and the report. For each side:
//!
//! - dice rolled by Xenolog and dice entered by hand, counted apart;
//! - each face's count against its expectation, and the mean against 3.5;
//! - hits, successes and kills against their expected values, with the
//!   **exact** probability of doing at least this well: the distribution of
//!   a side's total is the convolution of the distributions of its rolls
//!   (a die against a DN is a Bernoulli trial; a total against a kill score
//!   is the distribution of the sum of its dice, mapped to kills), never a
//!   normal approximation;
//! - a chi-square test of the faces (`statrs`), flagged only when the
//!   evidence is strong (p below [`FLAG_P`] with at least
//!   [`FLAG_MIN_DICE`] dice).

use std::collections::BTreeMap;

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use xenolog_engine::{Actor, Battle, Counts, DieMeaning, EntryId, Need};

/// A chi-square test of the faces is flagged below this p-value ...
pub const FLAG_P: f64 = 0.001;
/// ... and only with at least this many dice (every face expected 5+ times
/// for a d6 at 30 dice).
pub const FLAG_MIN_DICE: u32 = 30;

/// One die as a battle's log has it, with its meaning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DieRecord {
    /// The battle it was rolled in (its index among the battles counted).
    pub battle: usize,
    pub entry: EntryId,
    /// Turn and phase after the entry.
    pub turn: u32,
    pub phase: String,
    /// The side whose luck it is, by name ("Marines"); "the game" for the
    /// game's own rolls.
    pub side: String,
    pub face: u8,
    pub sides: u8,
    /// Typed in by the players rather than rolled by Xenolog.
    pub entered: bool,
    pub meaning: DieMeaning,
}

/// Every die of a line of entries, in order, with its meaning.
pub fn dice_of(battle: &dyn Battle, line: &[EntryId], index: usize) -> Vec<DieRecord> {
    let names: BTreeMap<Actor, String> = battle.seats().into_iter().collect();
    let side = |seat: Option<Actor>| match seat {
        Some(a) => names
            .get(&a)
            .cloned()
            .unwrap_or_else(|| battle.actor_name(a)),
        None => "the game".to_owned(),
    };
    let mut flows = Vec::with_capacity(line.len());
    // One fold for the flow marks, one for the meanings.
    for t in battle.entry_texts(line) {
        flows.push(t.flow);
    }
    let mut out = Vec::new();
    for (facts, flow) in battle.entry_facts(line).into_iter().zip(flows) {
        let rec = &battle.records()[facts.id as usize];
        for (die, meaning) in rec.dice().iter().zip(facts.dice) {
            out.push(DieRecord {
                battle: index,
                entry: facts.id,
                turn: flow.turn,
                phase: flow.phase.clone(),
                side: side(meaning.seat),
                face: die.value,
                sides: die.sides,
                entered: rec.entered,
                meaning,
            });
        }
    }
    out
}

/// A probability distribution over 0, 1, 2, ... (`offset` is the value of
/// `p[0]`), trimmed of masses too small to change any figure we print.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    pub offset: u32,
    pub p: Vec<f64>,
}

/// Masses below this are dropped from the ends of a distribution: they are
/// far below the precision of a double added to 1.
const TRIM: f64 = 1e-18;

impl Dist {
    /// Certainly `v`.
    pub fn point(v: u32) -> Self {
        Self {
            offset: v,
            p: vec![1.0],
        }
    }

    /// One trial succeeding with probability `q`.
    pub fn bernoulli(q: f64) -> Self {
        Self {
            offset: 0,
            p: vec![1.0 - q, q],
        }
    }

    /// The distribution of the sum of two independent variables.
    pub fn convolve(&self, other: &Dist) -> Dist {
        let mut p = vec![0.0; self.p.len() + other.p.len() - 1];
        for (i, a) in self.p.iter().enumerate() {
            if *a == 0.0 {
                continue;
            }
            for (j, b) in other.p.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        let mut d = Dist {
            offset: self.offset + other.offset,
            p,
        };
        d.trim();
        d
    }

    fn trim(&mut self) {
        let first = self.p.iter().position(|&x| x > TRIM).unwrap_or(0);
        let last = self.p.iter().rposition(|&x| x > TRIM).unwrap_or(0);
        if first > 0 || last + 1 < self.p.len() {
            self.p = self.p[first..=last.max(first)].to_vec();
            self.offset += first as u32;
        }
    }

    pub fn mean(&self) -> f64 {
        self.p
            .iter()
            .enumerate()
            .map(|(i, x)| (self.offset as f64 + i as f64) * x)
            .sum()
    }

    /// P(X >= v).
    pub fn at_least(&self, v: u32) -> f64 {
        if v <= self.offset {
            return 1.0;
        }
        let from = (v - self.offset) as usize;
        self.p.iter().skip(from).sum::<f64>().min(1.0)
    }
}

/// Binomial(n, q), built exactly by repeated convolution of the pmf row
/// (Pascal's rule), trimmed as it grows.
pub fn binomial(n: u32, q: f64) -> Dist {
    let mut d = Dist::point(0);
    // Doubling: n trials as a sum of powers of two.
    let mut power = Dist::bernoulli(q);
    let mut k = n;
    while k > 0 {
        if k & 1 == 1 {
            d = d.convolve(&power);
        }
        k >>= 1;
        if k > 0 {
            power = power.convolve(&power);
        }
    }
    d
}

/// The chance a die with `sides` faces meets a per-die need.
pub fn chance(need: Need, sides: u8) -> f64 {
    let s = f64::from(sides.max(1));
    match need {
        Need::Above(n) => (f64::from(sides.saturating_sub(n))) / s,
        Need::AtLeast(n) => {
            let n = n.max(1);
            if n > sides {
                0.0
            } else {
                f64::from(sides - n + 1) / s
            }
        }
        Need::Nothing | Need::Total { .. } => 0.0,
    }
}

/// The distribution of kills from a total of `dice` dice (each with
/// `sides` faces): one kill per `score` reached, at most `most`.
pub fn total_kills(dice: &[u8], sides: u8, score: u32, most: u32) -> Dist {
    // The distribution of the sum, by convolution of uniform dice.
    let face = Dist {
        offset: 1,
        p: vec![1.0 / f64::from(sides.max(1)); sides.max(1) as usize],
    };
    let mut sum = Dist::point(0);
    for _ in dice {
        sum = sum.convolve(&face);
    }
    let score = score.max(1);
    let mut p = vec![0.0; most as usize + 1];
    for (i, x) in sum.p.iter().enumerate() {
        let k = ((sum.offset + i as u32) / score).min(most);
        p[k as usize] += x;
    }
    Dist { offset: 0, p }
}

/// One roll that counted towards hits, successes or kills: its
/// distribution and what it made.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    pub battle: usize,
    pub entry: EntryId,
    pub side: String,
    pub counts: Counts,
    pub dist: Dist,
    pub observed: u32,
}

/// The counted rolls among some dice: each die against a per-die need is a
/// trial of its own; the dice of one total are one trial.
pub fn trials(dice: &[DieRecord]) -> Vec<Trial> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < dice.len() {
        let d = &dice[i];
        match d.meaning.need {
            Need::Above(_) | Need::AtLeast(_) if d.meaning.counts != Counts::Nothing => {
                out.push(Trial {
                    battle: d.battle,
                    entry: d.entry,
                    side: d.side.clone(),
                    counts: d.meaning.counts,
                    dist: Dist::bernoulli(chance(d.meaning.need, d.sides)),
                    observed: u32::from(d.meaning.need.counts(d.face)),
                });
                i += 1;
            }
            Need::Total { score, most } if d.meaning.counts != Counts::Nothing => {
                let mut j = i;
                while j < dice.len()
                    && dice[j].battle == d.battle
                    && dice[j].entry == d.entry
                    && dice[j].meaning.roll == d.meaning.roll
                {
                    j += 1;
                }
                let faces: Vec<u8> = dice[i..j].iter().map(|x| x.face).collect();
                let sum: u32 = faces.iter().map(|&f| u32::from(f)).sum();
                out.push(Trial {
                    battle: d.battle,
                    entry: d.entry,
                    side: d.side.clone(),
                    counts: d.meaning.counts,
                    dist: total_kills(&faces, d.sides, score, most),
                    observed: (sum / score.max(1)).min(most),
                });
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

/// Hits, successes or kills of one side against their expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CategoryLuck {
    pub counts: Counts,
    /// Rolls that counted (a die against a DN, a total against a kill score).
    pub rolls: u32,
    pub observed: u32,
    pub expected: f64,
    /// The exact probability of at least `observed`.
    pub p_at_least: f64,
}

impl CategoryLuck {
    /// "Luckier than N% of possible battles": the chance of doing worse.
    pub fn luckier_than(&self) -> f64 {
        (1.0 - self.p_at_least).clamp(0.0, 1.0) * 100.0
    }
}

/// A chi-square test of a side's d6 faces against a fair die.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u32,
    pub p_value: f64,
    /// Strong evidence the dice are not fair (p below [`FLAG_P`] with at
    /// least [`FLAG_MIN_DICE`] dice).
    pub flagged: bool,
}

/// One side's luck.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideLuck {
    pub side: String,
    /// Dice rolled by Xenolog, and typed in by the players.
    pub rolled: u32,
    pub entered: u32,
    /// How many of its six-sided dice showed each face (1 to 6).
    pub faces: [u32; 6],
    /// The mean of its six-sided dice (3.5 expected).
    pub mean: Option<f64>,
    pub categories: Vec<CategoryLuck>,
    pub chi_square: Option<ChiSquare>,
    /// Running luck: after each entry with a counted roll, the side's
    /// hits, successes and kills so far less their expectation.
    pub running: Vec<(EntryId, f64)>,
}

impl SideLuck {
    pub fn d6(&self) -> u32 {
        self.faces.iter().sum()
    }
}

/// The luck of every side among some dice (one battle's, or a campaign's).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Luck {
    pub sides: Vec<SideLuck>,
}

/// The luck of every side whose dice are among `dice`, sides in the order
/// their first die was rolled; the game's own rolls (nobody's luck) are
/// left out.
pub fn luck(dice: &[DieRecord]) -> Luck {
    let mut order: Vec<String> = Vec::new();
    for d in dice {
        if d.meaning.seat.is_some() && !order.contains(&d.side) {
            order.push(d.side.clone());
        }
    }
    let all_trials = trials(dice);
    let sides = order
        .into_iter()
        .map(|side| {
            let mine: Vec<&DieRecord> = dice
                .iter()
                .filter(|d| d.side == side && d.meaning.seat.is_some())
                .collect();
            let mut faces = [0u32; 6];
            for d in mine.iter().filter(|d| d.sides == 6) {
                faces[(d.face.clamp(1, 6) - 1) as usize] += 1;
            }
            let n6: u32 = faces.iter().sum();
            let mean = (n6 > 0).then(|| {
                faces
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i as f64 + 1.0) * f64::from(*c))
                    .sum::<f64>()
                    / f64::from(n6)
            });
            let trials: Vec<&Trial> = all_trials.iter().filter(|t| t.side == side).collect();
            let mut categories = Vec::new();
            for counts in [Counts::Hits, Counts::Successes, Counts::Kills] {
                let of: Vec<&&Trial> = trials.iter().filter(|t| t.counts == counts).collect();
                if of.is_empty() {
                    continue;
                }
                let dist = convolve_all(of.iter().map(|t| &t.dist));
                let observed = of.iter().map(|t| t.observed).sum();
                categories.push(CategoryLuck {
                    counts,
                    rolls: of.len() as u32,
                    observed,
                    expected: dist.mean(),
                    p_at_least: dist.at_least(observed),
                });
            }
            let mut running = Vec::new();
            let mut so_far = 0.0;
            for t in &trials {
                so_far += f64::from(t.observed) - t.dist.mean();
                match running.last_mut() {
                    Some((e, v)) if *e == t.entry => *v = so_far,
                    _ => running.push((t.entry, so_far)),
                }
            }
            SideLuck {
                rolled: mine.iter().filter(|d| !d.entered).count() as u32,
                entered: mine.iter().filter(|d| d.entered).count() as u32,
                chi_square: chi_square(&faces),
                side,
                faces,
                mean,
                categories,
                running,
            }
        })
        .collect();
    Luck { sides }
}

/// The convolution of many distributions, smallest first so the work stays
/// small; Bernoulli trials of the same chance are gathered into one
/// binomial first.
pub fn convolve_all<'a>(dists: impl Iterator<Item = &'a Dist>) -> Dist {
    let mut bernoulli: BTreeMap<u64, u32> = BTreeMap::new();
    let mut others: Vec<&Dist> = Vec::new();
    for d in dists {
        if d.offset == 0 && d.p.len() == 2 {
            *bernoulli.entry(d.p[1].to_bits()).or_default() += 1;
        } else {
            others.push(d);
        }
    }
    let mut parts: Vec<Dist> = bernoulli
        .into_iter()
        .map(|(q, n)| binomial(n, f64::from_bits(q)))
        .collect();
    parts.extend(others.into_iter().cloned());
    parts.sort_by_key(|d| d.p.len());
    let mut acc = Dist::point(0);
    for d in &parts {
        acc = acc.convolve(d);
    }
    acc
}

/// Pearson's chi-square of d6 face counts against a fair die (5 degrees of
/// freedom); `None` without dice.
pub fn chi_square(faces: &[u32; 6]) -> Option<ChiSquare> {
    let n: u32 = faces.iter().sum();
    if n == 0 {
        return None;
    }
    let e = f64::from(n) / 6.0;
    let statistic: f64 = faces.iter().map(|&o| (f64::from(o) - e).powi(2) / e).sum();
    let p_value = ChiSquared::new(5.0).map(|c| c.sf(statistic)).unwrap_or(1.0);
    Some(ChiSquare {
        statistic,
        df: 5,
        p_value,
        flagged: n >= FLAG_MIN_DICE && p_value < FLAG_P,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binomial_is_pascals_row() {
        let d = binomial(4, 0.5);
        let want = [1.0, 4.0, 6.0, 4.0, 1.0].map(|x| x / 16.0);
        assert_eq!(d.offset, 0);
        for (a, b) in d.p.iter().zip(want) {
            assert!((a - b).abs() < 1e-15);
        }
        assert!((d.mean() - 2.0).abs() < 1e-12);
        assert!((d.at_least(3) - 5.0 / 16.0).abs() < 1e-15);
    }

    #[test]
    fn two_dice_against_a_kill_score_of_seven() {
        // Sums of 2d6 of 7 or more: 21 of 36; at most one kill.
        let d = total_kills(&[0, 0], 6, 7, 1);
        assert!((d.p[1] - 21.0 / 36.0).abs() < 1e-15);
        // With room for more, 14+ is impossible on 2d6.
        let d = total_kills(&[0, 0], 6, 7, 5);
        assert!(d.p.iter().skip(2).all(|&x| x == 0.0));
    }

    #[test]
    fn a_fair_spread_is_not_flagged_and_all_sixes_is() {
        let fair = chi_square(&[10, 10, 10, 10, 10, 10]).unwrap();
        assert!(fair.statistic.abs() < 1e-12 && !fair.flagged);
        assert!((fair.p_value - 1.0).abs() < 1e-9);
        let loaded = chi_square(&[0, 0, 0, 0, 0, 60]).unwrap();
        assert!(loaded.flagged, "{loaded:?}");
        // Too few dice to say anything, however odd.
        assert!(!chi_square(&[0, 0, 0, 0, 0, 6]).unwrap().flagged);
    }
}
