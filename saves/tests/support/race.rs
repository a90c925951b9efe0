//! The Dice Race set-up the store and hostile-file tests share: a battle that
//! never ends by itself, played by a fixed pattern so runs repeat exactly.

use serde_json::json;
use xenolog_engine::Battle;
use xenolog_saves::{BattleId, Campaign, DiceMode};

/// Given a campaign: a new Dice Race battle (rolled dice, title "Race") whose
/// target is out of reach, so it never ends by itself.
pub fn new_endless_race(c: &mut Campaign, seed: u64) -> BattleId {
    c.new_battle(
        "race",
        seed,
        &json!({ "target": 1_000_000 }),
        "Race",
        DiceMode::Rolled,
    )
    .unwrap()
}

/// When `n` legal commands are played, chosen by a fixed pattern (the
/// `(i * 5 + 1)`th legal one); returns the entry ids.
pub fn play_n(c: &mut Campaign, id: BattleId, b: &mut dyn Battle, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let legal = b.legal();
            let cmd = legal[(i * 5 + 1) % legal.len()].clone();
            c.play(id, b, cmd.actor, &cmd.command, None).unwrap()
        })
        .collect()
}
