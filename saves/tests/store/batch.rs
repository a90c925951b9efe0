//! Group commit (`decide` + `Campaign::append_batch`, the club server's
//! writer): many battles' entries in one transaction, each checked against
//! the head it was decided on, the command id in the entries' transaction.

use serde_json::json;
use xenolog_engine::{Actor, Battle};
use xenolog_saves::{Campaign, DiceMode, SaveError, decide};

use super::common::place;

fn races(c: &mut Campaign, n: usize) -> Vec<(i64, Box<dyn Battle>)> {
    (0..n)
        .map(|i| {
            let id = c
                .new_battle(
                    "race",
                    40 + i as u64,
                    &json!({ "target": 1_000_000 }),
                    &format!("Race {i}"),
                    DiceMode::Rolled,
                )
                .unwrap();
            (id, c.load_battle(id).unwrap())
        })
        .collect()
}

fn first_legal(b: &dyn Battle) -> (Actor, serde_json::Value) {
    let l = b.legal();
    (l[0].actor, l[0].command.clone())
}

#[test]
fn a_batch_writes_many_battles_in_one_transaction_and_they_load_as_decided() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let mut battles = races(&mut c, 3);
    for round in 0..4 {
        let batch: Vec<_> = battles
            .iter_mut()
            .map(|(id, b)| {
                let (actor, cmd) = first_legal(&**b);
                decide(*id, &mut **b, actor, &cmd, None, DiceMode::Rolled)
                    .unwrap()
                    .command_id(actor, &format!("r{round}"))
            })
            .collect();
        let results = c.append_batch(&batch).unwrap();
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    }
    drop(c);
    let c = Campaign::open(&path).unwrap();
    for (id, b) in &battles {
        let stored = c.load_battle(*id).unwrap();
        assert_eq!(stored.records().len(), b.records().len());
        assert_eq!(stored.records(), b.records(), "battle {id}");
        assert_eq!(stored.cursor(), b.cursor());
        assert!(c.verify_battle(*id).unwrap().ok());
        let actor = b.records()[0].actor;
        assert_eq!(
            c.command_entries(*id, actor, "r0").unwrap(),
            Some(vec![0]),
            "the command id is recorded with its entries"
        );
        assert_eq!(c.command_entries(*id, actor, "never").unwrap(), None);
    }
}

#[test]
fn a_part_decided_on_a_moved_head_is_refused_stale_and_the_rest_is_written() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let mut battles = races(&mut c, 2);
    // Battle 0 moves on in the file behind this copy's back.
    let (id0, _) = &battles[0];
    let mut other = c.load_battle(*id0).unwrap();
    let (actor, cmd) = first_legal(&*other);
    c.play(*id0, &mut *other, actor, &cmd, None).unwrap();
    let batch: Vec<_> = battles
        .iter_mut()
        .map(|(id, b)| {
            let (actor, cmd) = first_legal(&**b);
            decide(*id, &mut **b, actor, &cmd, None, DiceMode::Rolled)
                .unwrap()
                .command_id(actor, "x")
        })
        .collect();
    let results = c.append_batch(&batch).unwrap();
    assert!(
        matches!(&results[0], Err(SaveError::Stale { why, .. }) if why.contains("1 in the file")),
        "{results:?}"
    );
    assert!(results[1].is_ok(), "{results:?}");
    let (id0, id1) = (battles[0].0, battles[1].0);
    assert_eq!(c.load_battle(id0).unwrap().records().len(), 1);
    assert_eq!(c.load_battle(id1).unwrap().records().len(), 1);
    // Nothing of the refused part: not its command id either.
    assert_eq!(c.command_entries(id0, actor, "x").unwrap(), None);
    assert_eq!(
        c.command_entries(id1, battles[1].1.records()[0].actor, "x")
            .unwrap(),
        Some(vec![0])
    );
}

#[test]
fn a_refused_command_decides_nothing() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let mut battles = races(&mut c, 1);
    let (id, b) = &mut battles[0];
    let err = decide(
        *id,
        &mut **b,
        Actor(1),
        &json!("hold"),
        None,
        DiceMode::Rolled,
    )
    .err()
    .expect("not seat 2's turn");
    assert!(matches!(err, SaveError::Play(_)), "{err}");
    assert!(b.records().is_empty());
}

#[test]
fn the_ending_entry_reveals_the_held_secret_in_its_transaction() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let secret = [9u8; 32];
    let nonces = (0..2)
        .map(|s| xenolog_engine::fair::SeatNonce {
            seat: Actor(s),
            nonce: [s + 1; 32],
            absent: false,
        })
        .collect();
    let id = c
        .new_club_battle(
            "race",
            &json!({ "target": 4 }),
            "Short race",
            DiceMode::Rolled,
            false,
            &secret,
            nonces,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    let mut n = 0;
    while b.outcome().is_none() {
        assert!(n < 500, "the race ends");
        n += 1;
        let l = b.legal();
        // Roll until the turn total reaches the target, then hold.
        let pick = l
            .iter()
            .find(|c| c.command == json!("hold") && n % 3 == 0)
            .unwrap_or(&l[0])
            .clone();
        let d = decide(
            id,
            &mut *b,
            pick.actor,
            &pick.command,
            None,
            DiceMode::Rolled,
        )
        .unwrap();
        let ends = d.ends();
        assert_eq!(c.fair_secret(id).unwrap(), None, "not before the end");
        assert!(c.append_batch(&[d]).unwrap()[0].is_ok());
        assert_eq!(ends, b.outcome().is_some());
    }
    assert_eq!(c.fair_secret(id).unwrap(), Some(secret));
    assert!(c.verify_battle(id).unwrap().ok());
}
