//! Faults a kill cannot make (issue 16): a full disk and a read-only folder,
//! on a real small file system.
//!
//! Each test mounts a 2 MiB tmpfs in a temporary folder (unmounted by a drop
//! guard), puts the campaign or the export target on it, and fills it with a
//! filler file until the system says it is full, or remounts it read-only.
//! Then the save must fail with an error that says what happened in words,
//! nothing committed before may be lost, the battle in memory must be as it
//! was (same entries, cursor, branch and state hash), and once the space is
//! freed (or the folder writable again) the campaign must work again and
//! show every acknowledged entry when reopened.
//!
//! Mounting needs root. Without it the test runs itself again inside a new
//! user and mount namespace (`unshare --user --map-root-user --mount`), where
//! it may mount; it says which way it ran. If neither is possible it fails,
//! saying why, unless `XENOLOG_FAULTS_SKIP=1` asks it to skip (and it says so):
//! it never passes without the fault having happened.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;
use xenolog_engine::Battle;
use xenolog_saves::{BattleId, Campaign};

/// The Dice Race set-up every test binary shares (`store/common.rs` uses it).
#[path = "support/race.rs"]
#[allow(dead_code)]
mod race;

/// The store tests' helpers (one campaign-with-a-race maker for every test binary).
#[path = "store/common.rs"]
#[allow(dead_code, unused_imports)]
mod common;

/// Set in the child that runs a test inside a user and mount namespace.
const IN_NAMESPACE: &str = "XENOLOG_FAULTS_IN_NAMESPACE";

/// A small tmpfs mounted in a temporary folder; unmounted when dropped.
struct SmallDisk {
    mnt: PathBuf,
    filler: PathBuf,
    _dir: TempDir,
}

impl SmallDisk {
    fn mount() -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mnt = dir.path().join("disk");
        std::fs::create_dir(&mnt).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
            .arg(&mnt)
            .output()
            .map_err(|e| format!("mount could not be run: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "mount failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(SmallDisk {
            filler: mnt.join("filler"),
            mnt,
            _dir: dir,
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.mnt.join(name)
    }

    /// Fill the disk until the system refuses: the fault really happened.
    fn fill(&self) {
        let mut f = std::fs::File::create(&self.filler).unwrap();
        let chunk = vec![0xA5u8; 64 * 1024];
        let err = loop {
            if let Err(e) = f.write_all(&chunk) {
                break e;
            }
        };
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::StorageFull,
            "filling the disk failed otherwise: {err}"
        );
        // Whatever is left in half-used pages: fill it byte by byte.
        while f.write_all(&[0]).is_ok() {}
    }

    /// Remove the filler and wait until the file system has its space back.
    /// Another test's child process (a `mount` or `umount` this binary runs
    /// on another thread), forked while the filler was open and not yet
    /// exec'd, holds the filler open until it execs: on a busy machine that
    /// can outlast the removal, and a play "once there is space" then still
    /// meets a full disk (seen once in a whole-suite run under load).
    fn free(&self) {
        let len = std::fs::metadata(&self.filler).unwrap().len();
        std::fs::remove_file(&self.filler).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let available = self.available();
            if available + 64 * 1024 >= len {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the filler's {len} bytes did not come back in 60 s: {available} available"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Bytes available to a writer on the small disk (`stat -f`).
    fn available(&self) -> u64 {
        let out = Command::new("stat")
            .args(["-f", "-c", "%a %S"])
            .arg(&self.mnt)
            .output()
            .expect("stat runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text
            .split_whitespace()
            .map(|w| w.parse::<u64>().expect("a number"));
        let (blocks, size) = (it.next().expect("blocks"), it.next().expect("block size"));
        blocks * size
    }

    /// Remount read-only or writable again.
    fn remount(&self, read_only: bool) -> Result<(), String> {
        let how = if read_only {
            "remount,ro"
        } else {
            "remount,rw"
        };
        let out = Command::new("mount")
            .args(["-o", how])
            .arg(&self.mnt)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let plain = Command::new("umount").arg(&self.mnt).status();
        if !plain.is_ok_and(|s| s.success()) {
            let _ = Command::new("umount").arg("-l").arg(&self.mnt).status();
        }
    }
}

/// Run `body` with a small disk: mounted here, or in a user namespace by
/// running this test again there. `name` is the test's own name.
fn with_small_disk(name: &str, body: impl FnOnce(SmallDisk)) {
    let direct = if std::env::var_os("XENOLOG_FAULTS_FORCE_NAMESPACE").is_some()
        && std::env::var_os(IN_NAMESPACE).is_none()
    {
        Err("a namespace was asked for (XENOLOG_FAULTS_FORCE_NAMESPACE)".to_owned())
    } else {
        SmallDisk::mount()
    };
    match direct {
        Ok(disk) => {
            let how = if std::env::var_os(IN_NAMESPACE).is_some() {
                "inside a user namespace"
            } else {
                "directly"
            };
            eprintln!("{name}: the fault runs on a 2 MiB tmpfs mounted {how}");
            body(disk);
        }
        Err(why) if std::env::var_os(IN_NAMESPACE).is_some() => {
            panic!("{name}: mounting failed even inside a user namespace: {why}")
        }
        Err(why) => {
            let exe = std::env::current_exe().unwrap();
            let child = Command::new("unshare")
                .args(["--user", "--map-root-user", "--mount"])
                .arg(&exe)
                .args(["--exact", name, "--nocapture", "--test-threads=1"])
                .env(IN_NAMESPACE, "1")
                .output();
            match child {
                Ok(out) if out.status.success() => {
                    let text = String::from_utf8_lossy(&out.stdout);
                    assert!(
                        text.contains("1 passed"),
                        "{name}: the namespaced run did not run the test: {text}"
                    );
                    eprintln!(
                        "{name}: mount was not permitted here ({why}); the fault ran on a tmpfs inside a user namespace"
                    );
                }
                other => {
                    let words = match other {
                        Ok(out) => format!(
                            "{}{}",
                            String::from_utf8_lossy(&out.stdout),
                            String::from_utf8_lossy(&out.stderr)
                        ),
                        Err(e) => format!("unshare could not be run: {e}"),
                    };
                    if std::env::var_os("XENOLOG_FAULTS_SKIP").is_some() {
                        eprintln!(
                            "{name}: SKIPPED, no fault was made (XENOLOG_FAULTS_SKIP): {why}; {words}"
                        );
                    } else {
                        panic!(
                            "{name}: no small disk could be made ({why}; in a user namespace: {words}); \
                             run as root, or set XENOLOG_FAULTS_SKIP=1 to skip"
                        );
                    }
                }
            }
        }
    }
}

/// A campaign with a Dice Race battle that never ends, `n` commands played.
fn campaign_with_race(path: &Path, n: usize) -> (Campaign, BattleId, Box<dyn Battle>) {
    let (mut c, id) = common::campaign_with_race(path);
    let mut b = c.load_battle(id).unwrap();
    for _ in 0..n {
        play(&mut c, id, &mut *b).unwrap();
    }
    (c, id, b)
}

/// Play the battle's next legal command by a fixed pattern.
fn play(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
) -> Result<u64, xenolog_saves::SaveError> {
    let legal = b.legal();
    let cmd = legal[(b.records().len() * 5 + 1) % legal.len()].clone();
    c.play(id, b, cmd.actor, &cmd.command, None)
}

/// What must not change in a battle in memory when a save fails.
#[derive(Debug, PartialEq)]
struct Seen {
    entries: usize,
    chains: Vec<[u8; 16]>,
    cursor: Option<u64>,
    branch: u32,
    state_hash: Option<[u8; 16]>,
    state: serde_json::Value,
}

fn seen(b: &dyn Battle) -> Seen {
    Seen {
        entries: b.records().len(),
        chains: b.records().iter().map(|r| r.chain).collect(),
        cursor: b.cursor(),
        branch: b.current_branch(),
        state_hash: b.cursor().map(|c| b.records()[c as usize].state_hash),
        state: b.state_json(b.cursor()),
    }
}

/// Every entry of `expect` is on disk with the same chain hash, and the
/// battle verifies.
fn assert_on_disk(c: &Campaign, id: BattleId, expect: &[[u8; 16]]) {
    let b = c.load_battle(id).unwrap();
    let chains: Vec<[u8; 16]> = b.records().iter().map(|r| r.chain).collect();
    assert_eq!(
        chains, expect,
        "the entries on disk are not the ones acknowledged"
    );
    let report = c.verify_battle(id).unwrap();
    assert!(report.ok(), "{report}");
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_full_disk_during_a_play() {
    with_small_disk("a_full_disk_during_a_play", |disk| {
        let path = disk.path("club.xenolog");
        let (mut c, id, mut b) = campaign_with_race(&path, 20);
        disk.fill();
        // The log may have room left in a page it already has: play until
        // the disk refuses (a few at most), each success acknowledged.
        let mut failed = None;
        for _ in 0..20 {
            let before = seen(&*b);
            match play(&mut c, id, &mut *b) {
                Ok(_) => continue,
                Err(e) => {
                    assert_eq!(seen(&*b), before, "the battle in memory changed: {e}");
                    failed = Some(e);
                    break;
                }
            }
        }
        let e = failed.expect("a play on a full disk must fail");
        let words = e.to_string();
        assert!(words.contains("the disk is full"), "{words}");
        eprintln!("a play on a full disk: {words}");
        // A command from an earlier cursor on the full disk, each legal one
        // (a new branch, or the recorded command: a redo, which only saves
        // the cursor): each refused in words, memory left where it was.
        let last = b.cursor();
        b.undo(2);
        let undone = seen(&*b);
        for cmd in b.legal() {
            let e = c
                .play(id, &mut *b, cmd.actor, &cmd.command, None)
                .expect_err("a command from an earlier cursor on a full disk must fail");
            assert!(e.to_string().contains("the disk is full"), "{e}");
            assert_eq!(seen(&*b), undone, "the battle in memory changed: {e}");
        }
        b.seek(last);
        // Nothing committed is lost, read while the disk is still full.
        let acked: Vec<[u8; 16]> = b.records().iter().map(|r| r.chain).collect();
        assert_on_disk(&c, id, &acked);

        disk.free();
        play(&mut c, id, &mut *b).expect("a play works again once there is space");
        let acked: Vec<[u8; 16]> = b.records().iter().map(|r| r.chain).collect();
        drop(c);
        let c = Campaign::open(&path).unwrap();
        assert_on_disk(&c, id, &acked);
        let reloaded = c.load_battle(id).unwrap();
        assert_eq!(seen(&*reloaded), seen(&*b));
    });
}

#[test]
fn a_full_disk_during_an_import() {
    with_small_disk("a_full_disk_during_an_import", |disk| {
        // The battle file comes from elsewhere; the campaign is on the small disk.
        let elsewhere = tempfile::tempdir().unwrap();
        let (source, sid, _) = campaign_with_race(&elsewhere.path().join("src.xenolog"), 60);
        let file = elsewhere.path().join("race.xenolog-battle");
        source.export_battle(sid, &file).unwrap();
        drop(source);

        let path = disk.path("club.xenolog");
        let (mut c, id, b) = campaign_with_race(&path, 10);
        let before = c.battles().unwrap();
        let in_memory = seen(&*b);
        disk.fill();
        let e = c
            .import_battle(&file)
            .expect_err("an import on a full disk must fail");
        let words = e.to_string();
        assert!(words.contains("the disk is full"), "{words}");
        eprintln!("an import on a full disk: {words}");
        assert_eq!(
            c.battles().unwrap(),
            before,
            "the failed import left a battle"
        );
        assert_eq!(seen(&*b), in_memory);

        disk.free();
        let new = c.import_battle(&file).expect("an import works again");
        drop(c);
        let c = Campaign::open(&path).unwrap();
        let listed: Vec<BattleId> = c.battles().unwrap().iter().map(|s| s.id).collect();
        assert_eq!(listed, vec![id, new]);
        assert_eq!(c.summary(new).unwrap().entries, 60);
        assert!(c.verify_battle(new).unwrap().ok());
        assert_on_disk(&c, id, &in_memory.chains);
    });
}

#[test]
fn a_full_disk_during_an_export() {
    with_small_disk("a_full_disk_during_an_export", |disk| {
        // The campaign is elsewhere; the export target is on the small disk.
        let elsewhere = tempfile::tempdir().unwrap();
        let (mut c, id, mut b) = campaign_with_race(&elsewhere.path().join("club.xenolog"), 10);
        let out = disk.path("race.xenolog-battle");
        c.export_battle(id, &out).unwrap();
        let older = std::fs::read(&out).unwrap();
        for _ in 0..300 {
            play(&mut c, id, &mut *b).unwrap();
        }
        disk.fill();
        let files = files_in(&disk.mnt);
        let e = c
            .export_battle(id, &out)
            .expect_err("an export to a full disk must fail");
        let words = e.to_string();
        assert!(words.contains("the disk is full"), "{words}");
        assert!(words.contains("race.xenolog-battle"), "{words}");
        eprintln!("an export to a full disk: {words}");
        assert_eq!(files_in(&disk.mnt), files, "a partial file was left");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            older,
            "the older export changed"
        );

        disk.free();
        c.export_battle(id, &out).expect("an export works again");
        let bytes = std::fs::read(&out).unwrap();
        let f = xenolog_schema::battle_file::read_battle_file(&bytes).unwrap();
        assert_eq!(f.records.len(), b.records().len());
        assert_eq!(files_in(&disk.mnt), vec!["race.xenolog-battle".to_owned()]);
    });
}

#[test]
fn a_full_disk_during_campaign_edits() {
    with_small_disk("a_full_disk_during_campaign_edits", |disk| {
        let path = disk.path("club.xenolog");
        let (mut c, id, b) = campaign_with_race(&path, 10);
        let roster = c.add_roster("Hawks", "unit").unwrap();
        for i in 0..3 {
            c.add_model(roster, &format!("Trooper {i}"), "rifleman")
                .unwrap();
        }
        c.set_note(id, 3, "the flank held").unwrap();
        disk.fill();
        // Each kind of edit until the disk refuses it (a page the log already
        // has may take one or two): a refusal changes nothing.
        let mut refused: [Option<String>; 3] = [None, None, None];
        for i in 0..20 {
            for (kind, slot) in refused.iter_mut().enumerate() {
                if slot.is_some() {
                    continue;
                }
                let log = c.campaign_log().unwrap();
                let state = c.campaign_state().unwrap();
                let notes = c.notes(id).unwrap();
                let done = match kind {
                    0 => c
                        .add_model(roster, &format!("Recruit {i}"), "rifleman")
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    1 => c
                        .set_note(id, 5, &format!("note {i}"))
                        .map_err(|e| e.to_string()),
                    _ => c
                        .set_bookmark(id, 6 + i as u64, true)
                        .map_err(|e| e.to_string()),
                };
                if let Err(words) = done {
                    assert_eq!(c.campaign_log().unwrap(), log, "{words}");
                    assert_eq!(c.campaign_state().unwrap(), state, "{words}");
                    assert_eq!(c.notes(id).unwrap(), notes, "{words}");
                    *slot = Some(words);
                }
            }
        }
        let refused: Vec<String> = refused
            .into_iter()
            .map(|w| w.expect("every kind of campaign edit on a full disk must fail"))
            .collect();
        for words in &refused {
            assert!(words.contains("the disk is full"), "{words}");
        }
        eprintln!("campaign edits on a full disk: {refused:?}");
        let kept_log = c.campaign_log().unwrap();
        let kept_notes = c.notes(id).unwrap();
        assert!(kept_notes.iter().any(|n| n.text == "the flank held"));

        disk.free();
        let m = c
            .add_model(roster, "Late recruit", "rifleman")
            .expect("a campaign edit works again");
        c.set_note(id, 7, "written after the disk was freed")
            .unwrap();
        drop(b);
        drop(c);
        let c = Campaign::open(&path).unwrap();
        let log_after = c.campaign_log().unwrap();
        assert!(log_after.starts_with(&kept_log));
        assert_eq!(log_after.len(), kept_log.len() + 1);
        assert!(c.campaign_state().unwrap().model(m).is_some());
        let notes_after = c.notes(id).unwrap();
        for n in &kept_notes {
            assert!(notes_after.contains(n), "note lost: {n:?}");
        }
        assert!(
            notes_after
                .iter()
                .any(|n| n.text == "written after the disk was freed")
        );
        assert!(c.verify_campaign().unwrap().ok());
    });
}

#[test]
fn a_read_only_folder() {
    with_small_disk("a_read_only_folder", |disk| {
        let path = disk.path("club.xenolog");
        let (mut c, id, mut b) = campaign_with_race(&path, 20);
        let before = seen(&*b);
        // Linux refuses to make a file system read-only while a file on it
        // is open for writing ("busy"), as the campaign's are while it is
        // open. Where a system does allow it, the play must fail in words.
        match disk.remount(true) {
            Err(busy) => eprintln!(
                "a_read_only_folder: remounting read-only under the open campaign was refused: {busy}"
            ),
            Ok(()) => {
                let e = play(&mut c, id, &mut *b).expect_err("a play on a read-only disk");
                let words = e.to_string();
                assert!(words.contains("read-only"), "{words}");
                assert_eq!(seen(&*b), before);
                eprintln!("a play on a read-only folder: {words}");
            }
        }
        // The folder turns read-only between two saves: the campaign is
        // closed, the battle stays in memory (as in the app).
        drop(c);
        disk.remount(true)
            .expect("remounting read-only once the campaign is closed");
        assert!(
            std::fs::write(disk.path("probe"), b"x").is_err(),
            "the folder must really be read-only"
        );
        let files = files_in(&disk.mnt);

        let e = Campaign::open(&path).expect_err("opening for writing in a read-only folder");
        let words = e.to_string();
        assert!(words.contains("the folder is read-only"), "{words}");
        eprintln!("opening for writing in a read-only folder: {words}");

        let e = Campaign::create(&disk.path("new.xenolog"), "New")
            .expect_err("creating a campaign in a read-only folder");
        let words = e.to_string();
        assert!(words.contains("the folder is read-only"), "{words}");
        eprintln!("creating in a read-only folder: {words}");

        let elsewhere = tempfile::tempdir().unwrap();
        let (other, oid, _) = campaign_with_race(&elsewhere.path().join("other.xenolog"), 5);
        let e = other
            .export_battle(oid, &disk.path("race.xenolog-battle"))
            .expect_err("exporting into a read-only folder");
        let words = e.to_string();
        assert!(words.contains("the folder is read-only"), "{words}");
        eprintln!("exporting into a read-only folder: {words}");
        assert_eq!(
            files_in(&disk.mnt),
            files,
            "a file was left in the read-only folder"
        );

        // Read-only, the campaign still shows every entry.
        let ro = Campaign::open_read_only(&path).expect("opening read-only in a read-only folder");
        assert_on_disk(&ro, id, &before.chains);
        drop(ro);
        assert_eq!(seen(&*b), before, "the battle in memory changed");

        disk.remount(false).unwrap();
        let mut c = Campaign::open(&path).expect("the campaign opens once writable again");
        play(&mut c, id, &mut *b).expect("a play works again");
        other
            .export_battle(oid, &disk.path("race.xenolog-battle"))
            .expect("an export works again");
        let acked: Vec<[u8; 16]> = b.records().iter().map(|r| r.chain).collect();
        drop(c);
        let c = Campaign::open(&path).unwrap();
        assert_on_disk(&c, id, &acked);
    });
}

/// Regression: a campaign on read-only media (a write-protected stick, a
/// read-only mount) could not even be opened read-only: "the campaign
/// database failed: unable to open database file" (SQLite cannot create the
/// log's index beside it). Closed cleanly, it now opens read-only with every
/// entry; left with a log by a crash, it shows every acknowledged entry or
/// says in words why it cannot, never a silently shorter battle.
#[test]
fn a_campaign_on_read_only_media_opens_read_only() {
    with_small_disk("a_campaign_on_read_only_media_opens_read_only", |disk| {
        let path = disk.path("club.xenolog");
        let (c, id, b) = campaign_with_race(&path, 12);
        drop(c);
        disk.remount(true).unwrap();
        let ro = Campaign::open_read_only(&path).expect("a closed campaign on read-only media");
        assert_on_disk(&ro, id, &seen(&*b).chains);
        assert!(ro.name().is_ok());
        drop(ro);
        disk.remount(false).unwrap();

        // A writer killed mid-run leaves its log beside the file.
        let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog-crash-writer"))
            .arg("write")
            .arg(disk.path("crashed.xenolog"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines =
            std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
        let mut acked = Vec::new();
        while acked.len() < 40 {
            acked.push(lines.next().unwrap().unwrap());
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            std::fs::metadata(disk.path("crashed.xenolog-wal")).is_ok_and(|m| m.len() > 0),
            "the kill should leave a log with entries"
        );
        disk.remount(true).unwrap();
        match Campaign::open_read_only(&disk.path("crashed.xenolog")) {
            Ok(c) => {
                let s = c.battles().unwrap();
                let b = c.load_battle(s[0].id).unwrap();
                for line in &acked {
                    let (seq, chain) = line.split_once(' ').unwrap();
                    let rec = b.records().get(seq.parse::<usize>().unwrap());
                    let found: Option<String> =
                        rec.map(|r| r.chain.iter().map(|x| format!("{x:02x}")).collect());
                    assert_eq!(found.as_deref(), Some(chain), "entry {seq} is missing");
                }
                eprintln!(
                    "after a crash, on read-only media: opened with every acknowledged entry"
                );
            }
            Err(e) => {
                let words = e.to_string();
                assert!(words.contains("read-only folder"), "{words}");
                eprintln!("after a crash, on read-only media: {words}");
            }
        }
    });
}
