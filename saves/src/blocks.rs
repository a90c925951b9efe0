//! Packed entries (issue 29, migration 8): how a battle's entries are
//! written, sealed into blocks and counted. Reading them is `scan.rs`.
//!
//! A battle's entries are its **sealed blocks** (`entry_blocks`: entries
//! `first .. first + BLOCK` in one row, `first` a multiple of [`BLOCK`],
//! `codec::encode_block`), then its **open tail**: the entries after the last
//! block, one row each in `entries`, as every entry was before migration 8.
//! The log is append-only on every branch (a take-back or a branch appends
//! entries whose parent is further back; nothing is rewritten), so blocks go
//! by entry number, not by branch.
//!
//! - Every writer of entries goes through [`write_entries`]: a command's
//!   entry (`Campaign::play`), a batch's part (`append_batch`), a whole
//!   battle (`insert_battle`: a new battle, `insert_battle_bulk`, an import)
//!   and a merge's graft. A run of [`BLOCK`] entries from a multiple of
//!   [`BLOCK`] is written as a block at once; the others are tail rows, and
//!   the row that completes a block seals it ([`seal_if_full`]) in the
//!   writer's own transaction (or savepoint): a crash leaves the entries
//!   either all in the tail or all in the block, and a batch part that is
//!   rolled back takes its seal with it.
//! - The head ([`entry_count`]) is the tail's last entry + 1, or else the
//!   last block's first entry + [`BLOCK`]: two indexed lookups.
//! - A file written before migration 8 has every entry in its tail: opening
//!   it for writing seals its full tails, battle by battle, one transaction
//!   each ([`Campaign::seal_full_tails`]). Until then, and on a read-only
//!   open, its entries are read as rows, as before.

use xenolog_engine::EntryId;
use xenolog_schema::codec::{BLOCK_ENTRIES, encode_block};

use crate::battles::INSERT_ENTRY;
use crate::db::{Begin, Db, DbError, DbExt, Dialect};
use crate::{BattleId, Campaign, SaveError};

/// Entries a sealed block holds (`codec::BLOCK_ENTRIES`).
pub(crate) const BLOCK: u64 = BLOCK_ENTRIES;

/// A block sealed from the tail's rows. `OR IGNORE`: a block already there
/// (a damaged file) is left as it is, and so are the rows that would have
/// gone into it (still rows: nothing is lost, the reader names the damage).
const INSERT_BLOCK: &str =
    "INSERT OR IGNORE INTO entry_blocks (battle, first, block) VALUES (?1, ?2, ?3)";

/// A block of new entries written whole. A plain `INSERT` (review4 S2): a
/// block already at that place is a unique clash, refused
/// ([`SaveError::Conflict`]) with nothing of the write kept, never new
/// entries dropped while the caller is told they were written.
const NEW_BLOCK: &str = "INSERT INTO entry_blocks (battle, first, block) VALUES (?1, ?2, ?3)";

/// The head of a battle: the tail's last entry and the last block's first.
const HEAD: &str = "SELECT
        (SELECT seq FROM entries WHERE battle = ?1 ORDER BY seq DESC LIMIT 1),
        (SELECT first FROM entry_blocks WHERE battle = ?1 ORDER BY first DESC LIMIT 1)";

/// Entries stored for a battle (they are dense, 0..n), from its tail's last
/// entry and its last block's first ([`HEAD`], or the same two columns of a
/// list of battles). A damaged file may number an entry anything, from -1 to
/// `i64::MAX`: the count never overflows, and a reader checks it against the
/// entries actually there (`scan::read_entries`).
///
/// Both count when both are there (review4 M1): a tail left below a sealed
/// block (damage, or a full tail never sealed under a block written above
/// it by an older build) never moves the head back, so a new entry is never
/// numbered inside a block, and the reader names the damage.
pub(crate) fn count_from(tail_last: Option<i64>, last_block: Option<i64>) -> u64 {
    let tail = tail_last.map(|last| last.saturating_add(1).max(0) as u64);
    let blocks = last_block.map(|first| first.saturating_add(BLOCK as i64).max(0) as u64);
    tail.max(blocks).unwrap_or(0)
}

/// Number of entries stored for battle `id` ([`count_from`]).
pub(crate) fn entry_count(conn: &dyn Db, id: BattleId) -> Result<u64, DbError> {
    let head: Option<(Option<i64>, Option<i64>)> =
        conn.row(HEAD, &[&id], |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?)))?;
    Ok(head.map_or(0, |(tail, block)| count_from(tail, block)))
}

fn corrupt(battle: BattleId, why: String) -> SaveError {
    SaveError::Corrupt { battle, why }
}

/// Write battle `battle`'s new entries, each its number and its stored bytes
/// (`codec::encode_entry`), numbered on from the battle's head, in the
/// caller's transaction (module docs). A run of [`BLOCK`] entries from a
/// multiple of [`BLOCK`] becomes one block; the rest are tail rows, and a
/// row that completes a block seals it.
pub(crate) fn write_entries<B: AsRef<[u8]>>(
    tx: &dyn Db,
    battle: BattleId,
    records: impl IntoIterator<Item = Result<(EntryId, B), SaveError>>,
) -> Result<(), SaveError> {
    let mut put = None;
    let mut row = |seq: EntryId, bytes: &[u8]| -> Result<(), SaveError> {
        if put.is_none() {
            put = Some(tx.statement(INSERT_ENTRY)?);
        }
        if let Some(put) = put.as_mut() {
            put.execute(&[&battle, &(seq as i64), &bytes])?;
        }
        Ok(())
    };
    // The block being filled: its first entry and its records so far.
    let mut first: EntryId = 0;
    let mut pending: Vec<B> = Vec::new();
    let mut next: Option<EntryId> = None;
    let mut below_sealed = false;
    for item in records {
        let (seq, bytes) = item?;
        if let Some(want) = next
            && seq != want
        {
            return Err(corrupt(
                battle,
                format!("entry {seq} was to be written where entry {want} goes"),
            ));
        }
        next = Some(seq.saturating_add(1));
        if pending.is_empty() && seq % BLOCK != 0 {
            // Inside a block begun before: a row of the tail, and the block
            // sealed if this row completes it.
            row(seq, bytes.as_ref())?;
            seal_if_full(tx, battle, seq)?;
            continue;
        }
        if pending.is_empty() {
            first = seq;
        }
        pending.push(bytes);
        if pending.len() as u64 == BLOCK {
            if !below_sealed {
                // A tail holding whole blocks below this one (its seal on
                // open failed, an older build wrote them) is sealed first,
                // in order: never a tail below a block (review4 M1).
                seal_tail(tx, battle, first)?;
                below_sealed = true;
            }
            let block = encode_block(pending.iter().map(AsRef::as_ref));
            tx.execute(NEW_BLOCK, &[&battle, &(first as i64), &block])?;
            pending.clear();
        }
    }
    // The start of a block that is not full: the open tail.
    for (i, bytes) in pending.iter().enumerate() {
        row(first + i as EntryId, bytes.as_ref())?;
    }
    Ok(())
}

/// After entry `last` was written as a row of battle `battle`'s tail: if it
/// completes a block, move the tail's rows into sealed blocks, in the
/// caller's transaction (module docs): every whole block of the tail from
/// its first row, in order, not only the one this row completes (review4
/// M1: a tail still holding an earlier whole block, its seal on open having
/// failed, would otherwise be left below a sealed block).
pub(crate) fn seal_if_full(tx: &dyn Db, battle: BattleId, last: EntryId) -> Result<(), SaveError> {
    if !(last + 1).is_multiple_of(BLOCK) {
        return Ok(());
    }
    seal_tail(tx, battle, last + 1)
}

/// Seal the whole blocks of battle `battle`'s tail below entry `upto` (a
/// multiple of [`BLOCK`]), from the tail's first row, in order; it stops at
/// the first that cannot be sealed (damage, left for the reader to name),
/// so no block is ever sealed above an unsealed one. One indexed lookup
/// when the tail holds no whole block.
fn seal_tail(tx: &dyn Db, battle: BattleId, upto: EntryId) -> Result<(), SaveError> {
    let lowest: Option<i64> = tx.row(
        "SELECT seq FROM entries WHERE battle = ?1 ORDER BY seq LIMIT 1",
        &[&battle],
        |r| r.get(0),
    )?;
    let Some(lowest) = lowest.filter(|&l| l >= 0) else {
        return Ok(());
    };
    let mut first = (lowest as u64).next_multiple_of(BLOCK);
    while first + BLOCK <= upto {
        if !seal_block(tx, battle, first)? {
            break;
        }
        first += BLOCK;
    }
    Ok(())
}

/// Move entries `first .. first + BLOCK` of battle `battle` from the tail
/// into a block, if all of them are there as rows and no block holds them
/// yet; whether it did. Anything else (an entry missing, a block already
/// there) is damage this leaves as it is, for the reader to name.
fn seal_block(tx: &dyn Db, battle: BattleId, first: EntryId) -> Result<bool, SaveError> {
    if tx.dialect() == Dialect::Postgres {
        // Another process may append to this battle or seal it meanwhile
        // (several club servers on one database): the battle's row is the
        // lock every writer of its entries takes (`batch::write_part`).
        tx.row(crate::db::pg::LOCK_BATTLE, &[&battle], |r| r.get::<i64>(0))?;
    }
    let last = first + BLOCK - 1;
    let mut records: Vec<Vec<u8>> = Vec::with_capacity(BLOCK as usize);
    let mut dense = true;
    tx.each(
        "SELECT seq, record FROM entries WHERE battle = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq",
        &[&battle, &(first as i64), &(last as i64)],
        |r| {
            let seq: i64 = r.get(0)?;
            match r.blob(1)? {
                Some(bytes) if seq as u64 == first + records.len() as u64 => {
                    records.push(bytes.to_vec());
                }
                _ => dense = false,
            }
            Ok::<(), DbError>(())
        },
    )?;
    if !dense || records.len() as u64 != BLOCK {
        return Ok(false);
    }
    let block = encode_block(records.iter().map(Vec::as_slice));
    if tx.execute(INSERT_BLOCK, &[&battle, &(first as i64), &block])? == 0 {
        return Ok(false);
    }
    tx.execute(
        "DELETE FROM entries WHERE battle = ?1 AND seq BETWEEN ?2 AND ?3",
        &[&battle, &(first as i64), &(last as i64)],
    )?;
    Ok(true)
}

impl Campaign {
    /// Seal the full tails of a campaign opened for writing (a file written
    /// before migration 8 keeps every entry in its tail; so may one whose
    /// sealing on open was cut short): each battle whose tail, starting on a
    /// multiple of [`BLOCK`], holds a whole block or more gets its blocks
    /// sealed, in one transaction a battle. Finding them is two indexed
    /// lookups a battle. Returns the blocks sealed.
    pub(crate) fn seal_full_tails(&self) -> Result<u64, SaveError> {
        self.writable()?;
        let mut todo: Vec<(BattleId, EntryId, EntryId)> = Vec::new();
        self.conn.each(
            "SELECT b.id,
                    (SELECT e.seq FROM entries e WHERE e.battle = b.id ORDER BY e.seq LIMIT 1),
                    (SELECT e.seq FROM entries e WHERE e.battle = b.id ORDER BY e.seq DESC LIMIT 1)
             FROM battles b ORDER BY b.id",
            &[],
            |r| {
                let id: BattleId = r.get(0)?;
                if let (Some(lo), Some(hi)) = (r.get::<Option<i64>>(1)?, r.get::<Option<i64>>(2)?)
                    && lo >= 0
                    && (lo as u64).is_multiple_of(BLOCK)
                    && hi >= lo
                    && (hi - lo) as u64 + 1 >= BLOCK
                {
                    todo.push((id, lo as u64, hi as u64));
                }
                Ok::<(), DbError>(())
            },
        )?;
        let mut sealed = 0;
        for (id, lo, hi) in todo {
            let tx = self.conn.begin(Begin::Immediate)?;
            let mut first = lo;
            while first + BLOCK - 1 <= hi {
                if !seal_block(&tx, id, first)? {
                    break;
                }
                sealed += 1;
                first += BLOCK;
            }
            tx.commit()?;
        }
        Ok(sealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiceMode;
    use crate::db::Begin;

    /// review4 M1: the head is the furthest of the tail's last entry + 1
    /// and the last block's end, so a tail left below a block never moves
    /// it back.
    #[test]
    fn review4_m1_the_head_is_the_furthest_of_the_tail_and_the_blocks() {
        assert_eq!(count_from(None, None), 0);
        assert_eq!(
            count_from(Some(1500), Some(0)),
            1501,
            "a block and its tail"
        );
        assert_eq!(count_from(None, Some(1024)), 2048);
        assert_eq!(
            count_from(Some(2047), Some(2048)),
            3072,
            "a tail below a block"
        );
        assert_eq!(count_from(Some(i64::MAX), Some(0)), i64::MAX as u64);
        assert_eq!(count_from(Some(-5), None), 0);
    }

    /// review4 S2: a whole block of new entries written where a block is
    /// stored already is refused (a unique clash), not dropped with the
    /// caller told it was written; the block there is left as it was.
    #[test]
    fn review4_s2_a_block_written_where_one_is_stored_is_refused_not_dropped() {
        let mut c = Campaign::create_in_memory("Blocks").unwrap();
        let id = c
            .new_battle(
                "race",
                7,
                &serde_json::json!({ "target": u32::MAX }),
                "Long",
                DiceMode::Rolled,
            )
            .unwrap();
        let mut b = c.load_battle(id).unwrap();
        for i in 0..2 * BLOCK as usize {
            let legal = b.legal();
            let l = legal[(i * 5 + 1) % legal.len()].clone();
            c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
        }
        let stored = |c: &Campaign| -> Vec<u8> {
            c.conn
                .one(
                    "SELECT block FROM entry_blocks WHERE battle = ?1 AND first = ?2",
                    &[&id, &(BLOCK as i64)],
                )
                .unwrap()
        };
        let before = stored(&c);
        let other: Vec<Vec<u8>> = b.records()[..BLOCK as usize]
            .iter()
            .enumerate()
            .map(|(i, r)| xenolog_schema::codec::encode_entry(BLOCK + i as u64, r).unwrap())
            .collect();
        let tx = c.conn.begin(Begin::Immediate).unwrap();
        let e = write_entries(
            &tx,
            id,
            other
                .iter()
                .enumerate()
                .map(|(i, bytes)| Ok((BLOCK + i as u64, bytes))),
        )
        .unwrap_err();
        assert!(matches!(e, SaveError::Conflict(_)), "{e}");
        drop(tx);
        assert_eq!(stored(&c), before, "the block there is as it was");
        assert_eq!(entry_count(&c.conn, id).unwrap(), 2 * BLOCK);
        assert!(c.verify_battle(id).unwrap().ok());
    }
}
