//! `xenolog campaign merge` with a copy on PostgreSQL (issues 30 and 31,
//! session 19): either side may be `postgres://...#SCHEMA`, as the
//! library's `MergeSource` takes either backend. The same copies merged as
//! two files and with one side in a schema say the same words, land the
//! same entries and set aside the same conflict; a bad URL, a bad or
//! missing schema are refused in words and nothing is written.
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`tests/pg/cluster.sh
//! start`); `XENOLOG_REQUIRE_PG` (CI) makes a missing one a failure. Each
//! test makes a database of its own and drops it after.

#[path = "support/copies.rs"]
mod copies;
#[path = "support/pg_procs.rs"]
mod pg;
#[path = "support/cli.rs"]
mod support;

use std::path::{Path, PathBuf};

use copies::{buy, earned, holds, organiser, peaceful_battle};
use support::{ok, stderr, xenolog};
use xenolog_saves::Campaign;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The organiser's file and a laptop's copy of it, played apart: two
/// battles before the copy; then each buys Sgt Benton a skill (the
/// laptop's cannot be paid for after the organiser's: the conflict) and
/// the laptop plays a third battle. Also a copy of the organiser's file
/// as it was then (`reference`), for the merge of two files.
struct Apart {
    dir: tempfile::TempDir,
    organiser: PathBuf,
    laptop: PathBuf,
    reference: PathBuf,
}

fn played_apart() -> Apart {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let (club, laptop, reference) = (at("club.xenolog"), at("laptop.xenolog"), at("ref.xenolog"));
    organiser(
        &club,
        &["Sgt Benton", "Pte Yates", "Pte Harris", "Pte Osgood"],
        &["Dalek Kaan", "Dalek Sec"],
    );
    {
        let mut c = Campaign::open(&club).unwrap();
        peaceful_battle(&mut c, 6);
        peaceful_battle(&mut c, 7);
    }
    std::fs::copy(&club, &laptop).unwrap();
    buy(&mut Campaign::open(&club).unwrap(), 1, "crack_shot");
    {
        let mut l = Campaign::open(&laptop).unwrap();
        buy(&mut l, 1, "super_fast");
        peaceful_battle(&mut l, 8);
    }
    std::fs::copy(&club, &reference).unwrap();
    Apart {
        dir,
        organiser: club,
        laptop,
        reference,
    }
}

/// `xenolog campaign copy FILE URL#SCHEMA`: the file's campaign in a new
/// schema; the schema's `postgres://...#SCHEMA`.
fn into_schema(file: &Path, db: &pg::PgDb, schema: &str) -> String {
    let there = format!("{}#{schema}", db.url);
    ok(&xenolog(&["campaign", "copy", s(file), &there]));
    there
}

fn schema(there: &str) -> Campaign {
    let (url, schema) = there.rsplit_once('#').unwrap();
    Campaign::open_postgres_read_only(url, schema).unwrap()
}

/// A merge's report without its first line (which names the copies).
fn after_first_line(said: &str) -> Vec<&str> {
    said.lines().skip(1).collect()
}

#[test]
fn item_9_campaign_merge_lands_a_copy_on_postgres_into_a_file_as_two_files_merge() {
    let Some(db) = pg::PgDb::new() else { return };
    let k = played_apart();
    let files = ok(&xenolog(&[
        "campaign",
        "merge",
        s(&k.reference),
        s(&k.laptop),
    ]));
    let there = into_schema(&k.laptop, &db, "laptop");
    let said = ok(&xenolog(&["campaign", "merge", s(&k.organiser), &there]));
    // The same report, the copy named by its schema (without a password).
    let first = said.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "merged schema laptop of {} into {}: ",
            db.url,
            s(&k.organiser)
        )),
        "{said}"
    );
    assert_eq!(
        first.split_once(": ").unwrap().1,
        files.lines().next().unwrap().split_once(": ").unwrap().1,
        "{said}\n{files}"
    );
    assert!(
        first.contains("1 battle copied, 1 conflict set aside"),
        "{said}"
    );
    assert!(
        said.contains("conflict:")
            && said.contains("Sgt Benton bought")
            && said.contains("costs 2 EP"),
        "{said}"
    );
    assert_eq!(
        after_first_line(&said).len(),
        after_first_line(&files).len(),
        "{said}\n{files}"
    );
    // The same campaign as after the merge of two files.
    let (merged, reference) = (
        Campaign::open_read_only(&k.organiser).unwrap(),
        Campaign::open_read_only(&k.reference).unwrap(),
    );
    assert_eq!(holds(&merged), holds(&reference));
    assert_eq!(earned(&merged, "Sgt Benton"), 3);
    let events = |c: &Campaign| -> Vec<_> {
        c.campaign_log()
            .unwrap()
            .into_iter()
            .map(|e| (e.at, e.event))
            .collect()
    };
    assert_eq!(events(&merged), events(&reference));
    let log = ok(&xenolog(&["campaign", "log", s(&k.organiser)]));
    assert!(log.contains("(set aside:"), "{log}");
    // The copy on PostgreSQL was only read.
    let laptop = Campaign::open_read_only(&k.laptop).unwrap();
    assert_eq!(holds(&schema(&there)), holds(&laptop));
}

#[test]
fn item_9_campaign_merge_lands_a_file_into_a_copy_on_postgres_as_two_files_merge() {
    let Some(db) = pg::PgDb::new() else { return };
    let k = played_apart();
    let there = into_schema(&k.organiser, &db, "club");
    let files = ok(&xenolog(&[
        "campaign",
        "merge",
        s(&k.reference),
        s(&k.laptop),
        "--json",
    ]));
    let said = ok(&xenolog(&[
        "campaign",
        "merge",
        &there,
        s(&k.laptop),
        "--json",
    ]));
    // Word for word the same report: the same copy merged in.
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(said.trim()).unwrap(),
        serde_json::from_str(files.trim()).unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(
        (
            a["copied"].as_array().map(Vec::len),
            a["conflicts"].as_array().map(Vec::len)
        ),
        (Some(1), Some(1)),
        "{said}"
    );
    assert!(a["added"].as_u64() > Some(0), "{said}");
    let merged = schema(&there);
    let reference = Campaign::open_read_only(&k.reference).unwrap();
    assert_eq!(holds(&merged), holds(&reference));
    assert_eq!(earned(&merged, "Sgt Benton"), 3);
    // The battle that came in verifies there.
    let v = ok(&xenolog(&["verify", &there]));
    assert!(
        !v.contains("FAIL") && !v.to_lowercase().contains("does not"),
        "{v}"
    );
    // Merged again: nothing more lands.
    let again = ok(&xenolog(&["campaign", "merge", &there, s(&k.laptop)]));
    assert!(
        again.contains("0 entries landed") && again.contains("0 battles copied"),
        "{again}"
    );
    assert_eq!(holds(&schema(&there)), holds(&reference));
}

#[test]
fn item_9_campaign_merge_refuses_a_bad_url_or_schema_in_words_and_writes_nothing() {
    let Some(db) = pg::PgDb::new() else { return };
    let k = played_apart();
    let there = into_schema(&k.laptop, &db, "laptop");
    let base = db.url.clone();
    let file = s(&k.organiser);
    let bytes = std::fs::read(&k.organiser).unwrap();
    let (in_file, in_schema) = (
        holds(&Campaign::open_read_only(&k.organiser).unwrap()),
        holds(&schema(&there)),
    );
    let unreachable = "postgres://pgtest:hush@localhost:1/league#laptop".to_owned();
    let missing = k.dir.path().join("missing.xenolog");
    let same_elsewhere = there.replacen("localhost", "127.0.0.1", 1);
    for (ours, theirs, words) in [
        (
            file,
            format!("{base}#Laptop"),
            "'Laptop' cannot name a campaign's schema",
        ),
        (
            file,
            base.clone(),
            "names no campaign schema: end it with #SCHEMA",
        ),
        (
            file,
            format!("{base}#nowhere"),
            "PostgreSQL schema nowhere is not a Xenolog campaign: the database has no schema of that name",
        ),
        (
            file,
            unreachable.clone(),
            "the campaign database is not reachable",
        ),
        (&there, s(&missing).to_owned(), "does not exist"),
        (&there, there.clone(), "not with itself"),
        (
            &there,
            same_elsewhere,
            "PostgreSQL schema laptop is this campaign's own schema, not another copy of it: nothing was merged",
        ),
    ] {
        let o = xenolog(&["campaign", "merge", ours, &theirs]);
        assert_eq!(o.status.code(), Some(2), "{theirs}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{words}: {}", stderr(&o));
        assert!(!stderr(&o).contains("hush"), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "{o:?}");
    }
    let o = xenolog(&["campaign", "merge", &format!("{base}#nowhere"), file]);
    assert!(
        stderr(&o).contains("no schema of that name"),
        "{}",
        stderr(&o)
    );
    // Nothing was written: the file to the byte, the schema row for row.
    assert_eq!(std::fs::read(&k.organiser).unwrap(), bytes);
    assert!(!missing.exists());
    assert_eq!(
        holds(&Campaign::open_read_only(&k.organiser).unwrap()),
        in_file
    );
    assert_eq!(holds(&schema(&there)), in_schema);
}
