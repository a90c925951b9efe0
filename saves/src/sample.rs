//! The sample campaign the app opens on its first start: a battle in
//! mid-game with a few branches, so every view has something to show.

use std::path::Path;

use serde_json::json;
use xenolog_engine::Battle;

use crate::{BattleId, Campaign, DiceMode, SaveError};

/// Seed of the sample battle: fixed, so the sample is the same everywhere.
pub const SAMPLE_SEED: u64 = 20_240_607;

/// Create the sample campaign at `path` (an error if the path exists).
pub fn create_sample(path: &Path) -> Result<(), SaveError> {
    let mut c = Campaign::create(path, "Sample campaign")?;
    race_sample(&mut c)?;
    Ok(())
}

/// Play the first legal command whose text matches `pick`, else the first one.
fn play_pick(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    pick: usize,
) -> Result<bool, SaveError> {
    let legal = b.legal();
    if legal.is_empty() {
        return Ok(false);
    }
    let cmd = &legal[pick % legal.len()];
    c.play(id, b, cmd.actor, &cmd.command.clone(), None)?;
    Ok(true)
}

/// A Dice Race in mid-game: a main line, a branch that tried something
/// else from an earlier turn, and a second branch from the setup.
fn race_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "race",
        SAMPLE_SEED,
        &json!({ "target": 100 }),
        "Dice Race: a sample battle",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    // Roll, roll, hold: a steady pattern that moves both scores along.
    let pattern = [1, 1, 3, 0, 2, 3];
    for i in 0..30 {
        play_pick(c, id, &mut *b, pattern[i % pattern.len()])?;
    }
    b.undo(6);
    c.save_position(id, &*b)?;
    for i in 0..8 {
        play_pick(c, id, &mut *b, 2 - (i % 3))?;
    }
    b.rename_branch(1, "Bolder rolls")
        .map_err(|why| SaveError::Corrupt { battle: id, why })?;
    b.seek(None);
    for _ in 0..3 {
        play_pick(c, id, &mut *b, 3)?;
    }
    b.switch_branch(0)
        .map_err(|why| SaveError::Corrupt { battle: id, why })?;
    c.save_position(id, &*b)?;
    Ok(id)
}
