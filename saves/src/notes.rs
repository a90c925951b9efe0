//! Notes and bookmarks: a player's annotations beside a battle's log.
//!
//! They live in their own table (migration 4), keyed by battle and entry, and
//! are never game facts: no entry refers to them, the hash chain does not
//! cover them and `verify` does not read them. Writing one changes nothing a
//! battle replays, so they can be written on a battle at any point, finished
//! or not, and edited or deleted freely.

use xenolog_engine::EntryId;

use crate::campaign::now;
use crate::db::{Db, DbError, DbExt};
use crate::{BattleId, Campaign, SaveError};

/// The annotation on one entry: a bookmark, a note, or both.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Note {
    /// The entry it is on (its id, as `xenolog log` numbers it).
    pub entry: EntryId,
    /// Whether the entry is bookmarked.
    pub bookmark: bool,
    /// The note in words; empty when there is only a bookmark.
    pub text: String,
    /// When it was first written and last changed, unix seconds.
    pub created: i64,
    pub updated: i64,
}

impl Campaign {
    /// Every annotated entry of a battle, in entry order.
    pub fn notes(&self, battle: BattleId) -> Result<Vec<Note>, SaveError> {
        self.summary(battle)?;
        let mut out = Vec::new();
        self.conn.each(
            "SELECT entry, bookmark, text, created, updated FROM notes
             WHERE battle = ?1 ORDER BY entry",
            &[&battle],
            |r| {
                out.push(Note {
                    entry: r.get::<i64>(0)? as EntryId,
                    bookmark: r.get::<i64>(1)? != 0,
                    text: r.get(2)?,
                    created: r.get(3)?,
                    updated: r.get(4)?,
                });
                Ok::<(), DbError>(())
            },
        )?;
        Ok(out)
    }

    /// The bookmarked entries of a battle (with their notes), in entry order.
    pub fn bookmarks(&self, battle: BattleId) -> Result<Vec<Note>, SaveError> {
        Ok(self
            .notes(battle)?
            .into_iter()
            .filter(|n| n.bookmark)
            .collect())
    }

    /// Write the note on an entry, replacing any note it had (the bookmark is
    /// kept as it was). An empty text removes the note.
    pub fn set_note(
        &mut self,
        battle: BattleId,
        entry: EntryId,
        text: &str,
    ) -> Result<(), SaveError> {
        let bookmark = self.annotation(battle, entry)?.is_some_and(|n| n.bookmark);
        self.write_annotation(battle, entry, bookmark, text.trim())
    }

    /// Bookmark an entry, or take its bookmark away (its note is kept).
    pub fn set_bookmark(
        &mut self,
        battle: BattleId,
        entry: EntryId,
        on: bool,
    ) -> Result<(), SaveError> {
        let text = self
            .annotation(battle, entry)?
            .map(|n| n.text)
            .unwrap_or_default();
        self.write_annotation(battle, entry, on, &text)
    }

    /// Remove an entry's note and its bookmark; whether there was any.
    pub fn remove_note(&mut self, battle: BattleId, entry: EntryId) -> Result<bool, SaveError> {
        self.writable()?;
        self.check_entry(battle, entry)?;
        let n = self.conn.execute(
            "DELETE FROM notes WHERE battle = ?1 AND entry = ?2",
            &[&battle, &(entry as i64)],
        )?;
        Ok(n > 0)
    }

    /// The annotation on one entry, if it has one.
    pub fn annotation(&self, battle: BattleId, entry: EntryId) -> Result<Option<Note>, SaveError> {
        self.check_entry(battle, entry)?;
        Ok(self.conn.row(
            "SELECT bookmark, text, created, updated FROM notes
                 WHERE battle = ?1 AND entry = ?2",
            &[&battle, &(entry as i64)],
            |r| {
                Ok::<_, DbError>(Note {
                    entry,
                    bookmark: r.get::<i64>(0)? != 0,
                    text: r.get(1)?,
                    created: r.get(2)?,
                    updated: r.get(3)?,
                })
            },
        )?)
    }

    fn write_annotation(
        &mut self,
        battle: BattleId,
        entry: EntryId,
        bookmark: bool,
        text: &str,
    ) -> Result<(), SaveError> {
        self.writable()?;
        self.check_entry(battle, entry)?;
        if !bookmark && text.is_empty() {
            self.conn.execute(
                "DELETE FROM notes WHERE battle = ?1 AND entry = ?2",
                &[&battle, &(entry as i64)],
            )?;
            return Ok(());
        }
        let t = now();
        self.conn.execute(
            "INSERT INTO notes (battle, entry, bookmark, text, created, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5)
             ON CONFLICT (battle, entry) DO UPDATE
             SET bookmark = excluded.bookmark, text = excluded.text, updated = excluded.updated",
            &[&battle, &(entry as i64), &i64::from(bookmark), &text, &t],
        )?;
        Ok(())
    }

    /// The battle exists and has this entry (on any branch).
    fn check_entry(&self, battle: BattleId, entry: EntryId) -> Result<(), SaveError> {
        let s = self.summary(battle)?;
        if entry >= s.entries {
            return Err(SaveError::NoSuchEntry {
                battle,
                entry,
                entries: s.entries,
            });
        }
        Ok(())
    }
}
