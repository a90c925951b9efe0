//! Helpers shared by the store tests.

use std::path::{Path, PathBuf};

use serde_json::json;
use tempfile::TempDir;
use xenolog_engine::Battle;
use xenolog_saves::{BattleId, Campaign, DiceMode};

/// A temporary folder and a campaign path inside it (not created).
pub fn place() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.xenolog");
    (dir, path)
}

/// A fresh campaign with one Dice Race battle that never ends by itself.
pub fn campaign_with_race(path: &Path) -> (Campaign, BattleId) {
    let mut c = Campaign::create(path, "Club").unwrap();
    let id = c
        .new_battle(
            "race",
            7,
            &json!({ "target": 1_000_000 }),
            "Race",
            DiceMode::Rolled,
        )
        .unwrap();
    (c, id)
}

/// Play `n` legal commands chosen by a fixed pattern; returns the entry ids.
pub fn play_n(c: &mut Campaign, id: BattleId, b: &mut dyn Battle, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let legal = b.legal();
            let cmd = legal[(i * 5 + 1) % legal.len()].clone();
            c.play(id, b, cmd.actor, &cmd.command, None).unwrap()
        })
        .collect()
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
