//! The PostgreSQL backend of [`Db`] (issue 31, `server/POSTGRES.md` step P2),
//! over the synchronous `postgres` crate (rust-postgres 0.19); and [`Pipe`],
//! a connection on the asynchronous driver under it (`tokio_postgres`)
//! whose statements are sent in rounds (the club server's committer,
//! `pgbatch.rs`, issue 31 session 23).
//!
//! The statements of `saves` are written once, in SQLite's words; this
//! backend turns each into PostgreSQL's with the rewriter of P1
//! ([`rewrite`], [`rewrite_script`]) and keeps the prepared statement in a
//! cache keyed by the statement as written, so a statement is rewritten and
//! prepared once per connection.
//!
//! - Parameters are bound by the type the server inferred for each `$N`
//!   (an integer into `BIGINT`, `INTEGER` or `SMALLINT`, checked for range;
//!   a real into `DOUBLE PRECISION`; text; bytes into `BYTEA`); a
//!   parameter of the wrong kind is refused in words, never coerced.
//! - Cells come back as the same [`Value`]s SQLite gives: integers of every
//!   width, `BOOLEAN` as 0 or 1 (the campaign schema stores booleans as
//!   `BIGINT`, as SQLite stores them as integers), `NUMERIC` (what `SUM` of
//!   a `BIGINT` is) as an integer when whole, reals, text and bytes.
//! - Transactions and savepoints are plain SQL (`BEGIN`, `SAVEPOINT`,
//!   `ROLLBACK TO SAVEPOINT`, `RELEASE SAVEPOINT`): [`Tx`](super::Tx) and
//!   [`Savepoint`](super::Savepoint) work unchanged; whether a transaction
//!   is open is followed from the statements that open and end one.
//! - [`Db::insert_id`] is the `INSERT ... RETURNING id` of [`returning_id`];
//!   [`Db::table_exists`] asks `to_regclass` (so it follows `search_path`:
//!   a campaign's schema, [`create_campaign_schema`]).
//! - Every failure is a [`DbError`] in PostgreSQL's own words (the
//!   message, and its detail when it has one); a connection that cannot be
//!   made or is lost says so. Nothing panics.
//!
//! A campaign lives in a schema of its own ([`create_campaign`],
//! [`open_campaign`]; `Campaign::create_postgres` and
//! `Campaign::open_postgres` in `campaign.rs`), held as
//! [`Conn::Postgres`](super::Conn): the same campaign code as a file.

use std::cell::{Cell as Flag, RefCell};
use std::collections::HashMap;
use std::error::Error as _;
use std::future::Future;
use std::pin::Pin;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, NoTls, Statement};

use super::{
    CellRef, Code, Db, DbError, Dialect, Param, Params, Row, RowInner, Stmt, Value, returning_id,
    rewrite, rewrite_script,
};

/// The migrations of `schema/migrations`, in order: what
/// [`create_campaign_schema`] runs (rewritten) in a new schema. The SQLite
/// side reads the same files through `xenolog_schema::migrations()`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../schema/migrations/0001_campaign.sql"),
    include_str!("../../../schema/migrations/0002_battle_origin.sql"),
    include_str!("../../../schema/migrations/0003_strict_battles.sql"),
    include_str!("../../../schema/migrations/0004_notes.sql"),
    include_str!("../../../schema/migrations/0005_campaign.sql"),
    include_str!("../../../schema/migrations/0006_fair_seeds.sql"),
    include_str!("../../../schema/migrations/0007_copies.sql"),
    // A block (about 56 KB) is TOASTed: kept out of line but not compressed
    // (hashes do not compress, and the reader then skips a pglz pass).
    concat!(
        include_str!("../../../schema/migrations/0008_entry_blocks.sql"),
        "\nALTER TABLE entry_blocks ALTER COLUMN block SET STORAGE EXTERNAL;\n"
    ),
    include_str!("../../../schema/migrations/0009_kinds.sql"),
];

/// The head check's lock of a battle's row inside an append (issue 31,
/// `server/POSTGRES.md` §2): PostgreSQL only (SQLite's `BEGIN IMMEDIATE`
/// locks the whole file).
pub(crate) const LOCK_BATTLE: &str = "SELECT id FROM battles WHERE id = ?1 FOR UPDATE";

/// A notification sent with a transaction, delivered when it commits.
pub(crate) const NOTIFY: &str = "SELECT pg_notify(?1, ?2)";

/// This connection's server process (its backend's pid).
/// Each statement prepared on the session and how often it was planned,
/// generic and custom.
const PLANS: &str = "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements";

pub(crate) const BACKEND_PID: &str = "SELECT pg_backend_pid()::bigint";

/// A connection to a PostgreSQL server, as a [`Db`].
///
/// **A lost connection is made again in place** (session 18): a statement
/// that finds the connection gone (the server restarted, the backend was
/// terminated, the network cut) returns its error ([`Code::Lost`]) as
/// before, and the next statement connects again with the same connection
/// string, the same schema ([`use_schema`]) and the same read-only setting
/// ([`Postgres::read_only`]), so the campaign holding it stays usable. No
/// statement is retried: whether it ran is the caller's to find out (a
/// command is resent with its command id). A connection lost inside a
/// transaction is not made again until that transaction ends: its other
/// statements are refused (`Lost`), its `ROLLBACK` succeeds (the server
/// dropped it with the connection), so nothing of it is written and nothing
/// after it runs outside it.
pub struct Postgres {
    client: RefCell<Client>,
    /// Prepared statements by the statement as written (SQLite's words).
    cache: RefCell<HashMap<String, Statement>>,
    /// Whether a `BEGIN` is open (followed from the statements run).
    in_tx: Flag<bool>,
    /// Whether a statement failed inside the open transaction and no
    /// `ROLLBACK TO` a savepoint has undone it since: PostgreSQL has then
    /// aborted the transaction, and its `COMMIT` would answer `ROLLBACK`
    /// without an error (review3 SHOULD 2), so [`Db::execute_batch`]
    /// refuses that `COMMIT` in words instead.
    aborted: Flag<bool>,
    /// The connection string, to connect again when the connection is
    /// lost (never shown: it may hold a password).
    params: String,
    /// The schema `search_path` was set to ([`use_schema`]).
    schema: RefCell<Option<String>>,
    /// Whether every transaction of this session is read-only.
    read_only: Flag<bool>,
    /// Whether the connection was lost: the next statement connects again
    /// (outside a transaction).
    lost: Flag<bool>,
    /// Round trips to the server so far (statements run, scripts, and
    /// statements prepared): what a batch costs (issue 31 P5).
    trips: Flag<u64>,
    /// Statements prepared on the session by SQL `PREPARE` (what a script
    /// runs by `EXECUTE`, planned once: [`Postgres::prepared_in_scripts`]),
    /// by their text: their names. Emptied when the connection is made
    /// again (a new session has none).
    scripted: RefCell<HashMap<String, String>>,
    /// Names given so far by `scripted`, never given twice.
    named: Flag<u64>,
}

impl Postgres {
    /// Connect with a libpq-style string (`host=... port=... user=...
    /// dbname=...`) or a `postgres://` URL. No TLS (a club server talks to
    /// its database on the same machine or a private network).
    pub fn connect(params: &str) -> Result<Postgres, DbError> {
        let client = Client::connect(params, NoTls).map_err(|e| DbError {
            code: Some(Code::CannotOpen),
            text: format!("connecting to PostgreSQL failed: {}", words(&e)),
            on: Dialect::Postgres,
        })?;
        Ok(Postgres {
            client: RefCell::new(client),
            cache: RefCell::new(HashMap::new()),
            in_tx: Flag::new(false),
            aborted: Flag::new(false),
            params: params.to_owned(),
            schema: RefCell::new(None),
            read_only: Flag::new(false),
            lost: Flag::new(false),
            trips: Flag::new(0),
            scripted: RefCell::new(HashMap::new()),
            named: Flag::new(0),
        })
    }

    /// The name of statement `text` (PostgreSQL's words, its parameters
    /// typed in `types`, e.g. `bigint[]`) prepared on the session by SQL
    /// `PREPARE`, so that a script (one round trip, no parameters) runs it
    /// by `EXECUTE name(...)` and PostgreSQL plans it once, not at every
    /// call as it plans a script's statement (issue 31, session 22: the
    /// committer's lock). Prepared now, in a round trip of its own, if it
    /// is not yet; a prepared statement outlives a transaction rolled
    /// back, and is gone with the session (the names are forgotten when
    /// the connection is made again).
    pub fn prepared_in_scripts(&self, text: &str, types: &str) -> Result<String, DbError> {
        if let Some(name) = self.scripted.borrow().get(text) {
            return Ok(name.clone());
        }
        let n = self.named.get();
        self.named.set(n + 1);
        let name = format!("xenolog_s{n}");
        self.execute_batch(&format!("PREPARE {name} ({types}) AS {text}"))?;
        self.scripted
            .borrow_mut()
            .insert(text.to_owned(), name.clone());
        Ok(name)
    }

    /// Round trips to the server made on this connection so far: each
    /// statement run, each script ([`Db::execute_batch`]: `BEGIN`,
    /// `COMMIT`, a savepoint) and each statement prepared (once per
    /// connection). What the tests of a batch count (issue 31 P5).
    pub fn round_trips(&self) -> u64 {
        self.trips.get()
    }

    fn trip(&self) {
        self.trips.set(self.trips.get() + 1);
    }

    /// Make every transaction of this session read-only
    /// (`default_transaction_read_only`): a write is refused by the server
    /// (`25006`, [`Code::ReadOnly`]) and changes nothing. Kept when the
    /// connection is made again. A campaign opened with
    /// `Campaign::open_postgres_read_only` refuses writes itself first
    /// ([`SaveError::ReadOnly`](crate::SaveError::ReadOnly)); this is the
    /// database's guard behind it.
    pub fn read_only(&self) -> Result<(), DbError> {
        self.execute_batch("SET default_transaction_read_only = on")?;
        self.read_only.set(true);
        Ok(())
    }

    /// The client, unless a scan ([`Postgres::scan`]) is reading from it:
    /// then a statement from inside the scan's reader is refused in words
    /// (never a panic). A connection that was lost is made again first
    /// (outside a transaction; inside one, refused: see the type's docs).
    fn client(&self) -> Result<std::cell::RefMut<'_, Client>, DbError> {
        if self.lost.get() {
            self.reconnect()?;
        }
        self.client.try_borrow_mut().map_err(|_| {
            DbError::other(
                "the PostgreSQL connection is in the middle of reading a battle's entries: \
                 a statement cannot run on it until the scan ends",
            )
        })
    }

    /// Connect again after the connection was lost, with the session as it
    /// was (schema, read-only).
    fn reconnect(&self) -> Result<(), DbError> {
        let lost = |text: String| DbError {
            code: Some(Code::Lost),
            text,
            on: Dialect::Postgres,
        };
        if self.in_tx.get() {
            return Err(lost(
                "the connection to PostgreSQL was lost in the middle of a transaction, which \
                 the server rolled back: nothing of it was written"
                    .into(),
            ));
        }
        let client = Client::connect(&self.params, NoTls).map_err(|e| {
            lost(format!(
                "the connection to PostgreSQL was lost, and connecting again failed: {}",
                words(&e)
            ))
        })?;
        let mut setup = String::new();
        if let Some(schema) = self.schema.borrow().as_deref() {
            setup.push_str(&format!("SET search_path TO {schema}; "));
        }
        if self.read_only.get() {
            setup.push_str("SET default_transaction_read_only = on");
        }
        let mut client = client;
        if !setup.is_empty() {
            client.batch_execute(&setup).map_err(fail)?;
        }
        let mut slot = self.client.try_borrow_mut().map_err(|_| {
            DbError::other("the PostgreSQL connection is in use: it cannot be made again now")
        })?;
        *slot = client;
        // The statements were prepared on the connection that is gone.
        self.cache.borrow_mut().clear();
        self.scripted.borrow_mut().clear();
        self.aborted.set(false);
        self.lost.set(false);
        Ok(())
    }

    /// The statement `sql` (SQLite's words) prepared in PostgreSQL's, from
    /// the cache; `None` for a statement with no PostgreSQL form (a PRAGMA).
    fn prepared(&self, sql: &str) -> Result<Option<Statement>, DbError> {
        if let Some(s) = self.cache.borrow().get(sql) {
            return Ok(Some(s.clone()));
        }
        let Some(text) = rewrite(sql, Dialect::Postgres) else {
            return Ok(None);
        };
        self.trip();
        let stmt = self.client()?.prepare(&text).map_err(|e| self.failed(e))?;
        self.cache.borrow_mut().insert(sql.to_owned(), stmt.clone());
        Ok(Some(stmt))
    }

    /// Run `text`, a statement in PostgreSQL's own words (`$N`, arrays,
    /// casts: never rewritten), with parameters of the driver's own types
    /// (arrays for `unnest`), prepared once per connection; every row.
    /// For the PostgreSQL-only paths (`pgbatch.rs`: a batch in a few
    /// statements).
    pub(crate) fn query_pg(
        &self,
        text: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, DbError> {
        let key = format!("\u{0}pg\u{0}{text}");
        let cached = self.cache.borrow().get(&key).cloned();
        let stmt = match cached {
            Some(s) => s,
            None => {
                self.trip();
                let stmt = self.client()?.prepare(text).map_err(|e| self.failed(e))?;
                self.cache.borrow_mut().insert(key, stmt.clone());
                stmt
            }
        };
        self.trip();
        self.client()?
            .query(&stmt, params)
            .map_err(|e| self.failed(e))
    }

    /// How often the server planned each statement prepared on this
    /// session, generic and custom (`pg_prepared_statements`: the text,
    /// generic plans, custom plans; a round trip).
    pub fn plans(&self) -> Result<Vec<(String, i64, i64)>, DbError> {
        let mut out = Vec::new();
        self.query_each(PLANS, &[], &mut |r| {
            out.push((r.get::<String>(0)?, r.get::<i64>(1)?, r.get::<i64>(2)?));
            Ok(true)
        })?;
        Ok(out)
    }

    fn run(&self, stmt: &Statement, params: Params<'_>) -> Result<usize, DbError> {
        let binds = binds(stmt, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = binds.iter().map(|b| b as _).collect();
        self.trip();
        let n = self
            .client()?
            .execute(stmt, &refs)
            .map_err(|e| self.failed(e))?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// Every row of a query, as the server sent them. The rows are read
    /// whole before the first is handed on, so a reader may run statements
    /// of its own ([`Postgres::scan`] streams instead).
    fn rows(&self, stmt: &Statement, params: Params<'_>) -> Result<Vec<postgres::Row>, DbError> {
        let binds = binds(stmt, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = binds.iter().map(|b| b as _).collect();
        self.trip();
        self.client()?
            .query(stmt, &refs)
            .map_err(|e| self.failed(e))
    }

    /// The first cell of the first row, owned (`None`: no row).
    fn first(&self, stmt: &Statement, params: Params<'_>) -> Result<Option<Value>, DbError> {
        let rows = self.rows(stmt, params)?;
        rows.first().map(|r| value(r, 0)).transpose()
    }

    /// A long scan (a battle's entries), streamed: the rows are read from
    /// the socket as `f` takes them (`query_raw`; the driver's channel holds
    /// one message at a time), never the whole result in memory at once.
    /// `f` must not run statements on this connection (refused in words).
    pub(crate) fn scan<E: From<DbError>>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let stmt = self
            .prepared(sql)?
            .ok_or_else(|| DbError::other(format!("PostgreSQL has no form of: {sql}")))?;
        let binds = binds(&stmt, params)?;
        self.trip();
        let mut client = self.client()?;
        let mut rows = client
            .query_raw(&stmt, binds.iter())
            .map_err(|e| self.failed(e))?;
        while let Some(r) = rows.next().map_err(|e| self.failed(e))? {
            f(&Row {
                inner: RowInner::Postgres(&r),
            })?;
        }
        Ok(())
    }

    /// End the session, reporting a failure.
    pub fn close(self) -> Result<(), DbError> {
        self.client.into_inner().close().map_err(fail)
    }

    /// A failure of the server, remembered when it aborted the open
    /// transaction (any failed statement inside one does).
    fn failed(&self, e: postgres::Error) -> DbError {
        if self.in_tx.get() {
            self.aborted.set(true);
        }
        let e = fail(e);
        if e.code == Some(Code::Lost) {
            self.lost.set(true);
        }
        e
    }

    /// Follow whether a transaction is open from a script that was run.
    fn follow(&self, sql: &str) {
        let w = sql.trim_start().to_ascii_uppercase();
        if w.starts_with("BEGIN") || w.starts_with("START TRANSACTION") {
            self.in_tx.set(true);
            self.aborted.set(false);
        } else if w.starts_with("COMMIT")
            || w.starts_with("END")
            || (w.starts_with("ROLLBACK") && !w.starts_with("ROLLBACK TO"))
        {
            self.in_tx.set(false);
            self.aborted.set(false);
        } else if w.starts_with("ROLLBACK TO") {
            // Back to a savepoint made before the failure: the
            // transaction goes on.
            self.aborted.set(false);
        }
    }
}

/// The committer's connection on `tokio_postgres` (issue 31, session 23),
/// driven by a current-thread runtime of its own (the committer is a
/// thread of its own in the server): the statements of a round are sent
/// together and answered in order (the driver pipelines the requests whose
/// futures are polled together), each prepared once (binary parameters, a
/// generic plan: `plan_cache_mode`).
pub(crate) struct Pipe {
    rt: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
    /// The statements prepared, by campaign (schema) and text, and the
    /// commit that last used each campaign's: at most
    /// `Committer::keep_statements_of` (pgbatch.rs) campaigns' are kept.
    kept: HashMap<String, Kept>,
    /// Commits made, to order `kept` by use.
    tick: u64,
}

/// One campaign's statements prepared on the pipe.
#[derive(Default)]
struct Kept {
    used: u64,
    by_text: HashMap<String, tokio_postgres::Statement>,
}

/// A statement's rows, or how it failed.
pub(crate) type Answer = Result<Vec<tokio_postgres::Row>, tokio_postgres::Error>;

/// A statement of a round, sent when the round is polled.
pub(crate) type Request<'a> = Pin<Box<dyn Future<Output = Answer> + 'a>>;

impl Pipe {
    /// Connect; `Err`: why not, in words.
    pub(crate) fn connect(url: &str) -> Result<Pipe, String> {
        let cannot = |why: String| format!("connecting to PostgreSQL failed: {why}");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| cannot(format!("no runtime for the connection: {e}")))?;
        let config: tokio_postgres::Config = url.parse().map_err(|e| cannot(words(&e)))?;
        let (client, connection) = rt
            .block_on(config.connect(tokio_postgres::NoTls))
            .map_err(|e| cannot(words(&e)))?;
        // Driven while a round is waited for (`block_on`); its end (the
        // connection lost) is seen by the statements that fail with it.
        rt.spawn(connection);
        Ok(Pipe {
            rt,
            client,
            kept: HashMap::new(),
            tick: 0,
        })
    }

    /// Every request's answer, in order: the requests sent together, in
    /// one round trip.
    pub(crate) fn round(&self, requests: Vec<Request<'_>>) -> Vec<Answer> {
        self.rt.block_on(futures_util::future::join_all(requests))
    }

    /// `schemas` used by the commit at hand; the statements of the least
    /// recently used campaigns past `keep` closed (dropped: the driver
    /// closes each on the server with the next round), never those of
    /// `schemas`.
    pub(crate) fn touch(&mut self, schemas: &[&str], keep: usize) {
        self.tick += 1;
        for s in schemas {
            self.kept.entry((*s).to_owned()).or_default().used = self.tick;
        }
        while self.kept.len() > keep {
            let tick = self.tick;
            let Some(oldest) = self
                .kept
                .iter()
                .filter(|(_, k)| k.used != tick)
                .min_by_key(|(_, k)| k.used)
                .map(|(s, _)| s.clone())
            else {
                break;
            };
            self.kept.remove(&oldest);
        }
    }

    /// The statements `wanted` (campaign, text), those not prepared yet
    /// prepared together in one round (counted in `trips`); the first
    /// failure.
    pub(crate) fn prepared(
        &mut self,
        wanted: &[(&str, String)],
        trips: &Flag<u64>,
    ) -> Result<Vec<tokio_postgres::Statement>, tokio_postgres::Error> {
        let mut missing: Vec<(&str, &str)> = Vec::new();
        for (s, t) in wanted {
            let have = self.kept.get(*s).is_some_and(|k| k.by_text.contains_key(t));
            if !have && !missing.contains(&(*s, t.as_str())) {
                missing.push((*s, t));
            }
        }
        if !missing.is_empty() {
            trips.set(trips.get() + 1);
            let client = &self.client;
            let answers = self.rt.block_on(futures_util::future::join_all(
                missing.iter().map(|(_, t)| client.prepare(t)),
            ));
            for ((s, t), a) in missing.iter().zip(answers) {
                let st = a?;
                self.kept
                    .entry((*s).to_owned())
                    .or_default()
                    .by_text
                    .insert((*t).to_owned(), st);
            }
        }
        Ok(wanted
            .iter()
            .filter_map(|(s, t)| self.kept.get(*s).and_then(|k| k.by_text.get(t)).cloned())
            .collect())
    }
    /// Statement `st` with `params`, as a request of a round.
    pub(crate) fn query<'a>(
        &'a self,
        st: &'a tokio_postgres::Statement,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> Request<'a> {
        Box::pin(self.client.query(st, params))
    }

    /// A script (the simple protocol: no parameters, no rows kept), as a
    /// request of a round.
    pub(crate) fn script<'a>(&'a self, text: &'a str) -> Request<'a> {
        Box::pin(async move { self.client.batch_execute(text).await.map(|()| Vec::new()) })
    }

    /// A script run now, alone (a round trip).
    pub(crate) fn script_now(&self, text: &str) -> Result<(), postgres::Error> {
        self.rt.block_on(self.client.batch_execute(text))
    }

    /// One statement with no parameters run now, unprepared (a round
    /// trip): every row.
    pub(crate) fn one(&self, text: &str) -> Answer {
        self.rt.block_on(self.client.query(text, &[]))
    }

    /// How often the server planned each statement prepared on this
    /// session (`pg_prepared_statements`: the text, generic plans, custom
    /// plans; a round trip).
    pub(crate) fn plans(&self) -> Answer {
        self.one(PLANS)
    }
}

impl Db for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError> {
        match self.prepared(sql)? {
            Some(stmt) => self.run(&stmt, params),
            None => Ok(0),
        }
    }

    fn execute_batch(&self, sql: &str) -> Result<(), DbError> {
        let text = rewrite_script(sql, Dialect::Postgres);
        let w = text.trim_start().to_ascii_uppercase();
        if self.lost.get()
            && self.in_tx.get()
            && w.starts_with("ROLLBACK")
            && !w.starts_with("ROLLBACK TO")
        {
            // The server rolled the transaction back when the connection
            // went: it is over, and the next statement connects again.
            self.in_tx.set(false);
            self.aborted.set(false);
            return Ok(());
        }
        if self.aborted.get() && (w.starts_with("COMMIT") || w.starts_with("END")) {
            // PostgreSQL would answer this COMMIT with ROLLBACK and no
            // error: say it, and end the transaction as it ends it (a lost
            // connection's transaction is gone already).
            if !self.lost.get() {
                let _ = self.client()?.batch_execute("ROLLBACK");
            }
            self.in_tx.set(false);
            self.aborted.set(false);
            return Err(DbError::other(
                "a statement of this transaction failed before its commit, so PostgreSQL \
                 rolled all of it back: nothing of it was written",
            ));
        }
        self.trip();
        let done = self.client()?.batch_execute(&text);
        match done {
            Ok(()) => {
                self.follow(&text);
                Ok(())
            }
            // A failed COMMIT ends the transaction either way. Answered
            // with an error, PostgreSQL rolled it back; but when the
            // connection was lost during the COMMIT its outcome is unknown
            // (the commit may have landed before the answer was lost): the
            // caller settles it by what it wrote, e.g. a command resent with
            // its command id (review4 N8). A failed BEGIN opened none.
            Err(e) => {
                let w = text.trim_start().to_ascii_uppercase();
                if w.starts_with("COMMIT") {
                    self.in_tx.set(false);
                }
                Err(self.failed(e))
            }
        }
    }

    fn statement<'a>(&'a self, sql: &str) -> Result<Box<dyn Stmt + 'a>, DbError> {
        Ok(Box::new(PgStmt {
            db: self,
            stmt: self.prepared(sql)?,
        }))
    }

    fn query_each(
        &self,
        sql: &str,
        params: Params<'_>,
        f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let Some(stmt) = self.prepared(sql)? else {
            return Err(DbError::other(format!(
                "PostgreSQL has no form of the statement: {sql}"
            )));
        };
        for r in self.rows(&stmt, params)? {
            if !f(&Row {
                inner: RowInner::Postgres(&r),
            })? {
                break;
            }
        }
        Ok(())
    }

    fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError> {
        let key = returning_id(sql);
        let Some(stmt) = self.prepared(&key)? else {
            return Err(DbError::other(format!("not an INSERT: {sql}")));
        };
        match self.first(&stmt, params)? {
            Some(Value::Integer(id)) => Ok(id),
            _ => Err(DbError {
                code: Some(Code::NoRows),
                text: format!("the INSERT returned no id: {sql}"),
                on: Dialect::Postgres,
            }),
        }
    }

    fn table_exists(&self, name: &str) -> Result<bool, DbError> {
        let stmt = self
            .prepared("SELECT to_regclass(?1) IS NOT NULL")?
            .ok_or_else(|| DbError::other("no form of the table_exists query"))?;
        Ok(matches!(
            self.first(&stmt, &[&name])?,
            Some(Value::Integer(1))
        ))
    }

    fn in_transaction(&self) -> bool {
        self.in_tx.get()
    }
}

struct PgStmt<'a> {
    db: &'a Postgres,
    stmt: Option<Statement>,
}

impl Stmt for PgStmt<'_> {
    fn execute(&mut self, params: Params<'_>) -> Result<usize, DbError> {
        match &self.stmt {
            Some(s) => self.db.run(s, params),
            None => Ok(0),
        }
    }
}

/// The test cluster's connection words (`XENOLOG_TEST_PG`, as
/// `tests/pg/cluster.sh start` sets it), or `None`: the PostgreSQL part of
/// a test is skipped, said on stderr. Where `XENOLOG_REQUIRE_PG` is set (CI)
/// a missing cluster fails instead. What every crate's PostgreSQL tests
/// start from.
pub fn test_cluster() -> Option<String> {
    match std::env::var("XENOLOG_TEST_PG") {
        Ok(u) if !u.trim().is_empty() => Some(u),
        _ => {
            assert!(
                std::env::var_os("XENOLOG_REQUIRE_PG").is_none(),
                "XENOLOG_REQUIRE_PG is set but XENOLOG_TEST_PG is not: the test cluster \
                 did not start (tests/pg/cluster.sh start)"
            );
            eprintln!(
                "XENOLOG_TEST_PG is not set: the PostgreSQL part is skipped \
                 (tests/pg/cluster.sh start)"
            );
            None
        }
    }
}

/// `url` naming database `name` instead: a `postgres://` URL's path
/// replaced (its query kept), a libpq string's `dbname=` dropped and
/// `dbname=name` added. What a test or the load example uses to reach a
/// database of its own on a cluster it was given the words of.
pub fn with_dbname(url: &str, name: &str) -> String {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let (head, query) = match url.split_once('?') {
            Some((h, q)) => (h, format!("?{q}")),
            None => (url, String::new()),
        };
        let after_scheme = head.find("://").map_or(0, |i| i + 3);
        let base = match head[after_scheme..].find('/') {
            Some(i) => &head[..after_scheme + i],
            None => head,
        };
        return format!("{base}/{name}{query}");
    }
    let mut parts: Vec<String> = url
        .split_whitespace()
        .filter(|p| !p.starts_with("dbname="))
        .map(str::to_owned)
        .collect();
    parts.push(format!("dbname={name}"));
    parts.join(" ")
}

// ---------------------------------------------------------------------------
// Campaign schemas

/// Whether `name` may name a campaign's schema: a lower-case SQL
/// identifier (letters, digits, `_`, not starting with a digit, at most 63
/// bytes), never one of PostgreSQL's own (`pg_*`, `information_schema`).
pub fn valid_schema_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && (b[0].is_ascii_lowercase() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
        && !name.starts_with("pg_")
        && name != "information_schema"
        && name != "public"
}

/// Make a campaign's schema: `CREATE SCHEMA name`, then, with `search_path`
/// set to it, every migration of `schema/migrations` in PostgreSQL's words
/// and a one-row `schema_version` table holding the number of migrations
/// run (SQLite keeps it in `user_version`). All in one transaction: the
/// schema is made whole or not at all. The connection's `search_path` is
/// left at the new schema, so what follows on it works in the campaign.
pub fn create_campaign_schema(db: &Postgres, name: &str) -> Result<(), DbError> {
    create_campaign_schema_at(db, name, MIGRATIONS.len(), &|_| Ok(()))
}

/// [`create_campaign_schema`] with only the first `version` migrations (an
/// older Xenolog's campaign, for testing upgrades), and `then` run in the
/// same transaction (the campaign's own row: a schema is never seen
/// without it).
pub fn create_campaign_schema_at(
    db: &Postgres,
    name: &str,
    version: usize,
    then: &dyn Fn(&dyn Db) -> Result<(), DbError>,
) -> Result<(), DbError> {
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema: use lower-case letters, digits and _ \
             (not first a digit), at most 63, not pg_..., public or information_schema"
        )));
    }
    if MIGRATIONS.len() != xenolog_schema::SCHEMA_VERSION as usize {
        return Err(DbError::other(format!(
            "this build knows {} migrations for PostgreSQL but the schema is at version {}",
            MIGRATIONS.len(),
            xenolog_schema::SCHEMA_VERSION
        )));
    }
    let version = version.clamp(1, MIGRATIONS.len());
    let tx = super::begin(db, super::Begin::Immediate)?;
    tx.execute_batch(&format!(
        "CREATE SCHEMA {name}; SET LOCAL search_path TO {name}"
    ))?;
    for m in &MIGRATIONS[..version] {
        tx.execute_batch(m)?;
    }
    tx.execute_batch(&format!(
        "CREATE TABLE schema_version (version INTEGER NOT NULL); \
         INSERT INTO schema_version (version) VALUES ({version})"
    ))?;
    then(&tx)?;
    tx.commit()?;
    use_schema(db, name)
}

/// What a schema of the database is, for opening it as a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    /// There is no schema of that name.
    Missing,
    /// A schema, but not a Xenolog campaign: why, in words.
    Foreign(String),
    /// A campaign at this schema version (its `schema_version` row).
    Campaign(i64),
}

/// Identify schema `name` by its one-row `schema_version` table (and its
/// `campaign` table), reading only.
pub fn identify_schema(db: &Postgres, name: &str) -> Result<SchemaKind, DbError> {
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema"
        )));
    }
    let there = |what: &str| -> Result<bool, DbError> {
        let stmt = db
            .prepared("SELECT to_regclass(?1) IS NOT NULL")?
            .ok_or_else(|| DbError::other("no form of the to_regclass query"))?;
        Ok(matches!(
            db.first(&stmt, &[&format!("{name}.{what}")])?,
            Some(Value::Integer(1))
        ))
    };
    let stmt = db
        .prepared("SELECT COUNT(*) FROM pg_namespace WHERE nspname = ?1")?
        .ok_or_else(|| DbError::other("no form of the schema query"))?;
    if !matches!(db.first(&stmt, &[&name])?, Some(Value::Integer(n)) if n > 0) {
        return Ok(SchemaKind::Missing);
    }
    if !there("schema_version")? || !there("campaign")? {
        return Ok(SchemaKind::Foreign(
            "it is a schema of the database, but not a Xenolog campaign (it has no \
             schema_version and campaign tables)"
                .into(),
        ));
    }
    let rows = db.rows(
        &db.prepared(&format!("SELECT version FROM {name}.schema_version"))?
            .ok_or_else(|| DbError::other("no form of the version query"))?,
        &[],
    )?;
    match rows.as_slice() {
        [one] => match value(one, 0)? {
            Value::Integer(v) => Ok(SchemaKind::Campaign(v)),
            v => Ok(SchemaKind::Foreign(format!(
                "its schema_version holds {v:?}, not a number"
            ))),
        },
        more => Ok(SchemaKind::Foreign(format!(
            "its schema_version table holds {} rows, not one",
            more.len()
        ))),
    }
}

/// Bring campaign schema `name` to this build's version: the migrations
/// after its `schema_version`, rewritten, in one transaction (the version
/// row locked first, so two processes upgrading at once run them once),
/// then the identity columns caught up (a migration that rebuilds a table
/// copies its ids) and the statement cache dropped (statements planned
/// against the old tables). Returns the version it was at. A newer schema
/// is refused in words and left as it is.
pub fn upgrade_campaign_schema(db: &Postgres, name: &str) -> Result<i64, DbError> {
    let target = MIGRATIONS.len() as i64;
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema"
        )));
    }
    let tx = super::begin(db, super::Begin::Immediate)?;
    tx.execute_batch(&format!("SET LOCAL search_path TO {name}"))?;
    let from: i64 = super::DbExt::one(&tx, "SELECT version FROM schema_version FOR UPDATE", &[])?;
    if from > target {
        return Err(DbError::other(format!(
            "campaign schema {name} is at version {from}, newer than this build's {target}"
        )));
    }
    if from < 1 {
        return Err(DbError::other(format!(
            "campaign schema {name} records version {from}: damaged"
        )));
    }
    if from < target {
        for m in &MIGRATIONS[from as usize..] {
            tx.execute_batch(m)?;
        }
        tx.execute("UPDATE schema_version SET version = ?1", &[&target])?;
        catch_up_identities(db)?;
    }
    tx.commit()?;
    use_schema(db, name)?;
    Ok(from)
}

/// Make the table of command ids (`batch::COMMANDS_TABLE`) in the
/// connection's campaign schema if it is not there (issue 31 P5): a
/// campaign made by this build has it from its creation, one made before
/// gets it at its first writable open, so no batch makes it. The schema's
/// version row is locked first: two processes opening an old campaign at
/// once make it once (two `CREATE TABLE IF NOT EXISTS` at once collide in
/// PostgreSQL's catalog). One statement when it is there.
pub(crate) fn ensure_command_ids_table(db: &Postgres) -> Result<(), DbError> {
    if db.table_exists("club_commands")? {
        return Ok(());
    }
    let tx = super::begin(db, super::Begin::Immediate)?;
    tx.execute_batch("SELECT version FROM schema_version FOR UPDATE")?;
    if !tx.table_exists("club_commands")? {
        tx.execute_batch(crate::batch::COMMANDS_TABLE)?;
    }
    tx.commit()
}

/// Point the connection at a campaign's schema (`search_path`).
pub fn use_schema(db: &Postgres, name: &str) -> Result<(), DbError> {
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema"
        )));
    }
    // The cached statements were planned against the old path.
    db.cache.borrow_mut().clear();
    db.execute_batch(&format!("SET search_path TO {name}"))?;
    *db.schema.borrow_mut() = Some(name.to_owned());
    Ok(())
}

/// Bring every identity column of the connection's schema up to its table:
/// after rows were written with ids of their own (an import, a merge keeping
/// the log's numbers, a copy), the next id the database chooses follows
/// them, as SQLite's rowid does by itself. Returns how many identity columns
/// there are.
///
/// **Never back** (session 18): each sequence is set to the greater of its
/// table's largest id and the sequence's own last value
/// (`pg_sequence_last_value`), so ids already handed out (an insert of
/// another connection that took its id and has not committed, or a row
/// since deleted) are never handed out again. The tables are first locked
/// `SHARE ROW EXCLUSIVE` until the transaction ends (the caller's, or one
/// of its own when none is open): an insert of another connection into
/// them waits, so no id can be taken between the largest id read and the
/// sequence set (`nextval` alone takes no table lock, but every insert
/// does, and an id is only ever used by an insert). Two catch-ups at once
/// take turns (the mode conflicts with itself).
pub fn catch_up_identities(db: &Postgres) -> Result<usize, DbError> {
    let cols = db.query_names(
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
         FROM information_schema.columns \
         WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY 1, 2",
    )?;
    if cols.is_empty() {
        return Ok(0);
    }
    let own = if db.in_transaction() {
        None
    } else {
        Some(super::begin(db, super::Begin::Immediate)?)
    };
    let mut tables: Vec<String> = cols.iter().map(|(t, _)| quoted(t)).collect();
    tables.dedup();
    db.execute_batch(&format!(
        "LOCK TABLE {} IN SHARE ROW EXCLUSIVE MODE",
        tables.join(", ")
    ))?;
    for (table, col) in &cols {
        let (t, c) = (quoted(table), quoted(col));
        let seq = format!(
            "pg_get_serial_sequence('{}', '{}')::regclass",
            t.replace('\'', "''"),
            col.replace('\'', "''"),
        );
        // m: the last id taken, by the table or by the sequence; 0 when
        // neither has one (the sequence then starts at 1 again).
        db.execute_batch(&format!(
            "SELECT setval(s, GREATEST(m, 1), m > 0) FROM (SELECT {seq} AS s, \
             GREATEST(COALESCE((SELECT MAX({c}) FROM {t}), 0), \
             COALESCE(pg_sequence_last_value({seq}), 0)) AS m) AS x"
        ))?;
    }
    if let Some(tx) = own {
        tx.commit()?;
    }
    Ok(cols.len())
}

/// The bytes table `name` of the connection's schema takes on disk, its
/// indexes and TOAST included (0 when there is no such table).
pub fn table_bytes(db: &Postgres, name: &str) -> Result<u64, DbError> {
    let stmt = db
        .prepared("SELECT pg_total_relation_size(to_regclass(?1))")?
        .ok_or_else(|| DbError::other("no form of the size query"))?;
    Ok(match db.first(&stmt, &[&name])? {
        Some(Value::Integer(n)) => n.max(0) as u64,
        _ => 0,
    })
}

/// An identifier in double quotes (a quote inside doubled).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl Postgres {
    /// The rows of a query of two text columns.
    fn query_names(&self, sql: &str) -> Result<Vec<(String, String)>, DbError> {
        let stmt = self
            .prepared(sql)?
            .ok_or_else(|| DbError::other(format!("no PostgreSQL form: {sql}")))?;
        let mut out = Vec::new();
        for r in self.rows(&stmt, &[])? {
            if let (Value::Text(a), Value::Text(b)) = (value(&r, 0)?, value(&r, 1)?) {
                out.push((a, b));
            }
        }
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Parameters and cells

/// A parameter bound by the type the server gave its `$N`.
#[derive(Debug)]
struct Bind<'a>(Param<'a>);

fn binds<'p>(stmt: &Statement, params: Params<'p>) -> Result<Vec<Bind<'p>>, DbError> {
    let want = stmt.params().len();
    if params.len() != want {
        return Err(DbError::other(format!(
            "the statement takes {want} parameters but was given {}",
            params.len()
        )));
    }
    let binds: Vec<Bind<'p>> = params.iter().map(|p| Bind(p.to_param())).collect();
    for (i, (b, ty)) in binds.iter().zip(stmt.params()).enumerate() {
        fits(&b.0, ty).map_err(|why| DbError::other(format!("parameter {}: {why}", i + 1)))?;
    }
    Ok(binds)
}

/// Whether a parameter can be bound to a `$N` of type `ty`, in words if not.
fn fits(p: &Param<'_>, ty: &Type) -> Result<(), String> {
    let ok = match p {
        Param::Null => true,
        Param::Integer(n) => match *ty {
            Type::INT8 | Type::FLOAT8 | Type::NUMERIC | Type::BOOL => true,
            Type::INT4 => i32::try_from(*n).is_ok(),
            Type::INT2 => i16::try_from(*n).is_ok(),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => true,
            _ => false,
        },
        Param::Real(_) => matches!(*ty, Type::FLOAT8 | Type::FLOAT4),
        Param::Text(_) => matches!(
            *ty,
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN
        ),
        Param::Blob(_) => *ty == Type::BYTEA,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} does not go into a column of type {ty}",
            kind(p)
        ))
    }
}

fn kind(p: &Param<'_>) -> &'static str {
    match p {
        Param::Null => "NULL",
        Param::Integer(_) => "an integer",
        Param::Real(_) => "a real",
        Param::Text(_) => "text",
        Param::Blob(_) => "bytes",
    }
}

impl ToSql for Bind<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self.0 {
            Param::Null => Ok(IsNull::Yes),
            Param::Integer(n) => match *ty {
                Type::INT8 => n.to_sql(ty, out),
                Type::INT4 => i32::try_from(n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(n)?.to_sql(ty, out),
                Type::FLOAT8 => (n as f64).to_sql(ty, out),
                Type::BOOL => (n != 0).to_sql(ty, out),
                Type::NUMERIC => numeric(n, out),
                _ => n.to_string().as_str().to_sql(ty, out),
            },
            Param::Real(x) => match *ty {
                Type::FLOAT4 => (x as f32).to_sql(ty, out),
                _ => x.to_sql(ty, out),
            },
            Param::Text(s) => s.to_sql(ty, out),
            Param::Blob(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        // Checked before binding, with words (`fits`).
        true
    }

    to_sql_checked!();
}

/// An integer in PostgreSQL's binary `NUMERIC` form (base 10000 digits).
fn numeric(
    n: i64,
    out: &mut postgres::types::private::BytesMut,
) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
    let mut digits = Vec::new();
    let mut m = n.unsigned_abs();
    while m > 0 {
        digits.push((m % 10_000) as i16);
        m /= 10_000;
    }
    digits.reverse();
    let weight = digits.len() as i16 - 1;
    let mut b = Vec::with_capacity(8 + 2 * digits.len());
    b.extend_from_slice(&(digits.len() as i16).to_be_bytes());
    b.extend_from_slice(&weight.max(0).to_be_bytes());
    b.extend_from_slice(&(if n < 0 { 0x4000u16 } else { 0 }).to_be_bytes());
    b.extend_from_slice(&0u16.to_be_bytes());
    for d in digits {
        b.extend_from_slice(&d.to_be_bytes());
    }
    out.extend_from_slice(&b);
    Ok(IsNull::No)
}

/// A cell of any type, as the server sent it (binary), read by [`cell`].
struct Raw<'a>(Option<&'a [u8]>);

impl<'a> postgres::types::FromSql<'a> for Raw<'a> {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(Some(raw)))
    }
    fn from_sql_null(_: &Type) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(None))
    }
    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Cell `i` of a row as SQLite would give it, borrowed where it is text
/// or bytes (nothing copied): integers of every width, `BOOLEAN` as 0 or 1,
/// `NUMERIC` as an integer when whole, reals, text, bytes.
fn value_ref(r: &postgres::Row, i: usize) -> Result<CellRef<'_>, DbError> {
    let Some(col) = r.columns().get(i) else {
        return Err(no_column(r, i));
    };
    let ty = col.type_();
    let Raw(raw) = r.try_get::<_, Raw<'_>>(i).map_err(fail)?;
    let Some(raw) = raw else {
        return Ok(CellRef::Null);
    };
    let bad = || {
        DbError::other(format!(
            "column {i} ({}) of type {ty} could not be read",
            col.name()
        ))
    };
    let int = |n: usize| -> Result<i64, DbError> {
        if raw.len() != n {
            return Err(bad());
        }
        let mut b = [if raw[0] & 0x80 != 0 { 0xff } else { 0 }; 8];
        b[8 - n..].copy_from_slice(raw);
        Ok(i64::from_be_bytes(b))
    };
    Ok(match *ty {
        Type::INT8 => CellRef::Integer(int(8)?),
        Type::INT4 | Type::OID => CellRef::Integer(int(4)?),
        Type::INT2 => CellRef::Integer(int(2)?),
        Type::BOOL => CellRef::Integer(i64::from(raw.first().copied().ok_or_else(bad)? != 0)),
        Type::FLOAT8 => CellRef::Real(f64::from_be_bytes(raw.try_into().map_err(|_| bad())?)),
        Type::FLOAT4 => CellRef::Real(f64::from(f32::from_be_bytes(
            raw.try_into().map_err(|_| bad())?,
        ))),
        Type::BYTEA => CellRef::Blob(raw),
        Type::NUMERIC => match read_numeric(raw).ok_or_else(bad)? {
            Value::Integer(n) => CellRef::Integer(n),
            Value::Real(x) => CellRef::Real(x),
            _ => return Err(bad()),
        },
        _ => CellRef::Text(std::str::from_utf8(raw).map_err(|_| bad())?),
    })
}

/// PostgreSQL's binary `NUMERIC`: an integer when whole and in range (what
/// `SUM` of integers gives), else a real.
fn read_numeric(raw: &[u8]) -> Option<Value> {
    let h = |k: usize| -> Option<u16> {
        Some(u16::from_be_bytes(
            raw.get(2 * k..2 * k + 2)?.try_into().ok()?,
        ))
    };
    let ndigits = h(0)? as usize;
    let weight = h(1)? as i16;
    let sign = h(2)?;
    if sign == 0xC000 {
        return Some(Value::Real(f64::NAN));
    }
    let mut whole: i128 = 0;
    let mut real = 0f64;
    let mut fraction = false;
    for k in 0..ndigits {
        let d = h(4 + k)? as i128;
        let power = weight as i32 - k as i32;
        real += d as f64 * 10_000f64.powi(power);
        if power >= 0 {
            whole = whole.checked_add(d.checked_mul(10_000i128.checked_pow(power as u32)?)?)?;
        } else if d != 0 {
            fraction = true;
        }
    }
    let neg = sign == 0x4000;
    if !fraction && let Ok(n) = i64::try_from(if neg { -whole } else { whole }) {
        return Some(Value::Integer(n));
    }
    Some(Value::Real(if neg { -real } else { real }))
}

/// PostgreSQL's words for a failure: the server's message (and detail), or
/// the client's (a connection refused, lost).
fn words(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return match db.detail() {
            Some(d) => format!("{}: {} ({d})", db.severity(), db.message()),
            None => format!("{}: {}", db.severity(), db.message()),
        };
    }
    match e.source() {
        Some(s) => format!("{e}: {s}"),
        None => e.to_string(),
    }
}

/// A failure of the driver (either client: the committer's pipelined one
/// too, pgbatch.rs) as a [`DbError`] in PostgreSQL's words.
pub(crate) fn fail(e: postgres::Error) -> DbError {
    use postgres::error::SqlState as S;
    let code = match e.code() {
        Some(c) if *c == S::DISK_FULL => Some(Code::DiskFull),
        Some(c) if *c == S::LOCK_NOT_AVAILABLE => Some(Code::Busy),
        Some(c) if *c == S::T_R_SERIALIZATION_FAILURE || *c == S::T_R_DEADLOCK_DETECTED => {
            Some(Code::Serialization)
        }
        // A row under a key taken, or a schema of a name taken.
        Some(c) if *c == S::UNIQUE_VIOLATION || *c == S::DUPLICATE_SCHEMA => Some(Code::Unique),
        Some(c) if *c == S::READ_ONLY_SQL_TRANSACTION => Some(Code::ReadOnly),
        Some(c) if *c == S::INSUFFICIENT_PRIVILEGE => Some(Code::PermissionDenied),
        Some(c) if *c == S::DATA_CORRUPTED || *c == S::INDEX_CORRUPTED => Some(Code::Corrupt),
        Some(c) if *c == S::IO_ERROR => Some(Code::Io),
        // The server shut down or crashed under the connection, or it
        // cannot take one now (starting, stopping), or the connection
        // failed, or the server ended a session left idle (in a
        // transaction, 25P03: a stopped process; or out of one, 57P05):
        // lost, not the disk (issue 31, a reconnect may succeed; an ended
        // transaction wrote nothing).
        Some(c)
            if c.code().starts_with("08")
                || *c == S::ADMIN_SHUTDOWN
                || *c == S::CRASH_SHUTDOWN
                || *c == S::CANNOT_CONNECT_NOW
                || *c == S::IDLE_IN_TRANSACTION_SESSION_TIMEOUT
                || *c == S::IDLE_SESSION_TIMEOUT =>
        {
            Some(Code::Lost)
        }
        _ if e.is_closed() => Some(Code::Lost),
        // The socket failed under the client (the server's end reset it:
        // a backend that was ended before the statement was sent answers
        // "Connection reset by peer", its goodbye discarded with the
        // reset): lost as well. Only a socket's kinds: a statement or
        // value the client cannot encode carries an I/O error too
        // (`InvalidInput`), and is refused as itself (review10 NIT 2).
        _ if std::error::Error::source(&e)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .is_some_and(|io| {
                use std::io::ErrorKind as K;
                matches!(
                    io.kind(),
                    K::ConnectionReset
                        | K::ConnectionAborted
                        | K::BrokenPipe
                        | K::UnexpectedEof
                        | K::NotConnected
                        | K::TimedOut
                )
            }) =>
        {
            Some(Code::Lost)
        }
        _ => None,
    };
    DbError {
        code,
        text: words(&e),
        on: Dialect::Postgres,
    }
}

// ---------------------------------------------------------------------------
// A row's cells, for `Row` (db.rs)

/// Cell `i` as `T` ([`Cell::from_cell`](super::Cell::from_cell)); a cell
/// of another type is refused in PostgreSQL's terms: the column, its name
/// and type, what it holds and what was wanted (never `rusqlite`'s words).
pub(super) fn get<T: super::Cell>(r: &postgres::Row, i: usize) -> Result<T, DbError> {
    let v = value_ref(r, i)?;
    T::from_cell(v).map_err(|wanted| {
        let col = &r.columns()[i];
        DbError {
            code: None,
            text: format!(
                "column {i} ({}, of PostgreSQL type {}) holds {} where {wanted} was wanted",
                col.name(),
                col.type_(),
                v.words()
            ),
            on: Dialect::Postgres,
        }
    })
}

/// Cell `i` as bytes, borrowed, `None` when it is not bytes.
pub(super) fn blob(r: &postgres::Row, i: usize) -> Result<Option<&[u8]>, DbError> {
    Ok(match value_ref(r, i)? {
        CellRef::Blob(b) => Some(b),
        _ => None,
    })
}

/// Cell `i`, owned.
pub(super) fn value(r: &postgres::Row, i: usize) -> Result<Value, DbError> {
    Ok(match value_ref(r, i)? {
        CellRef::Null => Value::Null,
        CellRef::Integer(n) => Value::Integer(n),
        CellRef::Real(x) => Value::Real(x),
        CellRef::Text(t) => Value::Text(t.to_owned()),
        CellRef::Blob(b) => Value::Blob(b.to_vec()),
    })
}

fn no_column(r: &postgres::Row, i: usize) -> DbError {
    DbError::other(format!(
        "Invalid column index: {i} (the row has {})",
        r.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::with_dbname;

    #[test]
    fn with_dbname_replaces_a_urls_path_and_keeps_its_query() {
        assert_eq!(
            with_dbname("postgres://u@h:5/old?connect_timeout=2", "t_1"),
            "postgres://u@h:5/t_1?connect_timeout=2"
        );
        assert_eq!(
            with_dbname("postgresql://u@h:5", "t_1"),
            "postgresql://u@h:5/t_1"
        );
    }

    #[test]
    fn with_dbname_replaces_a_libpq_dbname_or_adds_one() {
        assert_eq!(
            with_dbname("host=h dbname=postgres  user=u", "t_1"),
            "host=h user=u dbname=t_1"
        );
        assert_eq!(
            with_dbname("host=h port=5", "t_1"),
            "host=h port=5 dbname=t_1"
        );
    }
}
