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
//! ## Reading entries
//!
//! [`decode_entry`] reads both formats by hand over the byte slice
//! (`EntryReader`: postcard's varints with postcard's limits, the hashes as
//! 16-byte slices, the byte fields borrowed), because it runs once for every
//! stored entry when a battle is opened. It is defined to answer exactly as
//! serde's derived decoder of [`EntryV1`] and [`EntryV2`] does, which is kept
//! as [`decode_entry_reference`]: the same record, and for damaged bytes the
//! same [`CodecError`] in the same words. [`decode_entry_view`] is the same
//! read without copying the byte fields out ([`EntryView`]).
//!
//! ## Adding format 3
//!
//! Write `EntryV3`, bump [`ENTRY_FORMAT`], make `decode_entry` (and the serde
//! reference beside it) decode version 3 directly and turn the older versions
//! into it; keep `EntryV1`, `EntryV2` and the golden tests of their bytes
//! forever. Writing always uses the newest version; files are never
//! rewritten just to upgrade their records.
//!
//! ## Blocks of entries
//!
//! Since schema 8 (`migrations/0008_entry_blocks.sql`) a battle's entries are
//! sealed in blocks of [`BLOCK_ENTRIES`]: [`encode_block`] is the block
//! format ([`BLOCK_FORMAT`], a varint) and then each entry's stored bytes,
//! unchanged, after their length; [`block_records`] reads them back, naming
//! in words where a block is cut short or of a newer format. An entry's own
//! bytes, formats and upcasts do not depend on where it is stored.
//!
//! ## Snapshots
//!
//! Format 1 is the envelope around the game's postcard state; format 2 adds
//! the rules version that wrote the state. A snapshot is a cache: the engine
//! rebuilds one of other rules, or one that does not decode, by folding.

use serde::{Deserialize, Serialize};
use xenolog_engine::{Actor, Die, EntryFields, EntryHead, EntryId, EntryRecord};

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
            command: rec.command(),
            events: rec.events(),
            dice: rec
                .dice()
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
        Ok(EntryRecord::from(EntryFields {
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
        }))
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
///
/// This is the hot half of opening a battle (once a stored entry), so it reads
/// postcard by hand ([`EntryReader`]): the varints with postcard's own loop and
/// limits, the two hashes as 16-byte slices, straight into the engine's record
/// with no [`EntryV1`] in between. It accepts exactly the bytes the serde
/// decoder [`decode_entry_reference`] accepts, gives the same record, and
/// refuses damaged bytes with the same error in the same words (postcard's
/// [`postcard::Error`] for what postcard would have refused, at the same
/// field); the tests hold the two equal on every compat fixture's entries and
/// on random, cut and mutated bytes.
pub fn decode_entry(
    seq: EntryId,
    bytes: &[u8],
    battle_rules: u32,
) -> Result<EntryRecord, CodecError> {
    decode_entry_view(seq, bytes, battle_rules).map(|view| view.to_record())
}

/// A stored entry read in place: [`EntryRecord`]'s fields, its byte fields
/// borrowed from the stored bytes rather than copied into vectors of their
/// own. [`decode_entry`] is this and [`EntryView::to_record`]; a reader that
/// keeps a battle's stored bytes in one buffer can keep views into it instead
/// and allocate nothing an entry (`schema/benches/packed.rs` measures that).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryView<'a> {
    /// The parent entry (`None`: it follows the setup).
    pub parent: Option<EntryId>,
    /// The branch the entry was recorded on.
    pub branch: u32,
    /// The seat that gave the command.
    pub actor: Actor,
    /// postcard of the game's command.
    pub command: &'a [u8],
    /// postcard of the game's events.
    pub events: &'a [u8],
    /// Every die the command rolled, two bytes each: sides, then value.
    pub dice: &'a [u8],
    /// Whether the players typed the dice in.
    pub entered: bool,
    /// Stream position after the command.
    pub rng_after: u64,
    /// Hash of the state after the command.
    pub state_hash: [u8; 16],
    /// Hash chain over the log.
    pub chain: [u8; 16],
    /// The rules version that decided the entry (format 1: the battle's).
    pub rules_version: u32,
}

impl EntryView<'_> {
    /// The engine's record: the byte fields copied out.
    #[inline]
    pub fn to_record(&self) -> EntryRecord {
        EntryRecord::new(self.head(), self.command, self.events, self.dice)
    }

    /// The record's fixed part: every field but the command, events and dice.
    #[inline]
    pub fn head(&self) -> EntryHead {
        EntryHead {
            parent: self.parent,
            branch: self.branch,
            actor: self.actor,
            entered: self.entered,
            rng_after: self.rng_after,
            state_hash: self.state_hash,
            chain: self.chain,
            rules_version: self.rules_version,
        }
    }
}

/// [`decode_entry`] without the copies: the entry read in place, every check
/// and every error the same.
#[inline]
pub fn decode_entry_view(
    seq: EntryId,
    bytes: &[u8],
    battle_rules: u32,
) -> Result<EntryView<'_>, CodecError> {
    let (version, payload) = open_envelope_fast(bytes)?;
    match version {
        1 => EntryReader::new(payload).entry(seq, false, battle_rules),
        2 => EntryReader::new(payload).entry(seq, true, battle_rules),
        v if v > ENTRY_FORMAT => Err(CodecError::Newer {
            found: v,
            ours: ENTRY_FORMAT,
        }),
        v => Err(CodecError::Unknown(v)),
    }
}

/// [`decode_entry`] through serde's derived [`EntryV1`] and [`EntryV2`]: the
/// decoder the entry formats were defined with, kept as the reference the
/// hand-written one is tested against (it is about twice as slow).
pub fn decode_entry_reference(
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

/// Whether [`decode_entry`] and the serde reference
/// [`decode_entry_reference`] answer alike on `bytes`: the same record, or
/// the same error in the same words. `Err` says how they differ. The fuzz
/// target of the entry decoder (`fuzz/fuzz_targets/entry_record.rs`) and the
/// test of its corpus (`schema/tests/decoders.rs`) ask it of every input.
pub fn decoders_agree(seq: EntryId, bytes: &[u8], battle_rules: u32) -> Result<(), String> {
    let fast = decode_entry(seq, bytes, battle_rules);
    let reference = decode_entry_reference(seq, bytes, battle_rules);
    if fast == reference {
        return Ok(());
    }
    Err(format!(
        "entry {seq} of a battle under rules {battle_rules}: the hand decoder gives {fast:?}, \
         serde's gives {reference:?} (bytes {bytes:?})"
    ))
}

/// [`open_envelope`] without serde: the version is a postcard `u32` varint.
fn open_envelope_fast(bytes: &[u8]) -> Result<(u32, &[u8]), CodecError> {
    if bytes.is_empty() {
        return Err(CodecError::Empty);
    }
    let mut r = EntryReader::new(bytes);
    let version = r.varint_u32().map_err(garbled)?;
    Ok((version, r.rest))
}

/// A cursor over a postcard payload, reading the fields of [`EntryV1`] (and
/// [`EntryV2`]'s rules version) as postcard 1.x lays them out:
///
/// - `u8` (`actor`, a die's `sides` and `value`, each byte of a hash): one byte;
/// - `bool` (`entered`): one byte, 0 or 1, anything else
///   [`postcard::Error::DeserializeBadBool`];
/// - `u32`, `u64` and a length (`usize`, 64 bits here): a little-endian base-128
///   varint of at most 5 (`u32`) or 10 (`u64`) bytes whose last byte may carry
///   only the bits left (4 or 1), else [`postcard::Error::DeserializeBadVarint`];
/// - `&[u8]` (`command`, `events`): its length, then that many bytes;
/// - `Vec<DieV1>`: its length, then two bytes a die (kept as one slice);
/// - `[u8; 16]`: sixteen bytes, no length.
///
/// Running out of bytes anywhere is [`postcard::Error::DeserializeUnexpectedEnd`],
/// as in postcard's slice flavor.
struct EntryReader<'a> {
    rest: &'a [u8],
}

impl<'a> EntryReader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        EntryReader { rest: bytes }
    }

    #[inline(always)]
    fn byte(&mut self) -> Result<u8, postcard::Error> {
        let (&b, rest) = self
            .rest
            .split_first()
            .ok_or(postcard::Error::DeserializeUnexpectedEnd)?;
        self.rest = rest;
        Ok(b)
    }

    #[inline(always)]
    fn take(&mut self, n: u64) -> Result<&'a [u8], postcard::Error> {
        if n > self.rest.len() as u64 {
            return Err(postcard::Error::DeserializeUnexpectedEnd);
        }
        let (taken, rest) = self.rest.split_at(n as usize);
        self.rest = rest;
        Ok(taken)
    }

    /// A varint of at most `max` bytes, the last one at most `last`. One
    /// byte is the common case (a gap of 1, a branch, a length), read here;
    /// longer ones go through postcard's loop in [`Self::varint_long`].
    #[inline(always)]
    fn varint(&mut self, max: u32, last: u8) -> Result<u64, postcard::Error> {
        if let [first, rest @ ..] = self.rest
            && *first < 0x80
        {
            self.rest = rest;
            return Ok(u64::from(*first));
        }
        self.varint_long(max, last)
    }

    /// postcard's varint loop (`try_take_varint_u64` and `_u32`): at most
    /// `max` bytes, the last one at most `last`.
    #[inline(never)]
    fn varint_long(&mut self, max: u32, last: u8) -> Result<u64, postcard::Error> {
        let mut out = 0;
        for i in 0..max {
            let b = self.byte()?;
            out |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if i == max - 1 && b > last {
                    return Err(postcard::Error::DeserializeBadVarint);
                }
                return Ok(out);
            }
        }
        Err(postcard::Error::DeserializeBadVarint)
    }

    #[inline(always)]
    fn varint_u64(&mut self) -> Result<u64, postcard::Error> {
        self.varint(10, 0x01)
    }

    #[inline(always)]
    fn varint_u32(&mut self) -> Result<u32, postcard::Error> {
        // At most 5 bytes, the fifth at most 0x0f: the value fits in 32 bits.
        self.varint(5, 0x0f).map(|v| v as u32)
    }

    #[inline(always)]
    fn bool(&mut self) -> Result<bool, postcard::Error> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(postcard::Error::DeserializeBadBool),
        }
    }

    #[inline(always)]
    fn hash(&mut self) -> Result<[u8; 16], postcard::Error> {
        let bytes = self.take(16)?;
        let mut out = [0; 16];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// A byte field: its length, then its bytes.
    #[inline(always)]
    fn bytes(&mut self) -> Result<&'a [u8], postcard::Error> {
        let len = self.varint_u64()?;
        self.take(len)
    }

    /// The dice: their count, then two bytes a die (sides, value), kept as
    /// the slice of those bytes. A count the payload cannot hold ends as
    /// postcard's die-by-die read would: out of bytes.
    #[inline(always)]
    fn dice(&mut self) -> Result<&'a [u8], postcard::Error> {
        let len = self.varint_u64()?;
        let bytes = len
            .checked_mul(2)
            .ok_or(postcard::Error::DeserializeUnexpectedEnd)?;
        self.take(bytes)
    }

    /// The payload of an entry in format 1 (`format_2` false: decided under
    /// the battle's `battle_rules`) or format 2 (its own rules version last), as
    /// `decode_all` and then `into_record` would give it: the whole payload is
    /// read first (trailing bytes are damage), the parent gap checked after.
    #[inline]
    fn entry(
        mut self,
        seq: EntryId,
        format_2: bool,
        battle_rules: u32,
    ) -> Result<EntryView<'a>, CodecError> {
        let parent_gap = self.varint_u64().map_err(garbled)?;
        let branch = self.varint_u32().map_err(garbled)?;
        let actor = self.byte().map_err(garbled)?;
        let command = self.bytes().map_err(garbled)?;
        let events = self.bytes().map_err(garbled)?;
        let dice = self.dice().map_err(garbled)?;
        let entered = self.bool().map_err(garbled)?;
        let rng_after = self.varint_u64().map_err(garbled)?;
        let state_hash = self.hash().map_err(garbled)?;
        let chain = self.hash().map_err(garbled)?;
        let rules_version = if format_2 {
            self.varint_u32().map_err(garbled)?
        } else {
            battle_rules
        };
        if !self.rest.is_empty() {
            return Err(CodecError::Garbled(format!(
                "{} unexpected bytes after the record",
                self.rest.len()
            )));
        }
        let parent = match parent_gap {
            0 => None,
            gap => Some(seq.checked_sub(gap).ok_or_else(|| {
                CodecError::Garbled(format!(
                    "entry {seq} names a parent {gap} entries back, before the first entry"
                ))
            })?),
        };
        Ok(EntryView {
            parent,
            branch,
            actor: Actor(actor),
            command,
            events,
            dice,
            entered,
            rng_after,
            state_hash,
            chain,
            rules_version,
        })
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

/// How many entries a sealed block holds (migration 8, `entry_blocks`): a
/// battle's entries `k * BLOCK_ENTRIES .. (k + 1) * BLOCK_ENTRIES` are one
/// block, every earlier one is sealed too, and the entries after the last
/// block are rows of their own (the open tail). 1,024: SQLite's cost a row
/// is gone from 256 on, and 1,024 in a rowid table made the smallest file
/// and the fastest read (BENCHMARKS.md, issue 29, session 17, section 3).
pub const BLOCK_ENTRIES: u64 = 1024;

/// The block format this build writes; it reads this one only.
pub const BLOCK_FORMAT: u32 = 1;

/// The stored bytes of a block of entries: the block format (a postcard
/// varint), then each entry's stored bytes ([`encode_entry`]'s, unchanged)
/// after their length (a postcard `u64` varint), in order. The records are
/// the same bytes a row of `entries` holds, so whatever reads or checks an
/// entry (its formats, upcasts, the trust book's digest) is the same for an
/// entry in a block.
pub fn encode_block<'r>(records: impl IntoIterator<Item = &'r [u8]>) -> Vec<u8> {
    let mut out = postcard_varint(BLOCK_FORMAT);
    for r in records {
        let mut len = r.len() as u64;
        loop {
            let byte = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
        out.extend_from_slice(r);
    }
    out
}

/// The stored records of a block, in order ([`encode_block`]): an iterator
/// of each record's bytes, borrowed from the block. A block written by a
/// newer Xenolog, or one whose lengths run past its end, is an error (in
/// words) at the record where reading stopped, and the iteration ends there.
pub fn block_records(block: &[u8]) -> BlockRecords<'_> {
    let mut r = EntryReader::new(block);
    let start = match r.varint_u32() {
        Ok(BLOCK_FORMAT) => Ok(()),
        Ok(v) if v > BLOCK_FORMAT => Err(format!(
            "the block holding it was written by a newer Xenolog (block format {v}; this \
             build reads up to {BLOCK_FORMAT})"
        )),
        Ok(v) => Err(format!(
            "the block holding it has an unknown format number {v}"
        )),
        Err(_) if block.is_empty() => Err("the block holding it is empty".to_owned()),
        Err(e) => Err(format!("the block holding it is damaged ({e})")),
    };
    BlockRecords {
        rest: r.rest,
        start: Some(start),
    }
}

/// The records of a block ([`block_records`]); an error is in words, of
/// the entry where reading stopped ("the block holding it ...").
pub struct BlockRecords<'a> {
    rest: &'a [u8],
    /// The block's own format check, reported as the first item if it failed.
    start: Option<Result<(), String>>,
}

impl<'a> Iterator for BlockRecords<'a> {
    type Item = Result<&'a [u8], String>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(Err(e)) = self.start.take() {
            self.rest = &[];
            return Some(Err(e));
        }
        if self.rest.is_empty() {
            return None;
        }
        let mut r = EntryReader::new(self.rest);
        match r.bytes() {
            Ok(record) => {
                self.rest = r.rest;
                Some(Ok(record))
            }
            Err(e) => {
                self.rest = &[];
                Some(Err(format!(
                    "the block holding it is cut short or damaged ({e})"
                )))
            }
        }
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
        EntryRecord::from(EntryFields {
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
        })
    }

    #[test]
    fn an_entry_round_trips() {
        let rec = record();
        let bytes = encode_entry(42, &rec).unwrap();
        assert_eq!(decode_entry(42, &bytes, 1).unwrap(), rec);
        let first = EntryRecord::from(EntryFields {
            parent: None,
            ..record().fields()
        });
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
            EntryRecord::from(EntryFields {
                rules_version: 5,
                ..record().fields()
            })
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

    /// The hand-written decoder and serde's give the same answer: the same
    /// record, or the same error in the same words.
    /// A block holds its records' bytes unchanged, in order, after the
    /// block format; every cut of a block fails at a record, in words, and
    /// a block of a newer format is refused as such.
    #[test]
    fn a_block_holds_its_records_unchanged_and_a_cut_block_says_so() {
        let recs: Vec<Vec<u8>> = (0..300u64)
            .map(|seq| {
                let r = record().edited(|r| {
                    r.parent = seq.checked_sub(1);
                    r.command = vec![7; (seq % 200) as usize];
                });
                encode_entry(seq, &r).unwrap()
            })
            .collect();
        let block = encode_block(recs.iter().map(Vec::as_slice));
        assert_eq!(block[0], BLOCK_FORMAT as u8);
        let back: Vec<&[u8]> = block_records(&block).map(Result::unwrap).collect();
        assert_eq!(back.len(), recs.len());
        for (a, b) in back.iter().zip(&recs) {
            assert_eq!(*a, b.as_slice());
        }
        assert_eq!(block_records(&encode_block([])).count(), 0);
        for cut in 0..block.len() {
            let items: Vec<_> = block_records(&block[..cut]).collect();
            // At most one error, and only as the last item.
            assert!(
                items.iter().rev().skip(1).all(Result::is_ok),
                "cut at {cut}"
            );
            if let Some(Err(why)) = items.last() {
                assert!(why.contains("the block holding it"), "{why}");
            }
            assert!(items.iter().filter(|r| r.is_ok()).count() < recs.len());
        }
        let mut newer = block.clone();
        newer[0] = 2;
        let why = block_records(&newer).next().unwrap().unwrap_err();
        assert!(why.contains("newer Xenolog (block format 2"), "{why}");
        newer[0] = 0;
        let why = block_records(&newer).next().unwrap().unwrap_err();
        assert!(why.contains("unknown format number 0"), "{why}");
    }

    #[test]
    fn decoders_agree_names_no_difference_on_stored_and_damaged_entries() {
        let bytes = encode_entry(42, &record()).unwrap();
        for cut in 0..=bytes.len() {
            decoders_agree(42, &bytes[..cut], 1).unwrap();
        }
    }

    fn agree(seq: EntryId, bytes: &[u8], rules: u32) -> Result<EntryRecord, CodecError> {
        let fast = decode_entry(seq, bytes, rules);
        let reference = decode_entry_reference(seq, bytes, rules);
        assert_eq!(fast, reference, "entry {seq} of rules {rules}: {bytes:?}");
        fast
    }

    /// The rows of `sql` (a number, bytes, a rules version), in its order.
    fn numbered_bytes(conn: &rusqlite::Connection, sql: &str) -> Vec<(u64, Vec<u8>, u32)> {
        let mut stmt = conn.prepare(sql).expect("prepares");
        stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)? as u64,
                r.get::<_, Vec<u8>>(1)?,
                r.get::<_, u32>(2)?,
            ))
        })
        .expect("reads")
        .map(|row| row.expect("a row"))
        .collect()
    }

    /// Every entry stored in every compat fixture's campaign (formats 1 and 2,
    /// every game, every rules version the fixtures hold) decodes by hand
    /// exactly as through serde, and cut, lengthened or flipped it fails the
    /// same way too.
    #[test]
    fn the_hand_decoder_reads_every_compat_fixture_s_entries_as_serde_does() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/compat");
        let mut dirs: Vec<_> = std::fs::read_dir(&root)
            .expect("the compat fixtures")
            .map(|d| d.expect("a fixture folder").path())
            .collect();
        dirs.sort();
        let (mut entries, mut formats) = (0, std::collections::BTreeSet::new());
        for dir in &dirs {
            let file = dir.join("campaign.xenolog");
            // Immutable: read as it is, no journal or side file made beside it.
            let conn = rusqlite::Connection::open_with_flags(
                format!("file:{}?immutable=1", file.display()),
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
            )
            .expect("opens");
            let rows = numbered_bytes(
                &conn,
                "SELECT e.seq, e.record, b.rules_version FROM entries e \
                 JOIN battles b ON b.id = e.battle ORDER BY e.battle, e.seq",
            );
            for (seq, bytes, rules) in rows {
                agree(seq, &bytes, rules).expect("a stored entry decodes");
                formats.insert(bytes[0]);
                entries += 1;
                // Damage one entry in eight (the whole set takes a minute
                // unoptimised); the random test below damages many more.
                if seq % 8 != 0 {
                    continue;
                }
                for cut in 0..bytes.len() {
                    assert!(agree(seq, &bytes[..cut], rules).is_err(), "cut at {cut}");
                }
                let mut longer = bytes.clone();
                longer.push(0);
                assert!(agree(seq, &longer, rules).is_err());
                for at in 1..bytes.len() {
                    let mut bad = bytes.clone();
                    bad[at] ^= [0x01, 0x80, 0xff][at % 3];
                    let _ = agree(seq, &bad, rules);
                }
                let _ = agree(0, &bytes, rules);
            }
            // Entries sealed in blocks (schema 8 on): the same bytes.
            let blocks: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'entry_blocks'",
                    [],
                    |r| r.get(0),
                )
                .expect("reads");
            if blocks == 0 {
                continue;
            }
            let rows = numbered_bytes(
                &conn,
                "SELECT k.first, k.block, b.rules_version FROM entry_blocks k \
                 JOIN battles b ON b.id = k.battle ORDER BY k.battle, k.first",
            );
            for (first, block, rules) in rows {
                let mut held = 0;
                for rec in block_records(&block) {
                    let rec = rec.expect("a sealed entry reads");
                    agree(first + held, rec, rules).expect("a sealed entry decodes");
                    held += 1;
                    entries += 1;
                }
                assert_eq!(held, BLOCK_ENTRIES, "the block from entry {first}");
            }
        }
        assert!(dirs.len() >= 10, "{} fixture folders", dirs.len());
        assert!(entries > 500, "only {entries} entries read");
        assert_eq!(
            formats,
            [1, 2].into(),
            "both entry formats are in the fixtures"
        );
    }

    fn random_record(rng: &mut xenolog_engine::rng::SplitMix64, seq: EntryId) -> EntryRecord {
        // Values of every varint width, small ones most often.
        let wide = |rng: &mut xenolog_engine::rng::SplitMix64| match rng.below(4) {
            0 => rng.next_u64() & 0x7f,
            1 => rng.next_u64() & 0x3fff,
            2 => rng.next_u64() >> rng.below(64),
            _ => u64::MAX - rng.below(3) as u64,
        };
        let bytes = |rng: &mut xenolog_engine::rng::SplitMix64, most: usize| {
            let n = if rng.chance(8) {
                128 + rng.below(300)
            } else {
                rng.below(most)
            };
            (0..n).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>()
        };
        let mut hash = [0; 16];
        hash.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
        EntryRecord::from(EntryFields {
            parent: match rng.below(3) {
                0 => None,
                1 if seq > 0 => Some(seq - 1),
                _ if seq > 0 => Some(rng.next_u64() % seq),
                _ => None,
            },
            branch: wide(rng) as u32,
            actor: Actor(rng.next_u64() as u8),
            command: bytes(rng, 12),
            events: bytes(rng, 40),
            dice: (0..if rng.chance(10) { 70 } else { rng.below(6) })
                .map(|_| Die {
                    sides: rng.next_u64() as u8,
                    value: rng.next_u64() as u8,
                })
                .collect(),
            entered: rng.chance(2),
            rng_after: wide(rng),
            state_hash: hash,
            chain: hash.map(|b| b.wrapping_mul(31)),
            rules_version: wide(rng) as u32,
        })
    }

    /// Random records of every shape, in both formats, read back the same by
    /// both decoders; and every cut, every flipped byte, random damage and
    /// random bytes are refused by both with the same error.
    #[test]
    fn the_hand_decoder_equals_serde_on_random_cut_and_mutated_bytes() {
        let mut rng = xenolog_engine::rng::SplitMix64(29);
        for round in 0..500 {
            let seq = match round % 3 {
                0 => rng.below(5) as u64,
                1 => rng.next_u64() >> rng.below(64),
                _ => u64::MAX - rng.below(3) as u64,
            };
            let rec = random_record(&mut rng, seq);
            let v2 = encode_entry(seq, &rec).unwrap();
            let v1 = seal(1, &EntryV1::from_record(seq, &rec).unwrap()).unwrap();
            let battle_rules = rng.next_u64() as u32;
            assert_eq!(agree(seq, &v2, battle_rules).unwrap(), rec);
            assert_eq!(
                agree(seq, &v1, battle_rules).unwrap(),
                EntryRecord::from(EntryFields {
                    rules_version: battle_rules,
                    ..rec.fields()
                })
            );
            for bytes in [&v1, &v2] {
                for cut in 0..bytes.len() {
                    let _ = agree(seq, &bytes[..cut], battle_rules);
                }
                for _ in 0..20 {
                    let mut bad = bytes.clone();
                    match rng.below(4) {
                        0 => {
                            let at = rng.below(bad.len());
                            bad[at] = rng.next_u64() as u8;
                        }
                        1 => {
                            let at = rng.below(bad.len());
                            bad[at] |= 0x80;
                        }
                        2 => {
                            let at = rng.below(bad.len() + 1);
                            bad.insert(at, rng.next_u64() as u8);
                        }
                        _ => {
                            bad.remove(rng.below(bad.len()));
                        }
                    }
                    let _ = agree(seq, &bad, battle_rules);
                    // Other keys move the parent, or put it before entry 0.
                    let _ = agree(rng.below(3) as u64, &bad, battle_rules);
                }
            }
            let noise: Vec<u8> = (0..rng.below(80)).map(|_| rng.next_u64() as u8).collect();
            let _ = agree(seq, &noise, battle_rules);
            for version in [1u8, 2] {
                let mut noise = noise.clone();
                noise.insert(0, version);
                let _ = agree(seq, &noise, battle_rules);
            }
        }
    }

    /// postcard's varint limits, field by field: a `u64` takes at most ten
    /// bytes, the tenth at most 1; a `u32` at most five, the fifth at most
    /// 0x0f; longer forms of a small number are read as it.
    #[test]
    fn the_hand_decoder_keeps_postcard_s_varint_limits() {
        let base = encode_entry(42, &record()).unwrap();
        // Replace the parent gap (byte 1), the branch (byte 2) or the rules
        // version (last byte) with `with`.
        let put = |at: usize, with: &[u8]| {
            let mut b = base.clone();
            b.splice(at..at + 1, with.iter().copied());
            b
        };
        let last = base.len() - 1;
        let cases: Vec<(Vec<u8>, bool)> = vec![
            (put(1, &[0x81, 0x00]), true),
            (
                put(
                    1,
                    &[0xff; 9].iter().copied().chain([0x01]).collect::<Vec<_>>(),
                ),
                false,
            ),
            (
                put(
                    1,
                    &[0x80; 9].iter().copied().chain([0x01]).collect::<Vec<_>>(),
                ),
                false,
            ),
            (
                put(
                    1,
                    &[0x80; 9].iter().copied().chain([0x02]).collect::<Vec<_>>(),
                ),
                false,
            ),
            (put(1, &[0x80; 10]), false),
            (put(2, &[0x82, 0x80, 0x80, 0x00]), true),
            (put(2, &[0xff, 0xff, 0xff, 0xff, 0x0f]), true),
            (put(2, &[0xff, 0xff, 0xff, 0xff, 0x10]), false),
            (put(2, &[0x80; 5]), false),
            (put(last, &[0x83, 0x00]), true),
            (put(last, &[0xff, 0xff, 0xff, 0xff, 0x1f]), false),
            (put(0, &[0x82, 0x00]), true),
            (put(0, &[0x80, 0x80, 0x80, 0x80, 0x10]), false),
        ];
        for (bytes, reads) in cases {
            assert_eq!(agree(42, &bytes, 1).is_ok(), reads, "{bytes:?}");
        }
        assert_eq!(
            agree(42, &put(2, &[0xff, 0xff, 0xff, 0xff, 0x10]), 1),
            Err(CodecError::Garbled(
                "Found a varint that didn't terminate. Is the usize too big for this platform?"
                    .into()
            ))
        );
        let mut bad_bool = base.clone();
        bad_bool[18] = 2;
        assert_eq!(
            agree(42, &bad_bool, 1),
            Err(CodecError::Garbled(
                "Found a bool that wasn't 0 or 1".into()
            ))
        );
        assert_eq!(
            agree(42, &base[..30], 1),
            Err(CodecError::Garbled(
                "Hit the end of buffer, expected more data".into()
            ))
        );
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
