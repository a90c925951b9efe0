//! Club battles' fair seeds in a campaign (migration 6): stored with the
//! battle, the secret held unrevealed until the end, exported and imported
//! with the battle file (format 3), checked before an import is trusted.

use serde_json::json;
use xenolog_engine::fair::{self, Bytes32, SeatNonce};
use xenolog_engine::{Actor, Battle};
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError};
use xenolog_schema::battle_file::{read_battle_file, write_battle_file};

use super::common::{bytes, place};

const SECRET: Bytes32 = [9; 32];

fn nonces() -> Vec<SeatNonce> {
    (0..2)
        .map(|s| SeatNonce {
            seat: Actor(s),
            nonce: [0x40 + s; 32],
            absent: false,
        })
        .collect()
}

fn club_race(c: &mut Campaign, target: u32) -> BattleId {
    c.new_club_battle(
        "race",
        &json!({ "target": target }),
        "Club race",
        DiceMode::Rolled,
        false,
        &SECRET,
        nonces(),
    )
    .unwrap()
}

/// Play the race until it is over.
fn finish(c: &mut Campaign, id: BattleId) -> Box<dyn Battle> {
    let mut b = c.load_battle(id).unwrap();
    let mut i = 0;
    while b.outcome().is_none() {
        let legal = b.legal();
        // Roll three dice, then bank them: the race ends.
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

#[test]
fn a_club_battle_takes_its_seed_from_the_secret_and_every_nonce_and_keeps_them() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = club_race(&mut c, 30);
    let b = c.load_battle(id).unwrap();
    let seed = b.meta().fair.clone().expect("the fair seed is stored");
    assert_eq!(seed.commitment, fair::commitment(&SECRET));
    assert_eq!(seed.nonces, nonces());
    assert_eq!(b.meta().seed, fair::seed(&SECRET, &nonces()).unwrap());
    // The same battle without the fair seed has another chain: the seed's
    // record is part of what the chain protects.
    let mut plain = c
        .new_battle(
            "race",
            b.meta().seed,
            &json!({ "target": 30 }),
            "",
            DiceMode::Rolled,
        )
        .map(|p| c.load_battle(p).unwrap())
        .unwrap();
    let mut b = b;
    let l = b.legal()[0].clone();
    c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    let p_id = c.battles().unwrap().last().unwrap().id;
    c.play(p_id, &mut *plain, l.actor, &l.command, None)
        .unwrap();
    assert_eq!(
        b.records()[0].events,
        plain.records()[0].events,
        "same seed, same dice"
    );
    assert_ne!(b.records()[0].chain, plain.records()[0].chain);
    assert!(c.verify_battle(id).unwrap().ok());
    // The secret stays with the server's copy: not shown, not exported.
    assert_eq!(c.fair_secret(id).unwrap(), None);
    let file = path.with_extension("xenolog-battle");
    c.export_battle(id, &file).unwrap();
    let f = read_battle_file(&bytes(&file).unwrap()).unwrap();
    assert_eq!((f.secret, f.meta.fair.is_some()), (None, true));
}

#[test]
fn the_secret_is_revealed_only_once_the_battle_is_over_and_then_travels_with_it() {
    let (dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = club_race(&mut c, 12);
    let err = c.reveal_held_secret(id).unwrap_err();
    assert!(err.to_string().contains("is not over"), "{err}");
    assert_eq!(c.fair_secret(id).unwrap(), None, "refused, nothing changed");
    finish(&mut c, id);
    assert_eq!(c.reveal_held_secret(id).unwrap(), SECRET);
    assert_eq!(c.fair_secret(id).unwrap(), Some(SECRET));

    let file = dir.path().join("club.xenolog-battle");
    c.export_battle(id, &file).unwrap();
    let f = read_battle_file(&bytes(&file).unwrap()).unwrap();
    assert_eq!(f.secret, Some(SECRET));
    let mut other = Campaign::create(&dir.path().join("home.xenolog"), "Home").unwrap();
    let new = other.import_battle(&file).unwrap();
    assert_eq!(other.fair_secret(new).unwrap(), Some(SECRET));
    let b = other.load_battle(new).unwrap();
    let seats: Vec<Actor> = b.seats().into_iter().map(|(a, _)| a).collect();
    let r = fair::check(
        b.meta().fair.as_ref().unwrap(),
        b.meta().seed,
        &seats,
        Some(&SECRET),
        &[(Actor(1), [0x41; 32])],
        b.records(),
    );
    assert!(r.ok() && r.seed_ok == Some(true), "{r:?}");
}

#[test]
fn a_file_whose_secret_does_not_match_its_commitment_is_not_imported() {
    let (dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = club_race(&mut c, 12);
    finish(&mut c, id);
    c.reveal_held_secret(id).unwrap();
    let file = dir.path().join("club.xenolog-battle");
    c.export_battle(id, &file).unwrap();
    let mut f = read_battle_file(&bytes(&file).unwrap()).unwrap();
    f.secret.as_mut().unwrap()[0] ^= 1;
    std::fs::write(&file, write_battle_file(&f).unwrap()).unwrap();
    let mut other = Campaign::create(&dir.path().join("home.xenolog"), "Home").unwrap();
    let err = other.import_battle(&file).unwrap_err();
    assert!(matches!(err, SaveError::BadBattleFile { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("the revealed secret does not match the commitment"),
        "{err}"
    );
    assert!(other.battles().unwrap().is_empty(), "nothing was imported");
}

#[test]
fn a_club_battle_needs_every_seats_nonce_and_a_wrong_secret_is_refused() {
    let (_dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let err = c
        .new_club_battle(
            "race",
            &json!({}),
            "",
            DiceMode::Rolled,
            false,
            &SECRET,
            nonces()[..1].to_vec(),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("every seat gives a nonce before a club battle starts"),
        "{err}"
    );
    assert!(c.battles().unwrap().is_empty(), "nothing was written");
    let id = club_race(&mut c, 12);
    let err = c.reveal_secret(id, &[1; 32]).unwrap_err();
    assert!(
        err.to_string()
            .contains("not the one the server committed to"),
        "{err}"
    );
    let plain = c
        .new_battle("race", 1, &json!({}), "", DiceMode::Rolled)
        .unwrap();
    let err = c.reveal_secret(plain, &SECRET).unwrap_err();
    assert!(err.to_string().contains("has no fair seed"), "{err}");
}
