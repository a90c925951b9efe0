//! A shared file from a stranger (issue 16): an exported battle file, or a
//! campaign, built to make Xenolog allocate without bound or write outside
//! the path the user chose.
//!
//! Allocation: every declared length (a postcard varint in front of a
//! string, a byte string or a list; an entry's sequence number, which sizes
//! the list a battle is read into) is checked against what follows it, so a
//! file that claims 2^40 of something is refused in words while the heap the
//! call holds stays within [`BOUND`] of the file's own size.
//!
//! Paths: a battle whose title and branch names are paths, NULs, newlines or
//! markup is imported and exported; only the file the user chose appears.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::json;
use xenolog_engine::games;
use xenolog_saves::{Campaign, DiceMode, SaveError};
use xenolog_schema::battle_file::{BattleFile, MAGIC, read_battle_file, write_battle_file};

use super::heap::{MIB, peak_during};
use crate::race::{new_endless_race, play_n};

/// The most heap a call may hold beyond the bytes of the file it reads.
const BOUND: usize = 64 * MIB;

/// A declared length no file of ours could ever back: 2^40.
const HUGE: u64 = 1 << 40;

/// postcard's varint.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn text(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Where in a battle file's payload the huge length goes.
#[derive(Clone, Copy, Debug)]
enum Poison {
    Game,
    Config,
    Title,
    Branches,
    BranchName,
    Records,
    Command,
    Events,
    Dice,
}

const POISONS: [Poison; 9] = [
    Poison::Game,
    Poison::Config,
    Poison::Title,
    Poison::Branches,
    Poison::BranchName,
    Poison::Records,
    Poison::Command,
    Poison::Events,
    Poison::Dice,
];

/// A format 2 battle file payload written field by field (the layout of
/// `xenolog_schema::battle_file`), valid up to `poison`, where a length of
/// `claim` is declared; `filler` bytes follow it, so a decoder that believed
/// the length would have to read or reserve far past the end.
fn payload(poison: Poison, claim: u64, filler: usize) -> Vec<u8> {
    let mut p = Vec::new();
    let stop = |p: &mut Vec<u8>| {
        varint(p, claim);
        p.extend(std::iter::repeat_n(1u8, filler));
    };
    macro_rules! field {
        ($which:ident, $ok:expr) => {
            if matches!(poison, Poison::$which) {
                stop(&mut p);
                return p;
            }
            $ok;
        };
    }
    field!(Game, text(&mut p, "race"));
    varint(&mut p, 7); // seed
    varint(&mut p, 1); // rules version
    field!(Config, text(&mut p, "{}"));
    field!(Title, text(&mut p, "T"));
    varint(&mut p, 0); // dice mode: rolled
    varint(&mut p, 0); // created (zigzag)
    field!(Branches, varint(&mut p, 1));
    varint(&mut p, 0); // branch id
    field!(BranchName, text(&mut p, "Main"));
    p.extend([0, 0]); // parent, fork: None
    field!(Records, varint(&mut p, 1));
    varint(&mut p, 0); // parent gap
    varint(&mut p, 0); // branch
    p.push(0); // actor
    field!(Command, text(&mut p, "\u{1}"));
    field!(Events, text(&mut p, "\u{1}"));
    field!(Dice, varint(&mut p, 0));
    unreachable!("every poison is placed above")
}

/// Magic, format 2, the payload and its BLAKE3: the checksum a stranger can
/// compute as well as we can.
fn sealed(payload: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(payload);
    let sum = blake3::hash(&out);
    out.extend_from_slice(sum.as_bytes());
    out
}

fn fresh_campaign(dir: &Path) -> (Campaign, PathBuf) {
    let path = dir.join("club.xenolog");
    (Campaign::create(&path, "Club").unwrap(), path)
}

/// Every declared length of 2^40 (and of 2^64 - 1) inside a battle file is
/// refused in words, no battle is added, and the heap stays bounded.
#[test]
fn a_battle_file_declaring_huge_lengths_is_refused_without_allocating_them() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = fresh_campaign(dir.path());
    for poison in POISONS {
        for claim in [HUGE, u64::MAX, 1 << 31] {
            for filler in [0, 64, 4096] {
                let bytes = sealed(&payload(poison, claim, filler));
                let file = dir.path().join("stranger.xbattle");
                std::fs::write(&file, &bytes).unwrap();
                let what = format!("{poison:?} claiming {claim} with {filler} bytes after");
                let (read, peak) = peak_during(|| read_battle_file(&bytes));
                assert!(read.is_err(), "{what}: decoded");
                assert!(peak < BOUND, "{what}: decoding held {peak} bytes");
                let (out, peak) = peak_during(|| c.import_battle(&file));
                let err = out.expect_err(&what);
                assert!(
                    matches!(err, SaveError::BadBattleFile { .. }),
                    "{what}: {err}"
                );
                assert!(
                    err.to_string().contains("contents are damaged"),
                    "{what}: {err}"
                );
                assert!(
                    peak < BOUND + bytes.len(),
                    "{what}: importing held {peak} bytes"
                );
            }
        }
    }
    assert!(c.battles().unwrap().is_empty(), "nothing was imported");
}

/// The poisoned payloads are right but for the poison: the same builder with
/// honest lengths makes a file that decodes, so the refusals above are about
/// the lengths and nothing else.
#[test]
fn the_poison_builder_makes_a_readable_file_when_honest() {
    let mut p = payload(Poison::Dice, 0, 0);
    p.push(0); // entered
    varint(&mut p, 0); // rng_after
    p.extend([0; 32]); // state hash, chain
    varint(&mut p, 1); // the entry's rules version
    p.extend([0, 0]); // cursor None, branch 0
    p.push(0); // strict: no
    let f = read_battle_file(&sealed(&p)).expect("an honest file decodes");
    assert_eq!((f.meta.game.as_str(), f.records.len()), ("race", 1));
    assert_eq!(f.branches[0].name, "Main");
}

/// Put `record` as entry `seq` of battle 1 behind the store's back.
fn raw_entry(path: &Path, edit: &str) {
    let raw = rusqlite::Connection::open(path).unwrap();
    raw.execute_batch(edit).unwrap();
}

fn campaign_with_a_race(dir: &Path, moves: usize) -> PathBuf {
    let (mut c, path) = fresh_campaign(dir);
    let id = new_endless_race(&mut c, 5);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, moves);
    path
}

/// Read battle 1 every way the store does, measuring the heap; each must be
/// an error naming `entry`, not a crash.
fn every_read_refuses(path: &Path, expect: &str) {
    for read_only in [true, false] {
        let c = if read_only {
            Campaign::open_read_only(path).unwrap()
        } else {
            Campaign::open(path).unwrap()
        };
        let (loaded, peak) = peak_during(|| c.load_battle(1).map(|_| ()));
        let err = loaded.expect_err("the damaged battle loaded");
        assert!(err.to_string().contains(expect), "{err}");
        assert!(peak < BOUND, "loading held {peak} bytes");
        let (verified, peak) = peak_during(|| c.verify_battle(1));
        match verified {
            Ok(report) => assert!(!report.ok(), "verify passed a damaged battle"),
            Err(e) => assert!(e.to_string().contains(expect), "{e}"),
        }
        assert!(peak < BOUND, "verifying held {peak} bytes");
        let (exported, peak) = peak_during(|| c.export_battle(1, &path.with_extension("xbattle")));
        assert!(exported.is_err(), "a damaged battle was exported");
        assert!(peak < BOUND, "exporting held {peak} bytes");
        assert!(c.battles().is_ok(), "the list still reads");
    }
}

/// An entry whose stored record declares a command of 2^40 bytes.
#[test]
fn an_entry_declaring_a_huge_blob_is_a_damaged_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = campaign_with_a_race(dir.path(), 20);
    // Envelope 2, parent gap 1, branch 0, actor 0, then a command "of 2^40 bytes".
    let mut rec = vec![2, 1, 0, 0];
    varint(&mut rec, HUGE);
    rec.extend([1; 40]);
    let hex: String = rec.iter().map(|b| format!("{b:02x}")).collect();
    raw_entry(
        &path,
        &format!("UPDATE entries SET record = x'{hex}' WHERE battle = 1 AND seq = 10"),
    );
    every_read_refuses(&path, "entry 10");
}

/// Bug: the store sized the list it reads a battle into by the last entry's
/// sequence number + 1, so an entry renumbered 2^40 (one flipped bit in a
/// key) asked for terabytes before the first row was read and the process
/// aborted; and an entry numbered -1 overflowed the count.
#[test]
fn regression_an_entry_numbered_2_to_the_40_does_not_size_the_battle() {
    for seq in [HUGE as i64, i64::MAX, -1, i64::MIN] {
        let dir = tempfile::tempdir().unwrap();
        let path = campaign_with_a_race(dir.path(), 20);
        raw_entry(
            &path,
            &format!("UPDATE entries SET seq = {seq} WHERE battle = 1 AND seq = 19"),
        );
        let expect = if seq < 0 {
            "entry 0 is missing"
        } else {
            "entry 19 is missing"
        };
        every_read_refuses(&path, expect);
    }
}

/// Every file and folder under `dir`, relative to it.
fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p.clone());
            }
            out.insert(p.strip_prefix(dir).unwrap().to_owned());
        }
    }
    out
}

/// Titles and names a stranger might put in a file to make us write elsewhere.
const HOSTILE_NAMES: [&str; 9] = [
    "../../x",
    "/etc/passwd",
    "..\\..\\windows\\system32\\x",
    "a\0b",
    "line one\nline two\r\n",
    "<script>alert(1)</script>",
    "C:\\x",
    "",
    "~/.ssh/authorized_keys",
];

/// A battle file of a real battle whose title and branch names are `name`.
fn hostile_battle_file(name: &str) -> Vec<u8> {
    let mut b = games::new_battle("race", 9, &json!({ "target": 30 })).unwrap();
    for i in 0..12 {
        let legal = b.legal();
        if legal.is_empty() {
            break;
        }
        let c = &legal[(i * 3 + 1) % legal.len()];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).unwrap();
    }
    // A branch too, so a branch name is carried.
    b.undo(3);
    let legal = b.legal();
    let c = legal.last().unwrap();
    let p = b.prepare_json(c.actor, &c.command, None).unwrap();
    b.commit(p).unwrap();
    let mut branches = b.branches().to_vec();
    for br in &mut branches {
        br.name = name.to_owned();
    }
    let file = BattleFile {
        meta: b.meta().clone(),
        title: name.to_owned(),
        dice_mode: DiceMode::Rolled,
        created: 0,
        branches,
        records: b.records().to_vec(),
        cursor: b.cursor(),
        branch: b.current_branch(),
        secret: None,
    };
    write_battle_file(&file).unwrap()
}

/// No path inside a file is ever used to write: importing a battle whose
/// names are paths and exporting it again writes the campaign (and its own
/// sidecars) and the file the user chose, nothing else.
#[test]
fn names_inside_a_battle_file_never_become_paths() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = fresh_campaign(dir.path());
    let incoming = dir.path().join("incoming.xbattle");
    for (i, name) in HOSTILE_NAMES.iter().enumerate() {
        std::fs::write(&incoming, hostile_battle_file(name)).unwrap();
        let before = tree(dir.path());
        let id = c
            .import_battle(&incoming)
            .unwrap_or_else(|e| panic!("{name:?}: {e}"));
        assert_eq!(tree(dir.path()), before, "{name:?}: importing made a file");
        let s = c.summary(id).unwrap();
        let want = if name.trim().is_empty() {
            s.title.clone()
        } else {
            name.to_string()
        };
        assert_eq!(s.title, want, "the title is kept as text");
        let b = c.load_battle(id).unwrap();
        assert!(b.branches().iter().all(|br| br.name == *name));
        assert!(c.verify_battle(id).unwrap().ok());
        let out = dir.path().join(format!("chosen-{i}.xbattle"));
        c.export_battle(id, &out).unwrap();
        let mut expect = before.clone();
        expect.insert(PathBuf::from(format!("chosen-{i}.xbattle")));
        assert_eq!(
            tree(dir.path()),
            expect,
            "{name:?}: exporting wrote elsewhere"
        );
        let back = read_battle_file(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(back.title, s.title, "{name:?}");
    }
    // Nothing escaped the folder either: the names that are paths are not there.
    assert!(!dir.path().join("../x").exists());
    assert!(!dir.path().parent().unwrap().join("x").exists());
}

/// The sample campaign (with a campaign layer: rosters and battles fought
/// with them) at `dir/sample.xenolog`, and a battle its campaign log names.
fn sample_with_a_fought_battle(dir: &Path) -> (PathBuf, i64) {
    let path = dir.join("sample.xenolog");
    super::mutants::sample_campaign(&path);
    let c = Campaign::open(&path).unwrap();
    let fought = c
        .campaign_log()
        .unwrap()
        .into_iter()
        .find_map(|e| match e.event {
            xenolog_engine::campaign::CampaignEvent::BattleFought { battle, .. } => Some(battle),
            _ => None,
        })
        .expect("the sample campaign has a battle fought with its rosters");
    (path, fought)
}

/// Bug: the campaign layer keyed a battle's cached result by its last
/// entry's number + 1, which overflowed (a panic in a debug build) when a
/// damaged file numbered that entry `i64::MAX`; and verifying the campaign
/// log overflowed on an entry numbered `u32::MAX`.
#[test]
fn regression_entry_and_log_numbers_at_their_maximum_do_not_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let (path, fought) = sample_with_a_fought_battle(dir.path());
    raw_entry(
        &path,
        &format!(
            "UPDATE entries SET seq = {} WHERE battle = {fought} AND seq =
                 (SELECT MAX(seq) FROM entries WHERE battle = {fought});
             UPDATE campaign_log SET id = {} WHERE id = (SELECT MAX(id) FROM campaign_log);",
            i64::MAX,
            u32::MAX
        ),
    );
    for read_only in [true, false] {
        let c = if read_only {
            Campaign::open_read_only(&path).unwrap()
        } else {
            Campaign::open(&path).unwrap()
        };
        match c.campaign_recompute() {
            Ok(_) => {}
            Err(e) => assert!(e.to_string().contains(&format!("battle {fought}")), "{e}"),
        }
        let report = c.verify_campaign().unwrap();
        assert!(!report.ok(), "a damaged campaign verified clean");
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.contains(&format!("battle {fought} cannot be read"))),
            "{:?}",
            report.problems
        );
    }
}
