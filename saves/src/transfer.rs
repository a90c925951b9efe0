//! Battles in and out of a campaign as a whole: export to a standalone file,
//! import from one, and bulk insertion of a battle built in memory.

use std::path::Path;

use rusqlite::TransactionBehavior;
use xenolog_engine::games;
use xenolog_engine::{Battle, EntryId, Game, Session, StoredSnapshot};
use xenolog_schema::DiceMode;
use xenolog_schema::battle_file::{BattleFile, read_battle_file, write_battle_file};

use crate::battles::{NewBattleRow, insert_battle};
use crate::campaign::now;
use crate::file::write_atomically;
use crate::{BattleId, Campaign, SaveError};

impl Campaign {
    /// Export one battle to a standalone file (magic header, format version,
    /// postcard payload, BLAKE3 checksum; see `xenolog_schema::battle_file`).
    /// The file is written beside `out` and renamed into place, so a crash
    /// leaves either the old file or the complete new one.
    pub fn export_battle(&self, id: BattleId, out: &Path) -> Result<(), SaveError> {
        let s = self.read_battle(id).map_err(|e| match e {
            crate::battles::ScanError::Save(e) => e,
            crate::battles::ScanError::Entry { seq, why } => SaveError::Corrupt {
                battle: id,
                why: format!("entry {seq} {why}"),
            },
        })?;
        let secret = if s.parts.meta.fair.is_some() {
            self.fair_secret(id)?
        } else {
            None
        };
        let file = BattleFile {
            secret,
            meta: s.parts.meta,
            title: s.title,
            dice_mode: s.dice_mode,
            created: s.created,
            branches: s.parts.branches,
            records: s.parts.records,
            cursor: s.parts.cursor,
            branch: s.parts.branch,
        };
        let bytes = write_battle_file(&file).map_err(|e| SaveError::Corrupt {
            battle: id,
            why: e.to_string(),
        })?;
        write_atomically(out, &bytes)
    }

    /// Import a battle file as a new battle of this campaign.
    ///
    /// Checks, before anything is written: the magic, the format version, the
    /// checksum, that the engine can rebuild the battle, and that it replays
    /// exactly (`verify`). Then inserts it in one transaction. Snapshots are
    /// not part of the file: the engine rebuilds them once here and they are
    /// stored with the battle, so it opens as fast as one played here.
    pub fn import_battle(&mut self, file: &Path) -> Result<BattleId, SaveError> {
        self.writable()?;
        let bad = |why: String| SaveError::BadBattleFile {
            path: file.to_owned(),
            why,
        };
        let bytes = std::fs::read(file).map_err(|e| SaveError::io(file, e))?;
        let f = read_battle_file(&bytes).map_err(|e| bad(e.to_string()))?;
        drop(bytes);
        let (title, dice_mode, created, secret) =
            (f.title.clone(), f.dice_mode, f.created, f.secret);
        if let (Some(seed), Some(secret)) = (&f.meta.fair, &secret) {
            let seats: Vec<_> = seed.nonces.iter().map(|n| n.seat).collect();
            let r = xenolog_engine::fair::check(seed, f.meta.seed, &seats, Some(secret), &[], &[]);
            if !r.ok() {
                let why = r.lines(&|a| format!("seat {}", a.0 as u32 + 1));
                return Err(bad(format!(
                    "its fair seed does not check out: {}",
                    why.into_iter()
                        .filter(|l| l.starts_with("FAILED"))
                        .collect::<Vec<_>>()
                        .join("; ")
                )));
            }
        }
        let battle = games::load_battle(f.into_stored())
            .map_err(|e| bad(format!("its battle cannot be rebuilt: {e}")))?;
        let report = battle.verify();
        if !report.ok() {
            return Err(bad(format!("it does not replay as recorded: {report}")));
        }
        let origin = format!(
            "imported from {}",
            file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        );
        let outcome = battle.outcome();
        let status = match &outcome {
            Some(o) => ("over", Some(o.summary.as_str())),
            None => ("in progress", None),
        };
        let row = NewBattleRow {
            meta: battle.meta(),
            title: &title,
            dice_mode,
            created,
            cursor: battle.cursor(),
            branch: battle.current_branch(),
            origin: Some(&origin),
            secret: secret.as_ref(),
        };
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let n = battle.records().len() as EntryId;
        let rules_version = battle.rules_version_now();
        let snapshots = (0..n).filter_map(|entry| {
            battle.snapshot_bytes(entry).map(|state| StoredSnapshot {
                entry,
                rules_version,
                state,
            })
        });
        let id = insert_battle(
            &tx,
            &row,
            status,
            battle.branches(),
            battle.records(),
            snapshots,
        )?;
        tx.commit()?;
        Ok(id)
    }

    /// Store a whole battle built in memory, with its snapshots, in one
    /// transaction. Meant for benchmarks and tests that need a long battle
    /// quickly (a million entries of the test game in seconds); the app
    /// stores battles command by command with [`Campaign::play`].
    pub fn insert_battle_bulk<G: Game>(
        &mut self,
        session: &Session<G>,
        title: &str,
        dice_mode: DiceMode,
    ) -> Result<BattleId, SaveError> {
        self.insert_played(session, title, dice_mode)
    }

    /// [`Campaign::insert_battle_bulk`] for a battle of any game (the app's
    /// benchmarks hold their battles as `dyn Battle`).
    pub fn insert_played(
        &mut self,
        battle: &dyn Battle,
        title: &str,
        dice_mode: DiceMode,
    ) -> Result<BattleId, SaveError> {
        self.writable()?;
        let outcome = battle.outcome();
        let status = match &outcome {
            Some(o) => ("over", Some(o.summary.as_str())),
            None => ("in progress", None),
        };
        let row = NewBattleRow {
            meta: battle.meta(),
            title,
            dice_mode,
            created: now(),
            cursor: battle.cursor(),
            branch: battle.current_branch(),
            origin: None,
            secret: None,
        };
        let n = battle.records().len() as EntryId;
        let rules_version = battle.rules_version_now();
        let snapshots = (0..n).filter_map(|entry| {
            battle.snapshot_bytes(entry).map(|state| StoredSnapshot {
                entry,
                rules_version,
                state,
            })
        });
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = insert_battle(
            &tx,
            &row,
            status,
            battle.branches(),
            battle.records(),
            snapshots,
        )?;
        tx.commit()?;
        Ok(id)
    }
}
