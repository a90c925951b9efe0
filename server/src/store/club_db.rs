//! The club's own tables (tokens, invitations, grants, the campaign
//! registry, the server's battles) behind `saves`' one door to a database,
//! [`xenolog_saves::db::Db`] (issue 31, `server/POSTGRES.md` §1: "the club
//! file's tables go to a `club` schema on PostgreSQL through the same `Db`
//! trait"; the server's step P1).
//!
//! The statements are written once, in SQLite's words, and run on either
//! backend: the club file (SQLite, `club.xenolog-club`, migrated by
//! `rusqlite_migration` and marked with its application id, as before), or
//! a schema of a PostgreSQL database ([`ClubDb::open_postgres`]) made by the
//! same migrations rewritten by `saves::db::rewrite_script`, with a one-row
//! `club_version` table where SQLite keeps `user_version`.
//!
//! On PostgreSQL a statement that fails because the connection is gone
//! (the database restarted, the network cut) is [`ClubError::Unavailable`]
//! ("the database is not reachable; retrying"): nothing was changed (the
//! transaction it was in is rolled back by the server), and the next call
//! connects again.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use xenolog_saves::db::{self, Begin, Code, Db, DbError, DbExt};

use super::ClubError;

/// The club's migrations (`server/migrations/`), in order: the SQLite
/// file runs them through `rusqlite_migration`, a PostgreSQL schema
/// through [`db::rewrite_script`].
pub(crate) const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_club.sql"),
    include_str!("../../migrations/0002_battles.sql"),
    include_str!("../../migrations/0003_commands.sql"),
    include_str!("../../migrations/0004_table.sql"),
    include_str!("../../migrations/0005_entered_dice.sql"),
    include_str!("../../migrations/0006_battle_rosters.sql"),
];

/// What PostgreSQL needs after a migration that SQLite has by itself:
/// SQLite's hidden `rowid` orders a token's grants as they were given
/// (`ORDER BY rowid`); on PostgreSQL it is a column of its own.
const PG_AFTER: &[(usize, &str)] = &[(
    1,
    "ALTER TABLE grants ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY",
)];

/// Marks a SQLite file as a Xenolog club file ('XNLC'); set by migration 1.
pub const CLUB_APPLICATION_ID: i32 = 0x584E_4C43;

/// Where the club lives.
#[derive(Clone, Debug)]
enum Backend {
    Sqlite,
    Postgres {
        /// How to connect (a libpq string or a `postgres://` URL).
        url: String,
        /// The club's schema in that database.
        schema: String,
    },
}

/// The club's connection: one at a time, behind a lock, as the club file's
/// always was.
pub struct ClubDb {
    db: Mutex<Option<Box<dyn Db + Send>>>,
    /// The club file's path, or the database and schema, for the server's
    /// log (a client is told no path: [`ClubError::client_words`]).
    pub(crate) place: String,
    backend: Backend,
    /// The last statement found the connection gone: the next call makes a
    /// new one first (PostgreSQL).
    broken: AtomicBool,
}

/// The connection, held.
pub struct Held<'a> {
    guard: std::sync::MutexGuard<'a, Option<Box<dyn Db + Send>>>,
}

impl std::ops::Deref for Held<'_> {
    type Target = dyn Db + Send;
    fn deref(&self) -> &(dyn Db + Send + 'static) {
        // `lock` fills it before handing it out.
        match self.guard.as_deref() {
            Some(db) => db,
            None => unreachable!("ClubDb::lock hands out only a connection"),
        }
    }
}

impl ClubDb {
    /// Open the club file, creating and migrating it as needed. A file that
    /// is not a club file, or one from a newer Xenolog, is refused in words.
    pub fn open_sqlite(path: &Path) -> Result<ClubDb, ClubError> {
        use rusqlite::Connection;
        use rusqlite_migration::{M, Migrations};
        let file_err = |why: String| ClubError::File {
            path: path.display().to_string(),
            why,
        };
        let sql = |e: rusqlite::Error| file_err(e.to_string());
        let mut conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        // Every statement of the club goes through the cache (`Db`).
        conn.set_prepared_statement_cache_capacity(64);
        let app: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| file_err(format!("it is not a SQLite database ({e})")))?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sql)?;
        if version > 0 && app != CLUB_APPLICATION_ID {
            return Err(file_err(
                "it is a SQLite database, but not a Xenolog club file".into(),
            ));
        }
        if version > MIGRATIONS.len() as i64 {
            return Err(file_err(format!(
                "it was written by a newer Xenolog (club format {version}, this build reads up to {})",
                MIGRATIONS.len()
            )));
        }
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(sql)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(file_err(format!(
                "its folder does not support SQLite's write-ahead log (journal mode stayed '{mode}')"
            )));
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(sql)?;
        let ms: Vec<M<'static>> = MIGRATIONS.iter().map(|m| M::up(m)).collect();
        Migrations::new(ms)
            .to_latest(&mut conn)
            .map_err(|e| file_err(format!("its tables cannot be made: {e}")))?;
        Ok(ClubDb {
            db: Mutex::new(Some(Box::new(conn))),
            place: path.display().to_string(),
            backend: Backend::Sqlite,
            broken: AtomicBool::new(false),
        })
    }

    /// Open the club in schema `schema` of the PostgreSQL database at `url`
    /// (a libpq string or a `postgres://` URL), making the schema and its
    /// tables on first use, in one transaction (two servers starting at once
    /// make it once: an advisory lock on the schema's name), and bringing an
    /// older one up to this build's migrations. A schema written by a newer
    /// Xenolog is refused in words.
    pub fn open_postgres(url: &str, schema: &str) -> Result<ClubDb, ClubError> {
        let place = format!("the club database (schema {schema} of {})", redact(url));
        if !db::pg::valid_schema_name(schema) {
            return Err(ClubError::File {
                path: place,
                why: format!(
                    "'{schema}' cannot name the club's schema: use lower-case letters, digits and _ \
                     (not first a digit), at most 63, not pg_..., public or information_schema"
                ),
            });
        }
        let club = ClubDb {
            db: Mutex::new(None),
            place,
            backend: Backend::Postgres {
                url: url.to_owned(),
                schema: schema.to_owned(),
            },
            broken: AtomicBool::new(false),
        };
        // At the start the database's own words are told (a bad password,
        // an unknown role, a host not reached), not only "retrying"
        // (review3 NIT): whoever starts the server decides to try again.
        let pg = db::pg::Postgres::connect(&with_timeout(url)).map_err(|e| ClubError::File {
            path: club.place.clone(),
            why: format!("it cannot be reached: {e}"),
        })?;
        migrate_postgres(&pg, schema).map_err(|e| club.err(e))?;
        pg.execute_batch(&format!("SET search_path TO \"{schema}\""))
            .map_err(|e| club.err(e))?;
        *club.db.lock().unwrap_or_else(|p| p.into_inner()) = Some(Box::new(pg));
        Ok(club)
    }

    /// Whether this is the SQLite club file.
    pub fn is_sqlite(&self) -> bool {
        matches!(self.backend, Backend::Sqlite)
    }

    /// The PostgreSQL schema and how to reach its database, if it is there.
    pub fn postgres(&self) -> Option<(&str, &str)> {
        match &self.backend {
            Backend::Sqlite => None,
            Backend::Postgres { url, schema } => Some((url, schema)),
        }
    }

    /// The connection, held (a new one first, if the last was found gone).
    pub fn lock(&self) -> Result<Held<'_>, ClubError> {
        // A panic while holding the lock leaves the database's own state
        // whole (its transaction rolls back on drop), so the poison is not
        // a reason to stop.
        let mut guard = self.db.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() || self.broken.load(Ordering::Acquire) {
            let Backend::Postgres { url, schema } = &self.backend else {
                // SQLite's connection is never dropped.
                return Err(self.err(DbError::other("the club file is not open")));
            };
            *guard = None;
            // Under the lock: every request waits for this one attempt
            // (bounded by the connect timeout) rather than each trying.
            let pg = db::pg::Postgres::connect(&with_timeout(url)).map_err(|e| self.err(e))?;
            pg.execute_batch(&format!("SET search_path TO \"{schema}\""))
                .map_err(|e| self.err(e))?;
            *guard = Some(Box::new(pg));
            self.broken.store(false, Ordering::Release);
        }
        Ok(Held { guard })
    }

    /// A failure of the club's database in words: on PostgreSQL a lost
    /// connection is [`ClubError::Unavailable`] (and the next call connects
    /// again); anything else is the club file's (or database's) failure.
    pub fn err(&self, e: DbError) -> ClubError {
        // PostgreSQL ends a session with a FATAL error (its backend
        // terminated, the server shutting down): the connection is gone.
        let fatal = e.to_string().starts_with("FATAL");
        if !self.is_sqlite() && (fatal || matches!(e.code, Some(Code::Io | Code::CannotOpen))) {
            self.broken.store(true, Ordering::Release);
            eprintln!("serve: {}: {e}", self.place);
            return ClubError::Unavailable;
        }
        ClubError::File {
            path: self.place.clone(),
            why: e.to_string(),
        }
    }

    /// Begin a transaction that writes (SQLite `BEGIN IMMEDIATE`).
    pub fn begin<'a>(&self, db: &'a Held<'_>) -> Result<db::Tx<'a>, ClubError> {
        db::begin(&**db as &dyn Db, Begin::Immediate).map_err(|e| self.err(e))
    }
}

impl Drop for ClubDb {
    /// The PostgreSQL client blocks on a runtime of its own as it closes,
    /// which panics on a thread that drives tokio's tasks (where a server's
    /// store is let go as it stops): it is closed on a thread of its own.
    fn drop(&mut self) {
        let db = self.db.get_mut().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(db) = db
            && !self.is_sqlite()
        {
            off_runtime(move || drop(db));
        }
    }
}

/// Run `f` where it may block on a runtime of its own: here, or, on a
/// thread of a tokio runtime, on a thread of its own (waited for).
pub(crate) fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| match s.spawn(f).join() {
        Ok(t) => t,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// `url` with a connect timeout of 5 s unless it names one: a database
/// host that does not answer at all is `unavailable` after 5 s, not after
/// the system's TCP timeout (minutes), since the club's lock is held while
/// the connection is made.
fn with_timeout(url: &str) -> String {
    if url.contains("connect_timeout") {
        return url.to_owned();
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}connect_timeout=5")
    } else {
        format!("{url} connect_timeout=5")
    }
}

/// `url` with any password left out (for the server's log): the
/// password of a URL's user (`postgres://u:pw@h`), a URL's `password=`
/// parameter (with or without a user before an `@`), and a libpq string's
/// `password` however written (`password=pw`, `password = 'a b'`, with
/// escapes; review3 SHOULD 7). A libpq string that cannot be read is not
/// shown at all.
fn redact(url: &str) -> String {
    if let Some(rest) = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))
    {
        let scheme = &url[..url.len() - rest.len()];
        let (main, query) = match rest.split_once('?') {
            Some((m, q)) => (m, Some(q)),
            None => (rest, None),
        };
        let mut out = scheme.to_owned();
        match main.rsplit_once('@') {
            Some((user, host)) => {
                out.push_str(user.split(':').next().unwrap_or(""));
                out.push('@');
                out.push_str(host);
            }
            None => out.push_str(main),
        }
        if let Some(q) = query {
            out.push('?');
            let params: Vec<&str> = q
                .split('&')
                .map(|kv| {
                    let key = kv.split('=').next().unwrap_or("");
                    if key.eq_ignore_ascii_case("password") {
                        "password=..."
                    } else {
                        kv
                    }
                })
                .collect();
            out.push_str(&params.join("&"));
        }
        return out;
    }
    match libpq_pairs(url) {
        Some(pairs) => pairs
            .into_iter()
            .map(|(k, v)| {
                if k == "password" {
                    "password=...".to_owned()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
        None => "(a connection string that could not be read; not shown)".to_owned(),
    }
}

/// A libpq `key=value` string as its keys and values as written (a value
/// quoted keeps its quotes), or `None` if it cannot be read.
fn libpq_pairs(s: &str) -> Option<Vec<(&str, &str)>> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let skip = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip(&mut i);
        if i == b.len() {
            return Some(out);
        }
        let k0 = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = &s[k0..i];
        skip(&mut i);
        if key.is_empty() || i == b.len() || b[i] != b'=' {
            return None;
        }
        i += 1;
        skip(&mut i);
        let v0 = i;
        if i < b.len() && b[i] == b'\'' {
            i += 1;
            loop {
                match b.get(i) {
                    None => return None,
                    Some(b'\\') => i += 2,
                    Some(b'\'') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                }
            }
        } else {
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
        }
        let i_end = i.min(b.len());
        i = i_end;
        out.push((key, s.get(v0..i_end)?));
    }
}

/// Make or bring up to date the club's schema: in one transaction, under
/// an advisory lock on its name, the migrations not yet run (rewritten for
/// PostgreSQL), and the one-row `club_version`.
///
/// The schema's name is quoted wherever it is written into SQL: a name
/// `valid_schema_name` lets pass may be a reserved word (`user`, `order`;
/// review3 NIT), and quoting a lower-case name changes nothing else.
fn migrate_postgres(pg: &db::pg::Postgres, schema: &str) -> Result<(), DbError> {
    let tx = db::begin(pg, Begin::Immediate)?;
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext(?1))",
        &[&format!("xenolog club {schema}")],
    )?;
    // Review3 SHOULD 5: a schema that has tables but no `club_version` is
    // something else's: no club tables are added to it.
    let is_club = tx.one::<bool>(
        "SELECT to_regclass(?1) IS NOT NULL",
        &[&format!("\"{schema}\".club_version")],
    )?;
    let tables: i64 = tx.one(
        "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = ?1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')",
        &[&schema],
    )?;
    if !is_club && tables > 0 {
        return Err(DbError::other(format!(
            "schema {schema} has {tables} tables or views but is not a Xenolog club's (it has no \
             club_version): name another schema, or an empty one"
        )));
    }
    tx.execute_batch(&format!(
        "CREATE SCHEMA IF NOT EXISTS \"{schema}\"; SET LOCAL search_path TO \"{schema}\""
    ))?;
    let have: i64 = if is_club {
        tx.one("SELECT version FROM club_version", &[])?
    } else {
        tx.execute_batch("CREATE TABLE club_version (version BIGINT NOT NULL)")?;
        tx.execute("INSERT INTO club_version (version) VALUES (0)", &[])?;
        0
    };
    if have > MIGRATIONS.len() as i64 {
        return Err(DbError::other(format!(
            "it was written by a newer Xenolog (club format {have}, this build reads up to {})",
            MIGRATIONS.len()
        )));
    }
    for (i, m) in MIGRATIONS.iter().enumerate().skip(have as usize) {
        tx.execute_batch(&db::rewrite_script(m, db::Dialect::Postgres))
            .map_err(|e| DbError::other(format!("club migration {}: {e}", i + 1)))?;
        for (_, extra) in PG_AFTER.iter().filter(|(n, _)| *n == i + 1) {
            tx.execute_batch(extra)?;
        }
    }
    tx.execute(
        "UPDATE club_version SET version = ?1",
        &[&(MIGRATIONS.len() as i64)],
    )?;
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_reaches_the_log() {
        assert_eq!(
            redact("postgres://club:s3cret@db.example/league"),
            "postgres://club@db.example/league"
        );
        assert_eq!(
            redact("host=localhost user=pgtest password=s3cret dbname=x"),
            "host=localhost user=pgtest password=... dbname=x"
        );
    }

    /// Review3 SHOULD 7: every way a password can be written is hidden.
    #[test]
    fn review3_should7_a_password_never_reaches_the_log_however_written() {
        for (url, shown) in [
            (
                "postgres://u@h/db?password=s3cret",
                "postgres://u@h/db?password=...",
            ),
            (
                "postgres://h:5432/db?user=u&PassWord=s3cret&sslmode=disable",
                "postgres://h:5432/db?user=u&password=...&sslmode=disable",
            ),
            (
                "postgresql://u:s3cret@h/db?connect_timeout=5",
                "postgresql://u@h/db?connect_timeout=5",
            ),
            ("postgres://u:p@ss:s3cret@h/db", "postgres://u@h/db"),
            (
                "host=h password='a s3cret' user=u",
                "host=h password=... user=u",
            ),
            (
                "host=h password = 'it\\'s s3cret' dbname=x",
                "host=h password=... dbname=x",
            ),
            ("password=s3cret", "password=..."),
        ] {
            let r = redact(url);
            assert_eq!(r, shown, "{url}");
            assert!(!r.contains("s3cret"), "{url} -> {r}");
        }
        let r = redact("host=h password='s3cret");
        assert!(!r.contains("s3cret"), "{r}");
    }

    #[test]
    fn a_connection_string_gets_a_connect_timeout_unless_it_has_one() {
        assert_eq!(
            with_timeout("postgres://u@h/db"),
            "postgres://u@h/db?connect_timeout=5"
        );
        assert_eq!(
            with_timeout("postgres://u@h/db?sslmode=disable"),
            "postgres://u@h/db?sslmode=disable&connect_timeout=5"
        );
        assert_eq!(
            with_timeout("host=h user=u"),
            "host=h user=u connect_timeout=5"
        );
        assert_eq!(
            with_timeout("host=h connect_timeout=2"),
            "host=h connect_timeout=2"
        );
    }

    #[test]
    fn every_club_migration_rewrites_to_postgres_words() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            let pg = db::rewrite_script(m, db::Dialect::Postgres);
            let upper = pg.to_ascii_uppercase();
            for word in ["PRAGMA", " BLOB", "INTEGER", "ROWID"] {
                // Comments may still say them; statements may not.
                let code: String = upper
                    .lines()
                    .map(|l| l.split("--").next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join("\n");
                assert!(
                    !code.contains(word),
                    "migration {} keeps {word}: {pg}",
                    i + 1
                );
            }
        }
    }
}
