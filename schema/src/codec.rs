//! The stored form of entries and snapshots.
//!
//! Every stored record is an **envelope**: a leading format version (a postcard
//! varint) followed by the postcard payload of that version. Reading
//! dispatches on the version: the current one decodes directly, an older one
//! goes through its upcaster to the current form, and a newer one is refused
//! with both version numbers named ([`CodecError::Newer`]), never guessed at.
//!
//! ## Entry format 1
//!
//! [`EntryV1`] mirrors `xenolog_engine::EntryRecord` field by field with one
//! change: the parent is stored as a *gap* back from the entry's own sequence
//! number (`0`: from the setup; `k`: the entry `k` before this one). Along a
//! line the gap is 1, one byte instead of up to nine; that keeps an entry of
//! the test game near 60 bytes. The sequence number itself is the database key,
//! so it is passed in rather than stored twice.
//!
//! ## Entry format 2
//!
//! [`EntryV2`] is format 1 with one more field at the end: the rules version
//! that decided the entry. A format 1 entry is upcast with the rules version
//! its battle was started under (before format 2 a battle had one version).
//!
//! ## Adding format 3
//!
//! Write `EntryV3`, bump [`ENTRY_FORMAT`], make `decode_entry` decode version 3
//! directly and turn the older versions into it; keep `EntryV1`, `EntryV2` and
//! the golden tests of their bytes forever. Writing always uses the newest
//! version; files are never rewritten just to upgrade their records.
//!
//! ## Snapshots
//!
//! Format 1 is the envelope around the game's postcard state; format 2 adds
//! the rules version that wrote the state. A snapshot is a cache: the engine
//! rebuilds one of other rules, or one that does not decode, by folding.

use serde::{Deserialize, Serialize};
use xenolog_engine::{Actor, Die, EntryId, EntryRecord};

/// The entry format this build writes; it reads this one and every older one.
pub const ENTRY_FORMAT: u32 = 2;
/// The snapshot envelope this build writes.
pub const SNAPSHOT_FORMAT: u32 = 2;

/// Whether the app rolls or the players type in physical dice (stored per battle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiceMode {
    /// Xenolog rolls from the battle's seeded stream.
    Rolled,
    /// The players roll real dice and type them in.
    Entered,
}

impl DiceMode {
    /// The word stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DiceMode::Rolled => "rolled",
            DiceMode::Entered => "entered",
        }
    }

    /// The mode stored as `word`, if it is one.
    pub fn from_word(word: &str) -> Option<DiceMode> {
        match word {
            "rolled" => Some(DiceMode::Rolled),
            "entered" => Some(DiceMode::Entered),
            _ => None,
        }
    }
}

/// Why a stored record could not be written or read. Display says it in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// Zero bytes where a record should be.
    #[error("the record is empty")]
    Empty,
    /// Written by a newer Xenolog.
    #[error(
        "the record was written by a newer Xenolog (record format {found}; this build reads up to {ours})"
    )]
    Newer { found: u32, ours: u32 },
    /// A version number that was never used (0, or damaged).
    #[error("the record has an unknown format number {0}")]
    Unknown(u32),
    /// The bytes do not decode as the format they claim.
    #[error("the record's bytes are damaged: {0}")]
    Garbled(String),
    /// A record that cannot be stored (an engine invariant broken).
    #[error("the entry cannot be stored: {0}")]
    Invalid(String),
}

fn garbled(e: postcard::Error) -> CodecError {
    CodecError::Garbled(e.to_string())
}

/// One die in format 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieV1 {
    /// Number of faces.
    pub sides: u8,
    /// The face showing.
    pub value: u8,
}

/// An entry in format 1 (see the module docs). Borrows its byte fields so
/// decoding a whole battle copies each one once, into the engine's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryV1<'a> {
    /// `0`: the entry follows the setup; `k`: its parent is `seq - k`.
    pub parent_gap: u64,
    /// The branch the entry was recorded on.
    pub branch: u32,
    /// The seat that gave the command.
    pub actor: u8,
    /// postcard of the game's command.
    #[serde(borrow)]
    pub command: &'a [u8],
    /// postcard of the game's events.
    #[serde(borrow)]
    pub events: &'a [u8],
    /// Every die the command rolled.
    pub dice: Vec<DieV1>,
    /// Whether the players typed the dice in.
    pub entered: bool,
    /// Stream position after the command.
    pub rng_after: u64,
    /// Hash of the state after the command.
    pub state_hash: [u8; 16],
    /// Hash chain over the log.
    pub chain: [u8; 16],
}

impl<'a> EntryV1<'a> {
    /// The stored form of entry `seq`.
    pub fn from_record(seq: EntryId, rec: &'a EntryRecord) -> Result<Self, CodecError> {
        let parent_gap = match rec.parent {
            None => 0,
            Some(p) if p < seq => seq - p,
            Some(p) => {
                return Err(CodecError::Invalid(format!(
                    "entry {seq} names parent {p}, which does not come before it"
                )));
            }
        };
        Ok(EntryV1 {
            parent_gap,
            branch: rec.branch,
            actor: rec.actor.0,
            command: &rec.command,
            events: &rec.events,
            dice: rec
                .dice
                .iter()
                .map(|d| DieV1 {
                    sides: d.sides,
                    value: d.value,
                })
                .collect(),
            entered: rec.entered,
            rng_after: rec.rng_after,
            state_hash: rec.state_hash,
            chain: rec.chain,
        })
    }

    /// The engine's record of entry `seq`, decided under `rules_version`.
    pub fn into_record(self, seq: EntryId, rules_version: u32) -> Result<EntryRecord, CodecError> {
        let parent = match self.parent_gap {
            0 => None,
            gap => Some(seq.checked_sub(gap).ok_or_else(|| {
                CodecError::Garbled(format!(
                    "entry {seq} names a parent {gap} entries back, before the first entry"
                ))
            })?),
        };
        Ok(EntryRecord {
            parent,
            branch: self.branch,
            actor: Actor(self.actor),
            command: self.command.to_vec(),
            events: self.events.to_vec(),
            dice: self
                .dice
                .into_iter()
                .map(|d| Die {
                    sides: d.sides,
                    value: d.value,
                })
                .collect(),
            entered: self.entered,
            rng_after: self.rng_after,
            state_hash: self.state_hash,
            chain: self.chain,
            rules_version,
        })
    }
}

/// An entry in format 2: format 1 and the rules version that decided it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryV2<'a> {
    /// Every field of format 1, in its order.
    #[serde(borrow)]
    pub v1: EntryV1<'a>,
    /// The rules version that decided the entry.
    pub rules_version: u32,
}

impl<'a> EntryV2<'a> {
    /// The stored form of entry `seq`.
    pub fn from_record(seq: EntryId, rec: &'a EntryRecord) -> Result<Self, CodecError> {
        Ok(EntryV2 {
            v1: EntryV1::from_record(seq, rec)?,
            rules_version: rec.rules_version,
        })
    }

    /// The engine's record of entry `seq`.
    pub fn into_record(self, seq: EntryId) -> Result<EntryRecord, CodecError> {
        self.v1.into_record(seq, self.rules_version)
    }
}

/// Split an envelope into its version and payload.
fn open_envelope(bytes: &[u8]) -> Result<(u32, &[u8]), CodecError> {
    if bytes.is_empty() {
        return Err(CodecError::Empty);
    }
    postcard::take_from_bytes::<u32>(bytes).map_err(garbled)
}

fn seal<T: Serialize>(version: u32, payload: &T) -> Result<Vec<u8>, CodecError> {
    let out = postcard::to_allocvec(&version).map_err(garbled)?;
    postcard::to_extend(payload, out).map_err(garbled)
}

/// Decode a whole payload: trailing bytes mean the record is damaged.
fn decode_all<'a, T: Deserialize<'a>>(payload: &'a [u8]) -> Result<T, CodecError> {
    let (value, rest) = postcard::take_from_bytes::<T>(payload).map_err(garbled)?;
    if !rest.is_empty() {
        return Err(CodecError::Garbled(format!(
            "{} unexpected bytes after the record",
            rest.len()
        )));
    }
    Ok(value)
}

/// The stored bytes of entry `seq` (current format).
pub fn encode_entry(seq: EntryId, rec: &EntryRecord) -> Result<Vec<u8>, CodecError> {
    seal(ENTRY_FORMAT, &EntryV2::from_record(seq, rec)?)
}

/// Read the stored bytes of entry `seq` of a battle started under rules
/// version `battle_rules`, upcasting older formats.
pub fn decode_entry(
    seq: EntryId,
    bytes: &[u8],
    battle_rules: u32,
) -> Result<EntryRecord, CodecError> {
    let (version, payload) = open_envelope(bytes)?;
    match version {
        1 => decode_all::<EntryV1>(payload)?.into_record(seq, battle_rules),
        2 => decode_all::<EntryV2>(payload)?.into_record(seq),
        v if v > ENTRY_FORMAT => Err(CodecError::Newer {
            found: v,
            ours: ENTRY_FORMAT,
        }),
        v => Err(CodecError::Unknown(v)),
    }
}

/// The stored bytes of a snapshot: the envelope around the game's postcard
/// state, written under `rules_version`.
pub fn encode_snapshot(rules_version: u32, state: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(state.len() + 6);
    out.extend_from_slice(&postcard_varint(SNAPSHOT_FORMAT));
    out.extend_from_slice(&postcard_varint(rules_version));
    out.extend_from_slice(state);
    out
}

/// The rules version and the game's postcard state inside a stored snapshot;
/// format 1 did not store the version (`None`: the battle's own).
pub fn decode_snapshot(bytes: &[u8]) -> Result<(Option<u32>, &[u8]), CodecError> {
    let (version, payload) = open_envelope(bytes)?;
    match version {
        1 => Ok((None, payload)),
        2 => {
            let (rules, state) = postcard::take_from_bytes::<u32>(payload).map_err(garbled)?;
            Ok((Some(rules), state))
        }
        v if v > SNAPSHOT_FORMAT => Err(CodecError::Newer {
            found: v,
            ours: SNAPSHOT_FORMAT,
        }),
        v => Err(CodecError::Unknown(v)),
    }
}

fn postcard_varint(v: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(5);
    let mut v = v;
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> EntryRecord {
        EntryRecord {
            parent: Some(41),
            branch: 2,
            actor: Actor(1),
            command: vec![0, 3],
            events: vec![1, 0, 2, 4, 5],
            dice: vec![Die { sides: 6, value: 4 }, Die { sides: 6, value: 5 }],
            entered: false,
            rng_after: 300,
            state_hash: [7; 16],
            chain: [9; 16],
            rules_version: 3,
        }
    }

    #[test]
    fn an_entry_round_trips() {
        let rec = record();
        let bytes = encode_entry(42, &rec).unwrap();
        assert_eq!(decode_entry(42, &bytes, 1).unwrap(), rec);
        let first = EntryRecord {
            parent: None,
            ..record()
        };
        let bytes = encode_entry(0, &first).unwrap();
        assert_eq!(decode_entry(0, &bytes, 1).unwrap(), first);
    }

    /// Format 1 as it was written, frozen: entries written until format 2
    /// must read forever, with their battle's rules version.
    fn format_1_bytes() -> Vec<u8> {
        let mut expect = vec![
            1, // format
            1, // parent gap
            2, // branch
            1, // actor
            2, 0, 3, // command
            5, 1, 0, 2, 4, 5, // events
            2, 6, 4, 6, 5, // dice
            0, // entered
            0xac, 0x02, // rng_after 300
        ];
        expect.extend([7; 16]);
        expect.extend([9; 16]);
        expect
    }

    #[test]
    fn entry_format_1_is_read_with_the_battles_rules_version() {
        let rec = decode_entry(42, &format_1_bytes(), 5).unwrap();
        assert_eq!(
            rec,
            EntryRecord {
                rules_version: 5,
                ..record()
            }
        );
        let rec = record();
        let v1 = EntryV1::from_record(42, &rec).unwrap();
        assert_eq!(seal(1, &v1).unwrap(), format_1_bytes());
    }

    /// The bytes of format 2 are frozen: format 1 and the rules version.
    #[test]
    fn entry_format_2_bytes_are_frozen() {
        let bytes = encode_entry(42, &record()).unwrap();
        let mut expect = format_1_bytes();
        expect[0] = 2;
        expect.push(3);
        assert_eq!(bytes, expect);
    }

    #[test]
    fn a_newer_entry_format_is_refused_with_both_versions() {
        let mut bytes = encode_entry(42, &record()).unwrap();
        bytes[0] = 7;
        let err = decode_entry(42, &bytes, 1).unwrap_err();
        assert_eq!(err, CodecError::Newer { found: 7, ours: 2 });
        let text = err.to_string();
        assert!(
            text.contains("format 7") && text.contains("up to 2"),
            "{text}"
        );
    }

    #[test]
    fn damaged_entries_are_errors_not_panics() {
        let bytes = encode_entry(42, &record()).unwrap();
        assert_eq!(decode_entry(42, &[], 1), Err(CodecError::Empty));
        assert_eq!(decode_entry(42, &[0, 1, 2], 1), Err(CodecError::Unknown(0)));
        for cut in 1..bytes.len() {
            assert!(decode_entry(42, &bytes[..cut], 1).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            decode_entry(42, &longer, 1),
            Err(CodecError::Garbled(_))
        ));
        // The gap is relative to the key: the same bytes at seq 40 name 39,
        // and at seq 0 they would reach before the first entry.
        assert_eq!(decode_entry(40, &bytes, 1).unwrap().parent, Some(39));
        assert!(matches!(
            decode_entry(0, &bytes, 1),
            Err(CodecError::Garbled(_))
        ));
    }

    #[test]
    fn a_parent_after_the_entry_cannot_be_stored() {
        assert!(matches!(
            encode_entry(41, &record()),
            Err(CodecError::Invalid(_))
        ));
    }

    #[test]
    fn snapshots_carry_their_version() {
        let bytes = encode_snapshot(4, &[1, 2, 3]);
        assert_eq!(bytes, vec![2, 4, 1, 2, 3]);
        assert_eq!(decode_snapshot(&bytes).unwrap(), (Some(4), &[1, 2, 3][..]));
        // Format 1, as written until format 2: no rules version.
        assert_eq!(
            decode_snapshot(&[1, 1, 2, 3]).unwrap(),
            (None, &[1, 2, 3][..])
        );
        assert_eq!(
            decode_snapshot(&[3, 1]),
            Err(CodecError::Newer { found: 3, ours: 2 })
        );
        assert_eq!(decode_snapshot(&[]), Err(CodecError::Empty));
    }

    #[test]
    fn the_varint_matches_postcard() {
        for v in [0, 1, 127, 128, 300, u32::MAX] {
            assert_eq!(postcard_varint(v), postcard::to_allocvec(&v).unwrap());
        }
    }

    #[test]
    fn dice_mode_words_round_trip() {
        for m in [DiceMode::Rolled, DiceMode::Entered] {
            assert_eq!(DiceMode::from_word(m.as_str()), Some(m));
        }
        assert_eq!(DiceMode::from_word("loaded"), None);
    }
}
