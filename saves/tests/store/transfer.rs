//! Export and import of single battles.

use std::path::Path;

use xenolog_engine::Battle;
use xenolog_saves::{Campaign, DiceMode, SaveError};
use xenolog_schema::battle_file::{BATTLE_FILE_FORMAT, read_battle_file, write_battle_file};

use super::common::{bytes, campaign_with_race, place, play_n, states};

/// A battle with a main line and two branches, cursor on a branch.
fn branched(c: &mut Campaign, id: i64) -> Box<dyn Battle> {
    let mut b = c.load_battle(id).unwrap();
    play_n(c, id, &mut *b, 80);
    b.undo(10);
    let legal = b.legal();
    // Hold where the main line rolled (or roll where it held): a new branch.
    c.play(id, &mut *b, legal[3].actor, &legal[3].command, None)
        .ok();
    c.play(id, &mut *b, legal[0].actor, &legal[0].command, None)
        .ok();
    play_n(c, id, &mut *b, 20);
    b.seek(Some(5));
    let legal = b.legal();
    c.play(id, &mut *b, legal[2].actor, &legal[2].command, None)
        .ok();
    b.rename_branch(1, "Hold early").unwrap();
    c.save_position(id, &*b).unwrap();
    b
}

#[test]
fn an_exported_battle_imports_exactly() {
    let (dir, a_path) = place();
    let (mut a, id) = campaign_with_race(&a_path);
    let b = branched(&mut a, id);
    assert!(b.branches().len() >= 2, "{:?}", b.branches());
    let file = dir.path().join("race.xenolog-battle");
    a.export_battle(id, &file).unwrap();
    assert!(bytes(&file).unwrap().starts_with(b"XENOLOG-BATTLE\n"));

    let b_path = dir.path().join("other.xenolog");
    let mut other = Campaign::create(&b_path, "Other club").unwrap();
    let source = bytes(&file);
    let new = other.import_battle(&file).unwrap();
    assert_eq!(bytes(&file), source, "import leaves its file alone");
    let back = other.load_battle(new).unwrap();
    assert_eq!(back.meta(), b.meta());
    assert_eq!(back.records(), b.records());
    assert_eq!(back.branches(), b.branches());
    assert_eq!(
        (back.cursor(), back.current_branch()),
        (b.cursor(), b.current_branch())
    );
    assert_eq!(states(&*back), states(&*b));
    assert!(other.verify_battle(new).unwrap().ok());

    let (sa, sb) = (a.summary(id).unwrap(), other.summary(new).unwrap());
    assert_eq!(
        (
            &sa.title,
            sa.dice_mode,
            sa.created,
            sa.entries,
            sa.branches,
            &sa.status
        ),
        (
            &sb.title,
            sb.dice_mode,
            sb.created,
            sb.entries,
            sb.branches,
            &sb.status
        )
    );
    assert_eq!(
        sb.origin.as_deref(),
        Some("imported from race.xenolog-battle")
    );

    // Exporting the imported battle gives the very same bytes.
    let again = dir.path().join("again.xenolog-battle");
    other.export_battle(new, &again).unwrap();
    assert_eq!(bytes(&again), bytes(&file));

    // And the imported battle plays on.
    let mut back = back;
    play_n(&mut other, new, &mut *back, 3);
    assert!(other.verify_battle(new).unwrap().ok());
}

/// Importing `file` fails with `expect` in the message; the campaign and the
/// file are exactly as they were.
fn import_refused(campaign: &Path, file: &Path, expect: &str) {
    let before = bytes(campaign);
    let source = bytes(file);
    let mut c = Campaign::open(campaign).unwrap();
    let err = c.import_battle(file).unwrap_err();
    assert!(matches!(err, SaveError::BadBattleFile { .. }), "{err}");
    assert!(err.to_string().contains(expect), "{err}");
    assert_eq!(c.battles().unwrap().len(), 1);
    drop(c);
    assert_eq!(
        bytes(campaign),
        before,
        "a refused import changed the campaign"
    );
    assert_eq!(bytes(file), source, "a refused import changed its file");
}

#[test]
fn bad_battle_files_are_refused_before_anything_is_written() {
    let (dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 30);
    let good = dir.path().join("good.xenolog-battle");
    c.export_battle(id, &good).unwrap();
    drop(c);
    let good_bytes = bytes(&good).unwrap();
    let file = dir.path().join("bad.xenolog-battle");

    std::fs::write(&file, b"<html>not a battle</html>").unwrap();
    import_refused(&path, &file, "not a Xenolog battle file");

    // A format after this build's: refused naming both numbers.
    let mut newer = good_bytes.clone();
    newer[15] = (BATTLE_FILE_FORMAT + 1) as u8;
    std::fs::write(&file, &newer).unwrap();
    import_refused(
        &path,
        &file,
        &format!(
            "newer Xenolog (battle file format {}; this build reads up to {BATTLE_FILE_FORMAT})",
            BATTLE_FILE_FORMAT + 1
        ),
    );

    let mut flipped = good_bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x10;
    std::fs::write(&file, &flipped).unwrap();
    import_refused(&path, &file, "checksum does not match");

    std::fs::write(&file, &good_bytes[..good_bytes.len() - 40]).unwrap();
    import_refused(&path, &file, "checksum does not match");

    // Intact and checksummed, but an entry was rewritten: verify catches it.
    let mut parsed = read_battle_file(&good_bytes).unwrap();
    parsed.records[12].state_hash[0] ^= 1;
    std::fs::write(&file, write_battle_file(&parsed).unwrap()).unwrap();
    import_refused(&path, &file, "does not replay as recorded");

    // A battle of a game this build does not know.
    let mut parsed = read_battle_file(&good_bytes).unwrap();
    parsed.meta.game = "chess".into();
    std::fs::write(&file, write_battle_file(&parsed).unwrap()).unwrap();
    import_refused(&path, &file, "cannot be rebuilt");
}

#[test]
fn import_into_a_read_only_campaign_is_refused() {
    let (dir, path) = place();
    let (c, id) = campaign_with_race(&path);
    let file = dir.path().join("x.xenolog-battle");
    c.export_battle(id, &file).unwrap();
    drop(c);
    let mut r = Campaign::open_read_only(&path).unwrap();
    assert!(matches!(r.import_battle(&file), Err(SaveError::ReadOnly)));
    // Export works read-only.
    r.export_battle(id, &dir.path().join("y.xenolog-battle"))
        .unwrap();
}

#[test]
fn export_replaces_an_old_file_whole_and_leaves_no_temporary_file() {
    let (dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let file = dir.path().join("race.xenolog-battle");
    std::fs::write(&file, vec![b'x'; 100_000]).unwrap();
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 4);
    c.export_battle(id, &file).unwrap();
    let bytes = bytes(&file).unwrap();
    assert_eq!(read_battle_file(&bytes).unwrap().records, b.records());
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("race"))
        .collect();
    assert_eq!(names, vec!["race.xenolog-battle"]);
}

#[test]
fn an_imported_battle_stores_its_snapshots_like_a_played_one() {
    let (dir, a_path) = place();
    let (mut a, id) = campaign_with_race(&a_path);
    branched(&mut a, id);
    let out = dir.path().join("b.xbattle");
    a.export_battle(id, &out).unwrap();
    let b_path = dir.path().join("other.xenolog");
    let mut b = Campaign::create(&b_path, "Other").unwrap();
    let new_id = b.import_battle(&out).unwrap();
    drop((a, b));
    let count = |path: &Path, battle: i64| -> i64 {
        rusqlite::Connection::open(path)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM snapshots WHERE battle = ?1",
                [battle],
                |r| r.get(0),
            )
            .unwrap()
    };
    let played = count(&a_path, id);
    assert!(played > 0, "the played battle has snapshots");
    assert_eq!(count(&b_path, new_id), played);
}

/// A strict battle stays strict: in the campaign file, after reopening, and
/// through export and import (it is part of the battle's identity).
#[test]
fn a_strict_battle_stays_strict_through_reopening_export_and_import() {
    let (dir, path) = place();
    let mut c = Campaign::create(&path, "Club").unwrap();
    let id = c
        .new_battle_with(
            "race",
            5,
            &serde_json::json!({ "target": 1000 }),
            "Strict race",
            DiceMode::Rolled,
            true,
        )
        .unwrap();
    assert!(c.summary(id).unwrap().strict);
    let mut b = c.load_battle(id).unwrap();
    assert!(b.meta().strict);
    let roll = serde_json::json!({ "roll": { "dice": 2 } });
    c.play(id, &mut *b, xenolog_engine::Actor(0), &roll, None)
        .unwrap();
    b.undo(1);
    let other = serde_json::json!({ "roll": { "dice": 3 } });
    let err = c
        .play(id, &mut *b, xenolog_engine::Actor(0), &other, None)
        .unwrap_err();
    assert!(err.to_string().contains("strict battle"), "{err}");
    drop(b);
    drop(c);
    let c = Campaign::open(&path).unwrap();
    assert!(c.load_battle(id).unwrap().meta().strict);
    let file = dir.path().join("strict.xenolog-battle");
    c.export_battle(id, &file).unwrap();
    let mut other_campaign = Campaign::create(&dir.path().join("other.xenolog"), "Other").unwrap();
    let new = other_campaign.import_battle(&file).unwrap();
    assert!(other_campaign.summary(new).unwrap().strict);
    assert!(other_campaign.verify_battle(new).unwrap().ok());
}
