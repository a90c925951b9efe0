//! The conformance test every registered game must pass, run through the
//! registry (`xenolog_engine::games::REGISTRY`), so a new game gets these
//! checks by being registered:
//!
//! - every command `legal` offers is accepted, reads in words, and the board
//!   draws after it;
//! - the battle rebuilt from its stored parts (as the store does, with and
//!   without snapshots) shows the same state at every entry as the live one;
//! - re-deciding every recorded command reproduces its events, dice, stream
//!   positions and state hashes (`verify`), also across branches;
//! - undo then the same command again lands on the recorded entry with the
//!   same dice, and nothing new is written.
//!
//! `checker.rs` shows this test fails on stub games that are deliberately not
//! deterministic.

use serde_json::Value;
use xenolog_engine::games::{Entry, REGISTRY};
use xenolog_engine::{Actor, Battle, EntryId, Randomness, StoredBattle, StoredSnapshot};

/// The stored parts of a battle, as the store would keep them.
fn parts(b: &dyn Battle, with_snapshots: bool) -> StoredBattle {
    let n = b.records().len() as EntryId;
    StoredBattle {
        meta: b.meta().clone(),
        records: b.records().to_vec(),
        branches: b.branches().to_vec(),
        snapshots: if with_snapshots {
            (0..n)
                .filter_map(|entry| {
                    b.snapshot_bytes(entry).map(|state| StoredSnapshot {
                        entry,
                        rules_version: b.rules_version_now(),
                        state,
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
        cursor: b.cursor(),
        branch: b.current_branch(),
    }
}

/// Play a battle of `entry` with a seeded bot (`steps` commands, with undos
/// and branches) and check it conforms; the first failure in words.
pub fn conform(entry: &Entry, seed: u64, steps: usize) -> Result<(), String> {
    let rules = entry
        .rules
        .ok_or_else(|| format!("{} is not built", entry.id))?;
    let fail = |what: String| format!("{} (seed {seed}): {what}", entry.id);
    let mut b = (rules.start)(seed, &Value::Object(Default::default()), false).map_err(|e| {
        fail(format!(
            "a battle with the default config cannot start: {e}"
        ))
    })?;
    let mut bot = Randomness::new(seed ^ 0xc0f0, 0, None);
    for step in 0..steps {
        let legal = b.legal();
        if legal.is_empty() {
            if b.outcome().is_none() {
                return Err(fail(format!(
                    "at step {step} no command is legal but the battle is not over"
                )));
            }
            break;
        }
        let asked: Vec<_> = b.asked().into_iter().map(|a| a.seat).collect();
        if let Some(l) = legal.iter().find(|l| !asked.contains(&l.actor)) {
            return Err(fail(format!(
                "at step {step} {} is offered a command but not asked to act",
                b.actor_name(l.actor)
            )));
        }
        // Each seat's own commands (what a club server sends it) are the
        // legal commands of that seat, no more and no fewer.
        if legal.iter().all(|l| l.actor != Actor::SYSTEM) {
            for (seat, _) in b.seats() {
                let mine: Vec<&Value> = legal
                    .iter()
                    .filter(|l| l.actor == seat)
                    .map(|l| &l.command)
                    .collect();
                let seen = b.legal_as(seat);
                if seen.iter().map(|l| &l.command).collect::<Vec<_>>() != mine
                    || seen.iter().any(|l| l.text.trim().is_empty())
                {
                    return Err(fail(format!(
                        "at step {step} legal_as({}) is not that seat's legal commands in words",
                        b.actor_name(seat)
                    )));
                }
            }
        }
        let pick = &legal[bot.pick(legal.len())];
        if pick.text.trim().is_empty() {
            return Err(fail(format!(
                "command {} does not read in words",
                pick.command
            )));
        }
        let pending = b
            .prepare_json(pick.actor, &pick.command, None)
            .map_err(|e| fail(format!("legal command {} refused: {e}", pick.command)))?;
        let id = b
            .commit(pending)
            .map_err(|e| fail(format!("a command decided just now: {e}")))?;
        // The public view (spectators of a club battle) knows nothing that
        // any seat does not: each seat's view, seen publicly, is the public view.
        if let Some(seat) = b.public_view_leaks(Some(id)) {
            return Err(fail(format!(
                "after entry {id} the public view shows something {} may not see",
                b.actor_name(seat)
            )));
        }
        let recorded = b.records().len();
        if b.scene_at(Some(id)).items.is_empty() {
            return Err(fail(format!("no board after entry {id}")));
        }
        // Undo and the same command again: the recorded entry, same dice.
        if bot.below(8) == 0 {
            b.undo(1);
            let again = b
                .prepare_json(pick.actor, &pick.command, None)
                .map_err(|e| fail(format!("the same command after undo refused: {e}")))?;
            let redo = b
                .commit(again)
                .map_err(|e| fail(format!("a redo decided just now: {e}")))?;
            if redo != id || b.records().len() != recorded {
                return Err(fail(format!(
                    "undo then the same command gave entry {redo}, not the recorded {id}"
                )));
            }
        }
        // Now and then take back a few commands and try another line.
        if bot.below(20) == 0 {
            b.undo(1 + bot.below(3) as usize);
        }
    }
    let texts = b.entry_texts(&b.path_to(b.cursor()));
    if let Some(t) = texts.iter().find(|t| t.command.trim().is_empty()) {
        return Err(fail(format!("entry {} does not read in words", t.id)));
    }
    let report = b.verify();
    if !report.ok() || report.rules_changed.is_some() {
        return Err(fail(format!("verify: {report}")));
    }
    for with_snapshots in [false, true] {
        let back = (rules.load)(parts(&*b, with_snapshots))
            .map_err(|e| fail(format!("its stored parts do not load: {e}")))?;
        for id in 0..b.records().len() as EntryId {
            if back.state_json(Some(id)) != b.state_json(Some(id)) {
                return Err(fail(format!(
                    "the rebuilt battle shows another state after entry {id} \
                     (snapshots: {with_snapshots})"
                )));
            }
        }
        if back.state_json(back.cursor()) != b.state_json(b.cursor()) {
            return Err(fail("the rebuilt battle is elsewhere".into()));
        }
    }
    Ok(())
}

#[test]
fn every_registered_game_conforms() {
    let mut checked = 0;
    for entry in REGISTRY.iter().filter(|e| e.rules.is_some()) {
        for seed in [1, 2, 3] {
            conform(entry, seed, 160).unwrap_or_else(|e| panic!("{e}"));
        }
        checked += 1;
    }
    assert!(checked >= 2, "the registry lists {checked} built games");
}

/// Every option a game declares is a key its config takes, at its default
/// and at both ends of its range.
#[test]
fn every_declared_option_is_taken_by_the_games_config() {
    use xenolog_engine::OptionKind;
    for entry in REGISTRY.iter().filter(|e| e.rules.is_some()) {
        let rules = entry.rules.unwrap();
        for o in (rules.options)() {
            let values = o.kind.values();
            if let OptionKind::Choice { choices, default } = o.kind {
                assert!(
                    choices.iter().any(|c| c.0 == default),
                    "{}: option {}'s default is not one of its choices",
                    entry.id,
                    o.key
                );
            }
            for v in values {
                let config = serde_json::json!({ o.key: v });
                if let Err(e) = (rules.start)(1, &config, false) {
                    panic!("{}: option {} = {v} is refused: {e}", entry.id, o.key);
                }
            }
        }
    }
}

/// The seats a game declares in the registry hold for its battles: the
/// default config seats a number of players the declaration allows, and
/// every seat has a name from the config.
#[test]
fn every_game_seats_what_its_registry_entry_declares() {
    for entry in REGISTRY.iter().filter(|e| e.rules.is_some()) {
        let rules = entry.rules.unwrap();
        let b = (rules.start)(1, &Value::Object(Default::default()), false)
            .unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        let seats = b.seats();
        assert!(
            entry.seats.allows(seats.len()),
            "{}: the default battle seats {} players, the registry says {}",
            entry.id,
            seats.len(),
            entry.seats.words()
        );
        assert!(entry.seats.min >= 1 && entry.seats.min <= entry.seats.max);
        assert!(!entry.seats.each.is_empty());
    }
    let invasion = REGISTRY.iter().find(|e| e.id == "invasion").unwrap();
    assert_eq!(invasion.seats.words(), "2 to 6 players, a faction each");
    assert_eq!(invasion.seats.range(), "2-6");
    assert!(!invasion.seats.allows(7));
}
