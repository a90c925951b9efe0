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
//!
//! **What a notification carries** (session 20): a part written through a
//! batch on PostgreSQL sends, before its `C:B:SEQ`, a notification that
//! carries the part itself ([`Carried`]: its entries as stored, the
//! branches they opened, the cursor and branch after it), so the other
//! process extends its battle from the payload and reads nothing
//! ([`Carried::extend`]; refused, it reads after its head as before). A
//! part whose payload would not fit PostgreSQL's 8,000 bytes sends only
//! `C:B:SEQ`: the other side reads it as before.

use serde::{Deserialize, Serialize};
use xenolog_engine::{Battle, Branch, BranchId, EntryId, EntryRecord, StoredBattle};
use xenolog_schema::codec::decode_entry;

use crate::battles::{ScanError, read_branches};
use crate::blocks::BLOCK;
use crate::db::{Begin, Db, DbError, DbExt};
use crate::scan::{each_block_entry, tail_row_at};
use crate::{BattleId, Campaign, SaveError};

/// One part written, as its notification carries it (module docs): the
/// entries from `first` on as stored (each its record's bytes), the
/// branches they opened, and the battle's cursor and branch after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub first: EntryId,
    pub records: Vec<Vec<u8>>,
    pub branches: Vec<Branch>,
    pub cursor: Option<EntryId>,
    pub branch: BranchId,
}

impl Carried {
    /// What starts a carried part's payload: `e1:C:B:SEQ:BODY` (`C:` the
    /// prefix the server gives, `SEQ` the part's last entry, `BODY` the
    /// part in postcard, base64). A reader that does not know `e1:` (a
    /// process of session 19) ignores it and reads at the `C:B:SEQ` sent
    /// after it; a later format takes another tag.
    pub const TAG: &'static str = "e1:";

    /// The longest payload sent (PostgreSQL refuses one of 8,000 bytes or
    /// more): a part whose payload is longer is not carried.
    pub const LONGEST: usize = 7_900;

    /// The part in the words of a payload's `BODY`.
    pub fn encode(&self) -> String {
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        data_encoding::BASE64_NOPAD.encode(&bytes)
    }

    /// A payload's `BODY` as the part it carries, or why it is not one.
    pub fn decode(body: &str) -> Result<Carried, String> {
        let bytes = data_encoding::BASE64_NOPAD
            .decode(body.as_bytes())
            .map_err(|e| format!("the carried part is not base64: {e}"))?;
        let (part, rest) = postcard::take_from_bytes::<Carried>(&bytes)
            .map_err(|e| format!("the carried part cannot be read: {e}"))?;
        if !rest.is_empty() {
            return Err(format!(
                "the carried part has {} bytes after its end",
                rest.len()
            ));
        }
        Ok(part)
    }

    /// The entry the part ends at (its `SEQ`), `None` for a part without
    /// entries.
    pub fn last(&self) -> Option<EntryId> {
        (self.records.len() as EntryId)
            .checked_sub(1)
            .map(|n| self.first + n)
    }

    /// Add the part to `battle`, which must hold exactly the entries
    /// before it: its entries are decoded and handed to
    /// [`Battle::extend_stored`] (the chain links to the held head, the
    /// commands and events decode and apply, the branches and position fit)
    /// with the held branches and the new ones. Refused in words, `battle`
    /// unchanged: the caller reads what is stored after its head instead.
    /// Returns how many entries it gained.
    pub fn extend(&self, battle: &mut dyn Battle) -> Result<u64, String> {
        let held = battle.records().len() as EntryId;
        if held != self.first {
            return Err(format!(
                "{held} entries held, the part starts at entry {}",
                self.first
            ));
        }
        let rules = battle.meta().rules_version;
        let records = self
            .records
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                let seq = self.first + i as EntryId;
                decode_entry(seq, bytes, rules)
                    .map_err(|e| format!("entry {seq} cannot be read: {e}"))
            })
            .collect::<Result<Vec<EntryRecord>, String>>()?;
        let mut branches = battle.branches().to_vec();
        branches.extend(self.branches.iter().cloned());
        let more = StoredBattle {
            meta: battle.meta().clone(),
            records,
            branches,
            snapshots: Vec::new(),
            cursor: self.cursor,
            branch: self.branch,
        };
        battle.extend_stored(more).map_err(|e| e.to_string())?;
        Ok(self.records.len() as u64)
    }
}

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

#[cfg(test)]
mod tests {
    use serde_json::json;
    use xenolog_engine::{Actor, Battle};
    use xenolog_schema::DiceMode;

    use super::Carried;
    use crate::{Campaign, Decided, decide};

    /// A race held twice: the writer's copy and another process's.
    fn two_copies() -> (Box<dyn Battle>, Box<dyn Battle>) {
        copies(7)
    }

    /// Two copies of a new race of seed `seed` in a campaign of its own.
    fn copies(seed: u64) -> (Box<dyn Battle>, Box<dyn Battle>) {
        let mut c = Campaign::create_in_memory("carried").unwrap();
        let id = c
            .new_battle(
                "race",
                seed,
                &json!({"target": 1_000_000}),
                "Race",
                DiceMode::Rolled,
            )
            .unwrap();
        (c.load_battle(id).unwrap(), c.load_battle(id).unwrap())
    }

    /// The writer decides its first legal command (a roll or a hold).
    fn part(b: &mut dyn Battle, roll: bool) -> Decided {
        let l = b.legal();
        let pick = l
            .iter()
            .find(|c| c.command.get("roll").is_some() == roll)
            .unwrap_or(&l[0]);
        let (actor, command): (Actor, _) = (pick.actor, pick.command.clone());
        decide(1, b, actor, &command, None, DiceMode::Rolled).unwrap()
    }

    /// The part a notification carries, read back as the other process
    /// reads it (`e1:C:B:SEQ:BODY`), and the `C:B:SEQ` after it.
    fn heard(d: &Decided) -> (Carried, String) {
        let notices = d.notices("7:");
        assert_eq!(notices.len(), 2, "{notices:?}");
        let last = d.entries().last().copied().unwrap();
        let head = format!("{}7:1:{last}:", Carried::TAG);
        let body = notices[0].strip_prefix(&head).expect("e1:C:B:SEQ:BODY");
        let part = Carried::decode(body).unwrap();
        assert_eq!(part.last(), Some(last));
        (part, notices[1].clone())
    }

    #[test]
    fn a_part_carried_in_its_notification_extends_a_copy_held_at_its_head_to_the_writers_battle() {
        let (mut a, mut b) = two_copies();
        for n in 0..6 {
            let d = part(&mut *a, n % 2 == 0);
            let (carried, plain) = heard(&d);
            assert_eq!(plain, d.notice("7:"), "the entry's own words follow it");
            assert_eq!(carried.extend(&mut *b).unwrap(), d.entries().len() as u64);
            assert_eq!(b.records(), a.records(), "after part {n}");
            assert_eq!(
                (b.cursor(), b.current_branch()),
                (a.cursor(), a.current_branch())
            );
        }
        // A take-back on the writer, then a command there: a new branch,
        // carried with the part that opened it.
        // (Entry 2 is a roll: a hold there parts from it.)
        a.seek(Some(1));
        let d = part(&mut *a, false);
        let (carried, _) = heard(&d);
        assert_eq!(carried.branches.len(), 1, "the branch the part opened");
        carried.extend(&mut *b).unwrap();
        assert_eq!(b.branches(), a.branches());
        assert_eq!(b.records(), a.records());
        assert_eq!(
            (b.cursor(), b.current_branch()),
            (a.cursor(), a.current_branch())
        );
        assert_eq!(b.state_json(b.cursor()), a.state_json(a.cursor()));
    }

    #[test]
    fn a_part_is_refused_in_words_by_a_copy_not_held_at_its_first_entry_and_nothing_changes() {
        let (mut a, mut b) = two_copies();
        let first = part(&mut *a, true);
        let second = part(&mut *a, false);
        let (skipped, _) = heard(&second);
        let held = b.records().to_vec();
        let e = skipped.extend(&mut *b).unwrap_err();
        assert!(e.contains("entries held, the part starts at entry"), "{e}");
        assert_eq!(b.records(), &held[..]);
        // Heard in order, both fit; heard again, the first is refused.
        let (carried, _) = heard(&first);
        carried.extend(&mut *b).unwrap();
        skipped.extend(&mut *b).unwrap();
        assert!(carried.extend(&mut *b).is_err(), "a part held already");
        assert_eq!(b.records(), a.records());
    }

    #[test]
    fn a_damaged_carried_part_is_refused_in_words_and_the_copy_is_unchanged() {
        let (mut a, mut b) = two_copies();
        let d = part(&mut *a, true);
        let (carried, _) = heard(&d);
        for body in ["", "not base64!", &carried.encode()[..8]] {
            assert!(Carried::decode(body).is_err(), "{body:?}");
        }
        let mut extra = carried.encode();
        extra.push_str("AAAA");
        assert!(Carried::decode(&extra).is_err(), "bytes after its end");
        // A record whose bytes were changed: its chain does not link (or it
        // does not decode); refused, nothing added.
        let mut bent = carried.clone();
        let r = &mut bent.records[0];
        let at = r.len() - 3;
        r[at] ^= 0x55;
        let e = bent.extend(&mut *b).unwrap_err();
        assert!(!e.is_empty());
        assert!(b.records().is_empty(), "{e}");
        // A part of another battle (another seed): its chain is another's.
        let (mut o, _) = copies(8);
        let e = carried.extend(&mut *o).unwrap_err();
        assert!(!e.is_empty());
        assert!(o.records().is_empty());
        carried.extend(&mut *b).unwrap();
        assert_eq!(b.records(), a.records());
    }

    #[test]
    fn a_part_too_big_for_a_payload_is_announced_by_its_entry_alone() {
        let (mut a, _) = two_copies();
        let mut d = part(&mut *a, true);
        assert_eq!(d.notices("7:").len(), 2, "a small part is carried");
        d.rows[0].bytes = vec![7; Carried::LONGEST];
        let notices = d.notices("7:");
        assert_eq!(notices, vec![d.notice("7:")], "only C:B:SEQ");
        assert!(notices.iter().all(|n| n.len() < 8_000));
    }
}
