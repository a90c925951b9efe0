//! Figures for `server/POSTGRES.md` (Status, P2): the same campaign work
//! timed on a campaign file (SQLite) and on a campaign schema of PostgreSQL.
//! It was the ignored test `numbers_on_both_backends` of
//! `saves/tests/backends.rs` until session 18.
//!
//! ```text
//! eval "$(tests/pg/cluster.sh start)"     # sets XENOLOG_TEST_PG
//! cargo run --release -p xenolog-saves --example backends_numbers
//! ```
//!
//! Without `XENOLOG_TEST_PG` only the SQLite row is measured. For each
//! backend: 1,000 commands played one by one (a commit each), a
//! 100,000-entry battle stored whole (`insert_battle_bulk`), that battle
//! opened again (`load_battle`, the streamed scan), and the campaign copied
//! into a new file (`copy_campaign`); wall clock, one run.

#[path = "../tests/support/race.rs"]
mod race;

use std::time::Instant;

use xenolog_saves::db::Db;
use xenolog_saves::db::pg::Postgres;
use xenolog_saves::{Campaign, DiceMode};

use race::{long_race, new_endless_race, play_n};

/// How to open the campaign measured, again.
enum Where {
    File(std::path::PathBuf),
    Postgres { url: String, schema: String },
}

impl Where {
    fn open(&self) -> Campaign {
        match self {
            Where::File(p) => Campaign::open(p).unwrap(),
            Where::Postgres { url, schema } => Campaign::open_postgres(url, schema).unwrap(),
        }
    }
}

fn main() {
    let n = 100_000;
    let session = long_race(n);
    let dir = tempfile::tempdir().unwrap();
    let mut places = vec![("sqlite", Where::File(dir.path().join("numbers.xenolog")))];
    match std::env::var("XENOLOG_TEST_PG") {
        Ok(url) if !url.is_empty() => {
            let schema = format!("numbers_{}", std::process::id());
            places.push(("postgres", Where::Postgres { url, schema }));
        }
        _ => eprintln!("XENOLOG_TEST_PG is not set: SQLite only (tests/pg/cluster.sh start)"),
    }
    for (which, at) in &places {
        let mut c = match at {
            Where::File(p) => Campaign::create(p, "Numbers").unwrap(),
            Where::Postgres { url, schema } => {
                Campaign::create_postgres(url, schema, "Numbers").unwrap()
            }
        };
        let race = new_endless_race(&mut c, 3);
        let mut b = c.load_battle(race).unwrap();
        let t = Instant::now();
        play_n(&mut c, race, &mut *b, 1_000);
        let play = t.elapsed();
        let t = Instant::now();
        let id = c
            .insert_battle_bulk(&session, "Long", DiceMode::Rolled)
            .unwrap();
        let bulk = t.elapsed();
        drop(c);
        let c = at.open();
        let t = Instant::now();
        let b = c.load_battle(id).unwrap();
        let open = t.elapsed();
        assert_eq!(b.records().len(), n);
        let mut to = Campaign::create(&dir.path().join(format!("to-{which}.xenolog")), "").unwrap();
        let t = Instant::now();
        let copied = xenolog_saves::copy_campaign(&c, &mut to).unwrap();
        let copy = t.elapsed();
        println!(
            "{which}: 1,000 plays (a commit each) {:.1} ms each; {n}-entry battle stored in {:.2} s, \
             opened in {:.2} s; copy of the campaign ({} rows) into a file {:.2} s",
            play.as_secs_f64(),
            bulk.as_secs_f64(),
            open.as_secs_f64(),
            copied.rows(),
            copy.as_secs_f64()
        );
        drop(c);
        if let Where::Postgres { url, schema } = at
            && let Ok(db) = Postgres::connect(url)
        {
            let _ = db.execute_batch(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
        }
    }
}
