//! Old campaigns always open (DESIGN.md principle 12): every fixture under
//! `tests/fixtures/compat/` (see `xenolog_tests::compat`) is opened by this
//! build and must read as the build that wrote it read it.

use std::path::{Path, PathBuf};

use serde_json::json;
use xenolog_engine::games;
use xenolog_engine::{Battle, DivergenceKind, EntryId};
use xenolog_saves::Campaign;
use xenolog_schema::SCHEMA_VERSION;
use xenolog_tests::compat::{
    BattleManifest, CAMPAIGN_FILE, Manifest, describe_battle, read_manifest, state_hash,
};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/fixtures/compat exists")
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(
        !dirs.is_empty(),
        "no compatibility fixture in {}",
        root.display()
    );
    dirs
}

/// Today's rules version of a game.
fn rules_now(game: &str) -> u32 {
    games::new_battle(game, 0, &json!({}))
        .unwrap_or_else(|e| panic!("{game} can no longer be started: {e}"))
        .meta()
        .rules_version
}

/// A copy of a fixture's file in a fresh folder: the committed fixture is
/// never opened for writing.
fn copy_of(dir: &Path, file: &str, into: &Path) -> PathBuf {
    let to = into.join(file);
    std::fs::copy(dir.join(file), &to).unwrap_or_else(|e| panic!("copy {file}: {e}"));
    to
}

/// Check one battle as today's build reads it against what the fixture's
/// build recorded. `what` names it in failures.
fn check_battle(what: &str, m: &Manifest, want: &BattleManifest, b: &dyn Battle) {
    let got = describe_battle(want.id, &want.title, &want.dice_mode, b);
    assert_eq!(got.game, want.game, "{what}: game");
    assert_eq!(
        got.rules_version, want.rules_version,
        "{what}: stamped rules version"
    );
    assert_eq!(got.entries, want.entries, "{what}: entries");
    assert_eq!(got.branches, want.branches, "{what}: branches");
    assert_eq!(got.cursor, want.cursor, "{what}: cursor");
    assert_eq!(got.branch, want.branch, "{what}: current branch");
    assert_eq!(
        got.entered_entries, want.entered_entries,
        "{what}: entered dice"
    );
    assert_eq!(b.corruption(), None, "{what}: an entry no longer decodes");

    let recorded = m.rules_versions[&want.game];
    let now = rules_now(&want.game);
    assert!(
        now >= recorded,
        "{what}: rules version went back from {recorded} to {now}"
    );
    if now == recorded {
        // Same rules, same layouts: every state must come out bit for bit.
        assert_eq!(
            got.setup, want.setup,
            "{what}: the setup changed under the same rules version"
        );
        for (id, (g, w)) in got.states.iter().zip(&want.states).enumerate() {
            assert_eq!(
                g, w,
                "{what}: the state after entry {id} changed under the same rules version \
                 {now} of {}: a layout or rule change needs a new rules version",
                want.game
            );
        }
        assert_eq!(got.result, want.result, "{what}: result");
    }

    // Every entry shows its board and reads in words.
    for id in 0..want.entries {
        let scene = b.scene_at(Some(id as EntryId));
        assert!(!scene.items.is_empty(), "{what}: no board at entry {id}");
    }
    for br in b.branches() {
        let line = b.path_to(b.head(br.id));
        for t in b.entry_texts(&line) {
            assert!(
                !t.command.contains("damaged") && !t.command.is_empty(),
                "{what}: entry {} does not read: {}",
                t.id,
                t.command
            );
        }
    }

    // Verify: the chain holds; only a rules change may replay differently.
    let report = b.verify();
    assert!(report.ok(), "{what}: {report}");
    let _ = (recorded, now, DivergenceKind::Diverged);
}

#[test]
fn every_fixture_opens_and_replays_as_it_was_recorded() {
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let m = read_manifest(&dir).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let path = copy_of(&dir, CAMPAIGN_FILE, tmp.path());
        let c = Campaign::open(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let summaries = c.battles().unwrap();
        assert_eq!(summaries.len(), m.battles.len(), "{name}: battles");
        for (s, want) in summaries.iter().zip(&m.battles) {
            assert_eq!((s.id, &s.title), (want.id, &want.title), "{name}");
            assert_eq!(s.dice_mode.as_str(), want.dice_mode, "{name}: dice mode");
            let b = c
                .load_battle(s.id)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            check_battle(&format!("{name}, battle {}", s.id), &m, want, &*b);
            let report = c.verify_battle(s.id).unwrap();
            assert!(report.ok(), "{name}, battle {}: {report}", s.id);
        }
        // An older campaign format is upgraded on open, with a backup of the
        // file as it was; the current one is opened as it is.
        let backups: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".backup-"))
            .collect();
        let version: u32 = rusqlite::Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION, "{name}: not upgraded");
        if m.schema_version < SCHEMA_VERSION {
            assert_eq!(backups.len(), 1, "{name}: no backup before the upgrade");
            let backup = backups[0].path();
            assert_eq!(
                std::fs::read(&backup).unwrap(),
                std::fs::read(dir.join(CAMPAIGN_FILE)).unwrap(),
                "{name}: the backup is not the file as it was"
            );
        } else {
            assert!(backups.is_empty(), "{name}: a backup of a current file");
        }
    }
}

#[test]
fn every_fixture_export_imports_and_replays_as_it_was_recorded() {
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let m = read_manifest(&dir).unwrap();
        assert!(!m.exports.is_empty(), "{name}: no export file");
        let tmp = tempfile::tempdir().unwrap();
        let mut c = Campaign::create(&tmp.path().join("import.xenolog"), "import").unwrap();
        for e in &m.exports {
            let file = copy_of(&dir, &e.file, tmp.path());
            let before = std::fs::read(&file).unwrap();
            let id = c
                .import_battle(&file)
                .unwrap_or_else(|err| panic!("{name}, {}: {err}", e.file));
            assert_eq!(
                std::fs::read(&file).unwrap(),
                before,
                "{name}: import changed the file"
            );
            let want = m.battles.iter().find(|b| b.id == e.battle).unwrap();
            let b = c.load_battle(id).unwrap();
            check_battle(&format!("{name}, {}", e.file), &m, want, &*b);
        }
    }
}

#[test]
fn a_fixture_opened_read_only_is_left_byte_for_byte_as_it_was() {
    for dir in fixtures() {
        let m = read_manifest(&dir).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let path = copy_of(&dir, CAMPAIGN_FILE, tmp.path());
        let before = std::fs::read(&path).unwrap();
        match Campaign::open_read_only(&path) {
            Ok(c) => {
                for s in c.battles().unwrap() {
                    let b = c.load_battle(s.id).unwrap();
                    let _ = state_hash(&*b, b.cursor());
                }
            }
            // An older format cannot be upgraded read-only: it says so.
            Err(e) => assert!(m.schema_version < SCHEMA_VERSION, "{}: {e}", dir.display()),
        }
        assert_eq!(std::fs::read(&path).unwrap(), before, "{}", dir.display());
    }
}
