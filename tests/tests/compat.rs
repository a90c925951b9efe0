//! Old campaigns always open (DESIGN.md principle 12): every fixture under
//! `tests/fixtures/compat/` (see `xenolog_tests::compat`) is opened by this
//! build and must read as the build that wrote it read it.

use std::path::{Path, PathBuf};

use xenolog_engine::games;
use xenolog_engine::{Battle, DivergenceKind, EntryId};
use xenolog_saves::Campaign;
use xenolog_schema::SCHEMA_VERSION;
use xenolog_tests::compat::{
    BattleManifest, CAMPAIGN_FILE, Manifest, describe_battle, describe_campaign, read_manifest,
    state_hash,
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
    games::entry(game)
        .and_then(|e| e.rules)
        .unwrap_or_else(|| panic!("{game} is no longer in the registry"))
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
    assert_eq!(got.strict, want.strict, "{what}: strict");
    assert_eq!(
        got.system_entries, want.system_entries,
        "{what}: the game's own steps"
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
    if let Some(d) = &report.rules_changed {
        assert_eq!(
            d.kind,
            DivergenceKind::RulesChanged { recorded, now },
            "{what}: {report}"
        );
    }
    // An entry decided the same that hashes differently is a layout change
    // of an older rules version, reported apart (review14 S1), and never
    // the entry named as decided differently.
    if let Some(l) = &report.layout_changed {
        assert_eq!(
            l.kind,
            DivergenceKind::RulesChanged { recorded, now },
            "{what}: {report}"
        );
        assert_ne!(
            report.rules_changed.as_ref().map(|d| d.entry),
            Some(l.entry),
            "{what}: {report}"
        );
    }
    if now == recorded {
        assert!(report.rules_changed.is_none(), "{what}: {report}");
        assert!(report.layout_changed.is_none(), "{what}: {report}");
    }
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
            // A club battle (schema 6): its fair seed checks out with the
            // revealed secret; one still in play has no secret to show.
            if let Some(seed) = &b.meta().fair {
                let seats: Vec<_> = b.seats().into_iter().map(|(a, _)| a).collect();
                let secret = c.fair_secret(s.id).unwrap();
                let r = xenolog_engine::fair::check(
                    seed,
                    b.meta().seed,
                    &seats,
                    secret.as_ref(),
                    &[],
                    b.records(),
                );
                assert!(r.ok(), "{name}, battle {}: {r:?}", s.id);
                assert_eq!(
                    secret.is_some(),
                    b.outcome().is_some(),
                    "{name}, battle {}: the secret is revealed exactly when the battle is over",
                    s.id
                );
            }
        }
        // The campaign layer folds to what it was (nothing before schema 5).
        assert_eq!(
            describe_campaign(&c).unwrap(),
            m.campaign,
            "{name}: the campaign's rosters and experience"
        );
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
            // The backup is the campaign as it was: its old format, every entry.
            let backup = rusqlite::Connection::open(backups[0].path()).unwrap();
            let (old, mut entries): (u32, i64) = backup
                .query_row(
                    "SELECT (SELECT user_version FROM pragma_user_version), COUNT(*) FROM entries",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!(old, m.schema_version, "{name}: the backup's format");
            if old >= 8 {
                // Schema 8 packs entries in sealed blocks of 1,024 beside
                // the open tail's rows.
                let blocks: i64 = backup
                    .query_row("SELECT COUNT(*) FROM entry_blocks", [], |r| r.get(0))
                    .unwrap();
                entries += blocks * 1024;
            }
            let want: u64 = m.battles.iter().map(|b| b.entries).sum();
            assert_eq!(entries as u64, want, "{name}: the backup's entries");
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

/// Battle file format 5 (session 23) carries each branch's kind; formats
/// 1-4 keep none, so an older file's kinds are worked out on loading (the
/// main line by its place, another copy's line by its name, the rest by
/// the log): every fixture's exported battle imports with the very kinds
/// its campaign's battle has (the campaign's stored since migration 9,
/// worked out on loading before), and a format 5 file keeps its own.
#[test]
fn every_fixture_export_imports_with_the_branch_kinds_its_campaign_has() {
    use xenolog_engine::BranchKind;
    let mut kinds_seen = std::collections::BTreeSet::new();
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let m = read_manifest(&dir).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
        let mut imported = Campaign::create(&tmp.path().join("import.xenolog"), "import").unwrap();
        for e in &m.exports {
            let file = copy_of(&dir, &e.file, tmp.path());
            let kinds = |b: &dyn Battle| -> Vec<(String, BranchKind)> {
                b.branches()
                    .iter()
                    .map(|x| (x.name.clone(), x.kind))
                    .collect()
            };
            let id = imported.import_battle(&file).unwrap();
            let got = kinds(&*imported.load_battle(id).unwrap());
            let want = kinds(&*c.load_battle(e.battle).unwrap());
            assert_eq!(got, want, "{name}, {}", e.file);
            assert!(
                got.iter().all(|(_, k)| *k != BranchKind::Unrecorded),
                "{name}, {}: a kind left unworked: {got:?}",
                e.file
            );
            kinds_seen.extend(got.into_iter().map(|(_, k)| k.as_str()));
        }
    }
    // The fixtures' lines: main lines, take-backs, another copy's (the
    // format 5 fixture's, renamed).
    assert!(
        ["main", "take-back", "from-copy"]
            .iter()
            .all(|k| kinds_seen.contains(k)),
        "{kinds_seen:?}"
    );
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

/// The files committed under `tests/fixtures/`: what git tracks there when
/// the tests run in a git checkout, else every file in the folder (a source
/// archive holds only what was committed).
fn committed_fixture_files() -> Vec<String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(files) = crate::git_tracked(here, "fixtures") {
        return files;
    }
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("a readable fixtures folder") {
            let p = e.expect("a readable folder entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(&here.join("fixtures"), &mut out);
    out
}

/// A fixture's campaign is one checkpointed SQLite file: its `-wal` log and
/// `-shm` index (left beside it by any connection that opened it in place)
/// are never committed, so a fresh checkout holds only the file the build
/// wrote (the compatibility tests copy that file alone; `.gitignore` keeps
/// the side files out).
#[test]
fn no_sqlite_side_file_is_committed_under_the_fixtures() {
    let files = committed_fixture_files();
    assert!(
        files.iter().any(|f| f.ends_with(CAMPAIGN_FILE)),
        "no campaign file among the fixtures: {files:?}"
    );
    let side: Vec<&String> = files
        .iter()
        .filter(|f| f.ends_with("-wal") || f.ends_with("-shm") || f.ends_with("-journal"))
        .collect();
    assert!(
        side.is_empty(),
        "SQLite side files are committed under tests/fixtures (a fixture is its \
         checkpointed campaign file alone; `git rm --cached` them): {side:?}"
    );
}

/// Every fixture's campaign file reads whole on its own, with no log beside
/// it: SQLite finds it intact and its pages fill the file (nothing of it was
/// left in a `-wal` that is not committed).
#[test]
fn every_fixture_campaign_is_whole_without_its_log() {
    for dir in fixtures() {
        let tmp = tempfile::tempdir().unwrap();
        let path = copy_of(&dir, CAMPAIGN_FILE, tmp.path());
        let len = std::fs::metadata(&path).unwrap().len();
        let db = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let check: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "{}", dir.display());
        let pages: i64 = db.query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap();
        let size: i64 = db.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        assert_eq!(
            u64::try_from(pages * size).ok(),
            Some(len),
            "{}: pages against file length",
            dir.display()
        );
        let battles: i64 = db
            .query_row("SELECT count(*) FROM battles", [], |r| r.get(0))
            .unwrap();
        let m = read_manifest(&dir).unwrap();
        assert_eq!(battles, m.battles.len() as i64, "{}", dir.display());
    }
}

/// The fixture's Dice Race battles were recorded under rules version 1, whose
/// events had another layout (a bust was an event of its own). Today's
/// version reads them through its upcaster: every state comes out as the old
/// build saw it, and `verify` counts every entry as older and finds none that
/// today's rules decide differently (the change was the layout only).
#[test]
fn the_test_games_version_1_battles_read_through_the_upcaster() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-23");
    let m = read_manifest(&dir).unwrap();
    assert_eq!(m.rules_versions["race"], 1);
    assert!(rules_now("race") > 1);
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    let mut seen = 0;
    for want in m.battles.iter().filter(|b| b.game == "race") {
        let b = c.load_battle(want.id).unwrap();
        let got = describe_battle(want.id, &want.title, &want.dice_mode, &*b);
        assert_eq!(got.states, want.states, "battle {}", want.id);
        assert_eq!(got.result, want.result, "battle {}", want.id);
        let report = b.verify();
        assert!(report.ok() && report.rules_changed.is_none(), "{report}");
        assert_eq!(report.older, want.entries);
        seen += 1;
    }
    assert_eq!(seen, 2);
    // Their snapshots, written under version 1, were rebuilt and written back.
    let raw = rusqlite::Connection::open(c.path()).unwrap();
    let mut stmt = raw
        .prepare("SELECT s.state FROM snapshots s JOIN battles b ON b.id = s.battle WHERE b.game = 'race'")
        .unwrap();
    let rows: Vec<Vec<u8>> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!rows.is_empty(), "the race battles have snapshots");
    for row in rows {
        let (rules, _) = xenolog_schema::codec::decode_snapshot(&row).unwrap();
        assert_eq!(rules, Some(rules_now("race")));
    }
}

/// A Dice Race with a rule changed in a "version 3": a 2 busts too. Used to
/// open the fixture's version 1 battle as a build with new rules would.
mod race_v3 {
    use xenolog_engine::games::race::{Race, RaceCommand, RaceConfig, RaceEvent, RaceState};
    use xenolog_engine::{
        Actor, FlowMark, Game, Outcome, Randomness, RuleError, ScenarioInfo, Scene, SetupError,
    };

    pub struct RaceV3;

    impl Game for RaceV3 {
        type Config = RaceConfig;
        type State = RaceState;
        type Command = RaceCommand;
        type Event = RaceEvent;
        const ID: &'static str = Race::ID;
        const NAME: &'static str = Race::NAME;
        const RULES_VERSION: u32 = 3;

        fn scenarios() -> Vec<ScenarioInfo> {
            Race::scenarios()
        }
        fn setup(config: &RaceConfig) -> Result<RaceState, SetupError> {
            Race::setup(config)
        }
        fn decide(
            state: &RaceState,
            actor: Actor,
            command: &RaceCommand,
            rng: &mut Randomness,
        ) -> Result<Vec<RaceEvent>, RuleError> {
            let mut events = Race::decide(state, actor, command, rng)?;
            for e in &mut events {
                if let RaceEvent::Rolled { dice, bust } = e {
                    *bust = dice.iter().any(|&d| d <= 2);
                }
            }
            Ok(events)
        }
        fn apply(state: &mut RaceState, event: &RaceEvent) {
            Race::apply(state, event)
        }
        fn legal(state: &RaceState) -> Vec<(Actor, RaceCommand)> {
            Race::legal(state)
        }
        fn asked(state: &RaceState) -> Vec<xenolog_engine::Ask> {
            Race::asked(state)
        }
        fn outcome(state: &RaceState) -> Option<Outcome> {
            Race::outcome(state)
        }
        fn view(state: &RaceState, viewer: Actor) -> RaceState {
            Race::view(state, viewer)
        }
        fn actor_name(actor: Actor) -> String {
            Race::actor_name(actor)
        }
        fn describe_command(state: &RaceState, actor: Actor, command: &RaceCommand) -> String {
            Race::describe_command(state, actor, command)
        }
        fn describe_event(state: &RaceState, event: &RaceEvent) -> String {
            Race::describe_event(state, event)
        }
        fn flow(state: &RaceState) -> FlowMark {
            Race::flow(state)
        }
        fn scene(state: &RaceState) -> Scene {
            Race::scene(state)
        }
        fn decode_command(v: u32, bytes: &[u8]) -> Result<RaceCommand, String> {
            match v {
                3 => xenolog_engine::upcast::exact(bytes),
                v => Race::decode_command(v, bytes),
            }
        }
        fn decode_events(v: u32, bytes: &[u8]) -> Result<Vec<RaceEvent>, String> {
            match v {
                3 => xenolog_engine::upcast::exact(bytes),
                v => Race::decode_events(v, bytes),
            }
        }
    }
}

/// A rule change reaches an old battle: it opens and shows every entry as
/// recorded; `verify` names, in words, the first entry the new rules decide
/// differently, and is not a failure; the battle goes on under the new rules
/// and each new entry verifies exactly.
#[test]
fn an_old_battle_opens_under_changed_rules_and_verify_names_the_first_difference() {
    use xenolog_engine::{Game, Session};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-23");
    let m = read_manifest(&dir).unwrap();
    let export = m
        .exports
        .iter()
        .find(|e| e.file == "race-entered.xbattle")
        .unwrap();
    let want = m.battles.iter().find(|b| b.id == export.battle).unwrap();
    let bytes = std::fs::read(dir.join(&export.file)).unwrap();
    let f = xenolog_schema::battle_file::read_battle_file(&bytes).unwrap();
    let mut s = Session::<race_v3::RaceV3>::from_parts(f.into_stored())
        .expect("an old battle opens under new rules");
    // Every entry as recorded.
    for (id, hash) in want.states.iter().enumerate() {
        assert_eq!(&state_hash(&s, Some(id as EntryId)), hash, "entry {id}");
    }
    // The first roll with a 2 and no 1 is where version 3 decides otherwise.
    let first_two = (0..want.entries)
        .find(|&id| {
            s.events(id).iter().any(|e| {
                matches!(e, xenolog_engine::games::race::RaceEvent::Rolled { dice, bust: false }
                    if dice.contains(&2))
            })
        })
        .expect("the fixture rolls a 2 somewhere");
    let report = s.verify();
    assert!(report.ok(), "{report}");
    let d = report.rules_changed.clone().expect("a difference is named");
    assert_eq!(d.entry, first_two);
    assert_eq!(
        d.kind,
        DivergenceKind::RulesChanged {
            recorded: 1,
            now: 3
        }
    );
    let text = report.to_string();
    assert!(
        text.contains(&format!("decide entry {first_two} differently"))
            && text.contains("recorded: rolled")
            && text.contains("replayed: rolled"),
        "{text}"
    );
    // The battle goes on under version 3, entry by entry verifiable.
    let actor = <race_v3::RaceV3 as Game>::to_move(s.state()).unwrap();
    let id = s
        .play(
            actor,
            &xenolog_engine::games::race::RaceCommand::Hold,
            Some(vec![]),
        )
        .unwrap();
    assert_eq!(s.records()[id as usize].rules_version, 3);
    let report = s.verify();
    assert!(report.ok(), "{report}");
    assert_eq!(report.older, want.entries);
}

/// Alien Invasion battles recorded under rules version 1 open, read every
/// entry through today's layout (version 2 only added commands and events at
/// the end of their enums), come out as the old build saw them up to any
/// entry today's rules decide differently, and `verify` reports that entry
/// as a change of rules, never as tampering.
#[test]
fn alien_invasion_version_1_battles_open_and_verify_under_version_2() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-23-invasion");
    let m = read_manifest(&dir).unwrap();
    assert_eq!(m.rules_versions["invasion"], 1);
    assert!(rules_now("invasion") >= 2);
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    let mut seen = 0;
    for want in m.battles.iter().filter(|b| b.game == "invasion") {
        let b = c.load_battle(want.id).unwrap();
        let report = b.verify();
        assert!(report.ok(), "battle {}: {report}", want.id);
        assert_eq!(report.older, want.entries, "every entry is of version 1");
        let got = describe_battle(want.id, &want.title, &want.dice_mode, &*b);
        assert_eq!(got.states.len(), want.states.len());
        seen += 1;
    }
    assert!(seen >= 2);
}

/// Review14 S1: Alien 5 added `Character::shot_at` and Saucers 4
/// `SaucersState::offer`, so every entry of the fixture's Alien 4 and
/// Saucers 3 battles hashes differently, though none is decided otherwise
/// (neither battle shoots one alien twice in a phase or takes from a hidden
/// hand). Verify says so: a layout change from entry 0, and no entry named
/// as decided differently. Pinned from those versions on: a later bump that
/// decides none of these entries otherwise (Saucers 5 only adds the
/// withdrawal of an offer) keeps the claim, and a bump that breaks it must
/// say so here.
#[test]
fn a_battle_of_the_state_layout_before_alien_5_and_saucers_4_is_a_layout_change_not_a_decision_change()
 {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-28-rules21");
    let m = read_manifest(&dir).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    let (mut seen, mut pinned) = (Vec::new(), Vec::new());
    for (game, then, now) in [("alien", 4, 5), ("saucers", 3, 4)] {
        assert_eq!(m.rules_versions[game], then);
        // Still pinned once a game is bumped again (Saucers 5, session 22:
        // review15 SHOULD 2); only a build older than the pin skips it.
        if rules_now(game) < now {
            continue;
        }
        pinned.push(game);
        for want in m.battles.iter().filter(|b| b.game == game) {
            let report = c.load_battle(want.id).unwrap().verify();
            assert!(report.ok(), "{game}: {report}");
            assert_eq!(report.older, want.entries, "{game}: {report}");
            assert_eq!(report.rules_changed, None, "{game}: {report}");
            let l = report.layout_changed.clone().expect("a layout change");
            assert_eq!(l.entry, 0, "{game}: {report}");
            let text = report.to_string();
            assert!(
                text.contains(
                    "note: entry 0 was decided the same, hashed differently: the state's stored \
                     layout changed, expected"
                ) && !text.contains("differently than"),
                "{game}: {text}"
            );
            seen.push(game);
        }
    }
    assert!(
        pinned.iter().all(|g| seen.contains(g)),
        "{seen:?} of {pinned:?}"
    );
}

/// Schema 4: notes and bookmarks beside a battle's log survive opening.
#[test]
fn notes_and_bookmarks_of_schema_4_are_kept() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-23-schema4");
    let m = read_manifest(&dir).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    let alien = m.battles.iter().find(|b| b.game == "alien").unwrap().id;
    let notes = c.notes(alien).unwrap();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].bookmark);
    assert_eq!(notes[0].text, "the first entry: where the expedition lands");
    assert!(c.load_battle(alien).unwrap().verify().ok());
}

/// Schema 5: a campaign file from before the campaign layer opens with no
/// rosters, takes a roster at once, and keeps its battles as they were.
#[test]
fn a_schema_4_campaign_gains_rosters_and_keeps_its_battles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-23-schema4");
    let m = read_manifest(&dir).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    assert!(describe_campaign(&c).unwrap().is_empty());
    let r = c.add_roster("Hawks", "unit").unwrap();
    c.add_model(r, "Sgt Benton", "rifleman").unwrap();
    let lines = describe_campaign(&c).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("\"Sgt Benton\" (rifleman) Fit: earned 0")),
        "{lines:?}"
    );
    assert_eq!(c.battles().unwrap().len(), m.battles.len());
}

/// The fixture of packed entries (schema 8, issue 29): its long Dice Race,
/// played command by command, is stored as two sealed blocks of 1,024
/// entries and a tail of rows that meets them, and the battle stored whole
/// is one block and no tail; opened by today's build, both read as they were
/// recorded (the general tests above check every state).
#[test]
fn the_packed_fixture_s_blocks_meet_its_tail() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-28-packed");
    let m = read_manifest(&dir).unwrap();
    assert_eq!(m.schema_version, 8);
    let tmp = tempfile::tempdir().unwrap();
    let path = copy_of(&dir, CAMPAIGN_FILE, tmp.path());
    let raw = rusqlite::Connection::open(&path).unwrap();
    let layout = |battle: i64| -> (i64, i64, Option<i64>, Option<i64>) {
        raw.query_row(
            "SELECT (SELECT COUNT(*) FROM entry_blocks WHERE battle = ?1),
                    (SELECT COUNT(*) FROM entries WHERE battle = ?1),
                    (SELECT MAX(first) FROM entry_blocks WHERE battle = ?1),
                    (SELECT MIN(seq) FROM entries WHERE battle = ?1)",
            [battle],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap()
    };
    let played = &m.battles[0];
    assert!(played.entries > 2048 && played.branches.len() > 1);
    assert_eq!(
        layout(played.id),
        (2, played.entries as i64 - 2048, Some(1024), Some(2048)),
        "two blocks, and the tail from the entry after them"
    );
    let whole = &m.battles[1];
    assert_eq!(whole.entries, 1024);
    assert_eq!(layout(whole.id), (1, 0, Some(0), None));
    drop(raw);
    // Upgraded on opening (schema 9 came after the fixture): a read-only
    // open of an older file is refused.
    let c = Campaign::open(&path).unwrap();
    for want in &m.battles[..2] {
        let b = c.load_battle(want.id).unwrap();
        check_battle("packed, upgraded", &m, want, &*b);
    }
    drop(c);
    // Upgraded, it opens read-only too, and its sealed blocks read there.
    let c = Campaign::open_read_only(&path).unwrap();
    for want in &m.battles[..2] {
        let b = c.load_battle(want.id).unwrap();
        check_battle("packed, upgraded, read-only", &m, want, &*b);
    }
}

/// Makes the fixture of packed entries (`fixtures/compat/2026-11-28-packed`)
/// with this build; run once, by hand, when the fixture was made:
///
/// ```sh
/// XENOLOG_MAKE_PACKED=tests/fixtures/compat/2026-11-28-packed \
///   cargo test -p xenolog-tests --test tests compat::make_the_packed_fixture -- --ignored
/// ```
///
/// The folder must not exist. Its campaign holds a Dice Race of 2,100 commands
/// played one by one through `Campaign::play`, with take-backs (so its later
/// entries are on other branches), which seals two blocks as it goes; the
/// same game's first 1,024 entries stored whole (one block, no tail); and a
/// race of 30 commands (a tail alone). The long race is exported too.
#[test]
#[ignore = "writes a fixture: run by hand (see its docs)"]
fn make_the_packed_fixture() {
    use serde_json::json;
    use xenolog_engine::games::race::{Race, RaceConfig};
    use xenolog_engine::{Game, Session};
    use xenolog_saves::DiceMode;

    let dir = new_fixture_dir("XENOLOG_MAKE_PACKED");
    let mut c = Campaign::create(&dir.join(CAMPAIGN_FILE), "Packed entries fixture").unwrap();
    let id = c
        .new_battle(
            "race",
            21,
            &json!({ "target": 1_000_000 }),
            "Dice Race, 2,100 commands played one by one, in progress",
            DiceMode::Rolled,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    for i in 0..2100usize {
        // A take-back, then another command than the one taken back: a branch.
        let turn = if i % 500 == 499 {
            b.undo(4);
            1
        } else {
            0
        };
        let legal = b.legal();
        let pick = legal[(i * 7 + 3 + turn) % legal.len()].clone();
        c.play(id, &mut *b, pick.actor, &pick.command, None)
            .unwrap();
    }
    b.undo(2);
    c.save_position(id, &*b).unwrap();
    let mut s = Session::<Race>::new(22, RaceConfig { target: u32::MAX }).unwrap();
    for i in 0..1024usize {
        let legal = Race::legal(s.state());
        let (actor, command) = legal[(i * 3 + 1) % legal.len()].clone();
        s.play(actor, &command, None).unwrap();
    }
    let whole = c
        .insert_battle_bulk(
            &s,
            "Dice Race, 1,024 entries stored whole",
            DiceMode::Rolled,
        )
        .unwrap();
    assert_eq!(whole, id + 1);
    let short = c
        .new_battle(
            "race",
            23,
            &json!({ "target": 1_000_000 }),
            "Dice Race, 30 commands (a tail alone), in progress",
            DiceMode::Rolled,
        )
        .unwrap();
    let mut b = c.load_battle(short).unwrap();
    for i in 0..30usize {
        let legal = b.legal();
        let pick = legal[(i * 5 + 1) % legal.len()].clone();
        c.play(short, &mut *b, pick.actor, &pick.command, None)
            .unwrap();
    }
    let file = "race-packed.xbattle";
    c.export_battle(id, &dir.join(file)).unwrap();
    write_manifest(&dir, c, "compat::make_the_packed_fixture", &[(file, id)]);
}

/// A fixture folder that does not exist yet, made, from the environment
/// variable `var` (a fixture maker run by hand).
fn new_fixture_dir(var: &str) -> PathBuf {
    let Some(dir) = std::env::var_os(var).map(PathBuf::from) else {
        panic!("set {var} to the folder to write");
    };
    assert!(
        !dir.exists(),
        "{} exists: a fixture is never rewritten",
        dir.display()
    );
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write a hand-made fixture's manifest for campaign `c` (closed after),
/// made by `maker`, with its export files and the battle each holds.
fn write_manifest(dir: &Path, c: Campaign, maker: &str, exports: &[(&str, i64)]) {
    use std::collections::BTreeMap;
    use xenolog_schema::battle_file::BATTLE_FILE_FORMAT;
    use xenolog_schema::codec::{ENTRY_FORMAT, SNAPSHOT_FORMAT};
    use xenolog_tests::compat::{ExportManifest, MANIFEST_FILE, describe_battles};
    let manifest = Manifest {
        written_by: format!(
            "xenolog {} on 2026-11-28 ({maker})",
            env!("CARGO_PKG_VERSION")
        ),
        schema_version: SCHEMA_VERSION,
        entry_format: ENTRY_FORMAT,
        snapshot_format: SNAPSHOT_FORMAT,
        battle_file_format: BATTLE_FILE_FORMAT,
        rules_versions: games::games()
            .iter()
            .filter(|g| g.available)
            .map(|g| (g.id.to_owned(), g.rules_version))
            .collect::<BTreeMap<_, _>>(),
        battles: describe_battles(&c).unwrap(),
        exports: exports
            .iter()
            .map(|(file, battle)| ExportManifest {
                file: (*file).to_owned(),
                battle: *battle,
            })
            .collect(),
        campaign: describe_campaign(&c).unwrap(),
    };
    drop(c);
    let text = serde_json::to_string_pretty(&manifest).unwrap() + "\n";
    std::fs::write(dir.join(MANIFEST_FILE), text).unwrap();
}

/// The fixture of battle file format 5 (`fixtures/compat/2026-11-28-format5`,
/// session 23): its export carries each branch's kind, a renamed grafted
/// line's among them. The file is format 5; its lines come back with their
/// kinds, the renamed one as another copy's line, in its campaign as in a
/// campaign it is imported into.
#[test]
fn the_format_5_fixture_keeps_a_renamed_grafted_lines_kind() {
    use xenolog_engine::BranchKind;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-28-format5");
    let m = read_manifest(&dir).unwrap();
    assert_eq!(m.battle_file_format, 5);
    let e = &m.exports[0];
    let bytes = std::fs::read(dir.join(&e.file)).unwrap();
    assert_eq!(&bytes[..16], b"XENOLOG-BATTLE\n\x05");
    let want = [
        ("Main", BranchKind::Main),
        ("Another try", BranchKind::TakeBack),
        ("Walsh's game", BranchKind::FromCopy),
    ];
    let kinds = |b: &dyn Battle| -> Vec<(String, BranchKind)> {
        b.branches()
            .iter()
            .map(|x| (x.name.clone(), x.kind))
            .collect()
    };
    let want: Vec<(String, BranchKind)> = want.iter().map(|(n, k)| ((*n).into(), *k)).collect();
    let f = xenolog_schema::battle_file::read_battle_file(&bytes).unwrap();
    assert_eq!(
        f.branches
            .iter()
            .map(|x| (x.name.clone(), x.kind))
            .collect::<Vec<_>>(),
        want
    );
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    assert_eq!(kinds(&*c.load_battle(e.battle).unwrap()), want);
    let mut other = Campaign::create(&tmp.path().join("other.xenolog"), "Other").unwrap();
    let id = other
        .import_battle(&copy_of(&dir, &e.file, tmp.path()))
        .unwrap();
    let b = other.load_battle(id).unwrap();
    assert_eq!(kinds(&*b), want);
    assert!(
        b.takebacks_past_rolls().iter().all(|&br| br != 2),
        "the renamed grafted line reads as a take-back"
    );
}

/// Makes the fixture of battle file format 5
/// (`fixtures/compat/2026-11-28-format5`) with this build; run once, by
/// hand, when the fixture was made:
///
/// ```sh
/// XENOLOG_MAKE_FORMAT5=tests/fixtures/compat/2026-11-28-format5 \
///   cargo test -p xenolog-tests --test tests compat::make_the_format_5_fixture -- --ignored
/// ```
///
/// The folder must not exist. Its campaign holds a Dice Race of 20
/// commands, copied to a second file ("laptop.xenolog", not kept), played
/// on apart in both (the organiser's with a take-back, "Another try"), the
/// laptop's merged in (its line grafted as another copy's) and renamed
/// "Walsh's game"; the battle is exported (format 5).
#[test]
#[ignore = "writes a fixture: run by hand (see its docs)"]
fn make_the_format_5_fixture() {
    use serde_json::json;
    use xenolog_saves::DiceMode;
    let dir = new_fixture_dir("XENOLOG_MAKE_FORMAT5");
    let path = dir.join(CAMPAIGN_FILE);
    let mut c = Campaign::create(&path, "Battle file format 5 fixture").unwrap();
    let id = c
        .new_battle(
            "race",
            29,
            &json!({ "target": 1_000_000 }),
            "Dice Race played on in two copies, merged, the laptop's line renamed",
            DiceMode::Rolled,
        )
        .unwrap();
    let play = |c: &mut Campaign, n: usize, k: usize| {
        let mut b = c.load_battle(id).unwrap();
        for i in 0..n {
            let legal = b.legal();
            let pick = legal[(i * k + 2) % legal.len()].clone();
            c.play(id, &mut *b, pick.actor, &pick.command, None)
                .unwrap();
        }
        b
    };
    drop(play(&mut c, 20, 5));
    drop(c);
    let tmp = tempfile::tempdir().unwrap();
    let laptop = tmp.path().join("laptop.xenolog");
    std::fs::copy(&path, &laptop).unwrap();
    let mut c = Campaign::open(&path).unwrap();
    let mut b = play(&mut c, 8, 5);
    b.undo(2);
    c.save_position(id, &*b).unwrap();
    let legal = b.legal();
    let pick = legal[legal.len() - 1].clone();
    c.play(id, &mut *b, pick.actor, &pick.command, None)
        .unwrap();
    b.rename_branch(1, "Another try").unwrap();
    c.save_position(id, &*b).unwrap();
    drop(b);
    drop(play(&mut Campaign::open(&laptop).unwrap(), 8, 3));
    c.merge(&laptop).unwrap();
    let mut b = c.load_battle(id).unwrap();
    assert_eq!(b.branches().len(), 3);
    b.rename_branch(2, "Walsh's game").unwrap();
    c.save_position(id, &*b).unwrap();
    drop(b);
    let file = "race-grafted-renamed.xbattle";
    c.export_battle(id, &dir.join(file)).unwrap();
    write_manifest(&dir, c, "compat::make_the_format_5_fixture", &[(file, id)]);
}

/// Session 23's bumps (Dimension X 6, Night of the Saucers 6, Alien
/// Invasion 10) change what happens only in the two-player variant of
/// Dimension X, with Saucers' options and with Sighting a Target: every
/// battle of the last fixture written before them (`2026-11-28-schema9`:
/// Dimension X 5, Saucers 5, Alien Invasion 9) that uses none of those is
/// decided entry for entry as it was recorded (review20 S2: compat alone
/// accepts any rules change of an older battle). A battle that uses one of
/// them may be reported as a rules change, never as tampering.
#[test]
fn session_23s_bumps_decide_no_entry_of_a_battle_outside_what_they_changed_differently() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat/2026-11-28-schema9");
    let m = read_manifest(&dir).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let c = Campaign::open(&copy_of(&dir, CAMPAIGN_FILE, tmp.path())).unwrap();
    let mut checked = 0;
    for want in &m.battles {
        let b = c.load_battle(want.id).unwrap();
        let report = b.verify();
        assert!(report.ok(), "{}: {report}", want.title);
        // The battles that use what changed: the two-player Dimension X
        // battle and the battle with every Advanced Invasion Earth module
        // (Sighting a Target among them).
        let uses_a_change = want.title.contains("two players") && want.game == "dimx"
            || want.title.contains("every Advanced Invasion Earth module");
        if uses_a_change {
            if let Some(d) = &report.rules_changed {
                assert!(
                    matches!(d.kind, DivergenceKind::RulesChanged { .. }),
                    "{}: {report}",
                    want.title
                );
            }
            continue;
        }
        assert_eq!(report.rules_changed, None, "{}: {report}", want.title);
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
