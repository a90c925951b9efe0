//! The campaign the app has open, behind one small trait so the app can run on
//! a campaign file (the store, `xenolog_saves`) or, when no file can be
//! written, on battles kept in memory. Every error comes back as the store's
//! own sentence for a notice.

use std::path::{Path, PathBuf};

use serde_json::Value;
use xenolog_engine::{
    Actor, Battle, BattleMeta, Branch, BranchId, EntryId, EntryRecord, VerifyReport,
};

pub use xenolog_saves::{BattleId, BattleSummary, DiceMode, Note};

/// An open campaign.
pub trait CampaignStore {
    /// The file, `None` for a campaign kept in memory.
    fn path(&self) -> Option<&Path>;
    fn name(&self) -> String;
    fn is_read_only(&self) -> bool;
    fn battles(&self) -> Result<Vec<BattleSummary>, String>;
    fn load_battle(&self, id: BattleId) -> Result<Box<dyn Battle>, String>;
    #[allow(clippy::too_many_arguments)]
    fn new_battle(
        &mut self,
        game: &str,
        seed: u64,
        config: &Value,
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, String>;
    /// Decide, store durably, then commit into `battle`; on error nothing changes.
    fn play(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<EntryId, String>;
    /// Persist cursor, branch and branch names.
    fn save_position(&mut self, id: BattleId, battle: &dyn Battle) -> Result<(), String>;
    fn export_battle(&self, id: BattleId, out: &Path) -> Result<(), String>;
    fn import_battle(&mut self, file: &Path) -> Result<BattleId, String>;
    /// Replay the battle from its seed and check every entry: its hash, its
    /// dice, its events (what `xenolog verify` does).
    fn verify_battle(&self, id: BattleId) -> Result<VerifyReport, String> {
        Ok(self.load_battle(id)?.verify())
    }
    /// The campaign file, for the campaign layer (rosters, experience);
    /// `None` for a campaign kept in memory.
    fn file(&self) -> Option<&xenolog_saves::Campaign> {
        None
    }
    fn file_mut(&mut self) -> Option<&mut xenolog_saves::Campaign> {
        None
    }
    /// The notes and bookmarks on a battle's entries, in entry order.
    fn notes(&self, id: BattleId) -> Result<Vec<Note>, String>;
    /// Write (or, with empty text, delete) the note on an entry; its
    /// bookmark stays as it was.
    fn set_note(&mut self, id: BattleId, entry: EntryId, text: &str) -> Result<(), String>;
    /// Bookmark an entry or take its bookmark off; its note stays.
    fn set_bookmark(&mut self, id: BattleId, entry: EntryId, on: bool) -> Result<(), String>;
}

/// A battle kept in memory: its parts, enough to rebuild it.
struct MemoryBattle {
    summary: BattleSummary,
    meta: BattleMeta,
    records: Vec<EntryRecord>,
    branches: Vec<Branch>,
    cursor: Option<EntryId>,
    branch: BranchId,
}

/// A campaign that lives only as long as the app: used when no campaign file
/// can be written, and in tests of the UI alone.
pub struct MemoryCampaign {
    name: String,
    battles: Vec<MemoryBattle>,
    clock: i64,
    /// Notes and bookmarks, by battle.
    notes: Vec<(BattleId, Note)>,
}

impl MemoryCampaign {
    /// An empty campaign called `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            battles: Vec::new(),
            clock: 1_700_000_000,
            notes: Vec::new(),
        }
    }

    fn get(&self, id: BattleId) -> Result<&MemoryBattle, String> {
        self.battles
            .iter()
            .find(|b| b.summary.id == id)
            .ok_or_else(|| format!("there is no battle {id} in this campaign"))
    }

    fn sync(&mut self, id: BattleId, battle: &dyn Battle) -> Result<(), String> {
        self.clock += 1;
        let now = self.clock;
        let b = self
            .battles
            .iter_mut()
            .find(|b| b.summary.id == id)
            .ok_or_else(|| format!("there is no battle {id} in this campaign"))?;
        b.records = battle.records().to_vec();
        b.branches = battle.branches().to_vec();
        b.cursor = battle.cursor();
        b.branch = battle.current_branch();
        b.summary.entries = b.records.len() as u64;
        b.summary.branches = b.branches.len() as u32;
        b.summary.updated = now;
        let outcome = battle.outcome();
        b.summary.status = if outcome.is_some() {
            "over".into()
        } else {
            "in progress".into()
        };
        b.summary.result = outcome.map(|o| o.summary);
        Ok(())
    }
}

impl MemoryCampaign {
    /// Add a battle played elsewhere (benchmarks and tests build long ones).
    pub fn add_battle(
        &mut self,
        title: &str,
        battle: &dyn Battle,
        dice_mode: DiceMode,
    ) -> BattleId {
        self.clock += 1;
        let id = self.battles.len() as BattleId + 1;
        let meta = battle.meta().clone();
        self.battles.push(MemoryBattle {
            summary: BattleSummary {
                id,
                game: meta.game.clone(),
                title: title.to_owned(),
                seed: meta.seed,
                rules_version: meta.rules_version,
                dice_mode,
                created: self.clock,
                updated: self.clock,
                entries: 0,
                branches: 1,
                status: String::new(),
                result: None,
                origin: None,
                strict: meta.strict,
            },
            meta,
            records: Vec::new(),
            branches: Vec::new(),
            cursor: None,
            branch: 0,
        });
        // Invariant: the battle was just pushed under this id.
        self.sync(id, battle).expect("the battle was just added");
        id
    }
}

impl MemoryCampaign {
    fn note_mut(&mut self, id: BattleId, entry: EntryId) -> Result<&mut Note, String> {
        let b = self.get(id)?;
        if entry as usize >= b.records.len() {
            return Err(format!("battle {id} has no entry {entry}"));
        }
        self.clock += 1;
        let now = self.clock;
        if !self.notes.iter().any(|(b, n)| *b == id && n.entry == entry) {
            self.notes.push((
                id,
                Note {
                    entry,
                    bookmark: false,
                    text: String::new(),
                    created: now,
                    updated: now,
                },
            ));
            self.notes.sort_by_key(|(b, n)| (*b, n.entry));
        }
        let note = self
            .notes
            .iter_mut()
            .find(|(b, n)| *b == id && n.entry == entry)
            .map(|(_, n)| n)
            .ok_or("the note was just added")?;
        note.updated = now;
        Ok(note)
    }

    fn drop_empty_notes(&mut self) {
        self.notes.retain(|(_, n)| n.bookmark || !n.text.is_empty());
    }
}

impl CampaignStore for MemoryCampaign {
    fn notes(&self, id: BattleId) -> Result<Vec<Note>, String> {
        self.get(id)?;
        Ok(self
            .notes
            .iter()
            .filter(|(b, _)| *b == id)
            .map(|(_, n)| n.clone())
            .collect())
    }
    fn set_note(&mut self, id: BattleId, entry: EntryId, text: &str) -> Result<(), String> {
        self.note_mut(id, entry)?.text = text.trim().to_owned();
        self.drop_empty_notes();
        Ok(())
    }
    fn set_bookmark(&mut self, id: BattleId, entry: EntryId, on: bool) -> Result<(), String> {
        self.note_mut(id, entry)?.bookmark = on;
        self.drop_empty_notes();
        Ok(())
    }
    fn path(&self) -> Option<&Path> {
        None
    }
    fn name(&self) -> String {
        self.name.clone()
    }
    fn is_read_only(&self) -> bool {
        false
    }
    fn battles(&self) -> Result<Vec<BattleSummary>, String> {
        Ok(self.battles.iter().map(|b| b.summary.clone()).collect())
    }
    fn load_battle(&self, id: BattleId) -> Result<Box<dyn Battle>, String> {
        let b = self.get(id)?;
        xenolog_engine::games::load_battle(xenolog_engine::StoredBattle {
            meta: b.meta.clone(),
            records: b.records.clone(),
            branches: b.branches.clone(),
            snapshots: Vec::new(),
            cursor: b.cursor,
            branch: b.branch,
        })
        .map_err(|e| format!("the battle cannot be loaded: {e}"))
    }
    fn new_battle(
        &mut self,
        game: &str,
        seed: u64,
        config: &Value,
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, String> {
        let mut battle = xenolog_engine::games::new_battle_with(game, seed, config, strict)
            .map_err(|e| format!("the battle cannot be started: {e}"))?;
        // A game that deals at the start does it as its first entries.
        battle.play_due().map_err(|e| e.to_string())?;
        self.clock += 1;
        let id = self.battles.len() as BattleId + 1;
        self.battles.push(MemoryBattle {
            summary: BattleSummary {
                id,
                game: game.to_owned(),
                title: title.to_owned(),
                seed,
                rules_version: battle.meta().rules_version,
                dice_mode,
                created: self.clock,
                updated: self.clock,
                entries: battle.records().len() as u64,
                branches: 1,
                status: "in progress".into(),
                result: None,
                origin: None,
                strict: battle.meta().strict,
            },
            meta: battle.meta().clone(),
            records: battle.records().to_vec(),
            branches: battle.branches().to_vec(),
            cursor: battle.cursor(),
            branch: battle.current_branch(),
        });
        Ok(id)
    }
    fn play(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<EntryId, String> {
        self.get(id)?;
        let pending = battle
            .prepare_json(actor, command, dice)
            .map_err(|e| e.to_string())?;
        let entry = battle.commit(pending).map_err(|e| e.to_string())?;
        // The steps the game takes on its own follow, as the campaign file's
        // store plays them.
        battle.play_due().map_err(|e| e.to_string())?;
        self.sync(id, battle)?;
        Ok(entry)
    }
    fn save_position(&mut self, id: BattleId, battle: &dyn Battle) -> Result<(), String> {
        self.sync(id, battle)
    }
    fn export_battle(&self, _id: BattleId, _out: &Path) -> Result<(), String> {
        Err(
            "a campaign kept in memory cannot export battles: open or create a campaign file first"
                .into(),
        )
    }
    fn import_battle(&mut self, _file: &Path) -> Result<BattleId, String> {
        Err(
            "a campaign kept in memory cannot import battles: open or create a campaign file first"
                .into(),
        )
    }
}

/// Where the app keeps its own files.
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Xenolog", "Xenolog").map(|d| d.data_dir().to_owned())
}

/// The sample campaign's file name in the data directory.
pub const SAMPLE_FILE: &str = "Sample campaign.xenolog";

/// A campaign file, through the store.
struct FileCampaign(xenolog_saves::Campaign);

fn words(e: xenolog_saves::SaveError) -> String {
    e.to_string()
}

impl CampaignStore for FileCampaign {
    fn file(&self) -> Option<&xenolog_saves::Campaign> {
        Some(&self.0)
    }
    fn file_mut(&mut self) -> Option<&mut xenolog_saves::Campaign> {
        Some(&mut self.0)
    }
    fn path(&self) -> Option<&Path> {
        Some(self.0.path())
    }
    fn name(&self) -> String {
        self.0.name().unwrap_or_else(|_| {
            self.0.path().file_stem().map_or_else(
                || "Campaign".to_owned(),
                |s| s.to_string_lossy().into_owned(),
            )
        })
    }
    fn is_read_only(&self) -> bool {
        self.0.is_read_only()
    }
    fn battles(&self) -> Result<Vec<BattleSummary>, String> {
        self.0.battles().map_err(words)
    }
    fn load_battle(&self, id: BattleId) -> Result<Box<dyn Battle>, String> {
        self.0.load_battle(id).map_err(words)
    }
    fn new_battle(
        &mut self,
        game: &str,
        seed: u64,
        config: &Value,
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, String> {
        self.0
            .new_battle_with(game, seed, config, title, dice_mode, strict)
            .map_err(words)
    }
    fn play(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<EntryId, String> {
        self.0.play(id, battle, actor, command, dice).map_err(words)
    }
    fn save_position(&mut self, id: BattleId, battle: &dyn Battle) -> Result<(), String> {
        self.0.save_position(id, battle).map_err(words)
    }
    fn export_battle(&self, id: BattleId, out: &Path) -> Result<(), String> {
        self.0.export_battle(id, out).map_err(words)
    }
    fn verify_battle(&self, id: BattleId) -> Result<VerifyReport, String> {
        self.0.verify_battle(id).map_err(words)
    }
    fn import_battle(&mut self, file: &Path) -> Result<BattleId, String> {
        self.0.import_battle(file).map_err(words)
    }
    fn notes(&self, id: BattleId) -> Result<Vec<Note>, String> {
        self.0.notes(id).map_err(words)
    }
    fn set_note(&mut self, id: BattleId, entry: EntryId, text: &str) -> Result<(), String> {
        self.0.set_note(id, entry, text).map_err(words)
    }
    fn set_bookmark(&mut self, id: BattleId, entry: EntryId, on: bool) -> Result<(), String> {
        self.0.set_bookmark(id, entry, on).map_err(words)
    }
}

/// Why a campaign file could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenError {
    /// The reason in words.
    pub message: String,
    /// Another Xenolog is writing it: it can still be opened read-only.
    pub locked: bool,
}

/// Open a campaign file for writing, or read-only.
pub fn open_store(path: &Path, read_only: bool) -> Result<Box<dyn CampaignStore>, OpenError> {
    let opened = if read_only {
        xenolog_saves::Campaign::open_read_only(path)
    } else {
        xenolog_saves::Campaign::open(path)
    };
    opened
        .map(|c| Box::new(FileCampaign(c)) as Box<dyn CampaignStore>)
        .map_err(|e| OpenError {
            locked: matches!(e, xenolog_saves::SaveError::Locked { .. }),
            message: e.to_string(),
        })
}

/// Create a new campaign file.
pub fn create_store(path: &Path, name: &str) -> Result<Box<dyn CampaignStore>, String> {
    xenolog_saves::Campaign::create(path, name)
        .map(|c| Box::new(FileCampaign(c)) as Box<dyn CampaignStore>)
        .map_err(words)
}

/// The sample campaign in `dir`, made there first if it is not there yet.
pub fn make_sample(dir: &Path) -> Result<PathBuf, String> {
    let sample = dir.join(SAMPLE_FILE);
    if !sample.exists() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{} cannot be created: {e}", dir.display()))?;
        create_sample(&sample)?;
    }
    Ok(sample)
}

/// Make the sample campaign of the first start.
pub fn create_sample(path: &Path) -> Result<(), String> {
    xenolog_saves::sample::create_sample(path).map_err(words)
}
