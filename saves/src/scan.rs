//! Reading a battle's entries: the sealed blocks (`entry_blocks`, migration
//! 8), then the open tail (`entries`), each by one prepared statement
//! scanning the battle's key range in key order, decoding as it goes
//! (`blocks.rs` has the layout).
//!
//! For a long battle this is most of the time it takes to open it. Before
//! blocks, about half was SQLite stepping a million rows (about 1,200
//! instructions a row) and half turning each record into the engine's
//! `EntryRecord` (mostly the three small allocations each one needs); a
//! block of 1,024 entries is one row, so now it is nearly all decoding.
//! Overlapping the two on a second thread was tried and measured: on the
//! shared two-core development machine it was slower (830-920 ms against
//! 760-880 ms for a 1,000,000-entry battle), so the scan stays simple.

use xenolog_engine::{EntryId, EntryRecord, RecordPacker};
use xenolog_schema::codec::{block_records, decode_entry_view};

use crate::BattleId;
use crate::battles::ScanError;
use crate::blocks::BLOCK;
use crate::db::{Conn, DbError, DbExt};

/// The fewest bytes an entry takes in the file: its stored record alone has
/// two 16-byte hashes and at least ten one-byte fields (in a block, a length
/// byte more).
const MIN_ENTRY_BYTES: u64 = 42;

/// The most entries the database can hold at its present size. The count a
/// battle is presized by comes from the last entry's number; a damaged or
/// hostile file may number it 2^40, and that must not turn into terabytes
/// reserved before the first row is read. SQLite: the file's pages; on
/// PostgreSQL the `entries` table's size on disk, its indexes and TOAST
/// included (`pg_total_relation_size`), which bounds the entries the same
/// way (each row there takes more than its record), with `entry_blocks`.
fn most_entries(conn: &Conn) -> Result<u64, DbError> {
    let bytes = match conn {
        Conn::Sqlite(_) => {
            let pages: i64 = conn.one("PRAGMA page_count", &[])?;
            let page_size: i64 = conn.one("PRAGMA page_size", &[])?;
            (pages.max(0) as u64).saturating_mul(page_size.max(0) as u64)
        }
        Conn::Postgres { db, .. } => crate::db::pg::table_bytes(db, "entries")?
            .saturating_add(crate::db::pg::table_bytes(db, "entry_blocks")?),
    };
    Ok(bytes / MIN_ENTRY_BYTES)
}

/// Every stored entry of battle `id`, in order: its number and its stored
/// bytes, from the sealed blocks (`entry_blocks`, in key order) and then the
/// open tail (`entries`), handed to `f` (`blocks.rs` has the layout). Each
/// table is read by one statement scanning the battle's key range; the
/// caller reads both in one transaction (a writer may seal a block between
/// the two statements otherwise).
///
/// The layout is checked as it is read, and damage stops the scan at the
/// entry it concerns, in words: an entry missing (a gap between blocks, in a
/// block, between the blocks and the tail, or in the tail), a block not on
/// a multiple of 1,024 or holding more or fewer than 1,024 entries, a block
/// whose bytes are cut short, an entry both in a block and in the tail.
pub(crate) fn each_stored_entry(
    conn: &Conn,
    id: BattleId,
    mut f: impl FnMut(EntryId, &[u8]) -> Result<(), ScanError>,
) -> Result<(), ScanError> {
    let mut next: EntryId = 0;
    conn.scan(
        "SELECT first, block FROM entry_blocks WHERE battle = ?1 ORDER BY first",
        &[&id],
        |r| {
            next = each_block_entry(r.get::<i64>(0)?, r.blob(1)?, next, &mut f)?;
            Ok::<(), ScanError>(())
        },
    )?;
    let sealed = next;
    conn.scan(
        "SELECT seq, record FROM entries WHERE battle = ?1 ORDER BY seq",
        &[&id],
        |r| {
            let seq = r.get::<i64>(0)? as EntryId;
            tail_row_at(seq, sealed, next)?;
            let bytes = r.blob(1)?.ok_or_else(|| ScanError::Entry {
                seq,
                why: "is not stored as bytes".into(),
            })?;
            f(seq, bytes)?;
            next += 1;
            Ok::<(), ScanError>(())
        },
    )?;
    Ok(())
}

/// Whether the open tail's row of entry `seq` is where it belongs: after
/// the sealed blocks (`sealed`: the entry after the last block's) and at
/// `next`, the entry the reader expects; else the damage in words.
pub(crate) fn tail_row_at(seq: EntryId, sealed: EntryId, next: EntryId) -> Result<(), ScanError> {
    if seq < sealed {
        return Err(ScanError::Entry {
            seq,
            why: format!(
                "is stored twice: in the block from entry {} and as a row of its own",
                seq - seq % BLOCK
            ),
        });
    }
    if seq != next {
        return Err(ScanError::Entry {
            seq: next,
            why: "is missing".into(),
        });
    }
    Ok(())
}

/// The entries of the sealed block stored as starting at entry `first`
/// (`bytes`, its row's), handed to `f` from entry `next` on: the block
/// must hold `next` (the entry the reader expects; a block after it means
/// the entries between are missing). Checked as it is read: the block on a
/// multiple of [`BLOCK`], stored as bytes, its entries readable, exactly
/// [`BLOCK`] of them. Returns the entry after the block.
pub(crate) fn each_block_entry(
    first: i64,
    bytes: Option<&[u8]>,
    next: EntryId,
    f: &mut impl FnMut(EntryId, &[u8]) -> Result<(), ScanError>,
) -> Result<EntryId, ScanError> {
    if first < 0 || !(first as u64).is_multiple_of(BLOCK) {
        return Err(ScanError::Entry {
            seq: next,
            why: format!(
                "is not where it belongs: the next block is stored as starting at \
                 entry {first}, which is not a multiple of {BLOCK}"
            ),
        });
    }
    let first = first as u64;
    if first > next {
        return Err(ScanError::Entry {
            seq: next,
            why: "is missing".into(),
        });
    }
    let bytes = bytes.ok_or_else(|| ScanError::Entry {
        seq: first,
        why: "is not stored as bytes (the block holding it)".into(),
    })?;
    let mut held = 0;
    for rec in block_records(bytes) {
        let seq = first + held;
        if held == BLOCK {
            return Err(ScanError::Entry {
                seq,
                why: format!(
                    "is in the block from entry {first}, which holds more than \
                     {BLOCK} entries"
                ),
            });
        }
        let rec = rec.map_err(|why| ScanError::Entry {
            seq,
            why: format!("cannot be read: {why}"),
        })?;
        if seq >= next {
            f(seq, rec)?;
        }
        held += 1;
    }
    if held != BLOCK {
        return Err(ScanError::Entry {
            seq: first + held,
            why: format!(
                "is missing: the block from entry {first} holds {held} of its {BLOCK} \
                 entries"
            ),
        });
    }
    Ok(first + BLOCK)
}

/// Every entry of battle `id`, started under rules version `battle_rules`,
/// in order ([`each_stored_entry`]); `count` (how many there are, by the
/// head: `blocks::entry_count`) sizes the result once, if the file is large
/// enough to hold that many. Damage to the layout, or an unreadable record,
/// stops the scan with the entry it concerns.
pub(crate) fn read_entries(
    conn: &Conn,
    id: BattleId,
    count: u64,
    battle_rules: u32,
) -> Result<Vec<EntryRecord>, ScanError> {
    let presize = count.min(most_entries(conn)?);
    let mut out = RecordPacker::with_capacity(usize::try_from(presize).unwrap_or(0));
    // The typed fast path: each record is read in place from the row or the
    // block, no cell copied or boxed, no call per row through a `dyn`; its
    // command, events and dice are copied into a buffer shared by about a
    // thousand records (`xenolog_engine::RecordPacker`), not into three
    // vectors of its own.
    each_stored_entry(conn, id, |seq, bytes| {
        let rec = decode_entry_view(seq, bytes, battle_rules).map_err(|e| ScanError::Entry {
            seq,
            why: format!("cannot be read: {e}"),
        })?;
        out.push(rec.head(), rec.command, rec.events, rec.dice);
        Ok(())
    })?;
    Ok(out.finish())
}
