//! A campaign without a server on the command line (issue 30 item 9): a
//! roster battle of a laptop's copy imported into the organiser's file
//! counts (`xenolog import`), two copies merge (`xenolog campaign merge`),
//! and what comes from another machine is verified before it is trusted.
//!
//! The files are set up in-process through the store; everything the test
//! asserts about goes through the real `xenolog` binary.

#[path = "support/copies.rs"]
mod copies;
#[path = "support/cli.rs"]
mod support;
use support::{ok, xenolog};

use std::path::{Path, PathBuf};

use xenolog_saves::Campaign;

struct Copies {
    _dir: tempfile::TempDir,
    organiser: PathBuf,
    laptop: PathBuf,
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The organiser's campaign (four U.N.I.T. riflemen, two Daleks) and a
/// laptop's copy of it.
fn copies() -> Copies {
    let dir = tempfile::tempdir().unwrap();
    let organiser = dir.path().join("club.xenolog");
    let laptop = dir.path().join("laptop.xenolog");
    copies::organiser(
        &organiser,
        &["Sgt Benton", "Pte Yates", "Pte Harris", "Pte Osgood"],
        &["Dalek Kaan", "Dalek Sec"],
    );
    std::fs::copy(&organiser, &laptop).unwrap();
    Copies {
        _dir: dir,
        organiser,
        laptop,
    }
}

/// A roster battle of every fit model played to its end in the file at
/// `path`; its id.
fn peaceful_battle(path: &Path, seed: u64) -> i64 {
    copies::peaceful_battle(&mut Campaign::open(path).unwrap(), seed)
}

fn earned(path: &Path, name: &str) -> u32 {
    copies::earned(&Campaign::open_read_only(path).unwrap(), name)
}

#[test]
fn item_9_xenolog_import_counts_a_roster_battle_of_a_copy_and_says_why_not_otherwise() {
    let k = copies();
    let id = peaceful_battle(&k.laptop, 5);
    let file = k.laptop.with_extension("xenolog-battle");
    ok(&xenolog(&[
        "export",
        s(&k.laptop),
        "--battle",
        &id.to_string(),
        "--out",
        s(&file),
    ]));
    let said = ok(&xenolog(&["import", s(&k.organiser), s(&file)]));
    assert!(said.contains("imported as battle 1"), "{said}");
    assert!(said.contains("it counts for its rosters"), "{said}");
    assert_eq!(earned(&k.organiser, "Sgt Benton"), 1);
    // Again: bare, with the notice.
    let said = ok(&xenolog(&["import", s(&k.organiser), s(&file)]));
    assert!(
        said.contains("notice:") && said.contains("no experience is counted twice"),
        "{said}"
    );
    assert_eq!(earned(&k.organiser, "Sgt Benton"), 1);
}

#[test]
fn item_9_xenolog_campaign_merge_lands_both_copies_and_lists_the_conflict() {
    let k = copies();
    peaceful_battle(&k.organiser, 6);
    peaceful_battle(&k.organiser, 7);
    std::fs::copy(&k.organiser, &k.laptop).unwrap();
    let buy = |path: &Path, model: u32, skill: &str| {
        copies::buy(&mut Campaign::open(path).unwrap(), model, skill);
    };
    buy(&k.organiser, 1, "crack_shot");
    buy(&k.laptop, 1, "super_fast");
    peaceful_battle(&k.laptop, 8);
    let said = ok(&xenolog(&[
        "campaign",
        "merge",
        s(&k.organiser),
        s(&k.laptop),
    ]));
    assert!(said.contains("1 battle copied"), "{said}");
    assert!(said.contains("1 conflict set aside"), "{said}");
    assert!(
        said.contains("conflict:")
            && said.contains("Sgt Benton bought")
            && said.contains("costs 2 EP"),
        "{said}"
    );
    let log = ok(&xenolog(&["campaign", "log", s(&k.organiser)]));
    assert!(log.contains("(set aside:"), "{log}");
    assert_eq!(earned(&k.organiser, "Sgt Benton"), 3);
    // Not a copy: refused in words.
    let other = k.laptop.with_file_name("other.xenolog");
    Campaign::create(&other, "Elsewhere").unwrap();
    let o = xenolog(&["campaign", "merge", s(&k.organiser), s(&other)]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a copy of this one"),
        "{o:?}"
    );
}

#[path = "../../saves/tests/support/forge.rs"]
mod forge;

/// Issue 30 item 9: a campaign whose snapshot was altered and its hashes
/// forged to match opens without a word; `xenolog battles` (the campaign's
/// list) checks what this machine has not verified and names the first
/// entry that does not replay.
#[test]
fn item_9_xenolog_battles_names_a_forged_snapshot_of_a_campaign_from_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("from-elsewhere.xenolog");
    let id = forge::raced_campaign(&path);
    let at = forge::forge_snapshot(&path, id);
    let book = dir.path().join("trusted.json");
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_xenolog"))
            .args(["battles", s(&path)])
            .env("XENOLOG_TRUST_BOOK", &book)
            .output()
            .unwrap()
    };
    let o = run();
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "notice: battle {id} (Race): entry {at} does not replay"
        )),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("Race"));
    // A genuine campaign: quiet, and trusted from then on.
    let good = dir.path().join("good.xenolog");
    Campaign::create(&good, "Good").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["battles", s(&good)])
        .env("XENOLOG_TRUST_BOOK", &book)
        .output()
        .unwrap();
    // Quiet about trust (an empty campaign's "no battles ... yet" hint is
    // no notice).
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("notice"),
        "{o:?}"
    );
}

/// Review finding SHOULD 5 on the command line: two copies of a campaign
/// file from before migration 7, upgraded apart (each got its own uid),
/// are refused as another campaign, the refusal naming `--same-campaign`;
/// with it they merge.
#[test]
fn item_9_should_5_xenolog_campaign_merge_same_campaign_merges_copies_upgraded_apart() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/compat/2026-11-27-club/campaign.xenolog");
    let (club, laptop) = (
        dir.path().join("club.xenolog"),
        dir.path().join("laptop.xenolog"),
    );
    for p in [&club, &laptop] {
        std::fs::copy(&fixture, p).unwrap();
    }
    Campaign::open(&laptop)
        .unwrap()
        .add_model(1, "Pte Walsh", "rifleman")
        .unwrap();
    drop(Campaign::open(&club).unwrap());
    let o = xenolog(&["campaign", "merge", s(&club), s(&laptop)]);
    assert!(!o.status.success());
    let why = String::from_utf8_lossy(&o.stderr);
    assert!(
        why.contains("not a copy of this one") && why.contains("--same-campaign"),
        "{why}"
    );
    let said = ok(&xenolog(&[
        "campaign",
        "merge",
        "--same-campaign",
        s(&club),
        s(&laptop),
    ]));
    assert!(said.contains("1 entry landed"), "{said}");
    assert!(
        said.contains("merged as a copy of this campaign, as you said"),
        "{said}"
    );
    assert_eq!(earned(&club, "Pte Walsh"), 0);
}
