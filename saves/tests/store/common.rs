//! Helpers shared by the store tests.

use std::path::{Path, PathBuf};

use tempfile::TempDir;
use xenolog_engine::Battle;
use xenolog_saves::{BattleId, Campaign};

pub use crate::race::{new_endless_race, play_n};

/// A temporary folder and a campaign path inside it (not created).
pub fn place() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.xenolog");
    (dir, path)
}

/// A fresh campaign with one Dice Race battle that never ends by itself.
pub fn campaign_with_race(path: &Path) -> (Campaign, BattleId) {
    let mut c = Campaign::create(path, "Club").unwrap();
    let id = new_endless_race(&mut c, 7);
    (c, id)
}

/// The bytes of a file, or `None` if it is absent.
pub fn bytes(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// The state at every entry and at the setup, as JSON.
pub fn states(b: &dyn Battle) -> Vec<serde_json::Value> {
    let mut out = vec![b.state_json(None)];
    for id in 0..b.records().len() as u64 {
        out.push(b.state_json(Some(id)));
    }
    out
}
