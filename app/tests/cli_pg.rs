//! `xenolog campaign copy FROM TO` (issue 31, `server/POSTGRES.md` §4): a
//! campaign file moved into a schema of a PostgreSQL database and back,
//! through the real `xenolog` binary; both copies verify and show the same
//! battles. The PostgreSQL half runs when `XENOLOG_TEST_PG` is set
//! (`tests/pg/cluster.sh start`); `XENOLOG_REQUIRE_PG` (CI) makes a missing
//! server a failure.

#[path = "support/cli.rs"]
mod support;
use support::{ok, stderr, xenolog};

use serde_json::json;
use xenolog_saves::db::Db;
use xenolog_saves::{Campaign, DiceMode};

/// The test server as a `postgres://` URL (XENOLOG_TEST_PG holds libpq's
/// `key=value` words), or `None` when none is set.
fn pg_url() -> Option<String> {
    let words = xenolog_saves::db::pg::test_cluster()?;
    if words.starts_with("postgres") {
        return Some(words);
    }
    let get = |k: &str| {
        words
            .split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")))
            .map(str::to_owned)
    };
    Some(format!(
        "postgres://{}@{}:{}/{}",
        get("user").unwrap_or_else(|| "postgres".into()),
        get("host").unwrap_or_else(|| "localhost".into()),
        get("port").unwrap_or_else(|| "5432".into()),
        get("dbname").unwrap_or_else(|| "postgres".into()),
    ))
}

/// A campaign file with a Dice Race some turns in and a roster.
fn campaign(path: &std::path::Path) {
    let mut c = Campaign::create(path, "Hollow Farm").unwrap();
    let id = c
        .new_battle(
            "race",
            7,
            &json!({ "target": 1_000_000 }),
            "Race",
            DiceMode::Rolled,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    for i in 0..30 {
        let legal = b.legal();
        let l = legal[(i * 5 + 1) % legal.len()].clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
    c.add_roster("Wyvern Platoon", "unit").unwrap();
}

#[test]
fn campaign_copy_moves_a_file_into_postgres_and_back_and_both_verify() {
    let Some(url) = pg_url() else { return };
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.xenolog");
    let b = dir.path().join("b.xenolog");
    campaign(&a);
    let schema = format!("cli_copy_{}", std::process::id());
    let there = format!("{url}#{schema}");
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());

    let said = ok(&xenolog(&["campaign", "copy", a_s, &there]));
    assert!(said.contains(&format!("into schema {schema} of")), "{said}");
    assert!(said.contains("1 battle,"), "{said}");
    assert!(said.contains("every battle verifies there"), "{said}");
    // The schema is taken now: a second copy there is refused in words.
    let again = xenolog(&["campaign", "copy", a_s, &there]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );

    let said = ok(&xenolog(&["campaign", "copy", &there, b_s, "--json"]));
    let v: serde_json::Value = serde_json::from_str(said.trim()).unwrap();
    assert_eq!(
        (v["battles"].as_u64(), v["verified"].as_bool()),
        (Some(1), Some(true))
    );
    let (first, back) = (
        Campaign::open_read_only(&a).unwrap(),
        Campaign::open_read_only(&b).unwrap(),
    );
    assert_eq!(back.battles().unwrap(), first.battles().unwrap());
    assert_eq!(back.uid().unwrap(), first.uid().unwrap());
    assert_eq!(back.campaign_log().unwrap(), first.campaign_log().unwrap());
    let id = first.battles().unwrap()[0].id;
    assert_eq!(
        back.load_battle(id).unwrap().records(),
        first.load_battle(id).unwrap().records()
    );
    // A file that is there is never replaced.
    let onto = xenolog(&["campaign", "copy", &there, a_s]);
    assert_eq!(onto.status.code(), Some(2));
    assert!(
        stderr(&onto).contains("already exists"),
        "{}",
        stderr(&onto)
    );
    let db = xenolog_saves::db::pg::Postgres::connect(&url).unwrap();
    db.execute_batch(&format!("DROP SCHEMA {schema} CASCADE"))
        .unwrap();
}

#[test]
fn campaign_copy_refuses_a_postgres_side_without_its_schema_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.xenolog");
    campaign(&a);
    let o = xenolog(&[
        "campaign",
        "copy",
        a.to_str().unwrap(),
        "postgres://me:secret@localhost/league",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let words = stderr(&o);
    assert!(words.contains("end it with #SCHEMA"), "{words}");
    assert!(!words.contains("secret"), "no password in words: {words}");
}
