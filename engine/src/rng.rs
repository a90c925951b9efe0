//! Seeded randomness: one PCG32 stream per battle, and our own dice on top of it.
//!
//! Every random outcome in Xenolog comes from the raw `next_u32` output of
//! `rand_pcg::Pcg32`, turned into dice, draws and shuffles by the code in this
//! file. We never call `rand`'s range or shuffle helpers: their algorithms have
//! changed between releases, and a past roll must never change. The golden
//! vectors in the tests pin exact outputs.
//!
//! The stream's position is a plain count of `next_u32` calls (`draws`), which is
//! part of the battle state: the stream at any entry is rebuilt with
//! `Pcg32::advance`, so undo and redo from the same point give the same dice.

use rand_core::Rng as _;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::basics::{RuleError, RuleErrorKind};

/// SplitMix64's step: spreads a user's seed over PCG's state and stream,
/// and is the output function of [`SplitMix64`].
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 as a small seeded generator of its own, independent of any
/// battle's stream: the random bots of the benchmarks, the autoplay tests
/// and the hostile-input tests (a failure is replayed from the seed it
/// prints). Its sequence is written here, so a seed names the same run
/// whatever dependency changes. Never used to decide a battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let z = self.0;
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix64(z)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True once in `one_in` times (always when `one_in` is 0 or 1).
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// One of `items`, or `None` when there are none.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// The PCG32 stream of a battle with this seed, positioned after `draws` outputs.
pub fn stream_at(seed: u64, draws: u64) -> Pcg32 {
    let mut pcg = Pcg32::new(splitmix64(seed), splitmix64(seed ^ 0xD1CE_D1CE_D1CE_D1CE));
    pcg.advance(draws);
    pcg
}

/// One die as it was rolled or typed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Die {
    /// Number of faces (6 for a d6).
    pub sides: u8,
    /// The face showing, `1..=sides`.
    pub value: u8,
}

/// The randomness handed to `Game::decide`: the battle's stream at its current
/// position, or the dice the players rolled by hand for this command.
///
/// Dice rolls use entered dice first when a command carries them; draws from a
/// cup and shuffles always use the stream (they have no physical dice to type).
pub struct Randomness {
    pcg: Pcg32,
    draws: u64,
    entered: Option<Vec<u8>>,
    next_entered: usize,
    rolls: Vec<Die>,
}

/// What a command used up: the dice, whether they were typed in, and the
/// stream position afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Used {
    pub dice: Vec<Die>,
    pub entered: bool,
    pub draws: u64,
}

impl Randomness {
    /// The stream of `seed` at position `draws`, with optional entered dice.
    pub fn new(seed: u64, draws: u64, entered: Option<Vec<u8>>) -> Self {
        Self {
            pcg: stream_at(seed, draws),
            draws,
            entered,
            next_entered: 0,
            rolls: Vec::new(),
        }
    }

    /// The raw next output of the stream; every other method is built on this.
    pub fn next_u32(&mut self) -> u32 {
        self.draws += 1;
        self.pcg.next_u32()
    }

    /// A uniform number in `0..n` by rejection sampling (no modulo bias).
    ///
    /// Outputs at or above the largest multiple of `n` that fits in 2^32 are
    /// thrown away and drawn again. `n` must be at least 1.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0) has no values");
        let n = n.max(1);
        let span = 1u64 << 32;
        let limit = span - span % u64::from(n);
        loop {
            let x = u64::from(self.next_u32());
            if x < limit {
                return (x % u64::from(n)) as u32;
            }
        }
    }

    /// Roll one die with `sides` faces (an entered die if the command has them).
    pub fn d(&mut self, sides: u8) -> Result<u8, RuleError> {
        let value = match &self.entered {
            Some(entered) => {
                let Some(&v) = entered.get(self.next_entered) else {
                    return Err(RuleError::new(
                        RuleErrorKind::MoreDice,
                        format!(
                            "this command needs more dice than were entered: {} entered, at least {} needed",
                            entered.len(),
                            self.next_entered + 1
                        ),
                    ));
                };
                if v == 0 || v > sides {
                    return Err(RuleError::new(
                        RuleErrorKind::Dice,
                        format!(
                            "entered die number {} is {v}, but a {sides}-sided die shows 1 to {sides}",
                            self.next_entered + 1
                        ),
                    ));
                }
                self.next_entered += 1;
                v
            }
            None => (self.below(u32::from(sides)) + 1) as u8,
        };
        self.rolls.push(Die { sides, value });
        Ok(value)
    }

    /// Roll one six-sided die.
    pub fn d6(&mut self) -> Result<u8, RuleError> {
        self.d(6)
    }

    /// Roll `count` dice with `sides` faces, in order.
    pub fn roll(&mut self, count: usize, sides: u8) -> Result<Vec<u8>, RuleError> {
        (0..count).map(|_| self.d(sides)).collect()
    }

    /// Draw one item at random from a cup of `len` items: its index.
    /// `len` must be at least 1.
    pub fn pick(&mut self, len: usize) -> usize {
        self.below(len.max(1) as u32) as usize
    }

    /// Shuffle in place (Fisher-Yates from the back, our own code).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Whether this command is being decided with dice the players typed in.
    pub fn is_entered(&self) -> bool {
        self.entered.is_some()
    }

    /// Close the command: refuse entered dice that were not used.
    pub fn finish(self) -> Result<Used, RuleError> {
        if let Some(entered) = &self.entered
            && self.next_entered < entered.len()
        {
            return Err(RuleError::new(
                RuleErrorKind::Dice,
                format!(
                    "{} entered but this command rolls {}",
                    match entered.len() {
                        1 => "1 die was".to_owned(),
                        n => format!("{n} dice were"),
                    },
                    match self.next_entered {
                        0 => "no dice".to_owned(),
                        1 => "only 1".to_owned(),
                        n => format!("only {n}"),
                    }
                ),
            ));
        }
        Ok(Used {
            entered: self.entered.is_some(),
            dice: self.rolls,
            draws: self.draws,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d6s(seed: u64, n: usize) -> Vec<u8> {
        let mut r = Randomness::new(seed, 0, None);
        (0..n).map(|_| r.d6().unwrap()).collect()
    }

    /// The published SplitMix64 sequence from seed 0: the bots' runs are
    /// named by their seeds, so this sequence must never change.
    #[test]
    fn splitmix64_gives_the_published_sequence() {
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64(5);
        assert!((0..100).all(|_| r.below(6) < 6));
        assert_eq!(r.below(0), 0);
        assert_eq!(r.pick::<u8>(&[]), None);
    }

    #[test]
    fn advance_matches_drawing() {
        let mut a = Randomness::new(7, 0, None);
        for _ in 0..1000 {
            a.next_u32();
        }
        let mut b = Randomness::new(7, 1000, None);
        assert_eq!(a.next_u32(), b.next_u32());
    }

    #[test]
    fn d6_is_roughly_uniform() {
        let rolls = d6s(3, 60_000);
        for face in 1..=6u8 {
            let n = rolls.iter().filter(|&&r| r == face).count();
            assert!((9_000..11_000).contains(&n), "face {face}: {n}");
        }
    }

    #[test]
    fn entered_dice_are_used_in_order_and_checked() {
        let mut r = Randomness::new(1, 0, Some(vec![1, 4, 1, 3]));
        assert_eq!(r.roll(4, 6).unwrap(), vec![1, 4, 1, 3]);
        let used = r.finish().unwrap();
        assert!(used.entered);
        assert_eq!(used.draws, 0, "entered dice never touch the stream");

        let mut r = Randomness::new(1, 0, Some(vec![7]));
        let err = r.d6().unwrap_err();
        assert!(err.message.contains("shows 1 to 6"), "{err}");

        let mut r = Randomness::new(1, 0, Some(vec![2]));
        r.d6().unwrap();
        let more = r.d6().unwrap_err();
        assert!(more.message.contains("needs more dice"));
        assert_eq!(
            more.kind,
            RuleErrorKind::MoreDice,
            "the app asks for one more die on this"
        );

        let mut r = Randomness::new(1, 0, Some(vec![2, 3]));
        r.d6().unwrap();
        assert!(r.finish().unwrap_err().message.contains("rolls only 1"));
    }

    /// Regression (issue 16, illegal commands): a leftover entered die read
    /// "1 dice were entered but this command rolls only 0".
    #[test]
    fn leftover_entered_dice_read_in_words_not_1_dice_were_rolls_only_0() {
        let r = Randomness::new(1, 0, Some(vec![4]));
        assert_eq!(
            r.finish().unwrap_err().message,
            "1 die was entered but this command rolls no dice"
        );
        let mut r = Randomness::new(1, 0, Some(vec![4, 5, 6]));
        r.d6().unwrap();
        r.d6().unwrap();
        assert_eq!(
            r.finish().unwrap_err().message,
            "3 dice were entered but this command rolls only 2"
        );
    }
}
