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

use xenolog_engine::{Battle, BattleMeta, Branch, EntryId, EntryRecord, StoredBattle};
use xenolog_schema::codec::{block_records, decode_entry};

use crate::battles::ScanError;
use crate::blocks::BLOCK;
use crate::db::{Begin, Db, DbError, DbExt};
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
    /// branch, the cursor and current branch (the meta as stored; its fair
    /// seed, fixed before the first entry, as held). What
    /// [`Battle::extend_stored`] takes.
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
        type Row = (String, i64, u32, String, bool, Option<i64>, u32);
        let row: Option<Row> = self.conn.row(
            "SELECT game, seed, rules_version, config, strict, cursor, branch
                 FROM battles WHERE id = ?1",
            &[&id],
            |r| {
                Ok::<_, DbError>((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            },
        )?;
        let (game, seed, rules_version, config, strict, cursor, branch) =
            row.ok_or(SaveError::NoSuchBattle(id))?;
        let mut branches = Vec::new();
        self.conn.each(
            "SELECT id, name, parent, fork FROM branches WHERE battle = ?1 ORDER BY id",
            &[&id],
            |r| {
                branches.push(Branch {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    parent: r.get(2)?,
                    fork: r.get::<Option<i64>>(3)?.map(|f| f as u64),
                });
                Ok::<(), DbError>(())
            },
        )?;
        let n = held.records().len() as EntryId;
        // The held head's entry is read again, to be checked.
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
            meta: BattleMeta {
                game,
                seed: seed as u64,
                rules_version,
                config,
                strict,
                fair: held.meta().fair.clone(),
            },
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
                    let first = r.get::<i64>(0)?;
                    if first < 0 || !(first as u64).is_multiple_of(BLOCK) {
                        return Err(ScanError::Entry {
                            seq: next,
                            why: format!(
                                "is not where it belongs: the next block is stored as starting \
                                 at entry {first}, which is not a multiple of {BLOCK}"
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
                    let bytes = r.blob(1)?.ok_or_else(|| ScanError::Entry {
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
                        if seq >= from {
                            out.push(read(seq, Some(rec))?);
                        }
                        held += 1;
                    }
                    if held != BLOCK {
                        return Err(ScanError::Entry {
                            seq: first + held,
                            why: format!(
                                "is missing: the block from entry {first} holds {held} of its \
                                 {BLOCK} entries"
                            ),
                        });
                    }
                    next = first + BLOCK;
                    Ok(())
                },
            )?;
        }
        for (seq, rec) in tail {
            if seq < next {
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
            out.push(rec);
            next += 1;
        }
        Ok(out)
    }
}
