//! Kill the writer with SIGKILL at random moments while it does every kind of
//! write a campaign sees (`xenolog-crash-writer mixed`): plays, commands from
//! an earlier cursor that start a branch, branch switches and cursor moves,
//! exports and imports, campaign edits, notes and bookmarks.
//!
//! After each kill the campaign must open, every operation the writer
//! acknowledged must be on disk (its entries with their chain hashes, its
//! saved position, its campaign log entry, its note), every battle must
//! verify, the campaign layer must verify, and the export file, when there,
//! must be a whole battle file.
//!
//! CI runs [`ten_kills_over_every_kind_of_write`]. The soak is the ignored
//! [`kill_soak`], run by `saves/soak/kill_soak.sh` (1,000 kills by default;
//! `XENOLOG_KILL_SOAK_KILLS` sets the number).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use xenolog_saves::{BattleId, Campaign, DiceMode};
use xenolog_schema::battle_file::read_battle_file;

use super::{Said, hex, start_writer};

/// The writer's export file, beside the campaign (`mixed::EXPORT_NAME`).
const EXPORT_NAME: &str = "mixed-export.xenolog-battle";

/// A saved position: the cursor (`-` at the setup) and the current branch.
type Position = (String, u32);

/// What the acknowledgements so far say must be on disk.
#[derive(Default)]
struct Expected {
    /// (battle, entry) -> chain hash hex. Entries are append-only.
    entries: BTreeMap<(BattleId, u64), String>,
    /// The last acknowledged position of each battle, unless a later
    /// operation on it was cut short by a kill.
    positions: HashMap<BattleId, Position>,
    /// Campaign log entry -> its event as JSON. Append-only.
    camp: BTreeMap<u32, String>,
    /// The last acknowledged annotation of an entry (`None`: none).
    notes: HashMap<(BattleId, u64), Option<(bool, String)>>,
    /// The entries of the battle last exported, unless an export was cut short.
    export: Option<u64>,
}

/// What a soak counts.
#[derive(Default)]
struct Tally {
    kills: u64,
    /// Kills between a `begin` line and its acknowledgement, by kind.
    mid_op: BTreeMap<String, u64>,
    /// Kills before the writer's first operation (while it opened the file).
    at_startup: u64,
    /// Acknowledged operations, by kind.
    acked: BTreeMap<String, u64>,
    refused: u64,
    /// Acknowledged operations not found on disk as acknowledged.
    lost: Vec<String>,
    /// Rounds whose file failed a verify (a battle, or the campaign layer).
    failed_verify: Vec<String>,
    /// Rounds after which the campaign opened and every battle loaded.
    opened: u64,
    /// Battle verifications made, all rounds together.
    battles_verified: u64,
    /// Rounds after which every battle was verified, not only those touched.
    full_checks: u64,
    /// Temporary files a kill left beside the campaign (removed each round).
    leftovers: u64,
    /// Writers that stopped by themselves (an error), with their complaint.
    writer_errors: Vec<String>,
}

impl Tally {
    fn mid_op_total(&self) -> u64 {
        self.mid_op.values().sum()
    }

    fn print(&self, elapsed: Duration) {
        let acked: u64 = self.acked.values().sum();
        eprintln!(
            "kill soak: {} kills in {:.1} s",
            self.kills,
            elapsed.as_secs_f64()
        );
        eprintln!(
            "  kills mid-operation: {} {:?}; before the first operation: {}",
            self.mid_op_total(),
            self.mid_op,
            self.at_startup
        );
        eprintln!(
            "  acknowledged operations: {acked} {:?}; refused by the rules: {}",
            self.acked, self.refused
        );
        eprintln!("  acknowledged operations lost: {}", self.lost.len());
        eprintln!(
            "  files failing verify: {} ({} battle verifications; every battle after {} kills, the battles touched after the others; SQLite quick_check after every kill)",
            self.failed_verify.len(),
            self.battles_verified,
            self.full_checks
        );
        eprintln!(
            "  opened after the kill: {} of {}; temporary files left by kills: {}",
            self.opened, self.kills, self.leftovers
        );
        eprintln!(
            "  writers that stopped by themselves: {}",
            self.writer_errors.len()
        );
    }
}

/// The setup every round starts from: a campaign with a long-running Dice
/// Race battle and a roster of four models.
fn prepare(path: &Path) {
    let mut c = Campaign::create(path, "Kill soak").unwrap();
    c.new_battle(
        "race",
        99,
        &json!({ "target": 1_000_000_000u32 }),
        "crash",
        DiceMode::Rolled,
    )
    .unwrap();
    let roster = c.add_roster("Hawks", "unit").unwrap();
    for i in 0..4 {
        c.add_model(roster, &format!("Trooper {i}"), "rifleman")
            .unwrap();
    }
}

fn parse_position(cursor: &str, branch: &str) -> Position {
    (cursor.to_owned(), branch.parse().unwrap())
}

impl Expected {
    /// Take one `ok` line into the expectations.
    fn ack(&mut self, line: &str) {
        let words: Vec<&str> = line.split(' ').collect();
        match words[1] {
            "play" | "takeback" | "new" | "import" => {
                let b: BattleId = words[2].parse().unwrap();
                self.positions.insert(b, parse_position(words[3], words[4]));
                for e in &words[5..] {
                    let (seq, chain) = e.split_once(':').unwrap();
                    self.entries
                        .insert((b, seq.parse().unwrap()), chain.to_owned());
                }
            }
            "pos" => {
                let b: BattleId = words[2].parse().unwrap();
                self.positions.insert(b, parse_position(words[3], words[4]));
            }
            "export" => self.export = Some(words[3].parse().unwrap()),
            "camp" => {
                let (_, rest) = line.split_at("ok camp ".len());
                let (id, json) = rest.split_once(' ').unwrap();
                self.camp.insert(id.parse().unwrap(), json.to_owned());
            }
            "note" => {
                let parts: Vec<&str> = line.splitn(6, ' ').collect();
                let key = (parts[2].parse().unwrap(), parts[3].parse().unwrap());
                let note = match parts[4] {
                    "none" => None,
                    flag => Some((flag == "1", parts.get(5).copied().unwrap_or("").to_owned())),
                };
                self.notes.insert(key, note);
            }
            other => panic!("unknown acknowledgement '{other}' in: {line}"),
        }
    }

    /// An operation cut short by the kill may or may not have happened:
    /// what it would change is unknown until it is acknowledged again.
    fn cut_short(&mut self, begin: &str) {
        let words: Vec<&str> = begin.split(' ').collect();
        match words[1] {
            "play" | "takeback" | "pos" => {
                self.positions.remove(&words[2].parse().unwrap());
            }
            "note" => {
                let b: BattleId = words[2].parse().unwrap();
                self.notes.retain(|&(x, _), _| x != b);
            }
            "export" => self.export = None,
            _ => {}
        }
    }
}

/// One kill: run the writer until it has acknowledged `acks_first`
/// operations, then for `wait`, kill it, take its lines in.
/// Returns the battles the writer touched (began or acknowledged an
/// operation on).
fn kill_round(
    path: &Path,
    seed: u64,
    acks_first: usize,
    wait: Duration,
    exp: &mut Expected,
    t: &mut Tally,
) -> BTreeSet<BattleId> {
    let seed_arg = seed.to_string();
    let (mut child, stdout, complaints) =
        start_writer([OsStr::new("mixed"), path.as_os_str(), OsStr::new(&seed_arg)]);
    // Only whole lines count: a kill can cut the last one.
    let mut said = Said::read(stdout);
    said.wait_for(acks_first, |l| l.starts_with("ok "));
    std::thread::sleep(wait);
    child.kill().unwrap(); // SIGKILL on Unix
    let status = child.wait().unwrap();
    let lines = said.all();
    let complaints = complaints.join().unwrap();
    t.kills += 1;
    if status.code().is_some() {
        t.writer_errors
            .push(format!("seed {seed}: {status}: {}", complaints.trim()));
    }
    let mut open: Option<&str> = None;
    let mut touched = BTreeSet::new();
    for line in &lines {
        let words: Vec<&str> = line.split(' ').collect();
        if let [
            "begin" | "ok",
            "play" | "takeback" | "pos" | "note" | "new" | "import",
            b,
            ..,
        ] = words[..]
        {
            touched.insert(b.parse().unwrap());
        }
        if line.starts_with("begin ") {
            open = Some(line);
        } else if let Some(rest) = line.strip_prefix("ok ") {
            exp.ack(line);
            *t.acked
                .entry(rest.split(' ').next().unwrap().to_owned())
                .or_default() += 1;
            open = None;
        } else if line.starts_with("refused ") || line == "skip" {
            t.refused += u64::from(line != "skip");
            open = None;
        }
    }
    match open {
        Some(begin) => {
            let kind = begin.split(' ').nth(1).unwrap().to_owned();
            *t.mid_op.entry(kind).or_default() += 1;
            exp.cut_short(begin);
        }
        None if lines.is_empty() => t.at_startup += 1,
        None => {}
    }
    touched
}

/// Open the campaign after a kill and check everything acknowledged.
///
/// With `only`, the battles checked (verified, their acknowledged entries
/// and position looked for) are those the writer touched since the last
/// kill; the whole file still gets SQLite's `quick_check`, the campaign
/// log, the notes and the campaign layer are checked in full. Without it,
/// every battle is.
fn check(
    path: &Path,
    round: u64,
    exp: &Expected,
    t: &mut Tally,
    only: Option<&BTreeSet<BattleId>>,
) {
    let in_scope = |b: &BattleId| only.is_none_or(|o| o.contains(b));
    let c = match Campaign::open(path) {
        Ok(c) => c,
        Err(e) => {
            t.failed_verify
                .push(format!("round {round}: the campaign does not open: {e}"));
            return;
        }
    };
    let mut lost = |what: String| t.lost.push(format!("round {round}: {what}"));
    let mut bad = Vec::new();
    let mut all_loaded = true;
    let mut battles = HashMap::new();
    for s in c.battles().unwrap() {
        if !in_scope(&s.id) {
            continue;
        }
        match c.verify_battle(s.id) {
            Ok(r) if r.ok() => {}
            Ok(r) => bad.push(format!("battle {}: {r}", s.id)),
            Err(e) => bad.push(format!("battle {}: {e}", s.id)),
        }
        t.battles_verified += 1;
        match c.load_battle(s.id) {
            Ok(b) => {
                battles.insert(s.id, b);
            }
            Err(e) => {
                all_loaded = false;
                bad.push(format!("battle {} does not load: {e}", s.id));
            }
        }
    }
    for (&(b, seq), chain) in &exp.entries {
        if !in_scope(&b) {
            continue;
        }
        let found = battles
            .get(&b)
            .and_then(|x| x.records().get(seq as usize))
            .map(|r| hex(&r.chain));
        if found.as_ref() != Some(chain) {
            lost(format!(
                "entry {seq} of battle {b}: {found:?}, acknowledged {chain}"
            ));
        }
    }
    for (&b, (cursor, branch)) in &exp.positions {
        if !in_scope(&b) {
            continue;
        }
        let Some(x) = battles.get(&b) else {
            lost(format!("battle {b} is gone"));
            continue;
        };
        let now = (
            x.cursor().map_or_else(|| "-".to_owned(), |c| c.to_string()),
            x.current_branch(),
        );
        if now != (cursor.clone(), *branch) {
            lost(format!(
                "the position of battle {b} is {now:?}, acknowledged ({cursor}, {branch})"
            ));
        }
    }
    let log: HashMap<u32, String> = c
        .campaign_log()
        .unwrap()
        .into_iter()
        .map(|e| (e.id, serde_json::to_string(&e.event).unwrap()))
        .collect();
    for (id, event) in &exp.camp {
        if log.get(id) != Some(event) {
            lost(format!(
                "campaign log entry {id}: {:?}, acknowledged {event}",
                log.get(id)
            ));
        }
    }
    for (&(b, e), note) in &exp.notes {
        let now = match c.annotation(b, e) {
            Ok(n) => n.map(|n| (n.bookmark, n.text)),
            Err(err) => {
                lost(format!("the note on entry {e} of battle {b}: {err}"));
                continue;
            }
        };
        if &now != note {
            lost(format!(
                "the note on entry {e} of battle {b}: {now:?}, acknowledged {note:?}"
            ));
        }
    }
    let dir = path.parent().unwrap();
    let export = dir.join(EXPORT_NAME);
    if let Ok(bytes) = std::fs::read(&export) {
        match read_battle_file(&bytes) {
            Ok(f) => {
                if let Some(n) = exp.export
                    && f.records.len() as u64 != n
                {
                    lost(format!(
                        "the export file holds {} entries, acknowledged {n}",
                        f.records.len()
                    ));
                }
            }
            Err(e) => bad.push(format!("the export file is not whole: {e}")),
        }
    } else if exp.export.is_some() {
        lost("the acknowledged export file is gone".into());
    }
    match c.verify_campaign() {
        Ok(r) if r.ok() => {}
        Ok(r) => bad.push(format!("campaign layer: {:?}", r.problems)),
        Err(e) => bad.push(format!("campaign layer: {e}")),
    }
    if !bad.is_empty() {
        t.failed_verify
            .push(format!("round {round}: {}", bad.join("; ")));
    }
    if all_loaded {
        t.opened += 1;
    }
    drop(battles);
    drop(c);
    // The whole file's structure, every table and index, after every kill.
    let raw =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let verdict: String = raw
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .unwrap();
    drop(raw);
    if verdict != "ok" {
        t.failed_verify
            .push(format!("round {round}: SQLite quick_check: {verdict}"));
    }
    if only.is_none() {
        t.full_checks += 1;
    }
    // Temporary files of an export or a creation cut short by the kill.
    for f in std::fs::read_dir(dir).unwrap().flatten() {
        let name = f.file_name().to_string_lossy().into_owned();
        if name.contains(".writing-") || name.contains(".creating-") {
            t.leftovers += 1;
            let _ = std::fs::remove_file(f.path());
        }
    }
}

/// `kills` rounds, each killed `min..max` ms after the writer's
/// `acks_first` acknowledgements.
fn soak(kills: u64, acks_first: usize, wait_ms: (u64, u64)) -> Tally {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("soak.xenolog");
    prepare(&path);
    let mut exp = Expected::default();
    let mut t = Tally::default();
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let started = Instant::now();
    for round in 0..kills {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let wait = Duration::from_millis(wait_ms.0 + rng % (wait_ms.1 - wait_ms.0));
        let touched = kill_round(&path, rng >> 1, acks_first, wait, &mut exp, &mut t);
        // Every battle is checked every 100 kills and after the last (and
        // after every kill of a short run); the battles touched otherwise.
        let full = kills <= 50 || round % 100 == 99 || round + 1 == kills;
        check(&path, round, &exp, &mut t, (!full).then_some(&touched));
        if (round + 1) % 100 == 0 {
            eprintln!(
                "  {} kills, {:.0} s, {} lost, {} failing verify",
                round + 1,
                started.elapsed().as_secs_f64(),
                t.lost.len(),
                t.failed_verify.len()
            );
        }
    }
    t.print(started.elapsed());
    t
}

fn assert_clean(t: &Tally) {
    assert!(t.writer_errors.is_empty(), "{:#?}", t.writer_errors);
    assert!(
        t.lost.is_empty(),
        "{} lost: {:#?}",
        t.lost.len(),
        &t.lost[..t.lost.len().min(20)]
    );
    assert!(t.failed_verify.is_empty(), "{:#?}", t.failed_verify);
    assert_eq!(t.opened, t.kills, "the campaign must open after every kill");
}

#[test]
fn ten_kills_over_every_kind_of_write() {
    // Three acknowledgements before each kill's wait: 30 at the least,
    // however slow the machine (a fixed wait from the start could land
    // every kill before the writer's first operation).
    let t = soak(10, 3, (150, 700));
    assert_clean(&t);
    let acked: u64 = t.acked.values().sum();
    assert!(
        acked >= 20,
        "the writer should have done many operations, did {acked}"
    );
    assert!(
        t.mid_op_total() >= 5,
        "most kills should land mid-operation, {} did",
        t.mid_op_total()
    );
}

/// The soak: `saves/soak/kill_soak.sh` (or `XENOLOG_KILL_SOAK_KILLS=1000
/// cargo test --release -p xenolog-saves --test store kill_soak -- --ignored
/// --nocapture`).
#[test]
#[ignore = "a long soak run by hand: saves/soak/kill_soak.sh"]
fn kill_soak() {
    let kills = std::env::var("XENOLOG_KILL_SOAK_KILLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    // Killed from the start too (at startup as well as mid-operation).
    let t = soak(kills, 0, (20, 300));
    assert_clean(&t);
    assert!(
        t.mid_op_total() * 2 >= t.kills,
        "most kills should land mid-operation"
    );
}

/// The checker is itself checked: acknowledgements the file does not hold
/// (an entry, a position, a campaign entry, a note) are each reported lost.
#[test]
fn the_checker_reports_what_is_not_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("soak.xenolog");
    prepare(&path);
    let mut exp = Expected::default();
    let fake = "00".repeat(16);
    exp.ack(&format!("ok play 1 0 0 0:{fake}"));
    exp.ack(r#"ok camp 99 {"model_retired":{"model":1}}"#);
    exp.ack("ok note 1 0 1 never written");
    let mut t = Tally::default();
    check(&path, 0, &exp, &mut t, None);
    assert_eq!(t.lost.len(), 4, "{:#?}", t.lost);
    assert!(t.failed_verify.is_empty(), "{:#?}", t.failed_verify);
    assert_eq!(t.opened, 1);
    // And a true acknowledgement is not reported.
    let mut exp = Expected::default();
    exp.ack("ok pos 1 - 0");
    let mut t = Tally::default();
    check(&path, 0, &exp, &mut t, None);
    assert!(t.lost.is_empty(), "{:#?}", t.lost);
}
