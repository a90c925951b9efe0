//! Fair seeds: dice that no one chose and no one could foresee, checkable by
//! anyone after the battle (principle 13, the club server).
//!
//! A battle played through a club server does not take its seed from anyone.
//! The server draws a 32-byte *secret* and publishes a *commitment* to it when
//! the battle is created; every seat then gives a 32-byte *nonce* of its own;
//! only when every nonce is in is the seed derived from the secret and all the
//! nonces, and the battle started. At the end the server reveals the secret,
//! and anyone can check, with this module or with `b3sum`, that
//!
//! 1. the revealed secret is the one committed to before any nonce existed
//!    ([`commitment`]);
//! 2. every seat's nonce went into the seed, and the one a player kept is the
//!    one recorded ([`FairSeed::nonces`]);
//! 3. the battle's seed is the hash of the secret and every nonce ([`seed`]);
//!    the existing replay ([`crate::Session::verify`]) then shows that every
//!    roll re-derives from that seed.
//!
//! So the server fixed its secret before any seat chose a nonce, no seat knew
//! the secret when it chose its nonce, and no seat can foresee a roll while
//! the battle runs (the seed stays on the server until the end). The server's
//! operator could read the running server's memory, as with any game server
//! that holds the hands; that is not claimed otherwise.
//!
//! All hashes are BLAKE3 in its key-derivation mode with a context string per
//! use (scheme 1), so each can be recomputed by hand:
//! `b3sum --derive-key "xenolog 2026-11-27 fair seed commitment v1" --no-names secret.bin`
//! prints the commitment. The golden vectors in the tests were computed by an
//! independent BLAKE3 implementation (Python's `blake3` 1.0) and pin scheme 1
//! forever: a change is a new scheme beside it, never an edit (principle 2).
//!
//! The stream itself is unchanged: the seed is the first 8 bytes of the derived
//! key as a little-endian u64, fed to [`crate::rng`] as any other seed, so
//! nothing about how dice are drawn differs between a club battle and any
//! other.

use serde::{Deserialize, Serialize};

use crate::basics::Actor;
use crate::record::{EntryId, EntryRecord, Hash16};

/// The one scheme this build knows (the contexts below).
pub const SCHEME: u8 = 1;

/// `derive_key` context of the commitment to the server's secret.
pub const COMMITMENT_CONTEXT: &str = "xenolog 2026-11-27 fair seed commitment v1";
/// `derive_key` context of the seed from the secret and the seats' nonces.
pub const SEED_CONTEXT: &str = "xenolog 2026-11-27 fair seed v1";
/// `derive_key` context of the key of an entry's receipt.
pub const RECEIPT_CONTEXT: &str = "xenolog 2026-11-27 receipt key v1";

/// 32 random bytes: the server's secret or a seat's nonce.
pub type Bytes32 = [u8; 32];

/// One seat's contribution to the seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatNonce {
    pub seat: Actor,
    pub nonce: Bytes32,
    /// The seat never joined and the organiser started without it: the
    /// server drew this nonce itself, and `verify` says so.
    pub absent: bool,
}

/// What a battle records of its fair seed: everything but the secret, which
/// no client knows until the end. Part of [`crate::BattleMeta`] and of the
/// battle's hash chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairSeed {
    pub scheme: u8,
    pub commitment: Bytes32,
    /// One per seat, in seat order.
    pub nonces: Vec<SeatNonce>,
}

/// Why nonces cannot make a seed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    #[error("no seat has given a nonce")]
    NoNonces,
    #[error("{0} gave two nonces (each seat gives one)")]
    Twice(String),
    #[error("this build knows fair-seed scheme 1, not scheme {0}")]
    Scheme(u8),
}

/// The commitment to `secret`, published before any seat gives a nonce.
pub fn commitment(secret: &Bytes32) -> Bytes32 {
    blake3::derive_key(COMMITMENT_CONTEXT, secret)
}

/// The 32 derived bytes: `derive_key(SEED_CONTEXT, secret || seat || nonce ...)`
/// with the seats in order (one byte each, then its nonce).
pub fn seed_bytes(secret: &Bytes32, nonces: &[SeatNonce]) -> Result<Bytes32, FairError> {
    let ordered = in_seat_order(nonces)?;
    let mut material = Vec::with_capacity(32 + 33 * ordered.len());
    material.extend_from_slice(secret);
    for n in ordered {
        material.push(n.seat.0);
        material.extend_from_slice(&n.nonce);
    }
    Ok(blake3::derive_key(SEED_CONTEXT, &material))
}

/// The battle's seed: the first 8 derived bytes, little-endian.
pub fn seed(secret: &Bytes32, nonces: &[SeatNonce]) -> Result<u64, FairError> {
    let bytes = seed_bytes(secret, nonces)?;
    let mut first = [0; 8];
    first.copy_from_slice(&bytes[..8]);
    Ok(u64::from_le_bytes(first))
}

/// An entry's receipt: the entry's chain value under a key only the server
/// knows until the end. A seat keeps the receipts it was shown; after the
/// reveal they prove the downloaded battle is the one it was shown.
pub fn receipt(secret: &Bytes32, chain: &Hash16) -> Bytes32 {
    let key = blake3::derive_key(RECEIPT_CONTEXT, secret);
    *blake3::keyed_hash(&key, chain).as_bytes()
}

fn in_seat_order(nonces: &[SeatNonce]) -> Result<Vec<&SeatNonce>, FairError> {
    if nonces.is_empty() {
        return Err(FairError::NoNonces);
    }
    let mut ordered: Vec<&SeatNonce> = nonces.iter().collect();
    ordered.sort_by_key(|n| n.seat.0);
    if let Some(w) = ordered.windows(2).find(|w| w[0].seat == w[1].seat) {
        return Err(FairError::Twice(format!("seat {}", w[0].seat.0 as u32 + 1)));
    }
    Ok(ordered)
}

impl FairSeed {
    /// The record of a battle whose `secret` was committed and whose seats
    /// gave `nonces`; the seed to start it with.
    pub fn new(secret: &Bytes32, mut nonces: Vec<SeatNonce>) -> Result<(Self, u64), FairError> {
        let seed = seed(secret, &nonces)?;
        nonces.sort_by_key(|n| n.seat.0);
        Ok((
            FairSeed {
                scheme: SCHEME,
                commitment: commitment(secret),
                nonces,
            },
            seed,
        ))
    }
}

/// What was checked of one seat's nonce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NonceCheck {
    pub seat: Actor,
    pub nonce: String,
    pub absent: bool,
    /// The nonce the player says they gave (`verify --nonce`): `Some(true)`
    /// when it is the one recorded.
    pub kept_matches: Option<bool>,
}

/// The fairness part of `verify` for a battle with a fair seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairnessReport {
    pub scheme: u8,
    pub commitment: String,
    /// Whether the secret has been revealed (the battle is over).
    pub revealed: bool,
    /// The revealed secret hashes to the published commitment.
    pub commitment_ok: Option<bool>,
    /// The battle's seed is the hash of the secret and every nonce.
    pub seed_ok: Option<bool>,
    pub nonces: Vec<NonceCheck>,
    /// Seats of the battle that gave no nonce at all.
    pub missing: Vec<Actor>,
    /// Entries whose dice the players entered by hand: no fairness claim.
    pub entered_entries: Vec<EntryId>,
    /// Something that makes the check impossible (an unknown scheme).
    pub problem: Option<String>,
}

impl FairnessReport {
    /// Every check that could be made passed (an unrevealed secret is not a
    /// failure: the battle is still being played).
    pub fn ok(&self) -> bool {
        self.problem.is_none()
            && self.commitment_ok != Some(false)
            && self.seed_ok != Some(false)
            && self.missing.is_empty()
            && self.nonces.iter().all(|n| n.kept_matches != Some(false))
    }

    /// The report in sentences, one per check; `name` names a seat.
    pub fn lines(&self, name: &dyn Fn(Actor) -> String) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(p) = &self.problem {
            out.push(format!("FAILED: {p}"));
            return out;
        }
        match self.commitment_ok {
            Some(true) => out.push(format!(
                "ok: the server's secret matches the commitment it published when the battle was created ({})",
                short(&self.commitment)
            )),
            Some(false) => out.push(format!(
                "FAILED: the revealed secret does not match the commitment {} published when the battle was created",
                short(&self.commitment)
            )),
            None => out.push(format!(
                "not yet: the server reveals its secret when the battle ends (commitment {})",
                short(&self.commitment)
            )),
        }
        for n in &self.nonces {
            let who = name(n.seat);
            let mut s = if n.absent {
                format!(
                    "note: {who} never joined; the server drew that seat's nonce itself ({})",
                    short(&n.nonce)
                )
            } else {
                format!("ok: {who} gave nonce {}", short(&n.nonce))
            };
            match n.kept_matches {
                Some(true) => s.push_str(", the one you kept"),
                Some(false) => {
                    s = format!(
                        "FAILED: the nonce recorded for {who} ({}) is not the one you kept",
                        short(&n.nonce)
                    )
                }
                None => {}
            }
            out.push(s);
        }
        for &m in &self.missing {
            out.push(format!("FAILED: {} gave no nonce", name(m)));
        }
        match self.seed_ok {
            Some(true) => out.push(
                "ok: the seed is the hash of the secret and every seat's nonce, so no one chose the dice"
                    .into(),
            ),
            Some(false) => out.push(
                "FAILED: the battle's seed is not the hash of the secret and the seats' nonces".into(),
            ),
            None => {}
        }
        if !self.entered_entries.is_empty() {
            let ids: Vec<String> = self.entered_entries.iter().map(|i| i.to_string()).collect();
            out.push(format!(
                "note: {} {} used dice rolled by hand: no fairness claim for {}",
                if ids.len() == 1 { "entry" } else { "entries" },
                ids.join(", "),
                if ids.len() == 1 { "it" } else { "them" }
            ));
        }
        out
    }
}

/// Lower-case hex of any bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 32 bytes from 64 hex digits, in words when they are not.
pub fn from_hex(s: &str) -> Result<Bytes32, String> {
    let s = s.trim();
    if s.len() != 64 {
        return Err(format!(
            "expected 64 hex digits (32 bytes), got {} characters",
            s.len()
        ));
    }
    let mut out = [0; 32];
    for (i, pair) in s.as_bytes().chunks(2).enumerate() {
        let text = std::str::from_utf8(pair).map_err(|_| "not hex".to_owned())?;
        out[i] = u8::from_str_radix(text, 16)
            .map_err(|_| format!("'{text}' at position {} is not hex", 2 * i + 1))?;
    }
    Ok(out)
}

fn short(hex: &str) -> String {
    hex.chars().take(16).collect::<String>() + "…"
}

/// Check a battle's fair seed: `seed` is the battle's, `seats` every seat it
/// has, `secret` the revealed secret if any, `kept` the nonces players say
/// they gave, `records` its entries (for the ones with entered dice).
pub fn check(
    fair: &FairSeed,
    seed: u64,
    seats: &[Actor],
    secret: Option<&Bytes32>,
    kept: &[(Actor, Bytes32)],
    records: &[EntryRecord],
) -> FairnessReport {
    let mut report = FairnessReport {
        scheme: fair.scheme,
        commitment: hex(&fair.commitment),
        revealed: secret.is_some(),
        commitment_ok: None,
        seed_ok: None,
        nonces: fair
            .nonces
            .iter()
            .map(|n| NonceCheck {
                seat: n.seat,
                nonce: hex(&n.nonce),
                absent: n.absent,
                kept_matches: kept
                    .iter()
                    .find(|(s, _)| *s == n.seat)
                    .map(|(_, k)| *k == n.nonce),
            })
            .collect(),
        missing: seats
            .iter()
            .copied()
            .filter(|s| !fair.nonces.iter().any(|n| n.seat == *s))
            .collect(),
        entered_entries: records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.entered && !r.dice().is_empty())
            .map(|(i, _)| i as EntryId)
            .collect(),
        problem: None,
    };
    if fair.scheme != SCHEME {
        report.problem = Some(FairError::Scheme(fair.scheme).to_string());
        return report;
    }
    if let Some((seat, _)) = kept
        .iter()
        .find(|(s, _)| !fair.nonces.iter().any(|n| n.seat == *s))
    {
        report.problem = Some(format!(
            "you kept a nonce for seat {}, but no nonce is recorded for it",
            seat.0 as u32 + 1
        ));
        return report;
    }
    if let Some(secret) = secret {
        report.commitment_ok = Some(commitment(secret) == fair.commitment);
        report.seed_ok = Some(match self::seed(secret, &fair.nonces) {
            Ok(s) => s == seed,
            Err(e) => {
                report.problem = Some(e.to_string());
                false
            }
        });
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> Bytes32 {
        std::array::from_fn(|i| i as u8)
    }

    fn nonces() -> Vec<SeatNonce> {
        vec![
            SeatNonce {
                seat: Actor(0),
                nonce: [0x11; 32],
                absent: false,
            },
            SeatNonce {
                seat: Actor(1),
                nonce: [0x22; 32],
                absent: false,
            },
        ]
    }

    /// Scheme 1, pinned: computed with Python's `blake3` 1.0.11, an
    /// implementation independent of ours:
    /// `blake3.blake3(secret, derive_key_context=COMMITMENT_CONTEXT)` etc.
    #[test]
    fn golden_vectors_of_scheme_1() {
        assert_eq!(
            hex(&commitment(&secret())),
            "b27cbaa7727a7660ec50126d17b6e00b40379a8226543086530e86652442b899"
        );
        assert_eq!(
            hex(&seed_bytes(&secret(), &nonces()).unwrap()),
            "b269547f1c64195023602029a25d60d1106d206440c1d66f3fcfb1349626580d"
        );
        assert_eq!(
            seed(&secret(), &nonces()).unwrap(),
            5_771_754_471_010_101_682
        );
        let chain: Hash16 = std::array::from_fn(|i| i as u8);
        assert_eq!(
            hex(&receipt(&secret(), &chain)),
            "fed3dc51c665e1105e095e1cc88efd78827301131850d75911aa4ed1713e0450"
        );
    }

    #[test]
    fn the_seed_takes_nonces_in_seat_order_whatever_order_they_came_in() {
        let mut reversed = nonces();
        reversed.reverse();
        assert_eq!(seed(&secret(), &reversed), seed(&secret(), &nonces()));
    }

    #[test]
    fn every_nonce_byte_and_every_secret_byte_changes_the_seed() {
        let base = seed(&secret(), &nonces()).unwrap();
        for seat in 0..2 {
            for byte in 0..32 {
                let mut n = nonces();
                n[seat].nonce[byte] ^= 1;
                assert_ne!(
                    seed(&secret(), &n).unwrap(),
                    base,
                    "seat {seat} byte {byte}"
                );
            }
        }
        for byte in 0..32 {
            let mut s = secret();
            s[byte] ^= 1;
            assert_ne!(seed(&s, &nonces()).unwrap(), base);
            assert_ne!(commitment(&s), commitment(&secret()));
        }
    }

    #[test]
    fn a_seat_giving_two_nonces_or_none_is_refused_in_words() {
        let mut twice = nonces();
        twice[1].seat = Actor(0);
        assert_eq!(
            seed(&secret(), &twice).unwrap_err().to_string(),
            "seat 1 gave two nonces (each seat gives one)"
        );
        assert_eq!(seed(&secret(), &[]), Err(FairError::NoNonces));
    }

    fn fair() -> (FairSeed, u64) {
        FairSeed::new(&secret(), nonces()).unwrap()
    }

    #[test]
    fn check_passes_an_honest_battle_and_says_so() {
        let (f, s) = fair();
        let r = check(
            &f,
            s,
            &[Actor(0), Actor(1)],
            Some(&secret()),
            &[(Actor(1), [0x22; 32])],
            &[],
        );
        assert!(r.ok(), "{r:?}");
        assert_eq!(r.commitment_ok, Some(true));
        assert_eq!(r.seed_ok, Some(true));
        assert_eq!(r.nonces[1].kept_matches, Some(true));
        let lines = r.lines(&|a| format!("Player {}", a.0 + 1));
        assert!(
            lines[0].starts_with("ok: the server's secret matches"),
            "{lines:?}"
        );
        assert!(lines[2].ends_with("the one you kept"), "{lines:?}");
        assert!(lines.last().unwrap().contains("no one chose the dice"));
    }

    #[test]
    fn check_fails_a_wrong_secret_a_changed_nonce_a_missing_seat_and_another_seed() {
        let (f, s) = fair();
        let seats = [Actor(0), Actor(1)];
        let mut wrong = secret();
        wrong[0] ^= 1;
        let r = check(&f, s, &seats, Some(&wrong), &[], &[]);
        assert_eq!((r.commitment_ok, r.ok()), (Some(false), false));
        let r = check(
            &f,
            s,
            &seats,
            Some(&secret()),
            &[(Actor(0), [0x12; 32])],
            &[],
        );
        assert_eq!(r.nonces[0].kept_matches, Some(false));
        assert!(!r.ok());
        let lines = r.lines(&|a| format!("Player {}", a.0 + 1));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("FAILED: the nonce recorded for Player 1")),
            "{lines:?}"
        );
        let r = check(
            &f,
            s,
            &[Actor(0), Actor(1), Actor(2)],
            Some(&secret()),
            &[],
            &[],
        );
        assert_eq!(r.missing, vec![Actor(2)]);
        assert!(!r.ok());
        let r = check(&f, s ^ 1, &seats, Some(&secret()), &[], &[]);
        assert_eq!((r.seed_ok, r.ok()), (Some(false), false));
        let mut other = f.clone();
        other.nonces[1].nonce[5] ^= 1;
        let r = check(&other, s, &seats, Some(&secret()), &[], &[]);
        assert_eq!(
            r.seed_ok,
            Some(false),
            "a changed recorded nonce gives another seed"
        );
    }

    #[test]
    fn before_the_reveal_nothing_fails_and_it_says_not_yet() {
        let (f, s) = fair();
        let r = check(&f, s, &[Actor(0), Actor(1)], None, &[], &[]);
        assert!(r.ok());
        assert_eq!(r.commitment_ok, None);
        let lines = r.lines(&|a| format!("seat {}", a.0 + 1));
        assert!(lines[0].starts_with("not yet"), "{lines:?}");
    }

    #[test]
    fn an_unknown_scheme_is_said_in_words() {
        let (mut f, s) = fair();
        f.scheme = 9;
        let r = check(&f, s, &[Actor(0), Actor(1)], Some(&secret()), &[], &[]);
        assert!(!r.ok());
        assert_eq!(
            r.problem.as_deref(),
            Some("this build knows fair-seed scheme 1, not scheme 9")
        );
    }

    #[test]
    fn hex_round_trips_and_bad_hex_is_said_in_words() {
        let s = secret();
        assert_eq!(from_hex(&hex(&s)).unwrap(), s);
        assert!(from_hex("abc").unwrap_err().contains("64 hex digits"));
        let bad = "zz".to_owned() + &"0".repeat(62);
        assert!(from_hex(&bad).unwrap_err().contains("'zz'"));
    }
}
