//! The campaign the app has open, behind one small trait: today always the
//! store (`xenolog_saves::Campaign`), on a campaign file or, when no file can
//! be written (and in the UI tests), on a scratch campaign in an in-memory
//! SQLite database, so every campaign rule has one implementation; the trait
//! keeps a shape a campaign held elsewhere takes too: a club server's
//! battles (`super::club::ClubCampaign`).
//! Every error comes back as the store's own sentence for a notice.

use std::path::{Path, PathBuf};

use serde_json::Value;
use xenolog_engine::{Actor, Battle, EntryId, VerifyReport};

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
    /// The store, for the campaign layer (rosters, experience); `None`
    /// for a campaign held elsewhere.
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
    /// Battles held elsewhere (a club server): a command is sent, not
    /// decided here, and `play` returns once it is on its way.
    fn remote(&self) -> bool {
        false
    }
    /// Bring an open battle up to what arrived (a club battle's new
    /// entries and commands) in place; `false` when it cannot, and the
    /// battle is to be loaded again.
    fn catch_up(&self, _id: BattleId, _battle: &mut dyn Battle) -> Result<bool, String> {
        Ok(false)
    }
    /// What arrived since the last frame (another seat's move, a refusal);
    /// nothing for a campaign on this machine.
    fn poll(&mut self) -> Vec<super::club::Arrival> {
        Vec::new()
    }
    /// The club server's campaign, when that is what is open.
    fn club(&self) -> Option<&super::club::ClubCampaign> {
        None
    }
    fn club_mut(&mut self) -> Option<&mut super::club::ClubCampaign> {
        None
    }
}

/// Where the app keeps its own files.
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Xenolog", "Xenolog").map(|d| d.data_dir().to_owned())
}

/// The sample campaign's file name in the data directory.
pub const SAMPLE_FILE: &str = "Sample campaign.xenolog";

/// A campaign on this machine, through the store: a file, or a scratch
/// campaign in memory.
struct LocalCampaign(xenolog_saves::Campaign);

/// A scratch campaign called `name`, kept in memory for as long as the app
/// runs (the same store as a file, on an in-memory database).
pub fn scratch(name: &str) -> Result<Box<dyn CampaignStore>, String> {
    xenolog_saves::Campaign::create_in_memory(name)
        .map(local)
        .map_err(words)
}

/// A campaign the caller opened or made (benchmarks, tests).
pub fn local(campaign: xenolog_saves::Campaign) -> Box<dyn CampaignStore> {
    Box::new(LocalCampaign(campaign))
}

fn words(e: xenolog_saves::SaveError) -> String {
    e.to_string()
}

impl CampaignStore for LocalCampaign {
    fn file(&self) -> Option<&xenolog_saves::Campaign> {
        Some(&self.0)
    }
    fn file_mut(&mut self) -> Option<&mut xenolog_saves::Campaign> {
        Some(&mut self.0)
    }
    fn path(&self) -> Option<&Path> {
        (!self.0.is_in_memory()).then(|| self.0.path())
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
    opened.map(local).map_err(|e| OpenError {
        locked: matches!(e, xenolog_saves::SaveError::Locked { .. }),
        message: e.to_string(),
    })
}

/// Create a new campaign file.
pub fn create_store(path: &Path, name: &str) -> Result<Box<dyn CampaignStore>, String> {
    xenolog_saves::Campaign::create(path, name)
        .map(local)
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
