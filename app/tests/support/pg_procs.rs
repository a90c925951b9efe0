//! PostgreSQL for the tests of real `xenolog serve --database` processes
//! (`club_pg_procs.rs`): a database of the test's own on the test cluster
//! (`XENOLOG_TEST_PG`, `tests/pg/cluster.sh start`), dropped after; the
//! server processes on it; the tools of the cluster (`pg_dump`, `psql`).
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use xenolog_saves::db::Db;

// Also loaded by club.rs (club_pg_procs.rs loads both): the same small
// file twice in that test crate, on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "serve_log.rs"]
mod serve_log;
use serve_log::ServeLog;

/// A database of the test's own, dropped (with every connection to it)
/// when this goes.
pub struct PgDb {
    /// The cluster's connection words (`XENOLOG_TEST_PG`).
    admin: String,
    pub name: String,
    /// `postgres://USER@HOST:PORT/NAME`, as `serve --database` and
    /// `verify postgres://...#SCHEMA` take it.
    pub url: String,
}

pub use xenolog_saves::db::pg::test_cluster as test_pg;

/// A libpq `key=value` string (or a URL) as `postgres://USER@HOST:PORT/DB`.
pub fn url_of(words: &str, dbname: &str) -> String {
    if let Some(rest) = words
        .strip_prefix("postgres://")
        .or_else(|| words.strip_prefix("postgresql://"))
    {
        let base = rest.split(['/', '?']).next().unwrap_or(rest);
        return format!("postgres://{base}/{dbname}");
    }
    let get = |k: &str| {
        words
            .split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")))
            .map(str::to_owned)
    };
    format!(
        "postgres://{}@{}:{}/{dbname}",
        get("user").unwrap_or_else(|| "postgres".into()),
        get("host").unwrap_or_else(|| "localhost".into()),
        get("port").unwrap_or_else(|| "5432".into()),
    )
}

impl PgDb {
    /// A new database `t_<random>` on the test cluster; `None` without one.
    pub fn new() -> Option<PgDb> {
        let admin = test_pg()?;
        let name = format!("t_{}", &xenolog_server::client::new_cmd_id().unwrap()[..12]);
        let pg = xenolog_saves::db::pg::Postgres::connect(&admin).unwrap();
        pg.execute_batch(&format!("CREATE DATABASE {name} TEMPLATE template0"))
            .unwrap();
        let url = url_of(&admin, &name);
        Some(PgDb { admin, name, url })
    }

    /// Another database on the same cluster, dropped with this one's
    /// `Drop` of its own (a restore's target).
    pub fn sibling(&self) -> PgDb {
        let name = format!("t_{}", &xenolog_server::client::new_cmd_id().unwrap()[..12]);
        let pg = xenolog_saves::db::pg::Postgres::connect(&self.admin).unwrap();
        pg.execute_batch(&format!("CREATE DATABASE {name} TEMPLATE template0"))
            .unwrap();
        PgDb {
            admin: self.admin.clone(),
            url: url_of(&self.admin, &name),
            name,
        }
    }

    /// Run SQL in this database.
    pub fn sql(&self, text: &str) {
        let pg = xenolog_saves::db::pg::Postgres::connect(&self.url).unwrap();
        pg.execute_batch(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        if let Ok(pg) = xenolog_saves::db::pg::Postgres::connect(&self.admin) {
            let _ = pg.execute_batch(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// A PostgreSQL client tool (`pg_dump`, `pg_restore`, `psql`): on the
/// `PATH`, else in the cluster's bin folder (`/usr/lib/postgresql/N/bin`,
/// as `tests/pg/cluster.sh` finds `pg_ctl`).
pub fn tool(name: &str) -> PathBuf {
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join(name).is_file() {
                return d.join(name);
            }
        }
    }
    let mut found = None;
    if let Ok(dirs) = std::fs::read_dir("/usr/lib/postgresql") {
        for d in dirs.flatten() {
            let p = d.path().join("bin").join(name);
            if p.is_file() {
                found = Some(p);
            }
        }
    }
    found.unwrap_or_else(|| panic!("{name} not found (apt-get install postgresql-client)"))
}

/// A running `xenolog serve --database URL`, killed when dropped (its
/// standard error shown then if the test is failing).
pub struct ServeDb {
    pub child: Child,
    /// `ws://127.0.0.1:PORT/v1/ws`, as it printed it.
    pub url: String,
    /// The organiser's invitation (the first process on a new database),
    /// else empty.
    pub code: String,
    /// What it wrote to its standard error.
    pub log: ServeLog,
}

impl Drop for ServeDb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.log
            .show_if_failing(&format!("xenolog serve --database at {}", self.url));
    }
}

impl ServeDb {
    /// Start `xenolog serve --database DB --listen 127.0.0.1:0` and read
    /// what it prints: where it listens and the organiser's invitation, if
    /// it made one (a club with no organiser yet: none redeemed).
    pub fn start(db: &str) -> ServeDb {
        let (log, stderr) = ServeLog::new();
        let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
            .args(["serve", "--database", db, "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("xenolog serve starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (mut url, mut code) = (None, None);
        loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap() == 0 {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "serve --database ended before saying where it listens; its standard error:\n{}",
                    log.tail()
                );
            }
            // The last line it prints when it is ready.
            if line.starts_with("stop with Ctrl-C") {
                break;
            }
            if let Some(u) = line.trim().strip_prefix("listening on ") {
                url = Some(u.to_owned());
            }
            if let Some(c) = line
                .trim()
                .strip_prefix("organiser invitation (shown once, valid 7 days): ")
            {
                code = Some(c.to_owned());
            }
        }
        std::thread::spawn(move || for _ in stdout.lines().map_while(Result::ok) {});
        ServeDb {
            child,
            url: url.unwrap_or_default(),
            code: code.unwrap_or_default(),
            log,
        }
    }

    /// `HOST:PORT`
    pub fn host(&self) -> String {
        self.url
            .trim_start_matches("ws://")
            .trim_end_matches("/v1/ws")
            .to_owned()
    }
}

/// The nonce `club join` kept in the club folder `who` for seat `seat`
/// (from 0) of `battle`.
pub fn nonce_of(who: &Path, battle: &str, seat: u8) -> String {
    let end = format!("-b{battle}-s{seat}");
    for f in std::fs::read_dir(who).unwrap().flatten() {
        let name = f.file_name().to_string_lossy().into_owned();
        if name.starts_with("nonce-") && name.ends_with(&end) {
            return std::fs::read_to_string(f.path()).unwrap().trim().to_owned();
        }
    }
    panic!(
        "no nonce of battle {battle} seat {seat} in {}",
        who.display()
    );
}

/// The first battle of campaign `n` as stored: its line, chains, whether
/// it verifies and its revealed secret.
pub struct Stored {
    pub ids: Vec<u64>,
    pub chains: Vec<xenolog_engine::record::Hash16>,
    pub verified: bool,
    pub secret: Option<xenolog_engine::fair::Bytes32>,
}

pub fn stored_line(url: &str, n: i64) -> Stored {
    let c = xenolog_saves::Campaign::open_postgres(url, &format!("campaign_{n}")).unwrap();
    let id = c.battles().unwrap()[0].id;
    let loaded = c.load_battle(id).unwrap();
    Stored {
        ids: loaded.path_to(loaded.cursor()),
        chains: loaded.records().iter().map(|r| r.chain).collect(),
        verified: c.verify_battle(id).unwrap().problem.is_none(),
        secret: c.fair_secret(id).unwrap(),
    }
}
