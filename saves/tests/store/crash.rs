//! Kill a writer with SIGKILL at random moments: every command it was told
//! was saved must be on disk, and the log must still verify.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use xenolog_saves::Campaign;

use super::common::place;

mod mixed;

const ROUNDS: u64 = 30;

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The campaign a killed writer left at `path`, or `None` where the kill
/// came before the writer had made it (making it takes 40-460 ms on a
/// loaded machine; the file appears whole or not at all): then nothing
/// can have been acknowledged (`none_acked`).
fn left_behind(path: &std::path::Path, round: u64, none_acked: bool) -> Option<Campaign> {
    if !path.exists() {
        assert!(
            none_acked,
            "round {round}: acknowledged but no campaign file"
        );
        return None;
    }
    Some(Campaign::open(path).unwrap_or_else(|e| panic!("round {round}: {e}")))
}

/// The crash writer started with `args`, its output piped: the child, its
/// stdout, and a thread collecting what it says on stderr (its complaints).
pub(super) fn start_writer<'a>(
    args: impl IntoIterator<Item = &'a OsStr>,
) -> (Child, ChildStdout, JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog-crash-writer"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let complaints = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    (child, stdout, complaints)
}

/// A writer's standard output, read on a thread of its own as it comes:
/// whole lines only (a kill can cut the last).
pub(super) struct Said {
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Said {
    pub(super) fn read(stdout: ChildStdout) -> Said {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(_) if line.ends_with('\n') => {
                        line.pop();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        });
        Said {
            lines,
            seen: Vec::new(),
        }
    }

    /// Wait until `n` lines for which `counts` holds have come (60 s at the
    /// most), or the writer has ended: a kill after this lands after so
    /// much was done, however slow the machine (a fixed wait from the start
    /// killed a loaded machine's writer before it wrote anything).
    pub(super) fn wait_for(&mut self, n: usize, counts: impl Fn(&str) -> bool) {
        let until = Instant::now() + Duration::from_secs(60);
        while self.seen.iter().filter(|l| counts(l)).count() < n {
            match self
                .lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(line) => self.seen.push(line),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("the writer did not say {n} lines in 60 s: {:?}", self.seen)
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Every whole line it said, once its output has ended.
    pub(super) fn all(mut self) -> Vec<String> {
        self.seen.extend(self.lines.iter());
        self.seen
    }
}

/// The crash writer started with `args` and killed (SIGKILL on Unix)
/// `wait` after its `first` lines (acknowledgements): whether it was still
/// running then, and the whole lines it wrote. A writer that ended by
/// itself fails the test, in its words.
fn killed_after<'a>(
    args: impl IntoIterator<Item = &'a OsStr>,
    first: usize,
    wait: Duration,
    round: u64,
) -> (bool, Vec<String>) {
    let (mut child, stdout, complaints) = start_writer(args);
    let mut said = Said::read(stdout);
    said.wait_for(first, |_| true);
    std::thread::sleep(wait);
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    let status = child.wait().unwrap();
    let lines = said.all();
    let complaints = complaints.join().unwrap();
    if let Some(code) = status.code() {
        panic!("round {round}: the writer exited by itself ({code}): {complaints}");
    }
    (running, lines)
}

/// The next of a round's waits (xorshift on `rng`): `least` ms and up to
/// `spread` more.
fn next_wait(rng: &mut u64, least: u64, spread: u64) -> Duration {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    Duration::from_millis(least + *rng % spread)
}

#[test]
fn acknowledged_entries_survive_sigkill() {
    let (_dir, path) = place();
    // Acknowledged entry id -> its chain hash, over all rounds.
    let mut acked: BTreeMap<u64, String> = BTreeMap::new();
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let mut killed_mid_run = 0;
    for round in 0..ROUNDS {
        let wait = next_wait(&mut rng, 30, 220);
        // Four acknowledgements a round at the least: 120 over the rounds.
        let (running, lines) =
            killed_after([OsStr::new("write"), path.as_os_str()], 4, wait, round);
        if running {
            killed_mid_run += 1;
        }
        for line in &lines {
            // Only whole lines are acknowledgements; a kill can cut the last.
            let Some((seq, chain)) = line.split_once(' ') else {
                continue;
            };
            if chain.len() != 32 {
                continue;
            }
            acked.insert(seq.parse().unwrap(), chain.to_owned());
        }

        let Some(c) = left_behind(&path, round, acked.is_empty()) else {
            continue;
        };
        let Some(s) = c
            .battles()
            .unwrap()
            .into_iter()
            .find(|b| b.title == "crash")
        else {
            assert!(
                acked.is_empty(),
                "round {round}: acknowledged but no battle"
            );
            continue;
        };
        let b = c.load_battle(s.id).unwrap();
        for (&seq, chain) in &acked {
            let rec = b
                .records()
                .get(seq as usize)
                .unwrap_or_else(|| panic!("round {round}: acknowledged entry {seq} is lost"));
            assert_eq!(
                &hex(&rec.chain),
                chain,
                "round {round}: entry {seq} differs"
            );
        }
        let report = c.verify_battle(s.id).unwrap();
        assert!(report.ok(), "round {round}: {report}");
    }
    eprintln!(
        "{ROUNDS} rounds, {killed_mid_run} killed mid-run, {} entries acknowledged",
        acked.len()
    );
    assert!(
        acked.len() > 100,
        "the writer should have acknowledged many entries, got {}",
        acked.len()
    );
    assert!(
        killed_mid_run >= ROUNDS / 2,
        "most kills should land mid-run"
    );
}

/// The same with group commit: the writer decides commands in three battles
/// and writes them together (`Campaign::append_batch`); every entry of a
/// batch it was told was written survives, in every battle, with its chain.
#[test]
fn acknowledged_batches_survive_sigkill() {
    let (_dir, path) = place();
    // (battle, entry) -> chain hash, over all rounds.
    let mut acked: BTreeMap<(i64, u64), String> = BTreeMap::new();
    let mut rng: u64 = 0x1234_5678_9ABC_DEF1;
    for round in 0..12u64 {
        let wait = next_wait(&mut rng, 60, 240);
        // Six acknowledged parts a round at the least: 72 over the rounds.
        let (_, lines) = killed_after([OsStr::new("batch"), path.as_os_str()], 6, wait, round);
        for line in lines {
            let parts: Vec<&str> = line.split(' ').collect();
            if let [battle, seq, chain] = parts[..]
                && chain.len() == 32
            {
                acked.insert(
                    (battle.parse().unwrap(), seq.parse().unwrap()),
                    chain.to_owned(),
                );
            }
        }
        let Some(c) = left_behind(&path, round, acked.is_empty()) else {
            continue;
        };
        let mut loaded = BTreeMap::new();
        for s in c.battles().unwrap() {
            loaded.insert(s.id, c.load_battle(s.id).unwrap());
            let report = c.verify_battle(s.id).unwrap();
            assert!(report.ok(), "round {round}: {report}");
        }
        for ((battle, seq), chain) in &acked {
            let b = loaded
                .get(battle)
                .unwrap_or_else(|| panic!("round {round}: battle {battle} is lost"));
            let rec = b.records().get(*seq as usize).unwrap_or_else(|| {
                panic!("round {round}: acknowledged entry {battle}/{seq} is lost")
            });
            assert_eq!(
                &hex(&rec.chain),
                chain,
                "round {round}: entry {battle}/{seq} differs"
            );
        }
    }
    let battles: std::collections::BTreeSet<i64> = acked.keys().map(|(b, _)| *b).collect();
    assert_eq!(battles.len(), 3, "every battle was written: {battles:?}");
    assert!(
        acked.len() > 60,
        "many entries acknowledged: {}",
        acked.len()
    );
}
