//! Reading what a battle holds after the head a process has in memory
//! (issue 31 P5): a club server told by another process "battle B has an
//! entry at N" reads the entries from its own head on, with the branches
//! and the position, and adds them to the battle it holds
//! ([`Battle::extend_stored`]) instead of reading and rebuilding the whole
//! battle.
//!
//! One moment of the database ([`Begin::Snapshot`], as
//! [`Campaign::read_battle`] reads a whole battle: a position read in one
//! statement and entries in another would otherwise disagree when another
//! process commits between them, the stale cursor of session 18), in at
//! most four statements: the battle's row, its branches, the open tail
//! from the held head on, and the sealed blocks only when the held head is
//! inside one (`blocks.rs` has the layout). The held head's own entry is
//! read again and must be the one held: a battle this process holds
//! further or otherwise than the store is refused (`Stale`), never
//! extended.

use xenolog_engine::{Battle, EntryId, EntryRecord, StoredBattle};
use xenolog_schema::codec::decode_entry;

use crate::battles::{ScanError, read_branches};
use crate::blocks::BLOCK;
use crate::db::{Begin, Db, DbError, DbExt};
use crate::scan::{each_block_entry, tail_row_at};
use crate::{BattleId, Campaign, SaveError};

impl Campaign {
    /// Bring `battle`, battle `id` loaded from this campaign before, up to
    /// date with what is stored after its last entry: the new entries, the
    /// branches, the cursor and branch as stored (another process wrote
    /// them). Returns how many entries it gained. Refused, `battle`
    /// unchanged, when the store does not continue it (a `Stale` or
    /// `Corrupt` in words naming the battle and the entry): load the
    /// battle whole instead.
    pub fn extend_battle(&self, id: BattleId, battle: &mut dyn Battle) -> Result<u64, SaveError> {
        let more = self.read_battle_after(id, battle)?;
        let (held, added) = (battle.records().len(), more.records.len() as u64);
        battle.extend_stored(more).map_err(|e| SaveError::Stale {
            battle: id,
            why: format!("what is stored after its {held} entries does not continue it: {e}"),
        })?;
        Ok(added)
    }

    /// What battle `id` holds after `held`'s entries, as one moment of the
    /// database saw it: the entries from `held.records().len()` on, every
    /// branch, the cursor and current branch (the meta as held: the battle
    /// is the one held when its head entry is, checked here, and each new
    /// entry's chain links to it, checked by [`Battle::extend_stored`]).
    /// What [`Battle::extend_stored`] takes.
    pub fn read_battle_after(
        &self,
        id: BattleId,
        held: &dyn Battle,
    ) -> Result<StoredBattle, SaveError> {
        if self.conn.in_transaction() {
            return self.read_after_now(id, held);
        }
        let seen = self.conn.begin(Begin::Snapshot)?;
        let out = self.read_after_now(id, held)?;
        seen.commit()?;
        Ok(out)
    }

    fn read_after_now(&self, id: BattleId, held: &dyn Battle) -> Result<StoredBattle, SaveError> {
        let row: Option<(u32, Option<i64>, u32)> = self.conn.row(
            "SELECT rules_version, cursor, branch FROM battles WHERE id = ?1",
            &[&id],
            |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let (rules_version, cursor, branch) = row.ok_or(SaveError::NoSuchBattle(id))?;
        let branches = read_branches(&self.conn, id)?;
        let n = held.records().len() as EntryId;
        // The held head's entry is read again, to be checked: the store
        // continues the log held (the same battle, the same entries).
        let from = n.saturating_sub(1);
        let mut records = self
            .entries_from(id, from, rules_version)
            .map_err(|e| e.into_save(id))?;
        if n > 0 {
            let stored = records.first().ok_or_else(|| SaveError::Stale {
                battle: id,
                why: format!("{n} entries in memory, fewer stored (entry {from} is not)"),
            })?;
            if *stored != held.records()[from as usize] {
                return Err(SaveError::Stale {
                    battle: id,
                    why: format!("entry {from} as stored is not the one in memory"),
                });
            }
            records.remove(0);
        }
        Ok(StoredBattle {
            // The held meta, not read again: the battle is the one held
            // because the held head entry was found stored as it is (its
            // chain covers every entry before it). `extend_stored`'s own
            // meta check guards callers that bring a meta of their own
            // (review5 NIT 1).
            meta: held.meta().clone(),
            records,
            branches,
            snapshots: Vec::new(),
            cursor: cursor.map(|c| c as u64),
            branch,
        })
    }

    /// Battle `id`'s entries from entry `from` on, in order: the open tail
    /// (one statement), and before it the sealed blocks from the one
    /// holding `from` when the tail does not start at or before it. Dense
    /// from `from` (or empty when nothing is stored from there); a gap, an
    /// entry twice, a block out of place or an unreadable record is named.
    fn entries_from(
        &self,
        id: BattleId,
        from: EntryId,
        rules: u32,
    ) -> Result<Vec<EntryRecord>, ScanError> {
        let read = |seq: EntryId, bytes: Option<&[u8]>| {
            let bytes = bytes.ok_or_else(|| ScanError::Entry {
                seq,
                why: "is not stored as bytes".into(),
            })?;
            decode_entry(seq, bytes, rules).map_err(|e| ScanError::Entry {
                seq,
                why: format!("cannot be read: {e}"),
            })
        };
        let mut tail: Vec<(EntryId, EntryRecord)> = Vec::new();
        self.conn.each(
            "SELECT seq, record FROM entries WHERE battle = ?1 AND seq >= ?2 ORDER BY seq",
            &[&id, &(from as i64)],
            |r| {
                let seq = r.get::<i64>(0)? as EntryId;
                tail.push((seq, read(seq, r.blob(1)?)?));
                Ok::<(), ScanError>(())
            },
        )?;
        let mut out: Vec<EntryRecord> = Vec::new();
        let mut next = from;
        if tail.first().is_none_or(|(seq, _)| *seq > from) {
            // `from` is sealed in a block (or nothing is stored from it).
            self.conn.each(
                "SELECT first, block FROM entry_blocks WHERE battle = ?1 AND first > ?2
                     ORDER BY first",
                &[&id, &(from as i64 - BLOCK as i64)],
                |r| {
                    let mut take = |seq, bytes: &[u8]| {
                        out.push(read(seq, Some(bytes))?);
                        Ok(())
                    };
                    next = each_block_entry(r.get::<i64>(0)?, r.blob(1)?, next, &mut take)?;
                    Ok::<(), ScanError>(())
                },
            )?;
        }
        let sealed = next;
        for (seq, rec) in tail {
            tail_row_at(seq, sealed, next)?;
            out.push(rec);
            next += 1;
        }
        Ok(out)
    }
}
