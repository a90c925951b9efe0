//! An entry as it is kept and stored ([`EntryRecord`]) and the ids that
//! name entries and branches. Apart from [`crate::session`] (which
//! re-exports them) so that the hash chain ([`crate::hash`]), the moments
//! and the fair-seed receipts can name a record without importing the
//! session that in turn hashes it.
//!
//! A record keeps its fixed part (parent, branch, actor, hashes, ...) in
//! fields and its three variable parts (command, events, dice) as one span
//! of a shared, immutable byte buffer: a battle read from the store packs
//! the spans of about a thousand entries into each buffer
//! ([`RecordPacker`]), so opening a long battle allocates a buffer a
//! thousand entries instead of three vectors an entry, and dropping it frees
//! as few (issue 29: the 1,000,000-entry open). A record made by playing a
//! command has a buffer of its own. Clones share the buffer.

use std::sync::Arc;

use crate::basics::Actor;
use crate::rng::Die;

/// A 128-bit BLAKE3 digest: a state's hash, an entry's place in the chain.
pub type Hash16 = [u8; 16];

/// Index of an entry in its battle's arena.
pub type EntryId = u64;
/// Index of a branch in its battle.
pub type BranchId = u32;

/// One accepted command with its outcome, as stored.
///
/// The command, events and dice are read through [`EntryRecord::command`],
/// [`EntryRecord::events`] and [`EntryRecord::dice`]; a record is made from
/// its [`EntryFields`] (`EntryRecord::from`) or, many at once sharing their
/// buffers, by a [`RecordPacker`].
#[derive(Clone)]
pub struct EntryRecord {
    pub parent: Option<EntryId>,
    pub branch: BranchId,
    pub actor: Actor,
    /// Whether the dice were typed in by the players.
    pub entered: bool,
    /// Stream position after the command.
    pub rng_after: u64,
    /// Hash of the state after the command (with the stream position).
    pub state_hash: Hash16,
    /// Hash chain: parent's chain and this entry's content.
    pub chain: Hash16,
    /// The rules version that decided this entry; its command and events are
    /// stored in that version's layout ([`crate::upcast`]).
    pub rules_version: u32,
    body: Body,
}

/// Where a record's command, events and dice are: `bytes[start..events]`,
/// `bytes[events..dice]`, `bytes[dice..end]` (the dice as pairs of bytes:
/// sides, then value).
#[derive(Clone)]
struct Body {
    bytes: Arc<[u8]>,
    start: u32,
    events: u32,
    dice: u32,
    end: u32,
}

/// The most bytes one buffer holds, so a span's offsets fit a `u32`: a
/// record whose parts come to more than this is refused by the constructors
/// with a panic naming it (no stored record can be that long: a stored value
/// is at most 1 GiB on both backends and in a battle file).
const MOST_BYTES: usize = u32::MAX as usize;

/// A buffer is closed and shared once it holds this many bytes or
/// [`PACK_ENTRIES`] records, whichever comes first.
const PACK_BYTES: usize = 1 << 20;
/// See [`PACK_BYTES`].
const PACK_ENTRIES: usize = 1024;

/// Every field of an [`EntryRecord`], owned: how tests, battle files and the
/// older decoders build one (`EntryRecord::from(EntryFields { .. })`), and
/// what [`EntryRecord::fields`] gives back to be changed and built again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryFields {
    pub parent: Option<EntryId>,
    pub branch: BranchId,
    pub actor: Actor,
    /// postcard of the game's command.
    pub command: Vec<u8>,
    /// postcard of the game's `Vec<Event>`.
    pub events: Vec<u8>,
    /// Every die the command rolled, in order.
    pub dice: Vec<Die>,
    /// Whether those dice were typed in by the players.
    pub entered: bool,
    /// Stream position after the command.
    pub rng_after: u64,
    /// Hash of the state after the command (with the stream position).
    pub state_hash: Hash16,
    /// Hash chain: parent's chain and this entry's content.
    pub chain: Hash16,
    /// The rules version that decided this entry.
    pub rules_version: u32,
}

/// A record's fixed part: every field but the command, events and dice.
/// What a [`RecordPacker`] is given with those three as slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryHead {
    pub parent: Option<EntryId>,
    pub branch: BranchId,
    pub actor: Actor,
    pub entered: bool,
    pub rng_after: u64,
    pub state_hash: Hash16,
    pub chain: Hash16,
    pub rules_version: u32,
}

/// The dice of a record: pairs of bytes (sides, then value) read as
/// [`Die`]s.
#[derive(Clone, Copy)]
pub struct RecordDice<'a>(&'a [u8]);

impl<'a> RecordDice<'a> {
    /// How many dice.
    pub fn len(&self) -> usize {
        self.0.len() / 2
    }
    /// Whether the command rolled nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Die `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<Die> {
        self.0.get(2 * i..2 * i + 2).map(|d| Die {
            sides: d[0],
            value: d[1],
        })
    }
    /// The dice in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Die> + Clone + 'a {
        self.0.chunks_exact(2).map(|d| Die {
            sides: d[0],
            value: d[1],
        })
    }
    /// The dice as a vector of their own.
    pub fn to_vec(&self) -> Vec<Die> {
        self.iter().collect()
    }
    /// The dice as stored and hashed: sides, then value, for each die.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

impl<'a> IntoIterator for RecordDice<'a> {
    type Item = Die;
    type IntoIter = std::iter::Map<std::slice::ChunksExact<'a, u8>, fn(&[u8]) -> Die>;
    fn into_iter(self) -> Self::IntoIter {
        fn die(d: &[u8]) -> Die {
            Die {
                sides: d[0],
                value: d[1],
            }
        }
        self.0.chunks_exact(2).map(die as fn(&[u8]) -> Die)
    }
}

impl std::fmt::Debug for RecordDice<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for RecordDice<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for RecordDice<'_> {}

impl PartialEq<[Die]> for RecordDice<'_> {
    fn eq(&self, other: &[Die]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl PartialEq<Vec<Die>> for RecordDice<'_> {
    fn eq(&self, other: &Vec<Die>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<RecordDice<'_>> for Vec<Die> {
    fn eq(&self, other: &RecordDice<'_>) -> bool {
        *other == self[..]
    }
}

impl EntryRecord {
    /// postcard of the game's command.
    #[inline]
    pub fn command(&self) -> &[u8] {
        &self.body.bytes[self.body.start as usize..self.body.events as usize]
    }

    /// postcard of the game's `Vec<Event>`.
    #[inline]
    pub fn events(&self) -> &[u8] {
        &self.body.bytes[self.body.events as usize..self.body.dice as usize]
    }

    /// Every die the command rolled, in order.
    #[inline]
    pub fn dice(&self) -> RecordDice<'_> {
        RecordDice(&self.body.bytes[self.body.dice as usize..self.body.end as usize])
    }

    /// The fixed part.
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

    /// A record of its own buffer from its fixed part and the three
    /// variable parts (`dice` as pairs of bytes: sides, then value).
    ///
    /// # Panics
    /// If the three parts come to 4 GiB or more, or `dice` has an odd length.
    pub fn new(head: EntryHead, command: &[u8], events: &[u8], dice: &[u8]) -> Self {
        assert!(
            dice.len().is_multiple_of(2),
            "an entry's dice are pairs of bytes, not {}",
            dice.len()
        );
        Self::alone(head, command, events, dice.len(), |d| {
            d.copy_from_slice(dice)
        })
    }

    /// [`EntryRecord::new`] with the dice as [`Die`]s: a command just played.
    pub fn played(head: EntryHead, command: &[u8], events: &[u8], dice: &[Die]) -> Self {
        Self::alone(head, command, events, 2 * dice.len(), |d| {
            for (pair, die) in d.chunks_exact_mut(2).zip(dice) {
                pair.copy_from_slice(&[die.sides, die.value]);
            }
        })
    }

    /// A record in a buffer of its own, allocated once at its size: the
    /// parts laid end to end in a vector this thread keeps (`fill` writes
    /// the `dice` bytes), then copied into the record's buffer.
    fn alone(
        head: EntryHead,
        command: &[u8],
        events: &[u8],
        dice: usize,
        fill: impl FnOnce(&mut [u8]),
    ) -> Self {
        thread_local! {
            static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let n = command.len() + events.len() + dice;
        let end = u32::try_from(n)
            .unwrap_or_else(|_| panic!("an entry of {n} bytes or more cannot be kept"));
        let mut b = SCRATCH.with(|b| b.take());
        b.clear();
        b.extend_from_slice(command);
        b.extend_from_slice(events);
        b.resize(n, 0);
        fill(&mut b[command.len() + events.len()..]);
        let bytes: Arc<[u8]> = Arc::from(&b[..]);
        // A long entry's vector is not kept for the life of the thread.
        if b.capacity() <= 64 * 1024 {
            SCRATCH.with(|c| c.set(b));
        }
        let ev = command.len() as u32;
        Self::with_body(head, bytes, [0, ev, ev + events.len() as u32, end])
    }

    fn with_body(head: EntryHead, bytes: Arc<[u8]>, [start, events, dice, end]: [u32; 4]) -> Self {
        EntryRecord {
            parent: head.parent,
            branch: head.branch,
            actor: head.actor,
            entered: head.entered,
            rng_after: head.rng_after,
            state_hash: head.state_hash,
            chain: head.chain,
            rules_version: head.rules_version,
            body: Body {
                bytes,
                start,
                events,
                dice,
                end,
            },
        }
    }

    /// Every field, owned.
    pub fn fields(&self) -> EntryFields {
        EntryFields {
            parent: self.parent,
            branch: self.branch,
            actor: self.actor,
            command: self.command().to_vec(),
            events: self.events().to_vec(),
            dice: self.dice().to_vec(),
            entered: self.entered,
            rng_after: self.rng_after,
            state_hash: self.state_hash,
            chain: self.chain,
            rules_version: self.rules_version,
        }
    }

    /// This record with its fields changed by `change` (a test's damage, a
    /// graft's new parent): a new buffer of its own.
    pub fn edited(&self, change: impl FnOnce(&mut EntryFields)) -> EntryRecord {
        let mut f = self.fields();
        change(&mut f);
        EntryRecord::from(f)
    }
}

/// Append the three parts to `bytes` and give their offsets.
#[inline]
fn spans(bytes: &mut Vec<u8>, command: &[u8], events: &[u8], dice: &[u8]) -> [u32; 4] {
    assert!(
        dice.len().is_multiple_of(2),
        "an entry's dice are pairs of bytes, not {}",
        dice.len()
    );
    let start = bytes.len();
    let n = command.len() + events.len() + dice.len();
    let end = u32::try_from(start + n)
        .unwrap_or_else(|_| panic!("an entry of {n} bytes or more cannot be kept"));
    bytes.reserve(n);
    bytes.extend_from_slice(command);
    bytes.extend_from_slice(events);
    bytes.extend_from_slice(dice);
    // `start + n` fits a u32, so every offset before it does.
    let start = start as u32;
    let ev = start + command.len() as u32;
    [start, ev, ev + events.len() as u32, end]
}

/// Whether `target` is `from` or lies before it on its line: walking back
/// from `from` by parents (`None`: the setup, which holds no entry). Ids
/// only grow along a line, so the walk stops once it passes `target`.
#[inline]
pub(crate) fn leads_back_to(
    records: &[EntryRecord],
    from: Option<EntryId>,
    target: EntryId,
) -> bool {
    let mut e = from;
    while let Some(x) = e {
        if x == target {
            return true;
        }
        if x < target {
            return false;
        }
        e = records[x as usize].parent;
    }
    false
}

/// The entry right after `at` on the line that ends at `head`: walking
/// back from `head` to the one whose parent is `at` (`None`: `at` is not
/// before `head` on that line).
#[inline]
pub(crate) fn next_towards(
    records: &[EntryRecord],
    head: EntryId,
    at: Option<EntryId>,
) -> Option<EntryId> {
    let mut e = head;
    loop {
        let parent = records[e as usize].parent;
        if parent == at {
            return Some(e);
        }
        e = parent?;
    }
}

impl From<EntryFields> for EntryRecord {
    fn from(f: EntryFields) -> Self {
        EntryRecord::played(
            EntryHead {
                parent: f.parent,
                branch: f.branch,
                actor: f.actor,
                entered: f.entered,
                rng_after: f.rng_after,
                state_hash: f.state_hash,
                chain: f.chain,
                rules_version: f.rules_version,
            },
            &f.command,
            &f.events,
            &f.dice,
        )
    }
}

impl PartialEq for EntryRecord {
    /// Equal fields: where the bytes are kept does not count.
    fn eq(&self, other: &Self) -> bool {
        self.head() == other.head()
            && self.command() == other.command()
            && self.events() == other.events()
            && self.dice() == other.dice()
    }
}

impl Eq for EntryRecord {}

impl std::fmt::Debug for EntryRecord {
    /// As [`EntryFields`] prints (the same field names, in the same order).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EntryRecord")
            .field("parent", &self.parent)
            .field("branch", &self.branch)
            .field("actor", &self.actor)
            .field("command", &self.command())
            .field("events", &self.events())
            .field("dice", &self.dice())
            .field("entered", &self.entered)
            .field("rng_after", &self.rng_after)
            .field("state_hash", &self.state_hash)
            .field("chain", &self.chain)
            .field("rules_version", &self.rules_version)
            .finish()
    }
}

/// Builds many records whose command, events and dice share buffers: about
/// [`PACK_ENTRIES`] records (at most [`PACK_BYTES`] bytes) a buffer. The
/// store reads a battle through one ([`RecordPacker::push`] a stored entry
/// at a time, [`RecordPacker::finish`] for the battle's records).
pub struct RecordPacker {
    bytes: Vec<u8>,
    staged: Vec<(EntryHead, [u32; 4])>,
    out: Vec<EntryRecord>,
}

impl RecordPacker {
    /// A packer for about `entries` records (the result is sized once).
    pub fn with_capacity(entries: usize) -> Self {
        RecordPacker {
            bytes: Vec::new(),
            staged: Vec::with_capacity(PACK_ENTRIES.min(entries)),
            out: Vec::with_capacity(entries),
        }
    }

    /// The next record: its fixed part and its three variable parts (`dice`
    /// as pairs of bytes: sides, then value), copied.
    ///
    /// # Panics
    /// As [`EntryRecord::new`].
    #[inline]
    pub fn push(&mut self, head: EntryHead, command: &[u8], events: &[u8], dice: &[u8]) {
        if self.staged.len() == PACK_ENTRIES
            || self.bytes.len() >= PACK_BYTES
            || MOST_BYTES - self.bytes.len() < command.len() + events.len() + dice.len()
        {
            self.close();
        }
        let spans = spans(&mut self.bytes, command, events, dice);
        self.staged.push((head, spans));
    }

    /// Share the buffer filled so far among its records.
    fn close(&mut self) {
        if self.staged.is_empty() {
            return;
        }
        let bytes: Arc<[u8]> = Arc::from(&self.bytes[..]);
        self.bytes.clear();
        self.out.extend(
            self.staged
                .drain(..)
                .map(|(head, spans)| EntryRecord::with_body(head, Arc::clone(&bytes), spans)),
        );
    }

    /// How many records so far.
    pub fn len(&self) -> usize {
        self.out.len() + self.staged.len()
    }

    /// Whether no record was pushed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every record pushed, in order.
    pub fn finish(mut self) -> Vec<EntryRecord> {
        self.close();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(i: u8) -> EntryFields {
        EntryFields {
            parent: i.checked_sub(1).map(u64::from),
            branch: u32::from(i % 3),
            actor: Actor(i % 2),
            command: vec![i; usize::from(i % 5)],
            events: vec![i ^ 0x55; usize::from(i % 7) * 3],
            dice: (0..i % 4)
                .map(|k| Die {
                    sides: 6,
                    value: k + 1,
                })
                .collect(),
            entered: i.is_multiple_of(5),
            rng_after: u64::from(i) * 1000,
            state_hash: [i; 16],
            chain: [!i; 16],
            rules_version: 3 + u32::from(i % 2),
        }
    }

    /// Entries 0-1-2-3 on one line, 4 a branch off 1 (4's parent is 1).
    fn a_tree() -> Vec<EntryRecord> {
        let parents = [None, Some(0), Some(1), Some(2), Some(1)];
        parents
            .iter()
            .enumerate()
            .map(|(i, &parent)| {
                EntryRecord::from(EntryFields {
                    parent,
                    ..fields(i as u8)
                })
            })
            .collect()
    }

    #[test]
    fn a_line_leads_back_to_its_own_entries_and_not_to_a_branchs() {
        let r = a_tree();
        assert!(leads_back_to(&r, Some(3), 3));
        assert!(leads_back_to(&r, Some(3), 0));
        assert!(leads_back_to(&r, Some(4), 1));
        assert!(!leads_back_to(&r, Some(4), 2), "2 is on the other line");
        assert!(!leads_back_to(&r, Some(3), 4), "4 comes later, on a branch");
        assert!(!leads_back_to(&r, None, 0), "the setup holds no entry");
    }

    #[test]
    fn the_next_entry_towards_a_head_is_the_child_on_its_line() {
        let r = a_tree();
        assert_eq!(next_towards(&r, 3, None), Some(0));
        assert_eq!(next_towards(&r, 3, Some(1)), Some(2));
        assert_eq!(next_towards(&r, 4, Some(1)), Some(4));
        assert_eq!(next_towards(&r, 4, Some(2)), None, "2 is not on 4's line");
        assert_eq!(next_towards(&r, 3, Some(3)), None, "nothing after the head");
    }

    #[test]
    fn a_record_gives_back_the_fields_it_was_made_of() {
        for i in 0..40 {
            let rec = EntryRecord::from(fields(i));
            assert_eq!(rec.fields(), fields(i));
            assert_eq!(rec.dice().len(), fields(i).dice.len());
            assert_eq!(rec.dice(), fields(i).dice);
        }
    }

    #[test]
    fn packed_records_equal_records_of_their_own_across_buffers() {
        // 3,000 records: three buffers closed by count, and long commands
        // to close some by size.
        let mut p = RecordPacker::with_capacity(10);
        let mut alone = Vec::new();
        for n in 0..3000u32 {
            let mut f = fields((n % 251) as u8);
            if n % 997 == 0 {
                f.command = vec![7; PACK_BYTES / 2];
            }
            let rec = EntryRecord::from(f.clone());
            p.push(rec.head(), &f.command, &f.events, rec.dice().as_bytes());
            alone.push(rec);
        }
        assert_eq!(p.len(), 3000);
        let packed = p.finish();
        assert_eq!(packed, alone);
        // The runs of records sharing a buffer: none longer than a pack,
        // and one closed early by its bytes.
        let mut runs = vec![1usize];
        for w in packed.windows(2) {
            if Arc::ptr_eq(&w[0].body.bytes, &w[1].body.bytes) {
                *runs.last_mut().unwrap() += 1;
            } else {
                runs.push(1);
            }
        }
        assert_eq!(runs.iter().sum::<usize>(), 3000);
        assert!(runs.iter().all(|&r| r <= PACK_ENTRIES), "{runs:?}");
        assert!(
            runs[..runs.len() - 1].iter().any(|&r| r < PACK_ENTRIES),
            "no buffer was closed by its size: {runs:?}"
        );
    }

    #[test]
    fn an_edited_record_changes_only_its_copy() {
        let rec = EntryRecord::from(fields(9));
        let other = rec.edited(|f| f.events[0] ^= 1);
        assert_ne!(rec, other);
        assert_eq!(rec.fields(), fields(9));
        assert_eq!(other.command(), rec.command());
        assert_eq!(other.events()[1..], rec.events()[1..]);
    }

    #[test]
    #[should_panic(expected = "pairs of bytes")]
    fn dice_of_an_odd_length_are_refused() {
        let rec = EntryRecord::from(fields(1));
        EntryRecord::new(rec.head(), &[], &[], &[6]);
    }
}
