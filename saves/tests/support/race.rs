//! The Dice Race set-up the store and hostile-file tests share: a battle that
//! never ends by itself, played by a fixed pattern so runs repeat exactly;
//! and a race played roll-then-hold to its end (`race_on`; also the app's
//! `cli_fair.rs`).

use serde_json::json;
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{Battle, Game, LegalCommand, PendingKind, Session};
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

/// A Dice Race of `n` entries played in memory (rolls and holds by the same
/// pattern, no end): a long battle to store whole.
#[allow(dead_code)]
pub fn long_race(n: usize) -> Session<Race> {
    let mut s = Session::<Race>::new(5, RaceConfig { target: u32::MAX }).unwrap();
    for i in 0..n {
        let a = Race::to_move(s.state()).unwrap();
        let legal = Race::legal(s.state());
        s.play(a, &legal[(i * 5 + 1) % legal.len()].1, None)
            .unwrap();
    }
    s
}

/// A legal command at `b`'s cursor other than the one recorded next there:
/// played, it starts a branch.
#[allow(dead_code)]
pub fn off_the_record(b: &dyn Battle) -> LegalCommand {
    b.legal()
        .into_iter()
        .find(|l| {
            b.prepare_json(l.actor, &l.command, None)
                .is_ok_and(|p| !matches!(p.kind, PendingKind::Redo { .. }))
        })
        .expect("a command the record does not hold")
}

/// Play the race: until it is over (`steps` `None`), or `steps` commands.
#[allow(dead_code)]
pub fn race_on(c: &mut Campaign, id: BattleId, steps: Option<usize>) -> Box<dyn Battle> {
    let mut b = c.load_battle(id).unwrap();
    let mut i = 0;
    while b.outcome().is_none() && steps.is_none_or(|n| i < n) {
        let legal = b.legal();
        // Roll, then bank: the race ends.
        let want = if i % 2 == 0 { "roll" } else { "hold" };
        let pick = legal
            .iter()
            .rev()
            .find(|l| l.command.to_string().contains(want))
            .unwrap_or(&legal[0])
            .clone();
        c.play(id, &mut *b, pick.actor, &pick.command, None)
            .unwrap();
        i += 1;
        assert!(i < 10_000, "the race does not end");
    }
    b
}
