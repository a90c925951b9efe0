//! Mutated campaign files (issue 16, "Mutated files").
//!
//! Real campaigns (every compatibility fixture's `campaign.xenolog` and the
//! sample campaign) are copied to a fresh folder and damaged: bits flipped
//! (one, or a burst) in the header, in a b-tree page or inside an entry's
//! stored record; cut at a random length or at a page boundary; two pages
//! swapped; a page zeroed; a newer format number; another application's id;
//! zero bytes; a folder in the file's place; a stray `-wal` or `-shm` beside
//! it. Each mutant is opened with [`Campaign::open_read_only`] and with
//! [`Campaign::open`]. A refusal must be an error in words that leaves the
//! file's bytes as they were. A mutant that opens is read all through: its
//! battles listed, each loaded (board and log in words at the cursor) and
//! verified, its notes, the campaign layer recomputed and verified. Each of
//! those may fail with an error; none may panic or hang.
//!
//! Every mutant is derived from one seed (the source file and the damage
//! alike), and a failure names the seed and the damage, so
//! `XENOLOG_MUTANT_SEED=<seed> cargo test -p xenolog-saves --test hostile
//! replay_one_mutant -- --ignored --nocapture` runs it again alone.
//!
//! CI runs [`SAMPLE`] mutants; the full run is
//! `XENOLOG_MUTANTS=10000 cargo test --release -p xenolog-saves --test hostile
//! every_mutant_full_run -- --ignored --nocapture`, which prints the tally.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use xenolog_saves::{Campaign, SaveError};
use xenolog_schema::SCHEMA_VERSION;

use super::heap::{MIB, peak_during};
use crate::race::{new_endless_race, play_n};

/// Mutants in the CI run (debug build): a sample of the full run's code path.
const SAMPLE: usize = 50;
/// The longest one mutant may take before it is called a hang.
const WATCHDOG: Duration = Duration::from_secs(30);
/// The seed of mutant 0 unless `XENOLOG_MUTANT_BASE` says otherwise.
const BASE_SEED: u64 = 0x1605_2026_0000_0000;

/// SplitMix64: small, seedable, and its sequence is ours (no dependency
/// upgrade can change which mutant a seed names).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
}

/// A campaign file to damage.
struct Source {
    name: String,
    bytes: Vec<u8>,
    page_size: usize,
    /// Where entries' stored records lie in the file, found by their bytes.
    blobs: Vec<(usize, usize)>,
}

impl Source {
    fn pages(&self) -> usize {
        self.bytes.len() / self.page_size
    }
}

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/compat")
}

/// The file's entry records located in its bytes (the first place each one's
/// bytes occur; records split over overflow pages are not found, which is fine).
fn find_blobs(path: &Path, bytes: &[u8]) -> Vec<(usize, usize)> {
    let raw =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("a pristine copy opens");
    let mut stmt = raw
        .prepare("SELECT record FROM entries ORDER BY battle, seq")
        .expect("it has entries");
    let records: Vec<Vec<u8>> = stmt
        .query_map([], |r| r.get(0))
        .expect("entries read")
        .map(|r| r.expect("an entry reads"))
        .collect();
    let mut out = Vec::new();
    for rec in records.iter().filter(|r| r.len() >= 24) {
        if let Some(at) = bytes.windows(rec.len()).position(|w| w == rec.as_slice()) {
            out.push((at, rec.len()));
        }
        if out.len() >= 400 {
            break;
        }
    }
    out
}

fn source(name: String, path: &Path) -> Source {
    let bytes = std::fs::read(path).expect("a source campaign reads");
    let page_size = match u16::from_be_bytes([bytes[16], bytes[17]]) {
        1 => 65536,
        n => usize::from(n),
    };
    let blobs = find_blobs(path, &bytes);
    Source {
        name,
        bytes,
        page_size,
        blobs,
    }
}

/// What mutants are made from, built once per test binary run: every
/// fixture's campaign, and the sample campaign the app makes.
fn sources() -> &'static Vec<Source> {
    static SOURCES: OnceLock<Vec<Source>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_root())
            .expect("tests/fixtures/compat exists")
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("campaign.xenolog").is_file())
            .collect();
        dirs.sort();
        let mut out = Vec::new();
        for d in dirs {
            let name = d.file_name().unwrap().to_string_lossy().into_owned();
            // Never open a committed fixture: read a copy.
            let copy = tmp.path().join(format!("{name}.xenolog"));
            std::fs::copy(d.join("campaign.xenolog"), &copy).unwrap();
            out.push(source(format!("fixture {name}"), &copy));
        }
        let sample = tmp.path().join("sample.xenolog");
        xenolog_saves::sample::create_sample(&sample).expect("the sample campaign is made");
        out.push(source("the sample campaign".into(), &sample));
        assert!(out.len() >= 2, "mutants need real campaigns to start from");
        out
    })
}

/// Write the sample campaign (made once per run) to `path`.
pub(super) fn sample_campaign(path: &Path) {
    let sample = sources().last().expect("the sample campaign is a source");
    std::fs::write(path, &sample.bytes).unwrap();
}

/// A write-ahead log of another campaign, caught while it was open: the
/// most convincing stray `-wal` there is.
fn foreign_wal() -> &'static (Vec<u8>, Vec<u8>) {
    static WAL: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    WAL.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("other.xenolog");
        let mut c = Campaign::create(&path, "Other club").unwrap();
        let id = new_endless_race(&mut c, 3);
        let mut b = c.load_battle(id).unwrap();
        play_n(&mut c, id, &mut *b, 40);
        let wal = std::fs::read(tmp.path().join("other.xenolog-wal")).unwrap();
        let shm = std::fs::read(tmp.path().join("other.xenolog-shm")).unwrap();
        drop((b, c));
        (wal, shm)
    })
}

/// Where in the file a flip or a burst lands.
#[derive(Clone, Copy, Debug)]
enum Region {
    /// The 100-byte database header.
    Header,
    /// Anywhere in page `n` (numbered from 1, as SQLite does).
    Page(usize),
    /// Inside the stored record of an entry.
    Entry,
}

/// One way to damage a campaign. `Debug` is the description a failure names.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: usize,
        bit: u8,
        region: Region,
    },
    Burst {
        at: usize,
        len: usize,
        region: Region,
    },
    Truncate {
        len: usize,
    },
    TruncateAtPage {
        pages: usize,
    },
    SwapPages {
        a: usize,
        b: usize,
    },
    ZeroPage {
        page: usize,
    },
    NewerUserVersion {
        version: u32,
    },
    ForeignApplicationId {
        id: u32,
    },
    ZeroBytes,
    DirectoryInItsPlace,
    /// Random bytes as the `-wal` (an empty one when `len` is 0).
    StrayWalNoise {
        len: usize,
    },
    /// Another campaign's live log (and its index) beside this one.
    StrayForeignWal {
        with_shm: bool,
    },
    StrayShmNoise {
        len: usize,
    },
}

/// A place in `region`, and the region as it was chosen.
fn spot(src: &Source, rng: &mut Rng, span: usize) -> (usize, Region) {
    let pick = rng.below(10);
    let (at, region) = if pick < 2 {
        (rng.below(100), Region::Header)
    } else if pick < 6 && !src.blobs.is_empty() {
        let (start, len) = src.blobs[rng.below(src.blobs.len())];
        (start + rng.below(len), Region::Entry)
    } else {
        let page = 1 + rng.below(src.pages());
        (
            (page - 1) * src.page_size + rng.below(src.page_size),
            Region::Page(page),
        )
    };
    (at.min(src.bytes.len().saturating_sub(span)), region)
}

impl Mutation {
    fn draw(src: &Source, rng: &mut Rng) -> Mutation {
        let pages = src.pages();
        match rng.below(100) {
            0..30 => {
                let (at, region) = spot(src, rng, 1);
                Mutation::FlipBit {
                    at,
                    bit: rng.below(8) as u8,
                    region,
                }
            }
            30..50 => {
                let most = if rng.below(4) == 0 { 512 } else { 24 };
                let len = 2 + rng.below(most);
                let (at, region) = spot(src, rng, len);
                Mutation::Burst { at, len, region }
            }
            50..58 => Mutation::Truncate {
                len: rng.below(src.bytes.len()),
            },
            58..65 => Mutation::TruncateAtPage {
                pages: rng.below(pages),
            },
            65..73 => Mutation::SwapPages {
                a: 1 + rng.below(pages),
                b: 1 + rng.below(pages),
            },
            73..81 => Mutation::ZeroPage {
                page: 1 + rng.below(pages),
            },
            81..85 => Mutation::NewerUserVersion {
                version: SCHEMA_VERSION + 1 + rng.below(1000) as u32,
            },
            85..88 => Mutation::ForeignApplicationId {
                id: rng.next() as u32,
            },
            88..90 => Mutation::ZeroBytes,
            90..92 => Mutation::DirectoryInItsPlace,
            92..95 => Mutation::StrayWalNoise {
                len: if rng.below(4) == 0 {
                    0
                } else {
                    rng.below(40_000)
                },
            },
            95..98 => Mutation::StrayForeignWal {
                with_shm: rng.below(2) == 0,
            },
            _ => Mutation::StrayShmNoise {
                len: rng.below(40_000),
            },
        }
    }

    /// Lay the damaged campaign out at `path` (and beside it).
    fn apply(&self, src: &Source, rng: &mut Rng, path: &Path) {
        let mut b = src.bytes.clone();
        let page = |n: usize| (n - 1) * src.page_size..n * src.page_size;
        let noise = |rng: &mut Rng, n: usize| (0..n).map(|_| rng.byte()).collect::<Vec<u8>>();
        let side = |suffix: &str| {
            let mut s = path.as_os_str().to_owned();
            s.push(suffix);
            PathBuf::from(s)
        };
        match *self {
            Mutation::FlipBit { at, bit, .. } => b[at] ^= 1 << bit,
            Mutation::Burst { at, len, .. } => {
                for x in &mut b[at..at + len] {
                    *x = rng.byte();
                }
            }
            Mutation::Truncate { len } => b.truncate(len),
            Mutation::TruncateAtPage { pages } => b.truncate(pages * src.page_size),
            Mutation::SwapPages { a, b: c } => {
                let pa = b[page(a)].to_vec();
                let pc = b[page(c)].to_vec();
                b[page(a)].copy_from_slice(&pc);
                b[page(c)].copy_from_slice(&pa);
            }
            Mutation::ZeroPage { page: n } => b[page(n)].fill(0),
            Mutation::NewerUserVersion { version } => {
                b[60..64].copy_from_slice(&version.to_be_bytes());
            }
            Mutation::ForeignApplicationId { id } => b[68..72].copy_from_slice(&id.to_be_bytes()),
            Mutation::ZeroBytes => b.clear(),
            Mutation::DirectoryInItsPlace => {
                std::fs::create_dir(path).unwrap();
                return;
            }
            Mutation::StrayWalNoise { len } => {
                std::fs::write(side("-wal"), noise(rng, len)).unwrap();
            }
            Mutation::StrayForeignWal { with_shm } => {
                let (wal, shm) = foreign_wal();
                std::fs::write(side("-wal"), wal).unwrap();
                if with_shm {
                    std::fs::write(side("-shm"), shm).unwrap();
                }
            }
            Mutation::StrayShmNoise { len } => {
                std::fs::write(side("-shm"), noise(rng, len)).unwrap();
            }
        }
        std::fs::write(path, b).unwrap();
    }
}

/// How an open went.
#[derive(Debug)]
enum Verdict {
    /// Refused with this kind of error, in these words.
    Refused(&'static str, String),
    Opened {
        /// The open upgraded a file of an older format (a backup is beside it).
        upgraded: bool,
        /// The main database file's bytes changed while it was open and read.
        changed: bool,
    },
}

/// What one mutant did.
#[derive(Debug)]
struct Report {
    read_only: Verdict,
    writable: Verdict,
    /// Of all battles tried (both opens): loaded / refused with an error.
    loaded: usize,
    load_refused: usize,
    /// Verify: replayed clean / found a problem / refused with an error.
    verified: usize,
    verify_failed: usize,
    verify_refused: usize,
    /// The most heap the mutant's thread held (SQLite's own not counted).
    peak_heap: usize,
}

fn kind(e: &SaveError) -> &'static str {
    match e {
        SaveError::NotACampaign { .. } => "NotACampaign",
        SaveError::NewerSchema { .. } => "NewerSchema",
        SaveError::OlderSchema { .. } => "OlderSchema",
        SaveError::Locked { .. } => "Locked",
        SaveError::ReadOnly => "ReadOnly",
        SaveError::Exists { .. } => "Exists",
        SaveError::NoSuchBattle(_) => "NoSuchBattle",
        SaveError::NoSuchEntry { .. } => "NoSuchEntry",
        SaveError::BadBattleFile { .. } => "BadBattleFile",
        SaveError::Corrupt { .. } => "Corrupt",
        SaveError::Stale { .. } => "Stale",
        SaveError::Play(_) => "Play",
        SaveError::NewBattle(_) => "NewBattle",
        SaveError::Io { .. } => "Io",
        SaveError::Sql(_) => "Sql",
        SaveError::Refused(_) => "Refused",
        SaveError::CommandIdUsed { .. } => "CommandIdUsed",
        SaveError::Conflict(_) => "Conflict",
        SaveError::Unreachable(_) => "Unreachable",
        SaveError::Busy(_) => "Busy",
    }
}

/// An error must say something a player can read.
fn in_words(e: &SaveError, what: &str) -> Result<(), String> {
    let text = e.to_string();
    if text.trim().len() < 12 {
        return Err(format!("{what} failed with no words: {text:?} ({e:?})"));
    }
    Ok(())
}

/// Read everything an opened mutant holds; errors are fine, panics are not.
fn read_all(c: &Campaign, r: &mut Report) -> Result<(), String> {
    if let Err(e) = c.name() {
        in_words(&e, "name")?;
    }
    let ids: Vec<i64> = match c.battles() {
        Ok(list) => list.iter().map(|s| s.id).collect(),
        Err(e) => {
            in_words(&e, "listing battles")?;
            // The list is damaged; the battles may still be there.
            (1..=12).collect()
        }
    };
    for id in ids {
        if let Err(e) = c.summary(id) {
            in_words(&e, "a battle's summary")?;
        }
        match c.load_battle(id) {
            Ok(b) => {
                r.loaded += 1;
                let line = b.path_to(b.cursor());
                let _ = b.entry_texts(&line);
                let _ = b.scene_at(b.cursor());
                let _ = b.outcome();
            }
            Err(e) => {
                r.load_refused += 1;
                in_words(&e, &format!("loading battle {id}"))?;
            }
        }
        match c.verify_battle(id) {
            Ok(v) if v.ok() => r.verified += 1,
            Ok(_) => r.verify_failed += 1,
            Err(e) => {
                r.verify_refused += 1;
                in_words(&e, &format!("verifying battle {id}"))?;
            }
        }
        if let Err(e) = c.notes(id) {
            in_words(&e, "notes")?;
        }
    }
    if let Err(e) = c.campaign_recompute() {
        in_words(&e, "the campaign layer")?;
    }
    if let Err(e) = c.verify_campaign() {
        in_words(&e, "verifying the campaign layer")?;
    }
    Ok(())
}

/// Open `path` one way, read it all if it opens; a refusal must leave the
/// file's bytes as they were.
fn open_and_read(path: &Path, read_only: bool, r: &mut Report) -> Result<Verdict, String> {
    let how = if read_only { "open_read_only" } else { "open" };
    let before = std::fs::read(path).ok();
    let opened = if read_only {
        Campaign::open_read_only(path)
    } else {
        Campaign::open(path)
    };
    match opened {
        Err(e) => {
            in_words(&e, how)?;
            if std::fs::read(path).ok() != before {
                return Err(format!("{how} refused the file ({e}) but changed it"));
            }
            Ok(Verdict::Refused(kind(&e), e.to_string()))
        }
        Ok(c) => {
            let upgraded = c.upgrade_backup().is_some();
            read_all(&c, r)?;
            drop(c);
            Ok(Verdict::Opened {
                upgraded,
                changed: std::fs::read(path).ok() != before,
            })
        }
    }
}

fn run_mutant(src: &Source, mutation: &Mutation, rng: &mut Rng) -> Result<Report, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("club.xenolog");
    mutation.apply(src, rng, &path);
    let mut r = Report {
        read_only: Verdict::Refused("", String::new()),
        writable: Verdict::Refused("", String::new()),
        loaded: 0,
        load_refused: 0,
        verified: 0,
        verify_failed: 0,
        verify_refused: 0,
        peak_heap: 0,
    };
    let (done, peak) = peak_during(|| -> Result<(), String> {
        r.read_only = open_and_read(&path, true, &mut r)?;
        r.writable = open_and_read(&path, false, &mut r)?;
        Ok(())
    });
    done?;
    r.peak_heap = peak;
    Ok(r)
}

/// The source and mutation mutant `seed` names.
fn mutant(seed: u64) -> (&'static Source, Mutation, Rng) {
    let all = sources();
    let mut rng = Rng(seed);
    let src = &all[rng.below(all.len())];
    let m = Mutation::draw(src, &mut rng);
    (src, m, rng)
}

/// Run mutant `seed` on its own thread under a watchdog, with any panic
/// caught: the outcome, or what went wrong in words naming the seed.
fn guarded(seed: u64) -> Result<Report, String> {
    let (src, m, rng) = mutant(seed);
    let name = format!(
        "mutant seed {seed:#018x} ({}: {m:?}; rerun it alone with XENOLOG_MUTANT_SEED={seed:#x} \
         cargo test -p xenolog-saves --test hostile replay_one_mutant -- --ignored --nocapture)",
        src.name
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let m2 = m.clone();
    std::thread::Builder::new()
        .name(format!("mutant-{seed:x}"))
        .spawn(move || {
            let mut rng = rng;
            let out = std::panic::catch_unwind(AssertUnwindSafe(|| run_mutant(src, &m2, &mut rng)));
            let _ = tx.send(out);
        })
        .map_err(|e| format!("{name}: no thread: {e}"))?;
    match rx.recv_timeout(WATCHDOG) {
        Ok(Ok(Ok(report))) => Ok(report),
        Ok(Ok(Err(why))) => Err(format!("{name}: {why}")),
        Ok(Err(panic)) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a panic".into());
            Err(format!("{name}: PANICKED: {what}"))
        }
        Err(RecvTimeoutError::Timeout) => Err(format!(
            "{name}: HANG: still running after {} s",
            WATCHDOG.as_secs()
        )),
        Err(RecvTimeoutError::Disconnected) => Err(format!("{name}: the thread died")),
    }
}

fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().replace('_', "");
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

fn seed_of(i: u64) -> u64 {
    let base = env_number("XENOLOG_MUTANT_BASE").unwrap_or(BASE_SEED);
    Rng(base.wrapping_add(i)).next()
}

/// Counts over a run, printed at its end.
#[derive(Default)]
struct Tally {
    mutants: usize,
    by_mutation: BTreeMap<String, usize>,
    read_only: BTreeMap<String, usize>,
    writable: BTreeMap<String, usize>,
    examples: BTreeMap<String, String>,
    loaded: usize,
    load_refused: usize,
    verified: usize,
    verify_failed: usize,
    verify_refused: usize,
    max_peak_heap: usize,
}

fn verdict_word(v: &Verdict) -> String {
    match v {
        Verdict::Refused(kind, _) => format!("refused: {kind}"),
        Verdict::Opened { upgraded, changed } => format!(
            "opened{}, main file {}",
            if *upgraded { " and upgraded" } else { "" },
            if *changed { "changed" } else { "unchanged" }
        ),
    }
}

/// Count `v`, keeping the first refusal of each kind as an example.
fn tally_verdict(
    into: &mut BTreeMap<String, usize>,
    examples: &mut BTreeMap<String, String>,
    v: &Verdict,
) {
    let word = verdict_word(v);
    if let Verdict::Refused(_, text) = v {
        examples.entry(word.clone()).or_insert_with(|| text.clone());
    }
    *into.entry(word).or_default() += 1;
}

fn mutation_word(m: &Mutation) -> String {
    let d = format!("{m:?}");
    let head = d.split([' ', '{']).next().unwrap_or("").to_owned();
    match m {
        Mutation::FlipBit { region, .. } | Mutation::Burst { region, .. } => {
            let r = match region {
                Region::Header => "header",
                // Page 1 holds the header and the schema: damage there is worst.
                Region::Page(1) => "page 1",
                Region::Page(_) => "other page",
                Region::Entry => "entry",
            };
            format!("{head} in {r}")
        }
        _ => head,
    }
}

/// Run `count` mutants; fails listing every mutant that panicked, hung,
/// changed a file it refused, or failed without words.
fn run(count: usize) {
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for i in 0..count as u64 {
        if i > 0 && i % 500 == 0 {
            eprintln!(
                "{i} mutants in {:.0} s, {} failed so far; open_read_only {:?}; open {:?}",
                started.elapsed().as_secs_f64(),
                failures.len(),
                tally.read_only,
                tally.writable
            );
        }
        let seed = seed_of(i);
        let (_, m, _) = mutant(seed);
        *tally.by_mutation.entry(mutation_word(&m)).or_default() += 1;
        tally.mutants += 1;
        match guarded(seed) {
            Ok(r) => {
                tally_verdict(&mut tally.read_only, &mut tally.examples, &r.read_only);
                tally_verdict(&mut tally.writable, &mut tally.examples, &r.writable);
                tally.loaded += r.loaded;
                tally.load_refused += r.load_refused;
                tally.verified += r.verified;
                tally.verify_failed += r.verify_failed;
                tally.verify_refused += r.verify_refused;
                tally.max_peak_heap = tally.max_peak_heap.max(r.peak_heap);
            }
            Err(why) => {
                eprintln!("{why}");
                failures.push(why);
            }
        }
    }
    let took = started.elapsed();
    println!(
        "{} mutants of {} campaigns in {:.1} s ({} failed)",
        tally.mutants,
        sources().len(),
        took.as_secs_f64(),
        failures.len()
    );
    println!("mutations: {:?}", tally.by_mutation);
    println!("open_read_only: {:?}", tally.read_only);
    println!("open: {:?}", tally.writable);
    for (word, text) in &tally.examples {
        println!("  e.g. {word}: {text}");
    }
    println!(
        "battles loaded {} / refused {}; verified clean {} / found a problem {} / refused {}",
        tally.loaded, tally.load_refused, tally.verified, tally.verify_failed, tally.verify_refused
    );
    println!(
        "largest heap held by one mutant: {:.1} MiB",
        tally.max_peak_heap as f64 / MIB as f64
    );
    assert!(
        failures.is_empty(),
        "{} of {} mutants went wrong:\n{}",
        failures.len(),
        count,
        failures.join("\n")
    );
    // A read-only open never writes the main file, however damaged it is.
    assert!(
        !tally.read_only.contains_key("opened, main file changed"),
        "a read-only open changed a main file: {:?}",
        tally.read_only
    );
}

#[test]
fn mutated_campaigns_are_refused_in_words_or_read_without_panic() {
    let n = env_number("XENOLOG_MUTANTS_CI").map_or(SAMPLE, |n| n as usize);
    run(n);
}

#[test]
#[ignore = "the full run: XENOLOG_MUTANTS=10000 cargo test --release -p xenolog-saves --test hostile every_mutant_full_run -- --ignored --nocapture"]
fn every_mutant_full_run() {
    let n = env_number("XENOLOG_MUTANTS").map_or(10_000, |n| n as usize);
    run(n);
}

#[test]
#[ignore = "reruns one mutant: XENOLOG_MUTANT_SEED=<seed> cargo test -p xenolog-saves --test hostile replay_one_mutant -- --ignored --nocapture"]
fn replay_one_mutant() {
    let seed = env_number("XENOLOG_MUTANT_SEED")
        .expect("set XENOLOG_MUTANT_SEED to a seed a failure named");
    let report = guarded(seed).unwrap_or_else(|why| panic!("{why}"));
    println!("{report:#?}");
}

/// The mutations are what their seed says, every time: a failure's seed is
/// enough to make the same damaged file again.
#[test]
fn a_mutant_seed_names_one_mutant() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for i in 0..20 {
        let seed = seed_of(i);
        let (src, m, mut rng) = mutant(seed);
        let (src2, m2, mut rng2) = mutant(seed);
        assert_eq!(
            (src.name.as_str(), format!("{m:?}")),
            (src2.name.as_str(), format!("{m2:?}"))
        );
        let (pa, pb) = (a.path().join(format!("{i}")), b.path().join(format!("{i}")));
        m.apply(src, &mut rng, &pa);
        m2.apply(src2, &mut rng2, &pb);
        if pa.is_file() {
            assert_eq!(
                std::fs::read(&pa).unwrap(),
                std::fs::read(&pb).unwrap(),
                "{m:?}"
            );
        }
    }
}

/// Bug: a campaign copied along with another campaign's `-wal` (two files
/// named alike in one folder, a sync tool restoring the wrong log) was
/// refused as damaged, and closing the refused connection checkpointed the
/// stranger's log into it: the refusal wrote the file, for good. Now no
/// checkpoint happens until the campaign has opened.
#[test]
fn regression_a_stray_wal_is_not_written_into_the_file_it_is_refused_with() {
    let src = sources()
        .iter()
        .find(|s| s.name.contains("invasion3"))
        .expect("the newest fixture is a source");
    let (wal, shm) = foreign_wal();
    for with_shm in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.xenolog");
        std::fs::write(&path, &src.bytes).unwrap();
        std::fs::write(dir.path().join("club.xenolog-wal"), wal).unwrap();
        if with_shm {
            std::fs::write(dir.path().join("club.xenolog-shm"), shm).unwrap();
        }
        for read_only in [true, false] {
            let opened = if read_only {
                Campaign::open_read_only(&path)
            } else {
                Campaign::open(&path)
            };
            let err = opened.expect_err("another campaign's log makes this one unreadable");
            assert!(err.to_string().contains("damaged"), "{err}");
            assert_eq!(
                std::fs::read(&path).unwrap(),
                src.bytes,
                "refusing (read_only {read_only}, shm {with_shm}) wrote the file"
            );
        }
        assert!(
            dir.path().join("club.xenolog-wal").exists(),
            "the stray log is left for the player to look at"
        );
    }
}

/// Bug: one flipped bit in an Alien battle's stored events (fixture
/// 2026-11-23-schema4, byte 107593, bit 6: mutant 0x087e1fb2228d94cb of the
/// first full run) decoded as an event naming character 69 of 6, and
/// loading the battle panicked in the game's `apply`. Stored events are now
/// applied under a guard that reports the entry as damaged.
#[test]
fn regression_an_event_naming_a_character_that_does_not_exist_is_a_damaged_entry() {
    let src = sources()
        .iter()
        .find(|s| s.name.ends_with("2026-11-23-schema4"))
        .expect("the schema 4 fixture is a source");
    let m = Mutation::FlipBit {
        at: 107_593,
        bit: 6,
        region: Region::Page(27),
    };
    let report = run_mutant(src, &m, &mut Rng(0)).unwrap_or_else(|why| panic!("{why}"));
    assert!(
        report.load_refused > 0,
        "the damaged battle is refused: {report:?}"
    );
}
